"""Where a batch unit's time goes: one lane's units placed on the bus, against the modeled device timeline.

One `ztprov batch` of the batch benchmark's scenario runs with three recorders beside it:
- `dbus-monitor --monitor` on the harness's private bus (dbus-daemon's own copy of every message, stamped by
  the monitor as it reads it; it runs at real-time priority, `chrt -f 50`, so a loaded machine does not delay
  its stamps), for every call of each lane's bus connection, its reply, and the signals it
  waits for (`ServicesResolved`, a notification's `Value`, `Connected`);
- the BlueZ mock's timeline (`ZTHARNESS_TIMELINE`, ztharness/timeline.py): when each modeled delay (an ATT
  write's latency, the Wi-Fi join, service resolution) and each signal-sending idle callback was due and
  when it ran;
- `strace -f --seccomp-bpf -e trace=fdatasync,fsync,write -ttt -T` on ztprov: each record and claim commit's
  sync, and when ztprov wrote each JSON event (`attempt-started`, `attempt-recorded` with the record's step
  times) to stdout. Only those syscalls stop ztprov (seccomp-bpf), tens of microseconds each, about 60 a unit
  (most of them the D-Bus loop's wake-ups).

A unit's *cycle* on a lane is one `attempt-started` to the next on that lane: everything per unit, the pick,
the claim and the record included. Each cycle is cut into consecutive pieces by the lane's bus messages:
- *round trip* `Member`: a call of the lane until its reply (for `WriteValue`, of which the model is the
  ATT latency: the rest is the mock's and the bus's delay);
- *device* `what`: no call in flight, waiting for a signal the device model sends (`ServicesResolved` after
  `Connect`; a notification, the join's after the 300 ms join);
- *ztprov* `after what`: from a reply or signal to the lane's next call (the client's own turn-around), and the
  unit's edges: attempt-started → first call, last message → `attempt-recorded` (the record written),
  `attempt-recorded` → next `attempt-started` (settling, the next pick, its claim).
The pieces add up to the cycle, so the table says where the time beyond the model goes without relying on CPU
counts. Steady-state cycles only: each lane's first unit (discovery's start) and last are left out.
Each adapter count runs twice, with the device's work after each write's answer and inside its latency
(`batch_bench.DEVICE_WORK`): what moves between the two is the mock's.
"""

import collections
import json
import os
import re
import subprocess
import tempfile
import time

from . import batch_bench
from .ble_bench import PASSWORD
from .harness_run import Harness
from .stats import fmt, median

HEAD = re.compile(r"^(method call|method return|signal|error) time=(\d+\.\d+) sender=(\S+) -> destination=(\(null destination\)|\S+)"
                  r"(?: error_name=\S+)? serial=(\d+)(?: reply_serial=(\d+))?(?: path=([^;]*); interface=([^;]*);"
                  r" member=(\S+))?")
STRING = re.compile(r'^\s*string "([^"]*)"')
BOOLEAN = re.compile(r"^\s*variant\s+boolean (true|false)")
KINDS = {"method call": "call", "method return": "return", "signal": "signal", "error": "error"}


def parse_monitor(text: str) -> list[dict]:
    """dbus-monitor's text output as messages: type, time, names, path, member, and what a
    PropertiesChanged changed (property names, with booleans' values)."""
    messages, current = [], None
    for line in text.splitlines():
        head = HEAD.match(line)
        if head:
            kind, stamp, sender, destination, serial, reply_serial, path, interface, member = head.groups()
            current = {"type": KINDS[kind], "time": float(stamp), "sender": sender, "destination": destination,
                       "serial": int(serial), "reply_serial": int(reply_serial) if reply_serial else None,
                       "path": path, "interface": interface, "member": member, "changed": {}, "strings": []}
            messages.append(current)
            continue
        if current is None:
            continue
        if (found := STRING.match(line)) is not None:
            current["strings"].append(found.group(1))
        elif (found := BOOLEAN.match(line)) is not None and current["strings"]:
            current["changed"][current["strings"][-1]] = found.group(1) == "true"
    for message in messages:
        if message["member"] == "PropertiesChanged":
            names = message["strings"][1:]
            message["changed"].update({name: message["changed"].get(name) for name in names
                                       if name in ("Value", "Connected", "ServicesResolved", "RSSI", "Discovering")})
    return messages


