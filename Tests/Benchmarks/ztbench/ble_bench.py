"""BLE provisioning over a modeled link: wall time against the floor the device and link impose.

Link model (harness): every ATT write is acknowledged write_latency_ms after it is sent (one write
in flight, as with write-with-response); the device joins Wi-Fi join_delay_ms after CONNECT_AP.
Discovery and service resolution are set short (ADVERTISE_MS, RESOLVE_MS) and counted in the floor:

    floor = writes × latency + join_delay + advertise_delay + resolve_delay
    host overhead ratio = wall time / floor

Wall time is the whole `ztprov ble` process, start to exit (process start-up, D-Bus setup, scan,
connect, provisioning, disconnect). GLib timers are ms-granular, so the 7.5 ms connection interval
of the issue is modeled as 8 ms.
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


def one_run(harness: Harness, ztprov: str, seen: dict) -> dict:
    run = harness.run([ztprov, "ble", "--device", ADDRESS, "--ssid", "HomeNet", "--password-env", "ZTB_WIFI",
                       "--json"], {"ZTB_WIFI": PASSWORD}, in_host_netns=False)
    record = harness.received("blufi")[0]
    messages = record["messages"][seen["messages"]:]
    writes = record["ble"]["writes"] - seen["writes"]
    notifications = record["notifications"] - seen["notifications"]
    seen.update(messages=len(record["messages"]), writes=record["ble"]["writes"],
                notifications=record["notifications"])
    return {"ok": run.status == 0, "wall_s": run.wall_s, "cpu_s": run.cpu_s, "rss_kib": run.max_rss_kib,
            "writes": writes, "notifications": notifications, "messages": messages,
            "frames_written": run.result.get("frames_written"), "frames_received": run.result.get("frames_received"),
            "stderr": run.stderr}


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
            "cpu_s": median(s["cpu_s"] for s in samples), "rss_kib": median(s["rss_kib"] for s in samples)}


def rows(results: list[dict]) -> list[list]:
    return [[f"{r['latency_ms']} ms", r["mtu"], fmt(r["wall_s"] * 1000, " ms"), fmt(r["floor_s"] * 1000, " ms"),
             fmt(r["ratio"], "", 2), fmt(r["writes"]), fmt(r["notifications"]), r["minimum"],
             fmt(r["cpu_s"] * 1000, " ms"), fmt(r["rss_kib"] / 1024, " MiB", 1)] for r in results]


HEADER = ["ATT latency", "MTU", "wall", "floor", "overhead ratio", "ATT writes", "notifications",
          "min. frames", "CPU", "peak RSS"]
