"""What `ble` spends on the network before sending: a default run against one with `--check-network`.

The same BluFi device as the `ble` benchmark (V2, MTU 185, 15 ms per ATT write) with a modeled Wi-Fi scan of
SCAN_MS (ESP-IDF's blocking scan takes 1–3 s; the model's length only shifts both columns alike). Runs
alternate between the two in one harness, so both see the same load. Per run:

- *writes*: ATT writes the device received (a default run must send no more than before the checks);
- *host look*: the default run's look at NetworkManager's cached scan, from ztprov's first call about it on
  the bus to the last reply (the harness's NetworkManager mock answers it);
- *wall*: the whole process, and *check cost* = the median wall with `--check-network` minus the default's,
  against the modeled scan.
"""

from . import ble_bench
from .harness_run import Harness
from .stats import fmt, median

LATENCY_MS, MTU, SCAN_MS = 15, 185, 1500
NETWORK_MANAGER = "org.freedesktop.NetworkManager"


def scenario() -> dict:
    base = ble_bench.scenario(LATENCY_MS, MTU)
    base["bluez"]["devices"][0]["blufi"]["scan_delay_ms"] = SCAN_MS
    return base


def host_look_s(entries: list[dict]) -> float | None:
    """From the first call that asks about NetworkManager to the last reply to its sender."""
    calls = [e for e in entries if e["type"] == "call"
             and (e.get("destination") == NETWORK_MANAGER or NETWORK_MANAGER in str(e.get("args", "")))]
    if not calls:
        return None
    sender = calls[0]["sender"]
    serials = {e["serial"] for e in entries if e["type"] == "call" and e["sender"] == sender}
    replies = [e["time"] for e in entries
               if e["type"] in ("return", "error") and e.get("destination") == sender and e.get("reply_serial") in serials]
    return (max(replies) if replies else calls[-1]["time"]) - calls[0]["time"]


def one_run(harness: Harness, ztprov: str, extra: list[str], seen: dict) -> dict:
    run = harness.run([ztprov, "ble", "--device", ble_bench.ADDRESS, "--ssid", "HomeNet", "--password-env", "ZTB_WIFI",
                       "--json"] + extra, {"ZTB_WIFI": ble_bench.PASSWORD}, in_host_netns=False)
    writes = harness.received("blufi")[0]["ble"]["writes"]
    taken, seen["writes"] = writes - seen["writes"], writes
    entries = harness.bus_record(run.started_at, run.started_at + run.wall_s)
    return {"ok": run.status == 0, "wall_s": run.wall_s, "writes": taken, "host_look_s": host_look_s(entries),
            "stderr": run.stderr}


def measure(ztprov: str, runs: int) -> dict:
    samples: dict[str, list[dict]] = {"default": [], "check": []}
    with Harness(scenario(), netns=False) as harness:
        seen = {"writes": 0}
        for _ in range(runs):
            samples["default"].append(one_run(harness, ztprov, [], seen))
            samples["check"].append(one_run(harness, ztprov, ["--check-network"], seen))
    failures = [s for group in samples.values() for s in group if not s["ok"]]
    if failures:
        raise RuntimeError(f"ble run failed: {failures[0]['stderr'][-800:]}")
    return {name: {"wall_s": median(s["wall_s"] for s in group), "writes": median(s["writes"] for s in group),
                   "host_look_s": median(s["host_look_s"] for s in group)} for name, group in samples.items()}


HEADER = ["run", "wall", "ATT writes", "host look (NetworkManager's cached scan)", "check cost (modeled scan)"]


def rows(result: dict) -> list[list]:
    default, check = result["default"], result["check"]
    cost = (check["wall_s"] - default["wall_s"]) * 1000
    return [["`ble`", fmt(default["wall_s"] * 1000, " ms"), fmt(default["writes"]),
             fmt(default["host_look_s"] * 1000 if default["host_look_s"] is not None else None, " ms", 1), "–"],
            ["`ble --check-network`", fmt(check["wall_s"] * 1000, " ms"), fmt(check["writes"]),
             fmt(check["host_look_s"] * 1000 if check["host_look_s"] is not None else None, " ms", 1),
             f"{fmt(cost, ' ms')} ({SCAN_MS} ms)"]]