def parse_strace(text: str) -> tuple[list[dict], list[tuple[float, dict]]]:
    """strace -ttt -T lines: each sync's start (wall clock) and duration, and when each JSON event was written to
    stdout (its event name and lane; the kernel's time, not the reader's)."""
    syncs, writes = [], []
    for line in text.splitlines():
        found = re.search(r"(\d+\.\d+) (?:(fdatasync|fsync)\(|<\.\.\. (fdatasync|fsync) resumed>).*<(\d+\.\d+)>", line)
        if found:
            syncs.append({"time": float(found.group(1)), "call": found.group(2) or found.group(3),
                          "duration": float(found.group(4))})
            continue
        found = re.search(r'(\d+\.\d+) write\(1, "(.*?)"(?:\.\.\.)?, \d+(?:\) = | <unfinished)', line)
        if found:
            fields = dict(re.findall(r'\\"(event|lane)\\":\\"([^\\]*)\\"', found.group(2)))
            if "event" in fields:
                writes.append((float(found.group(1)), fields))
    return syncs, writes


def lanes_of(messages: list[dict]) -> dict[str, str]:
    """Each lane's unique bus name: the connection that starts discovery on /org/bluez/hciN."""
    owners = {}
    for message in messages:
        if message["type"] == "call" and message["member"] == "StartDiscovery":
            owners.setdefault(message["path"].rsplit("/", 1)[-1], message["sender"])
    return owners


def cycles(events: list, lane: str) -> list[tuple[float, float, dict]]:
    """(start, end, record event) of each unit on `lane`, start to the next start (wall clock)."""
    starts = [(t, e) for t, e in events if e.get("event") == "attempt-started" and e.get("lane") == lane]
    records = [(t, e) for t, e in events if e.get("event") == "attempt-recorded" and e.get("lane") == lane]
    return [(starts[i][0], starts[i + 1][0], records[i]) for i in range(len(starts) - 1) if i < len(records)]


def pieces(messages: list[dict], owner: str, start: float, end: float, recorded_at: float) -> list[tuple]:
    """One cycle cut into (start, duration, kind, label) pieces that add up to it."""
    mine = [m for m in messages if start <= m["time"] < end and (
        m["sender"] == owner or (m["destination"] == owner and m["type"] in ("return", "error"))
        or (m["type"] == "signal" and _awaited(m)))]
    calls = {m["serial"]: m for m in mine if m["type"] == "call" and m["sender"] == owner}
    out, cursor, after, in_flight = [], start, "attempt-started", {}
    for message in mine:
        stamp = message["time"]
        if message["type"] == "call" and message["sender"] == owner:
            if not in_flight:
                out.append((cursor, stamp - cursor, "ztprov", f"after {after}"))
                cursor = stamp
            in_flight[message["serial"]] = message
        elif message["type"] in ("return", "error") and message["reply_serial"] in in_flight:
            call = in_flight.pop(message["reply_serial"])
            if not in_flight:
                out.append((cursor, stamp - cursor, "round trip", call["member"]))
                cursor = stamp
                after = f"{call['member']} reply"
        elif message["type"] == "signal" and not in_flight and message["sender"] != owner:
            what = _awaited(message)
            if what and message["path"] and _same_device(message, calls):
                out.append((cursor, stamp - cursor, "device", what))
                cursor = stamp
                after = what
    if recorded_at > cursor:
        out.append((cursor, recorded_at - cursor, "ztprov", "last message → attempt-recorded (record)"))
        cursor = recorded_at
    out.append((cursor, end - cursor, "ztprov", "attempt-recorded → next attempt-started (pick, claim)"))
    return out


def _awaited(message: dict) -> str | None:
    changed = message.get("changed") or {}
    if "ServicesResolved" in changed and changed["ServicesResolved"]:
        return "ServicesResolved"
    if "Value" in changed:
        return "notification"
    if "Connected" in changed and changed["Connected"] is False:
        return "Connected=false"
    return None


def _same_device(message: dict, calls: dict) -> bool:
    device = re.match(r"^(/org/bluez/hci\d+/dev_[0-9A-F_]+)", message["path"] or "")
    return device is not None and any((call["path"] or "").startswith(device.group(1)) for call in calls.values())


def modeled_ms(label: str, latency_ms: int) -> float:
    """What the harness's model makes a piece take: an ATT write's latency, service resolution."""
    return {"WriteValue": latency_ms, "ServicesResolved": batch_bench.RESOLVE_MS}.get(label, 0)


