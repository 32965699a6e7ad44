"""What `harness.py received` and `harness.py calls` report, read from a run directory.

- BlueZ mock devices (BluFi, Improv, protocomm over BLE): the mock keeps <source>-<ADDRESS>.json per device; while the mock runs the
  record is asked for live (org.bluez.Mock.GetReceived) so it is never a few milliseconds behind.
- protocomm / zhiting: the device host appends JSON lines to device_host.jsonl, each with "source".
- Method calls: bus_recorder.py monitors the whole bus into bus.jsonl; a mock's calls are the
  method calls addressed to its well-known or unique name, each paired with its reply or error;
  calls on the mocks' control interfaces (the harness and tests steering them) are left out.
  For the NM mock the answer adds its state (GetNMState: profiles, active connections, device),
  live while it runs, else as saved by `down`.
"""

import glob
import json
import os

import dbus

from . import processes

BUS_RECORD = "bus.jsonl"
DEVICE_HOST_RECORD = "device_host.jsonl"
MOCK_NAMES = {"bluez": "org.bluez", "nm": "org.freedesktop.NetworkManager"}
CONTROL_INTERFACES = {"org.bluez.Mock", "org.freedesktop.DBus.Mock"}
NM_CONTROL_PATH = "/org/freedesktop"
NM_SNAPSHOT = "nm_state.json"
BLE_SOURCES = ("blufi", "improv", "protocomm_ble")


def clear(run_dir: str) -> None:
    """Removes records and readiness markers of an earlier run in the same directory."""
    stale = [path for source in BLE_SOURCES for path in glob.glob(os.path.join(run_dir, f"{source}-*.json"))]
    stale += glob.glob(os.path.join(run_dir, "*.ready"))
    stale += [os.path.join(run_dir, name) for name in (BUS_RECORD, DEVICE_HOST_RECORD, NM_SNAPSHOT)]
    for path in stale:
        if os.path.exists(path):
            os.unlink(path)


def _bus(state: dict) -> dbus.bus.BusConnection | None:
    try:
        return dbus.bus.BusConnection(state["bus_address"])
    except (dbus.exceptions.DBusException, KeyError, TypeError):
        return None


def _running(state: dict, name: str) -> bool:
    entry = state.get("pids", {}).get(name)
    return bool(entry) and processes.is_running(entry)


def ble_records(state: dict) -> list[dict]:
    """The record of every BlueZ mock device, BluFi, Improv or protocomm (each says which in "source")."""
    run_dir = state["run_dir"]
    from_files = {}
    paths = [path for source in BLE_SOURCES for path in glob.glob(os.path.join(run_dir, f"{source}-*.json"))]
    for path in sorted(paths):
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
        from_files[record["address"]] = record
    bus = _bus(state) if _running(state, "bluez_mock") else None
    if bus is None:
        return list(from_files.values())
    root = bus.get_object(MOCK_NAMES["bluez"], "/")
    records = []
    for device in state["scenario"]["bluez"]["devices"]:
        address = device["address"].upper()
        try:
            records.append(json.loads(root.GetReceived(address, dbus_interface="org.bluez.Mock", timeout=2)))
        except dbus.exceptions.DBusException:
            if address in from_files:
                records.append(from_files[address])
    bus.close()
    return records


def device_host_records(run_dir: str, source: str | None) -> list[dict]:
    path = os.path.join(run_dir, DEVICE_HOST_RECORD)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        entries = [json.loads(line) for line in handle if line.strip()]
    return [e for e in entries if source is None or e.get("source") == source]


def received(state: dict, source: str | None) -> list[dict]:
    items = []
    if source in (None, *BLE_SOURCES):
        items += [r for r in ble_records(state) if source is None or r.get("source") == source]
    if source not in BLE_SOURCES:
        items += device_host_records(state["run_dir"], source)
    return items


def _bus_entries(run_dir: str) -> list[dict]:
    path = os.path.join(run_dir, BUS_RECORD)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def method_calls(state: dict, mock: str) -> list[dict]:
    entries = _bus_entries(state["run_dir"])
    names = {MOCK_NAMES[mock], state.get("mocks", {}).get(mock)} - {None}
    answers = {(e["destination"], e["reply_serial"]): e for e in entries if e["type"] in ("return", "error")}
    calls = []
    for entry in entries:
        if (entry["type"] != "call" or entry["destination"] not in names
                or entry["interface"] in CONTROL_INTERFACES):
            continue
        call = {"time": entry["time"], "sender": entry["sender"], "path": entry["path"],
                "interface": entry["interface"], "method": entry["member"], "args": entry.get("args")}
        answer = answers.get((entry["sender"], entry["serial"]))
        if answer is None:
            call["reply"] = None
        elif answer["type"] == "error":
            message = answer.get("args") or [""]
            call["error"] = {"name": answer["error"], "message": message[0] if message else ""}
        else:
            call["reply"] = answer.get("args")
        calls.append(call)
    return calls


def _live_nm_state(state: dict) -> dict | None:
    """GetNMState of the NM mock (profiles, active connections, device, access points, events)."""
    bus = _bus(state) if _running(state, "nm_mock") else None
    if bus is None:
        return None
    try:
        manager = bus.get_object(MOCK_NAMES["nm"], NM_CONTROL_PATH)
        return json.loads(manager.GetNMState(dbus_interface="org.freedesktop.DBus.Mock", timeout=2))
    except dbus.exceptions.DBusException:
        return None
    finally:
        bus.close()


def snapshot_nm_state(state: dict) -> None:
    """Keeps the NM mock's last state for `calls --mock nm` after `down`."""
    live = _live_nm_state(state)
    if live is not None:
        with open(os.path.join(state["run_dir"], NM_SNAPSHOT), "w", encoding="utf-8") as handle:
            json.dump(live, handle, indent=1)


def nm_state(state: dict) -> dict | None:
    live = _live_nm_state(state)
    if live is not None:
        return live
    path = os.path.join(state["run_dir"], NM_SNAPSHOT)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            return {**json.load(handle), "snapshot_at_down": True}
    return None


def calls(state: dict, mock: str | None) -> dict:
    result = {}
    for name in ([mock] if mock else list(MOCK_NAMES)):
        entry = {"calls": method_calls(state, name)}
        if name == "nm":
            entry["state"] = nm_state(state)
        result[name] = entry
    return result[mock] if mock else result
