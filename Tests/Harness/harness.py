#!/usr/bin/python3
"""Radio-free test harness for ztprov: up | down | status | received | calls.

Every command prints JSON on stdout and diagnostics on stderr, and exits 0 on success.
  up --run-dir DIR [--scenario FILE | --scenario-json JSON] [--no-netns] [--no-bus-record]
  down --run-dir DIR
  status --run-dir DIR
  received --run-dir DIR [--source blufi|improv|protocomm_ble|protocomm|zhiting]
  calls --run-dir DIR [--mock bluez|nm]
`up` starts a private system bus (+ a recorder of all its messages, unless --no-bus-record: a benchmark
that reads no record spares the two cores the recorder's work), the BlueZ and NetworkManager mocks, two network namespaces joined by a veth pair and the device host in the device namespace.
Everything started is recorded in DIR/state.json before it is started, so `down` removes it even
after a crashed or failed `up`, and running `down` twice is harmless.
"""

import argparse
import json
import os
import sys
import time

HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HARNESS_DIR)

import dbus  # noqa: E402

from ztharness import bus, netns, processes, records, scenario, stale  # noqa: E402

PYTHON = "/usr/bin/python3"
PACKAGE_DIR = os.path.join(HARNESS_DIR, "ztharness")
BLUEZ_TEMPLATE = os.path.join(PACKAGE_DIR, "bluez_blufi_template.py")
NM_TEMPLATE = os.path.join(PACKAGE_DIR, "nm_softap_template.py")
STARTUP_TIMEOUT_S = 30.0  # generous: bounds a real failure; a loaded CI can stall start-up for seconds
NO_NETNS_WIFI_INTERFACE = "wlan0"
STOP_ORDER = ("device_host", "nm_mock", "bluez_mock", "bus_recorder", "dbus_daemon")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def emit(document) -> None:
    print(json.dumps(document, indent=1))


def child_env(bus_address: str) -> dict:
    env = dict(os.environ)
    env["DBUS_SYSTEM_BUS_ADDRESS"] = bus_address
    env["PYTHONPATH"] = HARNESS_DIR
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    return env


# up ---------------------------------------------------------------------------------------------

def read_scenario(options) -> dict:
    if options.scenario:
        with open(options.scenario, encoding="utf-8") as handle:
            return scenario.load(handle.read())
    return scenario.load(options.scenario_json)


def start_mock(state: dict, name: str, template: str, parameters: dict, env: dict) -> None:
    run_dir = state["run_dir"]
    argv = [PYTHON, "-m", "dbusmock", "--template", template,
            "-l", os.path.join(run_dir, f"{name}.log"), "-p", json.dumps(parameters)]
    processes.spawn(state, name, argv, run_dir, env=env)


def start_everything(state: dict, use_netns: bool, record_bus: bool) -> list:
    """Starts the components; returns the readiness checks still to pass."""
    run_dir = state["run_dir"]
    address = bus.start(run_dir, state)
    state["bus_address"] = address
    processes.save_state(state)
    env = child_env(address)
    waits = []
    if record_bus:
        recorder_ready = os.path.join(run_dir, "bus_recorder.ready")
        processes.spawn(state, "bus_recorder", [
            PYTHON, "-m", "ztharness.bus_recorder", "--address", address,
            "--out", os.path.join(run_dir, records.BUS_RECORD), "--ready-file", recorder_ready], run_dir, env=env)
        waits.append(("bus_recorder", lambda: os.path.exists(recorder_ready)))

    start_mock(state, "bluez_mock", BLUEZ_TEMPLATE, {**state["scenario"]["bluez"], "record_dir": run_dir}, env)
    waits.append(("bluez_mock", name_owned(address, records.MOCK_NAMES["bluez"])))

    topology = netns.reserve(state["owner"]) if use_netns else None
    if topology:
        state["netns"] = topology
        processes.save_state(state)
    wifi_interface = topology["host_interface"] if topology else NO_NETNS_WIFI_INTERFACE
    start_mock(state, "nm_mock", NM_TEMPLATE, {**state["scenario"]["nm"], "interface": wifi_interface}, env)
    waits.append(("nm_mock", name_owned(address, records.MOCK_NAMES["nm"])))

    if topology:
        netns.connect(topology)
        waits.append(("device_host", start_device_host(state, topology, env)))
    return waits


def start_device_host(state: dict, topology: dict, env: dict):
    run_dir = state["run_dir"]
    config = os.path.join(run_dir, "device_host.json")
    with open(config, "w", encoding="utf-8") as handle:
        json.dump(state["scenario"]["device_host"], handle, indent=1)
    ready = os.path.join(run_dir, "device_host.ready")
    processes.spawn(state, "device_host", netns.exec_prefix(topology["device_netns"]) + [
        PYTHON, "-m", "ztharness.device_host", "--config", config,
        "--record", os.path.join(run_dir, records.DEVICE_HOST_RECORD), "--ready-file", ready], run_dir, env=env)
    return lambda: os.path.exists(ready)


def name_owned(address: str, name: str):
    connection = {}

    def check() -> bool:
        if "bus" not in connection:
            connection["bus"] = dbus.bus.BusConnection(address)
        return bool(connection["bus"].name_has_owner(name))

    return check


def wait_ready(state: dict, waits: list) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    pending = list(waits)
    while pending:
        for name, _ in pending:
            processes.require_alive(state, name, state["run_dir"])
        pending = [(name, check) for name, check in pending if not check()]
        if pending and time.monotonic() > deadline:
            raise processes.StartupError(f"not ready after {STARTUP_TIMEOUT_S} s: {[n for n, _ in pending]}")
        time.sleep(0.01)


