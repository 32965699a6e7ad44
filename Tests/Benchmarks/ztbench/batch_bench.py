"""`ztprov batch` on 1, 2 and 4 emulated adapters, 24 devices each heard by every adapter.

Throughput = devices / wall time; the ratio to one adapter is the speed-up (target ≥ 3.8× at 4).
The per-adapter floor is what the harness imposes on the busiest adapter: its share of the devices
(⌈devices / adapters⌉), each taking writes × ATT latency + the join delay + service resolution, after
one advertising delay (discovery runs for the whole batch); target wall ≤ 1.10× floor.
CPU per device = the batch process's CPU time / devices; BlueZ mock CPU per device = the CPU time of
the one Python process that emulates every adapter and device (/proc/PID/stat, utime + stime, around
the run) / devices: the harness's own share, which contends with the tool for the same cores. First
unit = when the first attempt started (process start, D-Bus set-up, discovery, the first pick).
Per unit = each lane's first `attempt-started` to its last `attempt-recorded` (ztprov's own `elapsed_ms`
stamps) over the units it did, the median over lanes: a unit's whole cycle on its lane (the pick, the claim,
connecting, the session, the join, disconnecting, the record), without the batch's start and end; its floor is
writes × ATT latency + join delay + service resolution, the same as one unit's share of the per-adapter floor
(target ≤ 1.05× on one adapter, ≤ 1.08× on four). The fixed cost of a batch is measured apart: *start* =
process start → first `attempt-started`, *stop* = the last `attempt-recorded` → the process gone (both as the
benchmark reads the events), so wall ≈ start + units per lane × per unit + stop.
Load = the 1-minute load average as each run started (median): the machine is shared. The harness runs
without its bus recorder (`up --no-bus-record`): nothing here reads the record, and the recorder, a Python
process that decodes and writes every message, and dbus-daemon's copies to it would share the two cores
with the tool and the mock (modeled BlueZ and device timing are the same either way). The command run:
  ztprov batch --path ble --adapters hci0,… --ssid S --password-env V --station NAME --db PATH
               --devices FILE.csv --json
"""

import os
import tempfile

from .ble_bench import PASSWORD
from .harness_run import Harness
from .stats import fmt, median

ADAPTERS = ["hci0", "hci1", "hci2", "hci3"]
DEVICES = [f"24:0A:C4:B1:00:{n:02X}" for n in range(24)]
LATENCY_MS, JOIN_MS, ADVERTISE_MS, RESOLVE_MS = 15, 300, 20, 20


