"""The peak resident memory of ztprov itself, and where it is at exit.

`ru_maxrss` of a child started from Python never reads below the Python process's own resident set:
Linux carries the high-water mark across `exec` (and the benchmark, with the harness client loaded, is
bigger than ztprov). So a small preloaded library (`peak_rss_probe.c`, built here with `cc`) copies
`/proc/self/status` and `/proc/self/smaps` as ztprov exits; VmHWM is the peak, and smaps says which
files' pages and how much anonymous memory are resident at that point.
"""

import collections
import glob
import os
import re
import subprocess
import tempfile

from . import ble_bench
from .harness_run import Harness, run_timed
from .stats import median

PROBE_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peak_rss_probe.c")
MAPPING = re.compile(r"^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$")


class Probe:
    """The built probe and the directory it writes to; use as a context manager."""

    def __enter__(self) -> "Probe":
        self.directory = tempfile.mkdtemp(prefix="ztb-rss-", dir="/tmp")
        self.library = os.path.join(self.directory, "probe.so")
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", self.library, PROBE_SOURCE], check=True)
        return self

    def __exit__(self, *_exc) -> None:
        subprocess.run(["rm", "-rf", self.directory], check=False)

    @property
    def env(self) -> dict:
        return {"LD_PRELOAD": self.library, "ZTBENCH_PEAK_RSS_DIR": self.directory}

    def reading(self, pid_files_before: set) -> dict:
        """The peak (KiB) and the resident KiB per mapping name of the one run since `pid_files_before`."""
        (status_path,) = set(glob.glob(os.path.join(self.directory, "*.status"))) - pid_files_before
        with open(status_path, encoding="utf-8") as handle:
            peak = int(re.search(r"VmHWM:\s+(\d+)", handle.read()).group(1))
        resident, name = collections.Counter(), None
        with open(status_path[: -len(".status")] + ".smaps", encoding="utf-8") as handle:
            for line in handle:
                mapping = MAPPING.match(line)
                if mapping:
                    name = os.path.basename(mapping.group(1).strip()) or "anonymous"
                elif line.startswith("Rss:"):
                    resident[name] += int(line.split()[1])
        return {"peak_kib": peak, "resident_kib": resident}

    def statuses(self) -> set:
        return set(glob.glob(os.path.join(self.directory, "*.status")))


def measure(ztprov: str, runs: int) -> dict:
    """Median peaks of `--help` and of one `ble` provisioning (15 ms ATT latency, MTU 185)."""
    with Probe() as probe:
        help_runs = []
        for _ in range(runs):
            before = probe.statuses()
            run_timed([ztprov, "--help"], {"PATH": os.environ.get("PATH", ""), **probe.env}, 30)
            help_runs.append(probe.reading(before))
        ble_runs = []
        with Harness(ble_bench.scenario(15, 185), netns=False) as harness:
            for _ in range(runs):
                before = probe.statuses()
                run = harness.run([ztprov, "ble", "--device", ble_bench.ADDRESS, "--ssid", "HomeNet",
                                   "--password-env", "ZTB_WIFI", "--json"],
                                  {"ZTB_WIFI": ble_bench.PASSWORD, **probe.env}, in_host_netns=False)
                if run.status != 0:
                    raise RuntimeError(f"ble run failed: {run.stderr[-800:]}")
                ble_runs.append(probe.reading(before))
    return {"help": summary(help_runs), "ble": summary(ble_runs)}


def summary(readings: list[dict]) -> dict:
    """The median peak, and the resident split of the run whose peak is the median."""
    ordered = sorted(readings, key=lambda r: r["peak_kib"])
    middle = ordered[len(ordered) // 2]
    return {"peak_kib": median(r["peak_kib"] for r in readings), "resident_kib": middle["resident_kib"]}


def split(resident_kib: collections.Counter, top: int = 6) -> str:
    """The biggest parts of a resident set, e.g. `ztprov 7.5, libcrypto.so.3 3.4, …` (MiB)."""
    parts = [f"{name} {kib / 1024:.1f}" for name, kib in resident_kib.most_common(top)]
    return ", ".join(parts)
