"""The BlueZ mock on a private bus: bleak as an independent client, then discovery-filter semantics,
GATT rules, fault injection and cleanup checked with direct D-Bus calls (dbus-python)."""

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

HARNESS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, HARNESS_DIR)

import dbus  # noqa: E402
import dbus.mainloop.glib  # noqa: E402
from gi.repository import GLib  # noqa: E402
from mock_harness import mock_harness  # noqa: E402

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="BlueZ mock tests need root (CI runs as root)"),
    pytest.mark.skipif(shutil.which("dbus-daemon") is None, reason="dbus-daemon is not installed"),
]

PYTHON = "/usr/bin/python3"
BLUEZ = "org.bluez"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
PROPERTIES = "org.freedesktop.DBus.Properties"
FAST = {"advertise_delay_ms": 50, "resolve_delay_ms": 50}
FAULTY, LOSSY, SLOW, SOCKETS = "24:0A:C4:00:00:01", "24:0A:C4:00:00:02", "24:0A:C4:00:00:03", "24:0A:C4:00:00:04"
FAR, HRM = "24:0A:C4:00:01:01", "AA:BB:CC:00:01:02"
DEFAULT_ADDRESS = "24:0A:C4:12:34:56"
SCENARIO = {"bluez": {
    "adapters": [{"name": "hci0", "address": "00:AA:BB:CC:DD:00"},
                 {"name": "hci1", "address": "00:AA:BB:CC:DD:01"}],
    "devices": [
        {},
        {"address": FAULTY, "name": "BLUFI_FAULTY", **FAST,
         "faults": {"in_progress_first_n": 1, "connect_fail_first_n": 1, "link_loss_at_frame": 2}},
        {"address": LOSSY, "name": "BLUFI_LOSSY", **FAST,
         "faults": {"drop_notification": 1, "corrupt_notification": 2}},
        {"address": SLOW, "name": "BLUFI_SLOW", "write_latency_ms": 300, "mtu": 23, **FAST},
        {"address": SOCKETS, "name": "BLUFI_SOCKETS", "p2e_flags": ["write", "write-without-response"],
         "mtu": 247, **FAST},
        {"adapter": "hci1", "address": FAR, "name": "BLUFI_FAR", "rssi": -70, **FAST},
        {"adapter": "hci1", "address": HRM, "name": "HRM", "uuids": ["180d"], "rssi": -40,
         "manufacturer": {}, **FAST},
    ]}}


def device_path(address: str, adapter: str = "hci0") -> str:
    return f"/org/bluez/{adapter}/dev_{address.replace(':', '_')}"


def char_path(address: str, uuid16: str) -> str:
    handle = {"ff01": "0029", "ff02": "002b"}[uuid16]
    return f"{device_path(address)}/service0028/char{handle}"


def get_version(seq: int) -> dbus.Array:
    return dbus.Array([dbus.Byte(b) for b in (0x1C, 0x00, seq, 0x00)], signature="y")


