"""Harness processes: started in their own session, recorded in state.json at once, stopped by PID.

Every record holds the PID and the process start time from /proc, so `down` never signals a PID
that has since been reused by someone else. The state file is rewritten after every start, which is
what lets `down` clean up after an `up` that crashed half-way.
"""

import json
import os
import signal
import subprocess
import time

STATE_NAME = "state.json"
LOG_DIR = "logs"


class StartupError(RuntimeError):
    """A harness component did not come up."""


def state_path(run_dir: str) -> str:
    return os.path.join(run_dir, STATE_NAME)


def save_state(state: dict) -> None:
    path = state_path(state["run_dir"])
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(state, handle, indent=1)
    os.replace(temporary, path)


def load_state(run_dir: str) -> dict | None:
    try:
        with open(state_path(run_dir), encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return None


def log_path(run_dir: str, name: str) -> str:
    return os.path.join(run_dir, LOG_DIR, f"{name}.log")


def start_time(pid: int) -> int | None:
    """Field 22 of /proc/<pid>/stat (clock ticks since boot), None if the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    if fields[0] == "Z":
        return None
    return int(fields[19])


def spawn(state: dict, name: str, argv: list[str], run_dir: str, env: dict | None = None,
          stdout=None) -> subprocess.Popen:
    """Starts argv in a new session with stderr (and stdout unless given) in logs/<name>.log."""
    os.makedirs(os.path.join(run_dir, LOG_DIR), exist_ok=True)
    with open(log_path(run_dir, name), "ab") as log:
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout or log, stderr=log,
                                   env=env, start_new_session=True, close_fds=True)
    state["pids"][name] = {"pid": process.pid, "start_time": start_time(process.pid), "argv": argv}
    save_state(state)
    return process


def is_running(entry: dict) -> bool:
    started = start_time(entry["pid"])
    return started is not None and started == entry["start_time"]


def require_alive(state: dict, name: str, run_dir: str) -> None:
    if not is_running(state["pids"][name]):
        raise StartupError(f"{name} exited during start-up:\n{tail(log_path(run_dir, name))}")


def tail(path: str, lines: int = 20) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return "".join(handle.readlines()[-lines:])
    except FileNotFoundError:
        return "(no log)"


def stop(entry: dict, grace_s: float = 2.0) -> bool:
    """TERM, then KILL after grace_s; True if the recorded process was running."""
    if not is_running(entry):
        return False
    for sig, wait_s in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 1.0)):
        try:
            os.kill(entry["pid"], sig)
        except ProcessLookupError:
            return True
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            _reap(entry["pid"])
            if not is_running(entry):
                return True
            time.sleep(0.01)
    return True


def _reap(pid: int) -> None:
    """Collects the exit status when the process is our own child (during `up`)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass
