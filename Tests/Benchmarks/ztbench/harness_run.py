"""The harness (Tests/Harness/harness.py) for a benchmark, and timed runs of the real ztprov in it.

A run is started with `ip netns exec` when it needs the host namespace; `ip` execs ztprov in the same
process, so the rusage that wait4 returns (CPU time, ru_maxrss) is ztprov's own. Each stdout line is
stamped when it arrives: the tool writes JSON events unbuffered, so the stamps time its steps.
"""

import dataclasses
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

PYTHON = "/usr/bin/python3"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HARNESS = os.path.join(REPO, "Tests", "Harness", "harness.py")


@dataclasses.dataclass
class ToolRun:
    """One finished ztprov process."""

    status: int
    wall_s: float
    cpu_s: float
    max_rss_kib: int
    events: list  # (seconds since start, decoded JSON line)
    stderr: str
    started_at: float = 0.0  # wall clock (time.time()), to find the run in the bus record

    @property
    def result(self) -> dict:
        return next((e for _, e in reversed(self.events) if e.get("event") == "result"), {})

    def at(self, name: str) -> float | None:
        """When the first event `name` arrived, in seconds since start."""
        return next((t for t, e in self.events if e.get("event") == name), None)


class Harness:
    """One `harness.py up`; use as a context manager so `down` always runs."""

    def __init__(self, scenario: dict, netns: bool = True, bus_record: bool = True):
        self.run_dir = tempfile.mkdtemp(prefix="ztb-", dir="/tmp")  # short: the bus socket path
        self.scenario = scenario
        self.netns = netns
        self.records_bus = bus_record
        self.topology = {}

    def __enter__(self) -> "Harness":
        options = (["--scenario-json", json.dumps(self.scenario)] + ([] if self.netns else ["--no-netns"])
                   + ([] if self.records_bus else ["--no-bus-record"]))
        began = time.monotonic()
        self.topology = self._command("up", options)
        self.up_s = time.monotonic() - began
        return self

    def __exit__(self, *_exc) -> None:
        self._command("down")
        shutil.rmtree(self.run_dir, ignore_errors=True)

    def _command(self, name: str, options: list | None = None):
        done = subprocess.run([PYTHON, HARNESS, name, "--run-dir", self.run_dir] + (options or []),
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"harness {name} failed: {done.stdout}{done.stderr}")
        return json.loads(done.stdout)

    def received(self, source: str | None = None) -> list:
        return self._command("received", ["--source", source] if source else [])

    def calls(self, mock: str) -> dict:
        return self._command("calls", ["--mock", mock])

    def bus_record(self, since: float, until: float) -> list[dict]:
        """The bus recorder's messages (time = wall clock) within [since, until]."""
        with open(os.path.join(self.run_dir, "bus.jsonl"), encoding="utf-8") as handle:
            entries = [json.loads(line) for line in handle if line.strip()]
        return [e for e in entries if since <= e["time"] <= until]

    def device_host_record(self) -> list[dict]:
        path = os.path.join(self.run_dir, "device_host.jsonl")
        with open(path, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]

    def run(self, argv: list[str], env: dict, in_host_netns: bool, timeout_s: float = 120) -> ToolRun:
        """Runs ztprov to completion against this harness."""
        prefix = ["ip", "netns", "exec", self.topology["host_netns"]] if in_host_netns else []
        environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                       "DBUS_SYSTEM_BUS_ADDRESS": self.topology["bus_address"], **env}
        return run_timed(prefix + argv, environment, timeout_s)


def run_timed(argv: list[str], env: dict, timeout_s: float) -> ToolRun:
    """Runs argv, stamping stdout lines; returns wall time and the child's rusage."""
    started_at = time.time()
    began = time.monotonic()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    events, buffers, errors = [], {process.stdout: b"", process.stderr: b""}, []
    streams = [process.stdout, process.stderr]
    while streams:
        if time.monotonic() - began > timeout_s:
            process.kill()
        ready, _, _ = select.select(streams, [], [], 1.0)
        for stream in ready:
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                streams.remove(stream)
                continue
            if stream is process.stderr:
                errors.append(chunk)
                continue
            buffers[stream] += chunk
            *lines, buffers[stream] = buffers[stream].split(b"\n")
            stamp = time.monotonic() - began
            events += [(stamp, json.loads(line)) for line in lines if line.startswith(b"{")]
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    return ToolRun(status=process.returncode, wall_s=wall, cpu_s=usage.ru_utime + usage.ru_stime,
                   max_rss_kib=usage.ru_maxrss, events=events, stderr=b"".join(errors).decode(errors="replace"),
                   started_at=started_at)
