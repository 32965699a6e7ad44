"""`ble` and `softap` on the real-stack lab (Tests/RealStack): the real bluetoothd, NetworkManager,
wpa_supplicant and hostapd in a QEMU guest, with the device floor the lab's device models impose.

One boot (`Tests/RealStack/run --bench N`) runs N provisionings over each path and nothing else; the
guest stamps each stdout line of ztprov as it arrives, so the steps are gaps between the tool's JSON
events. Times are the guest's: under TCG every instruction is emulated, so ztprov's own start-up and
CPU work run several times slower than on the host, while the daemons' timers (scan windows, DHCP)
run at their real pace. The floor is what the device itself makes a client wait: for BLE the BluFi
model's Wi-Fi join delay plus one advertising interval before it is found; for SoftAP the status polls
the protocomm model answers "connecting" to, at the tool's quick poll interval (100 ms).
"""

import json
import os
import subprocess
import tempfile

from .harness_run import REPO
from .stats import fmt, median

QUICK_POLL_S = 0.1
BLE_STEPS = [("start-up + scan", None, "connecting"), ("connect + GATT", "connecting", "connected"),
             ("version + key exchange", "connected", "session-ready"),
             ("configure + device joins", "session-ready", "wifi-connected"),
             ("disconnect + exit", "wifi-connected", None)]
SOFTAP_STEPS = [("start-up", None, "joining-hotspot"), ("join hotspot (NM: scan, WPA2, DHCP)", "joining-hotspot",
                                                         "joined-hotspot"),
                ("session (security 1)", "joined-hotspot", "session-established"),
                ("credentials", "session-established", "credentials-applied"),
                ("until connected", "credentials-applied", "device-connected"),
                ("restore home network (NM)", "device-connected", "left-hotspot"), ("exit", "left-hotspot", None)]


def boot(ztprov: str, runs: int) -> dict:
    """One lab boot in bench mode; its results.json."""
    results = tempfile.mkdtemp(prefix="ztb-lab-", dir="/tmp")
    command = [os.path.join(REPO, "Tests", "RealStack", "run"), "--results", results, "--ztprov", ztprov,
               "--bench", str(runs), "--timeout", str(600 + 120 * runs)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(results, "results.json")) as handle:
        return json.load(handle)


def events(scenario: dict) -> list[tuple[float, dict]]:
    """(seconds since start, event) for each JSON line the tool printed."""
    stamped = []
    for stamp, line in zip(scenario.get("stdout_line_seconds", []), scenario.get("stdout", "").splitlines()):
        try:
            stamped.append((stamp, json.loads(line)))
        except json.JSONDecodeError:
            continue
    return stamped


def step_times(scenario: dict, steps: list) -> dict:
    stamped = events(scenario)

    def at(name):
        return next((t for t, e in stamped if e.get("event") == name), None)

    times = {}
    for label, begin, end in steps:
        start = 0.0 if begin is None else at(begin)
        finish = scenario.get("seconds") if end is None else at(end)
        times[label] = None if start is None or finish is None else finish - start
    return times


def summary(document: dict, prefix: str, steps: list) -> dict:
    runs = [s for s in document.get("scenarios", []) if s["name"].startswith(prefix)]
    ok = [s for s in runs if s.get("status") == 0]
    split = [step_times(s, steps) for s in ok]
    return {"runs": len(runs), "ok": len(ok), "wall_s": median(s.get("seconds") for s in ok),
            "steps": {label: median(t[label] for t in split) for label, _, _ in steps},
            "failures": [f"{s['name']}: {s.get('status')} {s.get('lab_error', '')}" for s in runs if s not in ok],
            "results": [next((e for _, e in reversed(events(s)) if e.get("event") == "result"), {}) for s in ok]}


def measure(ztprov: str, runs: int) -> dict:
    document = boot(ztprov, runs)
    floor = document.get("timings", {}).get("bench_device_floor", {})
    ble, softap = summary(document, "bench-ble-", BLE_STEPS), summary(document, "bench-softap-", SOFTAP_STEPS)
    ble_floor = floor.get("ble", {})
    ble["floor_s"] = (ble_floor.get("advertising_interval_ms", 0) + ble_floor.get("join_delay_ms", 0)) / 1000
    ble["frames"] = median(r.get("frames_written") for r in ble["results"])
    ble["mtu"] = median(r.get("mtu") for r in ble["results"])
    softap["floor_s"] = floor.get("softap", {}).get("connecting_polls", 0) * QUICK_POLL_S
    return {"ble": ble, "softap": softap, "stack_ready_s": document.get("timings", {}).get("stack_ready")}


def rows(result: dict) -> tuple[list[list], list[list]]:
    """The overview (one row per path) and the per-step split."""
    overview = []
    for path, label in (("ble", "`ble` (BluFi V2, BluFi 1.4 device)"), ("softap", "`softap` (security 1, WPA2)")):
        part = result[path]
        wall, floor = part["wall_s"], part["floor_s"]
        overview.append([label, f"{part['ok']}/{part['runs']}", fmt(wall, " s", 2), fmt(floor, " s", 2),
                         fmt(None if wall is None else wall - floor, " s", 2),
                         fmt(None if wall is None or not floor else wall / floor, "×", 1)])
    split = [[f"ble: {label}", fmt(value, " s", 2)] for label, value in result["ble"]["steps"].items()]
    split += [[f"softap: {label}", fmt(value, " s", 2)] for label, value in result["softap"]["steps"].items()]
    return overview, split


OVERVIEW_HEADER = ["path", "ok", "wall (guest)", "device floor", "above the floor", "wall / floor"]