class Client:
    """A dbus-python connection that records every signal and can wait for conditions."""

    def __init__(self, address: str):
        self.bus = dbus.bus.BusConnection(address, mainloop=dbus.mainloop.glib.DBusGMainLoop())
        self.signals = []
        self.bus.add_signal_receiver(self._record, path_keyword="path", member_keyword="member",
                                     interface_keyword="interface")

    def _record(self, *args, path=None, member=None, interface=None):
        self.signals.append((path, interface, member, args))

    def call(self, path, interface, method, signature="", args=(), timeout=5):
        return self.bus.call_blocking(BLUEZ, path, interface, method, signature, args, timeout=timeout,
                                      byte_arrays=True)

    def get(self, path, interface, name):
        return self.call(path, PROPERTIES, "Get", "ss", (interface, name))

    def objects(self) -> dict:
        return self.call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")

    def pump(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            GLib.MainContext.default().iteration(False) or time.sleep(0.005)

    def wait_for(self, predicate, timeout=3.0, what="condition"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            GLib.MainContext.default().iteration(False)
            result = predicate()
            if result:
                return result
            time.sleep(0.005)
        raise AssertionError(f"timed out waiting for {what}")

    def changed(self, path, name):
        """Values of `name` from PropertiesChanged signals of `path`, in order."""
        return [args[1][name] for p, _, member, args in self.signals
                if p == path and member == "PropertiesChanged" and name in args[1]]

    def added(self, path):
        return [args for p, _, member, args in self.signals if member == "InterfacesAdded" and args[0] == path]

    def close(self):
        self.bus.close()


def expect_error(name: str, call, *args, **kwargs) -> str:
    with pytest.raises(dbus.exceptions.DBusException) as caught:
        call(*args, **kwargs)
    assert caught.value.get_dbus_name() == name, caught.value
    return caught.value.get_dbus_message()


def serve_for_module(tmp_path_factory, name: str, scenario: dict):
    """The body of a module's `harness` fixture: the mock serving `scenario` for dbus-python clients;
    yields the run directory with what `harness.py up` printed."""
    run_dir = str(tmp_path_factory.mktemp(name))
    with mock_harness(run_dir, scenario) as up:
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        yield {"run_dir": run_dir, **up}


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory, "bluez-mock", SCENARIO)


@pytest.fixture(scope="module")
def client(harness):
    connection = Client(harness["bus_address"])
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def hci0_known(client):
    """Runs one unfiltered discovery on hci0 so that its devices are known objects."""
    client.call("/org/bluez/hci0", ADAPTER, "StartDiscovery")
    client.wait_for(lambda: all(device_path(a) in client.objects() for a in (FAULTY, LOSSY, SLOW, SOCKETS)),
                    what="hci0 devices")
    client.call("/org/bluez/hci0", ADAPTER, "StopDiscovery")
    return client


def connect(client: Client, address: str) -> None:
    client.call(device_path(address), DEVICE, "Connect")
    client.wait_for(lambda: client.get(device_path(address), DEVICE, "ServicesResolved"), what="services")


def test_bleak_check_passes(harness, hci0_known):
    result = subprocess.run([PYTHON, os.path.join(HARNESS_DIR, "bleak_check.py")], capture_output=True,
                            text=True, timeout=60,
                            env={**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": harness["bus_address"]})
    assert result.returncode == 0, result.stderr
    assert "bleak check passed" in result.stderr


def test_filter_arguments_are_checked(client):
    path = "/org/bluez/hci1"
    filters = client.call(path, ADAPTER, "GetDiscoveryFilters")
    assert set(filters) == {"UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"}
    invalid = "org.bluez.Error.InvalidArguments"
    expect_error(invalid, client.call, path, ADAPTER, "SetDiscoveryFilter", "a{sv}", ({"Colour": "blue"},))
    expect_error(invalid, client.call, path, ADAPTER, "SetDiscoveryFilter", "a{sv}", ({"RSSI": dbus.Int32(-60)},))
    expect_error(invalid, client.call, path, ADAPTER, "SetDiscoveryFilter", "a{sv}",
                 ({"RSSI": dbus.Int16(-60), "Pathloss": dbus.UInt16(20)},))
    expect_error(invalid, client.call, path, ADAPTER, "SetDiscoveryFilter", "a{sv}", ({"Transport": "usb"},))
    expect_error(invalid, client.call, path, ADAPTER, "SetDiscoveryFilter", "a{sv}", ({"UUIDs": ["xyz"]},))
    expect_error("org.freedesktop.DBus.Error.UnknownMethod", client.call, path, ADAPTER, "SetDiscoveryFilter",
                 "s", ("UUIDs",))
    expect_error("org.bluez.Error.Failed", client.call, path, ADAPTER, "StopDiscovery")


def discover(client: Client, properties: dict, seconds: float = 0.3) -> None:
    path = "/org/bluez/hci1"
    client.call(path, ADAPTER, "SetDiscoveryFilter", "a{sv}", (properties,))
    client.call(path, ADAPTER, "StartDiscovery")
    client.pump(seconds)
    client.call(path, ADAPTER, "StopDiscovery")
    client.pump(0.05)


def test_a_stopped_discovery_keeps_its_filter_for_the_next_start(client):
    path, far, hrm = "/org/bluez/hci1", device_path(FAR, "hci1"), device_path(HRM, "hci1")

    def forget() -> None:
        for device in (far, hrm):
            if device in client.objects():
                client.call(path, ADAPTER, "RemoveDevice", "o", (device,))
        client.wait_for(lambda: far not in client.objects() and hrm not in client.objects(), what="removal")

    forget()
    discover(client, {"Pattern": "HR"})
    forget()
    client.call(path, ADAPTER, "StartDiscovery")
    client.pump(0.3)
    client.call(path, ADAPTER, "StopDiscovery")
    objects = client.objects()
    assert hrm in objects and far not in objects, "StartDiscovery uses the filter StopDiscovery kept"

    forget()
    discover(client, {})
    assert far in client.objects(), "an empty filter clears the kept one"
    forget()


def test_filters_decide_which_devices_appear(client):
    far, hrm = device_path(FAR, "hci1"), device_path(HRM, "hci1")
    discover(client, {"Transport": "bredr"})
    discover(client, {"UUIDs": ["ffff"], "RSSI": dbus.Int16(-60)})
    assert far not in client.objects() and hrm not in client.objects()

    discover(client, {"UUIDs": ["0000FFFF-0000-1000-8000-00805F9B34FB"], "Transport": "le"})
    objects = client.objects()
    assert far in objects and hrm not in objects
    added = client.added(far)[-1][1][DEVICE]
    assert added["RSSI"] == -70 and added["Name"] == "BLUFI_FAR"
    assert added["ManufacturerData"].signature == "qv" and bytes(added["ManufacturerData"][0x02E5]) == b"\x01\x02"
    assert "RSSI" not in objects[far][DEVICE], "RSSI is invalidated when discovery stops"

    discover(client, {"Pattern": "HR"})
    assert hrm in client.objects()

    client.call("/org/bluez/hci1", ADAPTER, "RemoveDevice", "o", (far,))
    assert far not in client.objects()
    client.wait_for(lambda: any(m == "InterfacesRemoved" and a[0] == far for _, _, m, a in client.signals),
                    what="InterfacesRemoved")
    expect_error("org.bluez.Error.DoesNotExist", client.call, "/org/bluez/hci1", ADAPTER, "RemoveDevice", "o", (far,))


def test_known_device_gets_rssi_update_instead_of_interfaces_added(client):
    hrm = device_path(HRM, "hci1")
    discover(client, {"Pattern": "HR"})
    additions = len(client.added(hrm))
    discover(client, {"Pattern": "AA:BB"})
    assert len(client.added(hrm)) == additions
    assert client.changed(hrm, "RSSI")[-1] == -40
    assert client.changed("/org/bluez/hci1", "Discovering")[-2:] == [True, False]


def test_discovery_is_per_client_and_ends_when_the_client_leaves(harness, client):
    other = Client(harness["bus_address"])
    other.call("/org/bluez/hci1", ADAPTER, "StartDiscovery")
    expect_error("org.bluez.Error.InProgress", other.call, "/org/bluez/hci1", ADAPTER, "StartDiscovery")
    client.call("/org/bluez/hci1", ADAPTER, "StartDiscovery")
    client.call("/org/bluez/hci1", ADAPTER, "StopDiscovery")
    assert client.get("/org/bluez/hci1", ADAPTER, "Discovering")
    other.close()
    client.wait_for(lambda: not client.get("/org/bluez/hci1", ADAPTER, "Discovering"), what="session end")


def test_connect_faults_then_gatt_tree(hci0_known):
    client = hci0_known
    path = device_path(FAULTY)
    expect_error("org.bluez.Error.InProgress", client.call, path, DEVICE, "Connect")
    message = expect_error("org.bluez.Error.Failed", client.call, path, DEVICE, "Connect")
    assert message == "le-connection-abort-by-local"
    connect(client, FAULTY)
    assert client.get(path, DEVICE, "Connected")
    client.call(path, DEVICE, "Connect")  # already connected: success, like BlueZ
    objects = client.objects()
    ff01, ff02 = char_path(FAULTY, "ff01"), char_path(FAULTY, "ff02")
    assert objects[ff01][CHARACTERISTIC]["Flags"] == ["write"]
    assert objects[ff02][CHARACTERISTIC]["Flags"] == ["read", "notify"]
    assert objects[ff02][CHARACTERISTIC]["MTU"] == 185
    assert f"{ff02}/desc002d" in objects
    assert "0000ffff-0000-1000-8000-00805f9b34fb" in client.get(path, DEVICE, "UUIDs")


def test_link_loss_at_frame_keeps_cached_gatt_and_notify_session(hci0_known):
    client = hci0_known
    path, ff01, ff02 = device_path(FAULTY), char_path(FAULTY, "ff01"), char_path(FAULTY, "ff02")
    if not client.get(path, DEVICE, "Connected"):
        connect(client, FAULTY)
    client.call(ff02, CHARACTERISTIC, "StartNotify")
    client.call(ff01, CHARACTERISTIC, "WriteValue", "aya{sv}", (get_version(0), {"type": "request"}))
    client.wait_for(lambda: client.changed(ff02, "Value"), what="VERSION notification")
    opmode = dbus.Array([dbus.Byte(b) for b in (0x08, 0x08, 1, 1, 1)], signature="y")
    client.call(ff01, CHARACTERISTIC, "WriteValue", "aya{sv}", (opmode, {}))
    client.wait_for(lambda: client.changed(path, "Connected")[-1:] == [False], what="link loss")
    assert not client.changed(path, "ServicesResolved")[-1]
    assert len(client.changed(ff02, "Value")) == 1, "no ACK may arrive after the link dropped"
    assert ff01 in client.objects(), "GATT objects stay exported with the default cache"
    expect_error("org.bluez.Error.Failed", client.call, ff01, CHARACTERISTIC, "WriteValue", "aya{sv}",
                 (get_version(0), {}))
    assert client.get(ff02, CHARACTERISTIC, "Notifying")

    connect(client, FAULTY)
    client.call(ff01, CHARACTERISTIC, "WriteValue", "aya{sv}", (get_version(0), {}))
    client.wait_for(lambda: len(client.changed(ff02, "Value")) == 2, what="notification after reconnect")
    record = json.loads(client.call("/", "org.bluez.Mock", "GetReceived", "s", (FAULTY,)))
    assert [e["event"] for e in record["ble"]["events"]].count("connected") == 2
    assert {"event": "disconnected", "detail": "link-loss"} in record["ble"]["events"]
    assert [m["name"] for m in record["messages"]] == ["GET_VERSION", "SET_OPMODE", "GET_VERSION"]


def test_dropped_and_corrupted_notifications(hci0_known):
    client = hci0_known
    ff01, ff02 = char_path(LOSSY, "ff01"), char_path(LOSSY, "ff02")
    connect(client, LOSSY)
    client.call(ff02, CHARACTERISTIC, "StartNotify")
    client.call(ff01, CHARACTERISTIC, "WriteValue", "aya{sv}", (get_version(0), {}))
    client.call(ff01, CHARACTERISTIC, "WriteValue", "aya{sv}", (get_version(1), {}))
    client.wait_for(lambda: client.changed(ff02, "Value"), what="notification")
    client.pump(0.1)
    values = client.changed(ff02, "Value")
    # The first VERSION (device seq 0) is lost; the second has its last byte inverted.
    assert [bytes(v) for v in values] == [bytes.fromhex("4104010201fc")]


def test_write_rules(hci0_known):
    client = hci0_known
    ff01, ff02 = char_path(LOSSY, "ff01"), char_path(LOSSY, "ff02")
    if not client.get(device_path(LOSSY), DEVICE, "Connected"):
        connect(client, LOSSY)
    write = (ff01, CHARACTERISTIC, "WriteValue", "aya{sv}")
    too_long = dbus.Array([dbus.Byte(0)] * 183, signature="y")
    expect_error("org.bluez.Error.InvalidValueLength", client.call, *write, (too_long, {}))
    expect_error("org.bluez.Error.NotSupported", client.call, *write, (get_version(2), {"type": "command"}))
    expect_error("org.bluez.Error.InvalidArguments", client.call, *write,
                 (get_version(2), {"offset": dbus.Int32(0)}))
    expect_error("org.freedesktop.DBus.Error.UnknownMethod", client.call, ff01, CHARACTERISTIC, "WriteValue",
                 "ay", (get_version(2),))
    expect_error("org.bluez.Error.NotPermitted", client.call, ff01, CHARACTERISTIC, "ReadValue", "a{sv}", ({},))
    expect_error("org.bluez.Error.NotSupported", client.call, ff01, CHARACTERISTIC, "AcquireWrite", "a{sv}", ({},))
    expect_error("org.bluez.Error.NotPermitted", client.call, ff02, CHARACTERISTIC, "WriteValue", "aya{sv}",
                 (get_version(2), {"type": "request"}))
    expect_error("org.bluez.Error.NotPermitted", client.call, f"{ff02}/desc002d", "org.bluez.GattDescriptor1",
                 "WriteValue", "aya{sv}", (dbus.Array([dbus.Byte(1), dbus.Byte(0)], signature="y"), {}))
    expect_error("org.freedesktop.DBus.Error.PropertyReadOnly", client.call, device_path(LOSSY), PROPERTIES,
                 "Set", "ssv", (DEVICE, "Connected", dbus.Boolean(False)))


def test_write_latency_and_one_write_in_flight(hci0_known):
    client = hci0_known
    connect(client, SLOW)
    ff01 = client.bus.get_object(BLUEZ, char_path(SLOW, "ff01"))
    outcomes = []
    began = time.monotonic()
    for seq in (0, 1):
        ff01.WriteValue(get_version(seq), {}, dbus_interface=CHARACTERISTIC,
                        reply_handler=lambda: outcomes.append(("ok", time.monotonic() - began)),
                        error_handler=lambda e: outcomes.append((e.get_dbus_name(), time.monotonic() - began)))
    client.wait_for(lambda: len(outcomes) == 2, what="both replies")
    # The second write is refused while the first is in flight: its refusal comes before the first's answer,
    # which takes the device's modeled latency.
    assert [name for name, _ in outcomes] == ["org.bluez.Error.InProgress", "ok"]
    assert outcomes[1][1] >= 0.3


def test_acquired_sockets_carry_frames_both_ways(hci0_known):
    client = hci0_known
    connect(client, SOCKETS)
    ff01, ff02 = char_path(SOCKETS, "ff01"), char_path(SOCKETS, "ff02")
    write_fd, write_mtu = client.call(ff01, CHARACTERISTIC, "AcquireWrite", "a{sv}", ({},))
    notify_fd, notify_mtu = client.call(ff02, CHARACTERISTIC, "AcquireNotify", "a{sv}", ({},))
    assert (write_mtu, notify_mtu) == (247, 247)
    expect_error("org.bluez.Error.NotPermitted", client.call, ff02, CHARACTERISTIC, "StartNotify")
    expect_error("org.bluez.Error.NotPermitted", client.call, ff01, CHARACTERISTIC, "WriteValue", "aya{sv}",
                 (get_version(0), {}))
    with socket.socket(fileno=write_fd.take()) as writer, socket.socket(fileno=notify_fd.take()) as reader:
        writer.send(bytes(get_version(0)))
        reader.settimeout(3)
        assert reader.recv(512) == bytes.fromhex("410400020103")
    client.wait_for(lambda: not client.get(ff02, CHARACTERISTIC, "NotifyAcquired")
                    and not client.get(ff01, CHARACTERISTIC, "WriteAcquired"), what="sockets released")
    client.call(ff02, CHARACTERISTIC, "StartNotify")


def test_force_disconnect_and_notify_session_of_a_leaving_client(harness, hci0_known):
    client = hci0_known
    path, ff02 = device_path(LOSSY), char_path(LOSSY, "ff02")
    other = Client(harness["bus_address"])
    if not client.get(path, DEVICE, "Connected"):
        connect(client, LOSSY)
    if client.get(ff02, CHARACTERISTIC, "Notifying"):
        client.call(ff02, CHARACTERISTIC, "StopNotify")
    other.call(ff02, CHARACTERISTIC, "StartNotify")
    assert client.get(ff02, CHARACTERISTIC, "Notifying")
    other.close()
    client.wait_for(lambda: not client.get(ff02, CHARACTERISTIC, "Notifying"), what="session end")

    client.call("/", "org.bluez.Mock", "ForceDisconnect", "s", (LOSSY,))
    assert not client.get(path, DEVICE, "Connected")
    client.wait_for(lambda: client.changed(path, "ServicesResolved")[-1:] == [False], what="ServicesResolved")
    client.call(path, DEVICE, "Disconnect")  # not connected: still a success


def test_remove_connected_device_unexports_everything(hci0_known):
    client = hci0_known
    connect(client, SLOW)
    client.call("/org/bluez/hci0", ADAPTER, "RemoveDevice", "o", (device_path(SLOW),))
    assert not [p for p in client.objects() if p.startswith(device_path(SLOW))]
    client.pump(0.05)
    removed = [a[0] for _, _, m, a in client.signals if m == "InterfacesRemoved"]
    assert char_path(SLOW, "ff01") in removed and removed.index(char_path(SLOW, "ff01")) < removed.index(
        device_path(SLOW))


def test_calls_and_received_commands(harness, hci0_known):
    command = [PYTHON, os.path.join(HARNESS_DIR, "harness.py")]
    calls = json.loads(subprocess.run(command + ["calls", "--run-dir", harness["run_dir"], "--mock", "bluez"],
                                      capture_output=True, text=True, check=True).stdout)["calls"]
    connects = [c for c in calls if c["method"] == "Connect" and c["path"] == device_path(FAULTY)]
    assert [c.get("error", {}).get("name") for c in connects[:3]] == [
        "org.bluez.Error.InProgress", "org.bluez.Error.Failed", None]
    writes = [c for c in calls if c["method"] == "WriteValue" and c["path"] == char_path(FAULTY, "ff01")]
    assert writes[0]["args"] == ["1c000000", {"type": "request"}]
    assert not [c for c in calls if c["interface"] == "org.bluez.Mock"]

    received = json.loads(subprocess.run(command + ["received", "--run-dir", harness["run_dir"], "--source",
                                                    "blufi"], capture_output=True, text=True, check=True).stdout)
    by_address = {r["address"]: r for r in received}
    assert by_address[LOSSY]["ble"]["notifications_dropped"][0]["index"] == 1
    assert by_address[SOCKETS]["messages"][0]["name"] == "GET_VERSION"


def test_added_device_injected_notification_and_power(client):
    late = "24:0A:C4:00:02:01"
    path = str(client.call("/", "org.bluez.Mock", "AddDevice", "s",
                           (json.dumps({"adapter": "hci1", "address": late, "name": "BLUFI_LATE", **FAST}),)))
    assert path == device_path(late, "hci1")
    discover(client, {"Pattern": "BLUFI_LATE"})
    client.call(path, DEVICE, "Connect")
    client.wait_for(lambda: client.get(path, DEVICE, "ServicesResolved"), what="services")
    ff02 = f"{path}/service0028/char002b"
    inject = ("/", "org.bluez.Mock", "Notify", "ssay")
    expect_error("org.bluez.Error.Failed", client.call, *inject, (late, "ff02", b"\x01"))
    client.call(ff02, CHARACTERISTIC, "StartNotify")
    client.call(*inject, (late, "ff02", b"\x01\x02"))
    client.wait_for(lambda: [bytes(v) for v in client.changed(ff02, "Value")] == [b"\x01\x02"], what="injected value")

    client.call("/org/bluez/hci1", PROPERTIES, "Set", "ssv", (ADAPTER, "Powered", dbus.Boolean(False)))
    assert not client.get(path, DEVICE, "Connected")
    expect_error("org.bluez.Error.NotReady", client.call, "/org/bluez/hci1", ADAPTER, "StartDiscovery")
    client.call("/org/bluez/hci1", PROPERTIES, "Set", "ssv", (ADAPTER, "Powered", dbus.Boolean(True)))


def test_temporary_devices_expire_and_cached_ones_stay(tmp_path):
    cached = "24:0A:C4:00:03:01"
    scenario = {"bluez": {"temporary_timeout_ms": 300,
                          "devices": [{**FAST}, {"address": cached, "cached": True, **FAST}]}}
    with mock_harness(str(tmp_path), scenario) as up:
        local = Client(up["bus_address"])
        try:
            assert "RSSI" not in local.objects()[device_path(cached)][DEVICE]
            local.call("/org/bluez/hci0", ADAPTER, "StartDiscovery")
            local.wait_for(lambda: device_path(DEFAULT_ADDRESS) in local.objects(), what="discovery")
            local.wait_for(lambda: local.changed(device_path(cached), "RSSI"), what="RSSI of the cached device")
            local.call("/org/bluez/hci0", ADAPTER, "StopDiscovery")
            local.wait_for(lambda: device_path(DEFAULT_ADDRESS) not in local.objects(), what="expiry")
            assert device_path(cached) in local.objects()
            assert not local.added(device_path(cached))
        finally:
            local.close()


def test_cached_characteristic_has_mtu_only_while_connected_and_never_signals_it(hci0_known):
    """bluetoothd 5.66 on a quick reconnect: the cached objects get no PropertiesChanged(MTU)."""
    client = hci0_known
    path, ff02 = device_path(FAULTY), char_path(FAULTY, "ff02")
    if not client.get(path, DEVICE, "Connected"):
        connect(client, FAULTY)
    client.call(path, DEVICE, "Disconnect")
    client.wait_for(lambda: not client.get(path, DEVICE, "Connected"), what="disconnect")
    assert "MTU" not in client.objects()[ff02][CHARACTERISTIC]
    expect_error("org.freedesktop.DBus.Error.InvalidArgs", client.get, ff02, CHARACTERISTIC, "MTU")
    before = len(client.changed(ff02, "MTU"))
    connect(client, FAULTY)
    assert client.get(ff02, CHARACTERISTIC, "MTU") == 185
    client.pump(0.2)
    assert len(client.changed(ff02, "MTU")) == before


@contextlib.contextmanager
def resolved_with_objects_held_back(tmp_path, address: str, held_ms: int):
    """A client connected to a device whose GATT objects come held_ms after ServicesResolved, having waited
    for ServicesResolved without calling the mock meanwhile (a call would release the objects)."""
    scenario = {"bluez": {"devices": [{"address": address, "objects_after_resolved_ms": held_ms, **FAST}]}}
    with mock_harness(str(tmp_path), scenario) as up, discovered(up, address) as client:
        client.call(device_path(address), DEVICE, "Connect")
        client.wait_for(lambda: True in client.changed(device_path(address), "ServicesResolved"), what="resolved")
        assert not gatt_objects_added(client, address)
        yield client


@contextlib.contextmanager
def discovered(up: dict, address: str):
    """A client of the mock `up` serves, once one discovery on hci0 made `address` a known device."""
    client = Client(up["bus_address"])
    try:
        client.call("/org/bluez/hci0", ADAPTER, "StartDiscovery")
        client.wait_for(lambda: device_path(address) in client.objects(), what="discovery")
        client.call("/org/bluez/hci0", ADAPTER, "StopDiscovery")
        yield client
    finally:
        client.close()


def gatt_objects_added(client: Client, address: str) -> list[int]:
    """Where in the recorded signals the device's GATT objects were announced."""
    return [index for index, (_, _, member, args) in enumerate(client.signals)
            if member == "InterfacesAdded" and args[0].startswith(device_path(address) + "/")]


def test_services_resolved_can_precede_the_gatt_objects(tmp_path):
    """bluetoothd 5.66 batches each object's signals on its own idle callback (gdbus/object.c), so
    ServicesResolved can reach clients before the services' InterfacesAdded on a first connection."""
    late = "24:0A:C4:00:03:02"
    with resolved_with_objects_held_back(tmp_path, late, 300) as client:
        client.wait_for(lambda: gatt_objects_added(client, late), what="the GATT objects")


def test_held_back_objects_are_sent_before_the_next_reply(tmp_path):
    """gdbus sends every signal it holds before it sends a reply (g_dbus_send_message), so a call made
    after ServicesResolved is answered only after the GATT objects were announced."""
    late = "24:0A:C4:00:03:03"
    with resolved_with_objects_held_back(tmp_path, late, 60_000) as client:
        answers = []
        client.bus.call_async(BLUEZ, device_path(late), PROPERTIES, "Get", "ss", (DEVICE, "ServicesResolved"),
                              lambda value: answers.append((len(client.signals), value)), answers.append)
        client.wait_for(lambda: answers, what="the reply")
        signals_before_reply, value = answers[0]
        assert value
        added = gatt_objects_added(client, late)
        assert added and max(added) < signals_before_reply


def test_a_device_powered_on_late_is_silent_until_then(tmp_path):
    late = "24:0A:C4:00:03:02"
    scenario = {"bluez": {"devices": [{**FAST}, {"address": late, "appears_after_ms": 2000, **FAST}]}}
    with mock_harness(str(tmp_path), scenario) as up:
        local = Client(up["bus_address"])
        try:
            local.call("/org/bluez/hci0", ADAPTER, "StartDiscovery")
            local.wait_for(lambda: device_path(DEFAULT_ADDRESS) in local.objects(), what="discovery")
            assert device_path(late) not in local.objects(), "not heard before it is powered on"
            local.wait_for(lambda: device_path(late) in local.objects(), timeout=30, what="the late device")
            local.call("/org/bluez/hci0", ADAPTER, "StopDiscovery")
        finally:
            local.close()


def test_a_device_working_during_the_latency_notifies_after_the_answer(tmp_path):
    """works_during_latency: the device has the frame while its write is still unanswered, and what it sends
    back follows the answer."""
    address = "24:0A:C4:00:03:04"
    scenario = {"bluez": {"devices": [{"address": address, "write_latency_ms": 300, "works_during_latency": True,
                                       **FAST}]}}
    with mock_harness(str(tmp_path), scenario) as up, discovered(up, address) as client:
        connect(client, address)
        ff01, ff02 = char_path(address, "ff01"), char_path(address, "ff02")
        client.call(ff02, CHARACTERISTIC, "StartNotify")
        answered = []
        client.bus.call_async(BLUEZ, ff01, CHARACTERISTIC, "WriteValue", "aya{sv}", (get_version(0), {}),
                              lambda: answered.append(len(client.changed(ff02, "Value"))), answered.append)
        client.pump(0.1)
        received = json.loads(client.call("/", "org.bluez.Mock", "GetReceived", "s", (address,)))["messages"]
        assert [m["name"] for m in received] == ["GET_VERSION"]
        assert not answered
        client.wait_for(lambda: client.changed(ff02, "Value"), what="the notification")
        assert answered == [0]