def record_unique_names(state: dict) -> None:
    connection = dbus.bus.BusConnection(state["bus_address"])
    for mock, name in records.MOCK_NAMES.items():
        if connection.name_has_owner(name):
            state["mocks"][mock] = str(connection.get_name_owner(name))
    connection.close()
    processes.save_state(state)


def command_up(options) -> int:
    run_dir = os.path.abspath(options.run_dir)
    os.makedirs(run_dir, exist_ok=True)
    previous = processes.load_state(run_dir)
    if previous:
        log("harness: cleaning up the previous run in this directory first")
        teardown(previous)
    records.clear(run_dir)
    try:
        chosen = read_scenario(options)
    except (OSError, scenario.ScenarioError) as error:
        emit({"error": str(error)})
        return 2
    began = time.monotonic()
    owner = stale.owner_pid()
    os.environ[stale.OWNER_VARIABLE] = str(owner)
    for removed in stale.sweep():
        log(f"harness: removed {removed}, left by a test run that was killed")
    state = {"run_dir": run_dir, "owner": owner, "bus_address": None, "pids": {},
             "netns": None, "mocks": {}, "scenario": chosen, "use_netns": not options.no_netns}
    processes.save_state(state)
    try:
        wait_ready(state, start_everything(state, not options.no_netns, not options.no_bus_record))
        record_unique_names(state)
    except (processes.StartupError, netns.NetnsError, OSError, dbus.exceptions.DBusException) as error:
        log(f"harness: up failed: {error}")
        emit({"error": str(error), "removed": teardown(state)})
        return 1
    log(f"harness: up in {time.monotonic() - began:.3f} s")
    topology = state["netns"] or {}
    emit({"run_dir": run_dir, "bus_address": state["bus_address"],
          "host_netns": topology.get("host_netns"), "device_netns": topology.get("device_netns"),
          "host_interface": topology.get("host_interface"), "device_interface": topology.get("device_interface"),
          "host_ip": netns.HOST_IP, "device_ip": netns.DEVICE_IP,
          "pids": {name: entry["pid"] for name, entry in state["pids"].items()}})
    return 0


# down / status ----------------------------------------------------------------------------------

def teardown(state: dict) -> list[str]:
    records.snapshot_nm_state(state)
    removed = []
    names = sorted(state.get("pids", {}), key=lambda n: STOP_ORDER.index(n) if n in STOP_ORDER else -1)
    for name in names:
        entry = state["pids"][name]
        if processes.stop(entry):
            removed.append(f"process {name} (pid {entry['pid']})")
    if state.get("netns"):
        removed += netns.delete(state["netns"])
    if bus.remove_socket(state["run_dir"]):
        removed.append("bus socket")
    return removed


def command_down(options) -> int:
    run_dir = os.path.abspath(options.run_dir)
    state = processes.load_state(run_dir)
    if state is None:
        emit({"run_dir": run_dir, "removed": [], "note": "no state.json: nothing was started here"})
        return 0
    emit({"run_dir": run_dir, "removed": teardown(state)})
    return 0


def command_status(options) -> int:
    run_dir = os.path.abspath(options.run_dir)
    state = processes.load_state(run_dir)
    if state is None:
        emit({"run_dir": run_dir, "up": False, "note": "no state.json"})
        return 0
    running = {name: {"pid": entry["pid"], "running": processes.is_running(entry)}
               for name, entry in state["pids"].items()}
    namespaces = {state["netns"][key]: netns.exists(state["netns"][key])
                  for key in ("host_netns", "device_netns")} if state.get("netns") else {}
    emit({"run_dir": run_dir, "up": bool(running) and all(p["running"] for p in running.values()),
          "bus_address": state["bus_address"], "bus_socket": os.path.exists(bus.socket_path(run_dir)),
          "processes": running, "netns": namespaces, "mocks": state.get("mocks", {})})
    return 0


# received / calls -------------------------------------------------------------------------------

def emit_from_state(options, read) -> int:
    """Prints what `read` finds in the run's state.json, or that there is none (exit status 1)."""
    state = processes.load_state(os.path.abspath(options.run_dir))
    if state is None:
        emit({"error": f"no state.json in {options.run_dir}"})
        return 1
    emit(read(state))
    return 0


def command_received(options) -> int:
    return emit_from_state(options, lambda state: records.received(state, options.source))


def command_calls(options) -> int:
    return emit_from_state(options, lambda state: records.calls(state, options.mock))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    up = commands.add_parser("up")
    up.add_argument("--run-dir", required=True)
    chosen = up.add_mutually_exclusive_group()
    chosen.add_argument("--scenario")
    chosen.add_argument("--scenario-json")
    up.add_argument("--no-netns", action="store_true")
    up.add_argument("--no-bus-record", action="store_true")
    for name in ("down", "status"):
        commands.add_parser(name).add_argument("--run-dir", required=True)
    received = commands.add_parser("received")
    received.add_argument("--run-dir", required=True)
    received.add_argument("--source", choices=("blufi", "improv", "protocomm_ble", "protocomm", "zhiting"))
    calls = commands.add_parser("calls")
    calls.add_argument("--run-dir", required=True)
    calls.add_argument("--mock", choices=tuple(records.MOCK_NAMES))
    options = parser.parse_args()
    if options.command == "up" and not options.no_netns and os.geteuid() != 0:
        emit({"error": "up needs root for network namespaces (or use --no-netns)"})
        return 1
    handler = {"up": command_up, "down": command_down, "status": command_status,
               "received": command_received, "calls": command_calls}[options.command]
    return handler(options)


if __name__ == "__main__":
    sys.exit(main())