def floor_s(devices: int, adapters: int, writes_per_device: float) -> float:
    """The busiest adapter's share of devices, each at the modeled link and device delays."""
    per_device_ms = writes_per_device * LATENCY_MS + JOIN_MS + RESOLVE_MS
    return (-(-devices // adapters) * per_device_ms + ADVERTISE_MS) / 1000


# How the modeled device spends its own work (key agreement, framing, encryption in Python): after a write's
# answer, as the mock does by default, or inside the write's modeled latency with what it sends held until the
# answer (`works_during_latency`), as a firmware overlaps its work with the link's connection events. The
# difference between the two is the mock's share of a unit's time.
DEVICE_WORK = {"after the answer": False, "during the latency": True}


def scenario(works_during_latency: bool = False) -> dict:
    return {"bluez": {
        "adapters": [{"name": name, "address": f"00:AA:BB:CC:DF:0{n}"} for n, name in enumerate(ADAPTERS)],
        "devices": [{"adapters": ADAPTERS, "address": address, "name": f"ZT_LINE_{n:02d}",
                     "write_latency_ms": LATENCY_MS, "works_during_latency": works_during_latency,
                     "advertise_delay_ms": ADVERTISE_MS, "resolve_delay_ms": RESOLVE_MS,
                     "blufi": {"join_delay_ms": JOIN_MS, "version": [1, 4]}}
                    for n, address in enumerate(DEVICES)]}}


def process_cpu_s(pid: int) -> float:
    """utime + stime of a running process, in seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_batch(ztprov: str, adapters: list[str], works_during_latency: bool) -> dict:
    load = os.getloadavg()[0]
    with Harness(scenario(works_during_latency), netns=False, bus_record=False) as harness, tempfile.TemporaryDirectory(prefix="ztb-batch-") as work:
        devices = os.path.join(work, "devices.csv")
        with open(devices, "w", encoding="utf-8") as handle:
            handle.write("address\n" + "\n".join(DEVICES) + "\n")
        mock = harness.topology["pids"]["bluez_mock"]
        mock_before = process_cpu_s(mock)
        run = harness.run([ztprov, "batch", "--path", "ble", "--adapters", ",".join(adapters), "--ssid", "HomeNet",
                           "--password-env", "ZTB_WIFI", "--station", "bench", "--db",
                           os.path.join(work, "line.db"), "--devices", devices, "--json"],
                          {"ZTB_WIFI": PASSWORD}, in_host_netns=False, timeout_s=600)
        mock_cpu_s = process_cpu_s(mock) - mock_before
        received = harness.received("blufi")
        provisioned = sum(1 for r in received if r.get("wifi_state") == "connected")
        writes = sum(r["ble"]["writes"] for r in received)
    lanes = lane_spans(run.events)
    last_recorded = max((t for t, e in run.events if e.get("event") == "attempt-recorded"), default=None)
    return {"ok": run.status == 0 and provisioned == len(DEVICES), "wall_s": run.wall_s, "cpu_s": run.cpu_s,
            "per_unit_s": median(span / units for _, span, units in
                                 ((start, end - start, units) for start, end, units in lanes.values())),
            "stop_s": None if last_recorded is None else run.wall_s - last_recorded,
            "provisioned": provisioned, "writes_per_device": writes / len(DEVICES), "stderr": run.stderr,
            "mock_cpu_s": mock_cpu_s, "first_unit_s": run.at("attempt-started"), "load": load}


def lane_spans(events: list) -> dict[str, tuple[float, float, int]]:
    """Per lane: its first attempt-started and last attempt-recorded (seconds, ztprov's own stamps) and how
    many attempts it recorded."""
    spans: dict[str, list] = {}
    for _, event in events:
        lane, at = event.get("lane"), event.get("elapsed_ms")
        if lane is None or at is None:
            continue
        span = spans.setdefault(lane, [None, None, 0])
        if event.get("event") == "attempt-started" and span[0] is None:
            span[0] = at / 1000
        elif event.get("event") == "attempt-recorded":
            span[1], span[2] = at / 1000, span[2] + 1
    return {lane: tuple(span) for lane, span in spans.items() if span[0] is not None and span[1] is not None}


def unit_floor_s(writes_per_device: float) -> float:
    """One unit at the modeled link and device delays."""
    return (writes_per_device * LATENCY_MS + JOIN_MS + RESOLVE_MS) / 1000


def measure(ztprov: str, runs: int) -> list[dict]:
    results = []
    for (count, device_work) in [(count, work) for count in (1, 2, 4) for work in DEVICE_WORK]:
        samples = [one_batch(ztprov, ADAPTERS[:count], DEVICE_WORK[device_work]) for _ in range(runs)]
        if not any(s["ok"] for s in samples):
            raise RuntimeError(f"batch on {count} adapter(s) failed: {samples[0]['stderr'][-800:]}")
        wall = median(s["wall_s"] for s in samples if s["ok"])
        floor = floor_s(len(DEVICES), count, median(s["writes_per_device"] for s in samples if s["ok"]))
        results.append({"adapters": count, "device_work": device_work, "wall_s": wall, "floor_s": floor, "throughput": len(DEVICES) / wall,
                        "cpu_per_device_s": median(s["cpu_s"] for s in samples) / len(DEVICES),
                        "mock_cpu_per_device_s": median(s["mock_cpu_s"] for s in samples) / len(DEVICES),
                        "first_unit_s": median(s["first_unit_s"] for s in samples if s["ok"]),
                        "per_unit_s": median(s["per_unit_s"] for s in samples if s["ok"]),
                        "unit_floor_s": unit_floor_s(median(s["writes_per_device"] for s in samples if s["ok"])),
                        "stop_s": median(s["stop_s"] for s in samples if s["ok"]),
                        "load": median(s["load"] for s in samples),
                        "failures": sum(1 for s in samples if not s["ok"]),
                        "provisioned": median(s["provisioned"] for s in samples)})
    return results


def rows(results: list[dict]) -> list[list]:
    base = {r["device_work"]: r["throughput"] for r in results if r["adapters"] == 1}
    return [[r["adapters"], r["device_work"], fmt(r["wall_s"], " s", 2), fmt(r["floor_s"], " s", 2), fmt(r["wall_s"] / r["floor_s"], "×", 2),
             fmt(r["per_unit_s"] * 1000, " ms"), fmt(r["unit_floor_s"] * 1000, " ms"),
             fmt(r["per_unit_s"] / r["unit_floor_s"], "×", 3), fmt(r["first_unit_s"] * 1000, " ms"),
             fmt(r["stop_s"] * 1000, " ms"), fmt(r["throughput"] * 60, "/min", 1),
             fmt(r["throughput"] / base[r["device_work"]], "×", 2), fmt(r["cpu_per_device_s"] * 1000, " ms"),
             fmt(r["mock_cpu_per_device_s"] * 1000, " ms", 1),
             f"{fmt(r['provisioned'])}/{len(DEVICES)}", r["failures"], fmt(r["load"], "", 1)] for r in results]


HEADER = ["adapters", "the device's work", "wall (24 devices)", "per-adapter floor", "wall / floor", "per unit (lane)", "unit floor",
          "per unit / floor", "start (→ first unit)", "stop (last record → exit)", "throughput", "vs 1 adapter",
          "CPU per device", "BlueZ mock CPU per device", "provisioned", "failed runs", "load"]