def record_run(ztprov: str, adapters: list[str], work: str, works_during_latency: bool) -> dict:
    """One traced batch: the run, the bus, the mock's timeline and the syncs."""
    mock_timeline = os.path.join(work, "mock-timeline.jsonl")
    os.environ["ZTHARNESS_TIMELINE"] = mock_timeline
    try:
        with Harness(batch_bench.scenario(works_during_latency), netns=False, bus_record=False) as harness:
            address = harness.topology["bus_address"]
            monitor_out = open(os.path.join(work, "monitor.txt"), "w", encoding="utf-8")  # noqa: SIM115
            monitor = subprocess.Popen(["chrt", "-f", "50", "dbus-monitor", "--address", address, "--monitor"], stdout=monitor_out,
                                       stderr=subprocess.DEVNULL)
            time.sleep(0.5)
            devices = os.path.join(work, "devices.csv")
            with open(devices, "w", encoding="utf-8") as handle:
                handle.write("address\n" + "\n".join(batch_bench.DEVICES) + "\n")
            trace = os.path.join(work, "strace.txt")
            run = harness.run(["strace", "-f", "--seccomp-bpf", "-e", "trace=fdatasync,fsync,write", "-s", "120", "-ttt", "-T",
                               "-o",
                               trace, ztprov, "batch", "--path", "ble", "--adapters", ",".join(adapters), "--ssid",
                               "HomeNet", "--password-env", "ZTB_WIFI", "--station", "bench", "--db",
                               os.path.join(work, "line.db"), "--devices", devices, "--json"],
                              {"ZTB_WIFI": PASSWORD}, in_host_netns=False, timeout_s=600)
            time.sleep(0.3)
            monitor.terminate()
            monitor.wait()
            monitor_out.close()
    finally:
        os.environ.pop("ZTHARNESS_TIMELINE", None)
    with open(os.path.join(work, "monitor.txt"), encoding="utf-8", errors="replace") as handle:
        messages = parse_monitor(handle.read())
    with open(trace, encoding="utf-8") as handle:
        syncs, written = parse_strace(handle.read())
    with open(mock_timeline, encoding="utf-8") as handle:
        mock = [json.loads(line) for line in handle if line.strip()]
    events = _stamped(run.events, written)
    return {"run": run, "messages": messages, "syncs": syncs, "mock": mock, "events": events}


def _stamped(events: list, written: list) -> list:
    """Each JSON event with the time ztprov wrote it (from strace), matched in order per event name and lane."""
    queues = collections.defaultdict(collections.deque)
    for stamp, fields in written:
        queues[(fields["event"], fields.get("lane"))].append(stamp)
    out = []
    for _, event in events:
        queue = queues[(event.get("event"), event.get("lane"))]
        if queue:
            out.append((queue.popleft(), event))
    return out


def analyse(recorded: dict, latency_ms: int = batch_bench.LATENCY_MS) -> dict:
    """Per piece label: the median per steady-state cycle, its model, and one cycle's pieces in full."""
    owners = lanes_of(recorded["messages"])
    totals, cycle_lengths, example = collections.defaultdict(list), [], None
    for lane, owner in sorted(owners.items()):
        lane_cycles = cycles(recorded["events"], lane)[1:]
        for start, end, (recorded_at, record) in lane_cycles:
            cut = pieces(recorded["messages"], owner, start, end, recorded_at)
            cycle_lengths.append(end - start)
            sums = collections.defaultdict(float)
            for _, duration, kind, label in cut:
                sums[(kind, label)] += duration
            for key, value in sums.items():
                totals[key].append(value)
            if example is None:
                example = {"lane": lane, "device": record.get("device"), "pieces": cut, "start": start,
                           "steps": record.get("steps")}
    count = len(cycle_lengths)
    rows = []
    for (kind, label), values in totals.items():
        values += [0.0] * (count - len(values))
        rows.append({"kind": kind, "label": label, "median_ms": median(values) * 1000,
                     "mean_ms": sum(values) / count * 1000})
    syncs = recorded["syncs"]
    late = collections.defaultdict(list)
    for entry in recorded["mock"]:
        late[(entry["kind"], entry["name"].split(".<locals>")[0] + "." + entry["name"].rsplit(".", 1)[-1],
              round(entry["due_ms"]))].append(entry["late_ms"])
    return {"cycles": count, "cycle_ms": median(cycle_lengths) * 1000, "rows": rows, "example": example,
            "write_split": write_split(recorded["messages"], recorded["mock"]),
            "sync_ms": median(s["duration"] for s in syncs) * 1000 if syncs else None, "syncs": len(syncs),
            "units": len([e for _, e in recorded["events"] if e.get("event") == "attempt-recorded"]),
            "mock_late": {key: (len(v), median(v)) for key, v in late.items()}, "latency_ms": latency_ms}


