"""SoftAP provisioning against the harness device: wall time split by step, and the status-poll cost.

Steps are the gaps between the tool's JSON events (stamped on arrival). The device answers the
status poll "connecting" CONNECTING_POLLS times after apply, then "connected": in this model it is
connected right after its last "connecting" answer, so the cadence cost is the gap between that
answer and the "connected" one, read from the device host's record. The device joins within the
tool's quick-poll window, so the gap must stay within one quick interval (POLL_COST_LIMIT_S, the
tool's default) plus scheduling slack. What the tool adds after that answer (decrypting it, printing
the `device-connected` event) is the gap from the answer to the event, both on the wall clock; the
two together are how long after the device connected the tool reports it.
"""

from .harness_run import Harness
from .stats import fmt, median

HOTSPOT, HOTSPOT_PSK, POP, PASSWORD = "ZT_BENCH", "bench-hotspot-pass", "bench-pop-1234", "bench-wifi-Pa55"
CONNECTING_POLLS = 2
POLL_COST_LIMIT_S = 0.1
STEPS = [("start-up", None, "joining-hotspot"), ("join hotspot", "joining-hotspot", "joined-hotspot"),
         ("session", "joined-hotspot", "session-established"),
         ("credentials", "session-established", "credentials-applied"),
         ("until connected", "credentials-applied", "device-connected"),
         ("restore", "device-connected", "left-hotspot"), ("exit", "left-hotspot", None)]

SCENARIO = {
    "nm": {"step_ms": 50, "access_points": [{"ssid": HOTSPOT, "bssid": "24:0A:C4:B0:00:02", "strength": 80,
                                             "frequency": 2412, "psk": HOTSPOT_PSK}],
           "previous_connection": {"id": "HomeBench", "ssid": "HomeNet"}},
    "device_host": {"protocomm": {"security": 1, "pop": POP, "ap_bssid": "24:0a:c4:b0:00:02",
                                  "connecting_polls": CONNECTING_POLLS, "cleanup_delay_ms": 100}},
}


def argv(ztprov: str, interface: str) -> list[str]:
    return [ztprov, "softap", "--ap-ssid", HOTSPOT, "--ap-password-env", "ZTB_AP", "--pop-env", "ZTB_POP",
            "--ssid", "HomeNet", "--password-env", "ZTB_WIFI", "--wifi-interface", interface, "--json"]


ENV = {"ZTB_AP": HOTSPOT_PSK, "ZTB_POP": POP, "ZTB_WIFI": PASSWORD}


STATION_STATES = {0: "connected", 1: "connecting"}


def status_answers(records: list[dict]) -> list[tuple[float, str]]:
    """(time, state) of every status answer the device host gave (sta_state: protocomm WifiStationState)."""
    return [(r["time"], STATION_STATES.get(r["sta_state"], "other")) for r in records
            if r.get("source") == "protocomm" and r.get("event") == "get_status"]


def poll_gaps(records: list[dict]) -> list[float]:
    """Per provisioning: seconds from the last "connecting" answer to the "connected" one."""
    gaps, last_connecting = [], None
    for stamp, state in status_answers(records):
        if state == "connecting":
            last_connecting = stamp
        elif state == "connected" and last_connecting is not None:
            gaps.append(stamp - last_connecting)
            last_connecting = None
    return gaps


def notice_delay(records: list[dict], run) -> float | None:
    """Seconds from the device's first "connected" answer to the tool's `device-connected` event."""
    answered = next((stamp for stamp, state in status_answers(records) if state == "connected"), None)
    event = run.at("device-connected")
    return None if answered is None or event is None else run.started_at + event - answered


def step_times(run) -> dict:
    times = {}
    for label, begin, end in STEPS:
        start = 0.0 if begin is None else run.at(begin)
        finish = run.wall_s if end is None else run.at(end)
        times[label] = None if start is None or finish is None else finish - start
    return times


def one_run(ztprov: str) -> tuple:
    """A fresh harness per run: the emulated firmware, like a real one, takes credentials only once."""
    with Harness(SCENARIO) as harness:
        run = harness.run(argv(ztprov, harness.topology["host_interface"]), ENV, in_host_netns=True)
        records = harness.device_host_record()
        return run, poll_gaps(records), notice_delay(records, run)


def measure(ztprov: str, runs: int) -> dict:
    results = [one_run(ztprov) for _ in range(runs)]
    samples = [run for run, _, _ in results]
    gaps = [gap for _, found, _ in results for gap in found]
    notices = [notice for _, _, notice in results if notice is not None]
    failures = [s for s in samples if s.status != 0]
    if failures:
        raise RuntimeError(f"softap run failed: {failures[0].stderr[-800:]}")
    steps = [step_times(s) for s in samples]
    return {"wall_s": median(s.wall_s for s in samples), "cpu_s": median(s.cpu_s for s in samples),
            "rss_kib": median(s.max_rss_kib for s in samples),
            "steps": {label: median(t[label] for t in steps) for label, _, _ in STEPS},
            "poll_gap_s": median(gaps), "poll_gap_max_s": max(gaps) if gaps else None,
            "notice_s": median(notices), "notice_max_s": max(notices) if notices else None}


def rows(result: dict) -> list[list]:
    lines = [[label, fmt(value * 1000 if value is not None else None, " ms")]
             for label, value in result["steps"].items()]
    lines.append(["**total (wall)**", fmt(result["wall_s"] * 1000, " ms")])
    gap, worst = result["poll_gap_s"], result["poll_gap_max_s"]
    verdict = "–" if gap is None else ("ok" if worst <= POLL_COST_LIMIT_S * 1.2 else "over")
    lines.append([f"poll cost after connected (median / max; limit {POLL_COST_LIMIT_S * 1000:.0f} ms)",
                  f"{fmt(gap * 1000 if gap is not None else None, ' ms')} / "
                  f"{fmt(worst * 1000 if worst is not None else None, ' ms')} {verdict}"])
    lines.append(["\"connected\" answer → `device-connected` event (median / max)",
                  f"{milliseconds(result['notice_s'])} / {milliseconds(result['notice_max_s'])}"])
    return lines


def milliseconds(seconds: float | None) -> str:
    return fmt(seconds * 1000 if seconds is not None else None, " ms")
