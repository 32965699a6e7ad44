"""Soak: many provisionings in a row, looking for failures, leaks and leftovers.

- In process: `ztprov-soak` (Tests/Soak) alternates BLE and SoftAP provisionings of the emulated
  devices in one process and reports failures, open file descriptors and RSS as JSON.
- Real binary: `ztprov ble` and `ztprov softap` alternate. BLE runs share one harness; a SoftAP
  run needs a fresh one (the emulated firmware, like stock firmware, accepts credentials once).
  Each run is a new process, so "flat" is judged on what lives on (the BlueZ mock's descriptors
  and RSS) and on ztprov's own peak RSS per run. Nothing may be left: no Device1 with
  Connected=true at the end, no NetworkManager profile or active connection but the previous
  one after each SoftAP run.
"""

import json
import os
import subprocess

import dbus

from . import ble_bench, softap_bench
from .harness_run import Harness
from .stats import is_flat

PREVIOUS = softap_bench.SCENARIO["nm"]["previous_connection"]["id"]
RSS_TOLERANCE = 0.10


def process_footprint(pid: int) -> dict:
    with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
        rss = next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:"))
    return {"fds": len(os.listdir(f"/proc/{pid}/fd")), "rss_kib": rss}


def bluez_leftovers(harness: Harness) -> list[str]:
    bus = dbus.bus.BusConnection(harness.topology["bus_address"])
    try:
        objects = bus.get_object("org.bluez", "/").GetManagedObjects(
            dbus_interface="org.freedesktop.DBus.ObjectManager")
        return [f"BlueZ {path} still connected" for path, interfaces in objects.items()
                if interfaces.get("org.bluez.Device1", {}).get("Connected")]
    finally:
        bus.close()


def nm_leftovers(harness: Harness) -> list[str]:
    state = harness.calls("nm")["state"]
    return ([f"NM profile {p.get('id')}" for p in state["profiles"] if p.get("id") != PREVIOUS]
            + [f"NM active {a['id']}" for a in state["active_connections"] if a["id"] != PREVIOUS])


def softap_run(ztprov: str) -> tuple:
    """One SoftAP run in a fresh harness (the firmware takes credentials once); NM is checked before down."""
    with Harness(softap_bench.SCENARIO) as harness:
        run = harness.run(softap_bench.argv(ztprov, harness.topology["host_interface"]), softap_bench.ENV,
                          in_host_netns=True)
        return run, nm_leftovers(harness)


def real_binary(ztprov: str, runs: int, report_every: int) -> dict:
    """BLE runs share one harness (its BlueZ mock lives on and is sampled); SoftAP runs get a fresh one."""
    with Harness(ble_bench.scenario(0, 185), netns=False) as harness:
        mock = harness.topology["pids"]["bluez_mock"]
        samples, failures, ztprov_rss, left = [], [], [], []
        for index in range(runs):
            if index % report_every == 0:
                samples.append({"run": index, "bluez_mock": process_footprint(mock)})
            if index % 2 == 0:
                run = harness.run([ztprov, "ble", "--device", ble_bench.ADDRESS, "--ssid", "HomeNet",
                                   "--password-env", "ZTB_WIFI", "--json"], {"ZTB_WIFI": ble_bench.PASSWORD},
                                  in_host_netns=False)
            else:
                run, nm_left = softap_run(ztprov)
                left += [f"run {index}: {item}" for item in nm_left]
            ztprov_rss.append(run.max_rss_kib)
            if run.status != 0:
                failures.append({"run": index, "status": run.status, "stderr": run.stderr[-400:]})
        samples.append({"run": runs, "bluez_mock": process_footprint(mock)})
        left += bluez_leftovers(harness)
    fds = [s["bluez_mock"]["fds"] for s in samples]
    rss = [s["bluez_mock"]["rss_kib"] for s in samples]
    return {"runs": runs, "failures": failures, "samples": samples, "leftovers": left,
            "ztprov_rss_first_last_kib": [ztprov_rss[0], ztprov_rss[-1]],
            # The first sample precedes any run: the mock's caches grow during the first interval.
            "flat": is_flat(fds[1:], 0) and is_flat(rss[1:], RSS_TOLERANCE)}


def in_process(soak_binary: str, iterations: int) -> dict:
    done = subprocess.run([soak_binary, "--iterations", str(iterations)], capture_output=True, text=True,
                          timeout=3600)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"ztprov-soak failed: {done.stderr[-800:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
