"""BLE provisioning over a modeled link: wall time against the floor the device and link impose.

Link model (harness): every ATT write is acknowledged write_latency_ms after it is sent (one write
in flight, as with write-with-response); the device joins Wi-Fi join_delay_ms after CONNECT_AP.
Discovery and service resolution are set short (ADVERTISE_MS, RESOLVE_MS) and counted in the floor:

    floor = writes × latency + join_delay + advertise_delay + resolve_delay
    host overhead ratio = wall time / floor

Wall time is the whole `ztprov ble` process, start to exit (process start-up, D-Bus setup, scan,
connect, provisioning, disconnect). Where the rest goes is read from the harness's bus record:
"start-up" = process start → the tool's D-Bus Hello; "write RTT" = the sum of WriteValue call →
reply as the bus saw it (modeled latency + the Python mock's own delay); "between" = the time
from a reply or notification to the tool's next write, summed: our client's share (crypto,
framing, scheduling), which on a loaded machine includes waiting for a CPU. GLib timers are
ms-granular, so BLE's shortest connection interval, 7.5 ms, is modeled as 8 ms.
"""

from . import blufi_frames
from .harness_run import Harness
from .stats import fmt, median

ADDRESS = "24:0A:C4:B0:00:01"
ADVERTISE_MS, RESOLVE_MS, JOIN_MS = 20, 20, 300
PASSWORD = "bench-wifi-Pa55"


def scenario(latency_ms: int, mtu: int) -> dict:
    return {"bluez": {"devices": [{
        "address": ADDRESS, "name": "BLUFI_BENCH", "mtu": mtu, "write_latency_ms": latency_ms,
        "advertise_delay_ms": ADVERTISE_MS, "resolve_delay_ms": RESOLVE_MS,
        "blufi": {"join_delay_ms": JOIN_MS, "version": [1, 4], "device_id": "a1b2c3d4e5f6"}}]}}


def breakdown(entries: list[dict], started_at: float) -> dict:
    """Start-up, summed write round trips and summed client turn-around, from the bus record."""
    hello = next((e["time"] for e in entries if e["type"] == "call" and e["member"] == "Hello"), None)
    replies = {(e["destination"], e["reply_serial"]): e["time"] for e in entries if e["type"] in ("return", "error")}
    rtt, turnaround, last_input = 0.0, 0.0, None
    for entry in entries:
        if entry["type"] == "signal" and entry.get("member") == "PropertiesChanged" and "char002b" in (
                entry.get("path") or ""):
            last_input = entry["time"]
        if entry["type"] != "call" or entry.get("member") != "WriteValue":
            continue
        if last_input is not None:
            turnaround += max(0.0, entry["time"] - last_input)
        answered = replies.get((entry["sender"], entry["serial"]))
        if answered is not None:
            rtt += answered - entry["time"]
            last_input = answered
    return {"startup_s": None if hello is None else hello - started_at, "write_rtt_s": rtt,
            "turnaround_s": turnaround}


def one_run(harness: Harness, ztprov: str, seen: dict) -> dict:
    run = harness.run([ztprov, "ble", "--device", ADDRESS, "--ssid", "HomeNet", "--password-env", "ZTB_WIFI",
                       "--json"], {"ZTB_WIFI": PASSWORD}, in_host_netns=False)
    split = breakdown(harness.bus_record(run.started_at, run.started_at + run.wall_s), run.started_at)
    record = harness.received("blufi")[0]
    messages = record["messages"][seen["messages"]:]
    writes = record["ble"]["writes"] - seen["writes"]
    notifications = record["notifications"] - seen["notifications"]
    seen.update(messages=len(record["messages"]), writes=record["ble"]["writes"],
                notifications=record["notifications"])
    return {"ok": run.status == 0, "wall_s": run.wall_s, "cpu_s": run.cpu_s, "rss_kib": run.max_rss_kib,
            "writes": writes, "notifications": notifications, "messages": messages,
            "frames_written": run.result.get("frames_written"), "frames_received": run.result.get("frames_received"),
            "stderr": run.stderr, **split}


def measure(ztprov: str, latency_ms: int, mtu: int, runs: int) -> dict:
    with Harness(scenario(latency_ms, mtu), netns=False) as harness:
        seen = {"messages": 0, "writes": 0, "notifications": 0}
        samples = [one_run(harness, ztprov, seen) for _ in range(runs)]
    failures = [s for s in samples if not s["ok"]]
    if failures:
        raise RuntimeError(f"ble run failed (latency {latency_ms}, MTU {mtu}): {failures[0]['stderr'][-800:]}")
    writes = median(s["writes"] for s in samples)
    wall = median(s["wall_s"] for s in samples)
    floor_s = (writes * latency_ms + JOIN_MS + ADVERTISE_MS + RESOLVE_MS) / 1000
    return {"latency_ms": latency_ms, "mtu": mtu, "wall_s": wall, "floor_s": floor_s, "ratio": wall / floor_s,
            "writes": writes, "notifications": median(s["notifications"] for s in samples),
            "minimum": blufi_frames.minimum_for_messages(samples[-1]["messages"], mtu),
            "frames_written": median(s["frames_written"] for s in samples),
            "cpu_s": median(s["cpu_s"] for s in samples), "rss_kib": median(s["rss_kib"] for s in samples),
            **{key: median(s[key] for s in samples) for key in ("startup_s", "write_rtt_s", "turnaround_s")}}


def rows(results: list[dict]) -> list[list]:
    return [[f"{r['latency_ms']} ms", r["mtu"], fmt(r["wall_s"] * 1000, " ms"), fmt(r["floor_s"] * 1000, " ms"),
             fmt(r["ratio"], "", 2), fmt(r["writes"]), fmt(r["notifications"]), r["minimum"],
             fmt(r["cpu_s"] * 1000, " ms"), fmt(r["rss_kib"] / 1024, " MiB", 1),
             fmt(r["startup_s"] * 1000 if r["startup_s"] is not None else None, " ms"),
             f"{fmt(r['write_rtt_s'] * 1000, ' ms')} (model {fmt(r['writes'] * r['latency_ms'], ' ms')})",
             fmt(r["turnaround_s"] * 1000, " ms"), fmt(other_ms(r), " ms")] for r in results]


def other_ms(result: dict) -> float | None:
    """What is left: scan, connect, GATT resolve, the Python device's own work (its DH), disconnect, exit."""
    if result["startup_s"] is None:
        return None
    known = result["startup_s"] + result["write_rtt_s"] + result["turnaround_s"] + JOIN_MS / 1000
    return (result["wall_s"] - known) * 1000


HEADER = ["ATT latency", "MTU", "wall", "floor", "overhead ratio", "ATT writes", "notifications",
          "min. frames", "CPU", "peak RSS", "start-up", "write RTT (bus)", "between",
          "other"]