def write_split(messages: list[dict], mock: list[dict]) -> dict:
    """Each WriteValue round trip split at the mock's answer timer (medians, ms): *pickup* = the call on the bus →
    the mock scheduling the answer, *timer* = scheduled → the answer sent (the modeled latency and the timer's
    lateness), *delivery* = the answer → the reply on the bus."""
    answers = sorted((entry["t"] - (entry["due_ms"] + entry["late_ms"]) / 1000, entry["t"])
                     for entry in mock if entry["name"].endswith("_answer_later.<locals>.answer"))
    replies = {(m["destination"], m["reply_serial"]): m["time"] for m in messages if m["type"] == "return"}
    pickup, timer, delivery, used = [], [], [], set()
    for call in messages:
        if call["type"] != "call" or call["member"] != "WriteValue":
            continue
        replied = replies.get((call["sender"], call["serial"]))
        if replied is None:
            continue
        match = next((i for i, (scheduled, ran) in enumerate(answers)
                      if i not in used and call["time"] - 0.0005 <= scheduled and ran <= replied + 0.0005), None)
        if match is None:
            continue
        used.add(match)
        scheduled, ran = answers[match]
        pickup.append(scheduled - call["time"])
        timer.append(ran - scheduled)
        delivery.append(replied - ran)
    return {"count": len(pickup), **{name: None if not values else median(values) * 1000
                                     for name, values in (("pickup", pickup), ("timer", timer),
                                                          ("delivery", delivery))}}


def report(result: dict, adapters: int, device_work: str, load: float) -> str:
    lines = [f"### Batch timeline: {adapters} adapter(s), the device's work {device_work}, {result['cycles']} "
             f"steady-state units (load {load:.1f})", "",
             f"Median cycle {result['cycle_ms']:.1f} ms. {result['syncs']} syncs for {result['units']} records "
             f"(median {fmt(result['sync_ms'], ' ms', 2)}).", "",
             "| kind | piece | per unit (median) | mean | model |", "|---|---|---|---|---|"]
    for row in sorted(result["rows"], key=lambda r: -r["mean_ms"]):
        model = modeled_ms(row["label"], result["latency_ms"])
        lines.append(f"| {row['kind']} | {row['label']} | {row['median_ms']:.1f} ms | {row['mean_ms']:.1f} ms | "
                     f"{'' if not model else f'{model} ms each'} |")
    split = result["write_split"]
    lines += ["", f"WriteValue round trips on the bus ({split['count']}), medians: call → the mock schedules its "
              f"answer {fmt(split['pickup'], ' ms', 2)}, the answer's timer {fmt(split['timer'], ' ms', 2)} "
              f"(model {result['latency_ms']} ms), answer → reply on the bus {fmt(split['delivery'], ' ms', 2)}."]
    lines += ["", "Mock callbacks (count, median lateness beyond their due time):", ""]
    for (kind, name, due), (count, lateness) in sorted(result["mock_late"].items(), key=lambda i: -i[1][0])[:14]:
        lines.append(f"- {kind} {name} due {due} ms: {count}×, late {lateness:.2f} ms")
    example = result["example"]
    if example:
        lines += ["", f"One unit in full ({example['lane']}, {example['device']}; record steps {example['steps']}):",
                  "", "| at | took | kind | piece |", "|---|---|---|---|"]
        for at, duration, kind, label in example["pieces"]:
            lines.append(f"| {(at - example['start']) * 1000:.1f} ms | {duration * 1000:.1f} ms | {kind} | {label} |")
    return "\n".join(lines) + "\n"


def measure(ztprov: str, adapters: int, device_work: str) -> str:
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="ztb-timeline-") as work:
        recorded = record_run(ztprov, batch_bench.ADAPTERS[:adapters], work, batch_bench.DEVICE_WORK[device_work])
        if recorded["run"].status != 0:
            raise RuntimeError(f"traced batch failed: {recorded['run'].stderr[-800:]}")
        return report(analyse(recorded), adapters, device_work, load)
