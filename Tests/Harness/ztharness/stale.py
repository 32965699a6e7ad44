"""What a killed test run leaves behind, found by the test process that owned it being gone.

`harness.py up` marks what it starts with the PID of the test process that asked for it: the
namespaces' names (zth-<pid>-<hex>, ztd-<pid>-<hex>) and its processes' environment
(ZTHARNESS_OWNER_PID). A killed `swift test` never runs `down`, so each `up` first sweeps what
belongs to owners that have ended. Names without an owner (older runs) are never touched, and a
live owner's runs are left alone, so parallel test runs on one machine do not disturb each other.
"""

import os
import signal
import subprocess

OWNER_VARIABLE = "ZTHARNESS_OWNER_PID"
NAMESPACE_PREFIXES = ("zth-", "ztd-")
NETNS_DIR = "/run/netns"


def owner_pid() -> int:
    """The test process this run belongs to: the one named in the environment, else `up`'s parent."""
    named = os.environ.get(OWNER_VARIABLE, "")
    return int(named) if named.isdigit() else os.getppid()


def is_alive(pid: int) -> bool:
    """True while `pid` runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def namespace_owner(namespace: str) -> int | None:
    """The owner PID a harness namespace's name carries, or None for any other name."""
    for prefix in NAMESPACE_PREFIXES:
        if namespace.startswith(prefix):
            head = namespace[len(prefix):].split("-", 1)[0]
            return int(head) if head.isdigit() and "-" in namespace[len(prefix):] else None
    return None


def process_owner(pid: int) -> int | None:
    """The owner PID in a process's environment, or None."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            variables = handle.read().split(b"\0")
    except OSError:
        return None
    prefix = f"{OWNER_VARIABLE}=".encode()
    for variable in variables:
        if variable.startswith(prefix) and variable[len(prefix):].isdigit():
            return int(variable[len(prefix):])
    return None


def sweep(alive=is_alive) -> list[str]:
    """Kills the processes and deletes the namespaces of owners that have ended; returns what went."""
    removed = []
    own = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == own:
            continue
        owner = process_owner(int(entry))
        if owner is not None and not alive(owner) and alive(int(entry)):
            try:
                os.kill(int(entry), signal.SIGKILL)
                removed.append(f"process {entry} of ended owner {owner}")
            except (ProcessLookupError, PermissionError):
                pass
    namespaces = sorted(os.listdir(NETNS_DIR)) if os.path.isdir(NETNS_DIR) else []
    for namespace in namespaces:
        owner = namespace_owner(namespace)
        if owner is None or alive(owner):
            continue
        pids = subprocess.run(["ip", "netns", "pids", namespace], capture_output=True, text=True, check=False)
        for pid in pids.stdout.split():
            try:
                os.kill(int(pid), signal.SIGKILL)
            except (ProcessLookupError, PermissionError, ValueError):
                pass
        deleted = subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, check=False)
        if deleted.returncode == 0:
            removed.append(f"netns {namespace} of ended owner {owner}")
    return removed
