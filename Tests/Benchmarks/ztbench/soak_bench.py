"""Soak: many provisionings in a row, looking for failures, leaks and leftovers.

- In process: `ztprov-soak` (Tests/Soak) alternates BLE and SoftAP provisionings of the emulated
  devices in one process and reports failures, open file descriptors and RSS as JSON.
- Real binary: `ztprov ble` and `ztprov softap` alternate against one harness. Each run is a new
  process, so "flat" is judged on what lives on: the BlueZ and NM mocks' descriptors and RSS, and
  ztprov's own peak RSS per run. At the end nothing may be left: no Device1 with Connected=true, no
  NetworkManager profile or active connection but the previous one.
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


def leftovers(harness: Harness) -> list[str]:
    found = []
    bus = dbus.bus.BusConnection(harness.topology["bus_address"])
    try:
        objects = bus.get_object("org.bluez", "/").GetManagedObjects(
            dbus_interface="org.freedesktop.DBus.ObjectManager")
        found += [f"BlueZ {path} still connected" for path, interfaces in objects.items()
                  if interfaces.get("org.bluez.Device1", {}).get("Connected")]
    finally:
        bus.close()
    state = harness.calls("nm")["state"]
    found += [f"NM profile {p.get('id')}" for p in state["profiles"] if p.get("id") != PREVIOUS]
    found += [f"NM active {a['id']}" for a in state["active_connections"] if a["id"] != PREVIOUS]
    return found


def real_binary(ztprov: str, runs: int, report_every: int) -> dict:
    scenario = {**softap_bench.SCENARIO, **ble_bench.scenario(0, 185)}
    with Harness(scenario) as harness:
        mocks = {name: harness.topology["pids"][name] for name in ("bluez_mock", "nm_mock")}
        samples, failures, ztprov_rss = [], [], []
        for index in range(runs):
            if index % report_every == 0:
                samples.append({"run": index, **{n: process_footprint(p) for n, p in mocks.items()}})
            if index % 2 == 0:
                run = harness.run([ztprov, "ble", "--device", ble_bench.ADDRESS, "--ssid", "HomeNet",
                                   "--password-env", "ZTB_WIFI", "--json"], {"ZTB_WIFI": ble_bench.PASSWORD},
                                  in_host_netns=True)
            else:
                run = harness.run(softap_bench.argv(ztprov, harness.topology["host_interface"]), softap_bench.ENV,
                                  in_host_netns=True)
            ztprov_rss.append(run.max_rss_kib)
            if run.status != 0:
                failures.append({"run": index, "status": run.status, "stderr": run.stderr[-400:]})
        samples.append({"run": runs, **{n: process_footprint(p) for n, p in mocks.items()}})
        left = leftovers(harness)
    return {"runs": runs, "failures": failures, "samples": samples, "leftovers": left,
            "ztprov_rss_first_last_kib": [ztprov_rss[0], ztprov_rss[-1]],
            "flat": all(is_flat([s[n]["fds"] for s in samples], 0) and
                        is_flat([s[n]["rss_kib"] for s in samples], RSS_TOLERANCE) for n in mocks)}


def in_process(soak_binary: str, iterations: int) -> dict:
    done = subprocess.run([soak_binary, "--iterations", str(iterations)], capture_output=True, text=True,
                          timeout=3600)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"ztprov-soak failed: {done.stderr[-800:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
