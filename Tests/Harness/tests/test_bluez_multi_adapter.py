"""One device heard by several adapters (factory line): one peripheral, one view per adapter, one link."""

import json
import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from test_bluez_mock import (ADAPTER, CHARACTERISTIC, DEVICE, Client,  # noqa: E402
                             device_path, expect_error, get_version, pytestmark)
from mock_harness import mock_harness  # noqa: E402
from ztharness import scenario  # noqa: E402

__all__ = ["pytestmark"]

ADAPTERS = [f"hci{n}" for n in range(4)]
FAST = {"advertise_delay_ms": 20, "resolve_delay_ms": 20}
UNITS = [f"24:0A:C4:10:00:{n:02X}" for n in range(12)]
LOSSY_UNIT, REFUSING_UNIT = UNITS[10], UNITS[11]
LATENCY_MS, WRITES = 150, 5
NEAR_HCI2 = {"hci0": -80, "hci1": -71, "hci2": -38, "hci3": -66}
# These tests connect while every adapter discovers, to see one link per unit; how slow such a connect is
# has its own tests (test_bluez_connect_while_discovering.py).
SCENARIO = {"bluez": {
    "connect_timeout_ms": 400, "connect_while_discovering_ms": 0,
    "adapters": [{"name": name, "address": f"00:AA:BB:CC:DE:0{n}"} for n, name in enumerate(ADAPTERS)],
    "devices": [{"adapters": ADAPTERS, "address": address, "name": f"ZT_UNIT_{n}", **FAST,
                 "write_latency_ms": LATENCY_MS if n < 4 else 0, **({"rssi": NEAR_HCI2} if n == 9 else {}),
                 "faults": ({"link_loss_at_frame": 1} if address == LOSSY_UNIT
                            else {"connect_fail_first_n": 1} if address == REFUSING_UNIT else {})}
                for n, address in enumerate(UNITS)]}}
STARTUP_LIMIT_S = 10.0


def test_scenario_completes_adapters_and_keeps_the_single_adapter_key():
    two = [{"name": "hci0"}, {"name": "hci1"}]
    completed = scenario.bluez_with_defaults({"adapters": two, "devices": [{"adapters": ["hci1", "hci0"]}, {}]})
    assert [(d["adapter"], d["adapters"]) for d in completed["devices"]] == [
        ("hci1", ["hci1", "hci0"]), ("hci0", ["hci0"])]
    assert scenario.bluez_with_defaults(completed) == completed, "completing twice changes nothing"
    for wrong in ({"adapters": ["hci9"]}, {"adapters": []}, {"adapters": ["hci0", "hci0"]},
                  {"adapter": "hci0", "adapters": ["hci1"]}, {"adapters": ["hci0", "hci1"], "rssi": {"hci0": -40}},
                  {"adapters": ["hci0"], "rssi": {"hci0": -40, "hci1": -60}}):
        with pytest.raises(scenario.ScenarioError):
            scenario.bluez_with_defaults({"adapters": two, "devices": [wrong]})


@pytest.fixture(scope="module")
def line(tmp_path_factory):
    run_dir = str(tmp_path_factory.mktemp("factory-line"))
    began = time.monotonic()
    with mock_harness(run_dir, SCENARIO, timeout=60) as up:
        startup = time.monotonic() - began
        client = Client(up["bus_address"])
        yield {"client": client, "startup_s": startup}
        client.close()


def discover_everywhere(client: Client) -> None:
    for adapter in ADAPTERS:
        # Under a filter BlueZ reports every advertisement's RSSI, which shows who is advertising.
        client.call(f"/org/bluez/{adapter}", ADAPTER, "SetDiscoveryFilter", "a{sv}", ({"Transport": "le"},))
        client.call(f"/org/bluez/{adapter}", ADAPTER, "StartDiscovery")
    client.wait_for(lambda: all(device_path(u, a) in client.objects() for u in UNITS for a in ADAPTERS),
                    what="every unit on every adapter")


def connect(client: Client, address: str, adapter: str) -> None:
    client.call(device_path(address, adapter), DEVICE, "Connect")
    client.wait_for(lambda: client.get(device_path(address, adapter), DEVICE, "ServicesResolved"),
                    what=f"services of {address} on {adapter}")


def record(client: Client, address: str) -> dict:
    return json.loads(client.call("/", "org.bluez.Mock", "GetReceived", "s", (address,)))


def test_four_adapters_with_twelve_units_come_up_fast_and_all_hear_all(line):
    assert line["startup_s"] < STARTUP_LIMIT_S
    discover_everywhere(line["client"])


def test_each_adapter_hears_a_unit_at_its_own_strength(line):
    client = line["client"]
    if not client.get(f"/org/bluez/{ADAPTERS[0]}", ADAPTER, "Discovering"):
        discover_everywhere(client)
    client.wait_for(lambda: all(device_path(UNITS[9], a) in client.objects() for a in ADAPTERS), what="unit 9")
    assert {a: client.get(device_path(UNITS[9], a), DEVICE, "RSSI") for a in ADAPTERS} == NEAR_HCI2
    assert {client.get(device_path(UNITS[8], a), DEVICE, "RSSI") for a in ADAPTERS} == {-52}


def test_a_connected_unit_stops_advertising_and_blocks_the_other_adapters(line):
    client, unit = line["client"], UNITS[5]
    connect(client, unit, "hci0")
    assert not client.get(device_path(unit, "hci1"), DEVICE, "Connected")
    client.pump(1.3)  # more than one report interval of the running discoveries
    # The mock sends in order, so reports before its Connected=True signal predate the connection
    # (a loaded machine may deliver them late); only what follows that signal must be silent.
    silent_from = 1 + max(index for index, (path, _, member, args) in enumerate(client.signals)
                          if path == device_path(unit, "hci0") and member == "PropertiesChanged"
                          and bool(args[1].get("Connected", False)))
    rssi_paths = {path for path, _, member, args in client.signals[silent_from:]
                  if member == "PropertiesChanged" and "RSSI" in args[1]}
    assert not {device_path(unit, a) for a in ADAPTERS} & rssi_paths
    assert device_path(UNITS[6], "hci1") in rssi_paths

    began = time.monotonic()
    expect_error("org.bluez.Error.Failed", client.call, device_path(unit, "hci1"), DEVICE, "Connect")
    assert time.monotonic() - began >= 0.35, "the attempt waits for an advertisement until the timeout"

    waiting = []
    client.bus.get_object("org.bluez", device_path(unit, "hci2")).Connect(
        dbus_interface=DEVICE, reply_handler=lambda: waiting.append("ok"),
        error_handler=lambda e: waiting.append(e.get_dbus_name()))
    client.pump(0.1)
    assert waiting == []
    client.call(device_path(unit, "hci0"), DEVICE, "Disconnect")
    client.wait_for(lambda: waiting == ["ok"], what="the waiting connect to complete")
    assert client.get(device_path(unit, "hci2"), DEVICE, "Connected")
    events = record(client, unit)["ble"]["events"]
    assert [e["detail"] for e in events if e["event"] == "connected"] == ["hci0", "hci2"]
    assert record(client, unit)["adapter"] == "hci2"
    client.call(device_path(unit, "hci2"), DEVICE, "Disconnect")


def test_faults_count_per_device_across_adapters(line):
    client = line["client"]
    expect_error("org.bluez.Error.Failed", client.call, device_path(REFUSING_UNIT, "hci0"), DEVICE, "Connect")
    connect(client, REFUSING_UNIT, "hci3")

    connect(client, LOSSY_UNIT, "hci1")
    ff01 = f"{device_path(LOSSY_UNIT, 'hci1')}/service0028/char0029"
    client.call(ff01, CHARACTERISTIC, "WriteValue", "aya{sv}", (get_version(0), {}))
    client.wait_for(lambda: not client.get(device_path(LOSSY_UNIT, "hci1"), DEVICE, "Connected"), what="link loss")
    connect(client, LOSSY_UNIT, "hci2")
    assert {"event": "disconnected", "detail": "link-loss"} in record(client, LOSSY_UNIT)["ble"]["events"]
    for unit, adapter in ((REFUSING_UNIT, "hci3"), (LOSSY_UNIT, "hci2")):
        client.call(device_path(unit, adapter), DEVICE, "Disconnect")


def test_write_latency_runs_concurrently_on_four_adapters(line):
    """Four slow units, one per adapter, each taking WRITES acknowledged writes in a row.

    Concurrency is judged by order, not by a time bound a loaded machine could break: every unit's
    first write is acknowledged before any unit's last one, which a mock that served the units one
    after another could not do.
    """
    client = line["client"]
    for adapter, unit in zip(ADAPTERS, UNITS[:4]):
        connect(client, unit, adapter)
    done = {unit: 0 for unit in UNITS[:4]}
    acknowledged: dict[str, list[float]] = {unit: [] for unit in UNITS[:4]}

    def write_next(adapter: str, unit: str, seq: int) -> None:
        if seq == WRITES:
            return
        characteristic = client.bus.get_object("org.bluez", f"{device_path(unit, adapter)}/service0028/char0029")

        def written() -> None:
            done[unit] += 1
            acknowledged[unit].append(time.monotonic())
            write_next(adapter, unit, seq + 1)

        characteristic.WriteValue(get_version(seq), {}, dbus_interface=CHARACTERISTIC, reply_handler=written,
                                  error_handler=lambda e: pytest.fail(str(e)))

    began = time.monotonic()
    for adapter, unit in zip(ADAPTERS, UNITS[:4]):
        write_next(adapter, unit, 0)
    client.wait_for(lambda: all(n == WRITES for n in done.values()), timeout=10, what="all writes")
    elapsed = time.monotonic() - began
    assert elapsed >= WRITES * LATENCY_MS / 1000, f"{elapsed:.2f} s: the modeled latency was not applied"
    first_acks = max(times[0] for times in acknowledged.values())
    last_acks = min(times[-1] for times in acknowledged.values())
    assert first_acks < last_acks, "the units' writes were served one unit after another"
    assert all(record(client, unit)["ble"]["writes"] == WRITES for unit in UNITS[:4])
