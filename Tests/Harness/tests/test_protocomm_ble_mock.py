"""The protocomm-over-BLE device in the BlueZ mock, driven with direct D-Bus calls: advertisement,
GATT tree with 0x2901 names, write-then-read exchanges with long writes and reads at MTU 23 and 517,
ATT errors as BlueZ 5.66 reports them, pairing-required devices with Pair, agents and RemoveDevice,
and the service stop after provisioning."""

import json
import os
import subprocess
import time

import dbus
import pytest

from protocomm_spec_client import SpecClient
from test_bluez_mock import (ADAPTER, DEVICE, HARNESS_DIR, PYTHON, Client, device_path, expect_error,  # noqa: F401
                             pytestmark, serve_for_module)
from ztharness.protocomm_ble_device import EXAMPLE_SERVICE_UUID, characteristic_uuid

DESCRIPTOR = "org.bluez.GattDescriptor1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
FAST = {"advertise_delay_ms": 50, "resolve_delay_ms": 50}
SMALL, LARGE, PAIRING, STRICT, REFUSING, THREAD, BARE, BLUEDROID = (f"24:0A:C4:00:16:0{i}" for i in range(1, 9))
HANGING, REFUSING_ON_ACCESS = "24:0A:C4:00:16:10", "24:0A:C4:00:16:11"
CUSTOM_SERVICE = "0000ffff-0000-1000-8000-00805f9b34fb"
SCENARIO = {"bluez": {"connect_timeout_ms": 300, "devices": [
    {"address": SMALL, "mtu": 23, **FAST,
     "protocomm_ble": {"protocomm": {"security": 1, "target_passphrase": "correct horse", "connecting_polls": 0,
                                     "auto_stop": True, "cleanup_delay_ms": 100}}},
    {"address": LARGE, "mtu": 517, **FAST,
     "protocomm_ble": {"protocomm": {"security": 2, "sec2_patch": 0}}},
    {"address": PAIRING, **FAST, "protocomm_ble": {"protocomm": {"security": 0}, "pairing": {"required": True}}},
    {"address": STRICT, **FAST, "protocomm_ble": {"protocomm": {"security": 0},
                                                  "pairing": {"required": True, "agent_required": True,
                                                              "bonding": False}}},
    {"address": REFUSING, **FAST, "protocomm_ble": {"protocomm": {"security": 0},
                                                    "pairing": {"required": True, "accept": False}}},
    {"address": THREAD, **FAST, "protocomm_ble": {"protocomm": {"security": 0, "network": "thread"},
                                                  "pairing": {"required": True, "auto_pair_on_access": True}}},
    {"address": BARE, "name": "Vendor Box", **FAST,
     "protocomm_ble": {"service_uuid": CUSTOM_SERVICE, "user_descriptions": False,
                       "custom_endpoints": ["custom-data", "vendor-x"], "protocomm": {"security": 0}}},
    {"address": BLUEDROID, **FAST, "protocomm_ble": {"ble_stack": "bluedroid", "protocomm": {"security": 1}}},
    {"address": HANGING, **FAST, "protocomm_ble": {"protocomm": {"security": 0}, "pairing": {
        "required": True, "auto_pair_on_access": True, "auto_pair_needs_agent": True}}},
    {"address": REFUSING_ON_ACCESS, **FAST, "protocomm_ble": {"protocomm": {"security": 0}, "pairing": {
        "required": True, "auto_pair_on_access": True, "accept": False}}},
]}}


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory, "protocomm-ble-mock", SCENARIO)


@pytest.fixture(scope="module")
def client(harness):
    connection = Client(harness["bus_address"])
    connection.call("/org/bluez/hci0", ADAPTER, "StartDiscovery")
    connection.wait_for(lambda: all(device_path(d["address"]) in connection.objects()
                                    for d in SCENARIO["bluez"]["devices"]), what="protocomm devices")
    connection.call("/org/bluez/hci0", ADAPTER, "StopDiscovery")
    yield connection
    connection.close()


def received(client: Client, address: str) -> dict:
    return json.loads(client.call("/", "org.bluez.Mock", "GetReceived", "s", (address,)))


def received_via_cli(harness, address: str) -> dict:
    out = subprocess.run([PYTHON, os.path.join(HARNESS_DIR, "harness.py"), "received", "--run-dir",
                          harness["run_dir"], "--source", "protocomm_ble"], capture_output=True, text=True,
                         timeout=30, check=True)
    return next(r for r in json.loads(out.stdout) if r["address"] == address)


def connect(client: Client, address: str) -> None:
    client.call(device_path(address), DEVICE, "Connect")
    client.wait_for(lambda: client.get(device_path(address), DEVICE, "ServicesResolved"), what="services")


def disconnect(client: Client, address: str) -> None:
    client.call(device_path(address), DEVICE, "Disconnect")
    client.wait_for(lambda: not client.get(device_path(address), DEVICE, "Connected"), what="disconnect")


def endpoints(client: Client, address: str) -> dict[str, str]:
    """name → characteristic path, read from the 0x2901 descriptors as esp_prov does."""
    objects = client.objects()
    names = {}
    for path, interfaces in objects.items():
        descriptor = interfaces.get(DESCRIPTOR)
        if path.startswith(device_path(address) + "/") and descriptor and descriptor["UUID"].startswith("00002901"):
            value = client.call(path, DESCRIPTOR, "ReadValue", "a{sv}", ({},))
            names[bytes(value).decode()] = str(descriptor["Characteristic"])
    return names


def transport(client: Client, paths: dict[str, str]):
    def exchange(endpoint: str, body: bytes) -> bytes:
        client.call(paths[endpoint], CHARACTERISTIC, "WriteValue", "aya{sv}", (dbus.ByteArray(body), {}), timeout=10)
        return bytes(client.call(paths[endpoint], CHARACTERISTIC, "ReadValue", "a{sv}", ({},)))
    return exchange


def test_advertisement_and_gatt_tree_follow_the_transport(client):
    props = client.call(device_path(SMALL), "org.freedesktop.DBus.Properties", "GetAll", "s", (DEVICE,))
    assert props["Name"] == "PROV_001601" and list(props["UUIDs"]) == [EXAMPLE_SERVICE_UUID]
    assert "ManufacturerData" not in props
    connect(client, SMALL)
    paths = endpoints(client, SMALL)
    assert sorted(paths) == ["custom-data", "proto-ver", "prov-config", "prov-ctrl", "prov-scan", "prov-session"]
    objects = client.objects()
    for name, path in paths.items():
        characteristic = objects[path][CHARACTERISTIC]
        assert list(characteristic["Flags"]) == ["read", "write"]
        uuid16 = {"prov-ctrl": 0xFF4F, "prov-scan": 0xFF50, "prov-session": 0xFF51, "prov-config": 0xFF52,
                  "proto-ver": 0xFF53, "custom-data": 0xFF54}[name]
        assert characteristic["UUID"] == characteristic_uuid(EXAMPLE_SERVICE_UUID, uuid16)
        assert objects[str(characteristic["Service"])]["org.bluez.GattService1"]["UUID"] == EXAMPLE_SERVICE_UUID
    descriptor = next(p for p, i in objects.items() if DESCRIPTOR in i and p.startswith(paths["proto-ver"]))
    assert expect_error("org.bluez.Error.NotPermitted", client.call, descriptor, DESCRIPTOR, "WriteValue",
                        "aya{sv}", (dbus.ByteArray(b"x"), {})) == "Write not permitted"
    disconnect(client, SMALL)


def test_mtu_23_long_writes_and_reads_then_provisioning_and_service_stop(harness, client):
    connect(client, SMALL)
    paths = endpoints(client, SMALL)
    spec = SpecClient(transport(client, paths), 1, pop="abcd1234")
    spec.handshake()
    assert spec.set_config("HomeNet", "correct horse").message(13).uint(1) == 0
    assert spec.apply_config().message(15).uint(1) == 0
    assert spec.get_status().uint(2) == 0
    record = received_via_cli(harness, SMALL)
    command0 = record["exchanges"][0]
    # 41 bytes at MTU 23: three Prepare Writes of 18 bytes and one Execute; the 61-byte answer in a Read
    # and two Read Blobs of 22 bytes each at most.
    assert (command0["endpoint"], command0["written"], command0["write_pdus"]) == ("prov-session", 41, 4)
    assert (command0["read"], command0["read_pdus"]) == (61, 3)
    assert any(e["event"] == "set_config" and e["passphrase"] == "correct horse" for e in record["protocomm"])
    # auto_stop: the service stops cleanup_delay_ms after "connected": the link drops, advertising ends.
    client.wait_for(lambda: not client.get(device_path(SMALL), DEVICE, "Connected"), what="service stop")
    assert any(e["event"] == "service-stopped" for e in received(client, SMALL)["ble"]["events"])
    assert expect_error("org.bluez.Error.Failed", client.call, device_path(SMALL), DEVICE, "Connect",
                        timeout=10) == "le-connection-abort-by-local"


def test_mtu_517_security_2_patch_0_and_att_errors(harness, client):
    connect(client, LARGE)
    paths = endpoints(client, LARGE)
    spec = SpecClient(transport(client, paths), 2, patch=0)
    assert b'"sec_patch_ver":\t0' in transport(client, paths)("proto-ver", b"ESP")
    spec.handshake()
    assert len(spec.nonce) == 16
    assert spec.get_status().uint(2) == 1
    command0 = next(e for e in received(client, LARGE)["exchanges"] if e["endpoint"] == "prov-session")
    assert command0["written"] > 390 and command0["write_pdus"] == 1 and command0["read_pdus"] == 1
    session = paths["prov-session"]
    assert expect_error("org.bluez.Error.Failed", client.call, session, CHARACTERISTIC, "WriteValue", "aya{sv}",
                        (dbus.ByteArray(b"\xff\xff"), {})) == "Operation failed with ATT error: 0x04"
    assert expect_error("org.bluez.Error.InvalidArguments", client.call, session, CHARACTERISTIC, "WriteValue",
                        "aya{sv}", (dbus.ByteArray(b"\x00" * 4), {"offset": dbus.UInt16(2)})) == "Invalid offset"
    assert expect_error("org.bluez.Error.InvalidArguments", client.call, session, CHARACTERISTIC, "WriteValue",
                        "aya{sv}", (dbus.ByteArray(b"\x00" * 513), {})) == "Invalid Length"
    assert expect_error("org.bluez.Error.NotSupported", client.call, session, CHARACTERISTIC, "WriteValue",
                        "aya{sv}", (dbus.ByteArray(b"\x00"), {"type": "command"})) == "Operation is not supported"
    whole = bytes(client.call(paths["proto-ver"], CHARACTERISTIC, "ReadValue", "a{sv}", ({},)))
    tail = bytes(client.call(paths["proto-ver"], CHARACTERISTIC, "ReadValue", "a{sv}", ({"offset": dbus.UInt16(5)},)))
    assert tail == whole[5:]
    disconnect(client, LARGE)


def test_pairing_required_refuses_until_paired_and_the_bond_survives_until_removed(harness, client):
    connect(client, PAIRING)
    paths = endpoints(client, PAIRING)
    exchange = transport(client, paths)
    assert expect_error("org.bluez.Error.NotPermitted", exchange, "proto-ver", b"ESP") == "Not paired"
    assert expect_error("org.bluez.Error.NotPermitted", client.call, paths["proto-ver"], CHARACTERISTIC,
                        "ReadValue", "a{sv}", ({},)) == "Not paired"
    assert expect_error("org.bluez.Error.DoesNotExist", client.call, device_path(PAIRING), DEVICE, "CancelPairing")
    client.call(device_path(PAIRING), DEVICE, "Pair", timeout=10)
    assert client.get(device_path(PAIRING), DEVICE, "Paired") and client.get(device_path(PAIRING), DEVICE, "Bonded")
    assert b"netprov-v1.2" in exchange("proto-ver", b"ESP")
    assert expect_error("org.bluez.Error.AlreadyExists", client.call, device_path(PAIRING), DEVICE, "Pair")
    disconnect(client, PAIRING)
    connect(client, PAIRING)
    assert b"netprov-v1.2" in exchange("proto-ver", b"ESP")
    events = [e["event"] for e in received(client, PAIRING)["ble"]["events"]]
    assert events.count("access-refused") == 2 and "paired" in events and "encrypted-with-bond" in events
    pair_request = next(e for e in received(client, PAIRING)["ble"]["events"] if e["event"] == "pair-requested")
    assert pair_request["detail"]["io_capability"] == "NoInputNoOutput"
    client.call("/org/bluez/hci0", ADAPTER, "RemoveDevice", "o", (device_path(PAIRING),))
    client.wait_for(lambda: device_path(PAIRING) not in client.objects(), what="device removed")
    assert "bond-removed" in [e["event"] for e in received(client, PAIRING)["ble"]["events"]]
    client.call("/org/bluez/hci0", ADAPTER, "StartDiscovery")
    client.wait_for(lambda: device_path(PAIRING) in client.objects(), what="rediscovered")
    client.call("/org/bluez/hci0", ADAPTER, "StopDiscovery")
    assert not client.get(device_path(PAIRING), DEVICE, "Paired")
    connect(client, PAIRING)
    assert expect_error("org.bluez.Error.NotPermitted", transport(client, endpoints(client, PAIRING)),
                        "proto-ver", b"ESP") == "Not paired"
    disconnect(client, PAIRING)


def test_agent_required_pairing_and_pairing_without_bonding(harness, client):
    assert expect_error("org.bluez.Error.AuthenticationFailed", client.call, device_path(STRICT), DEVICE,
                        "Pair", timeout=10) == "Authentication Failed"
    agent_manager = "org.bluez.AgentManager1"
    assert expect_error("org.bluez.Error.InvalidArguments", client.call, "/org/bluez", agent_manager,
                        "RegisterAgent", "os", ("/test/agent", "Telepathy"))
    assert expect_error("org.bluez.Error.DoesNotExist", client.call, "/org/bluez", agent_manager,
                        "RequestDefaultAgent", "o", ("/test/agent",))
    client.call("/org/bluez", agent_manager, "RegisterAgent", "os", ("/test/agent", "NoInputNoOutput"))
    assert expect_error("org.bluez.Error.AlreadyExists", client.call, "/org/bluez", agent_manager,
                        "RegisterAgent", "os", ("/test/agent", ""))
    client.call("/org/bluez", agent_manager, "RequestDefaultAgent", "o", ("/test/agent",))
    client.call(device_path(STRICT), DEVICE, "Pair", timeout=10)
    assert client.get(device_path(STRICT), DEVICE, "Paired") and not client.get(device_path(STRICT), DEVICE, "Bonded")
    assert b"no_sec" in transport(client, endpoints(client, STRICT))("proto-ver", b"ESP")
    disconnect(client, STRICT)
    # Without bonding the keys die with the link: Paired drops, and access is refused again.
    assert not client.get(device_path(STRICT), DEVICE, "Paired")
    connect(client, STRICT)
    assert expect_error("org.bluez.Error.NotPermitted", transport(client, endpoints(client, STRICT)),
                        "proto-ver", b"ESP") == "Not paired"
    disconnect(client, STRICT)
    client.call("/org/bluez", agent_manager, "UnregisterAgent", "o", ("/test/agent",))
    assert expect_error("org.bluez.Error.DoesNotExist", client.call, "/org/bluez", agent_manager,
                        "UnregisterAgent", "o", ("/test/agent",))
    agents = json.loads(client.call("/", "org.bluez.Mock", "GetAgents"))
    assert agents["agents"] == [] and [e["event"] for e in agents["events"]] == [
        "agent-registered", "agent-default", "agent-unregistered"]


def test_pair_uses_the_default_agent_which_goes_away_with_its_client(harness, client):
    other = Client(harness["bus_address"])
    other.call("/org/bluez", "org.bluez.AgentManager1", "RegisterAgent", "os", ("/other/agent", "KeyboardDisplay"))
    other.call("/org/bluez", "org.bluez.AgentManager1", "RequestDefaultAgent", "o", ("/other/agent",))
    expect_error("org.bluez.Error.AuthenticationFailed", client.call, device_path(REFUSING), DEVICE, "Pair", timeout=10)
    requests = [e for e in received(client, REFUSING)["ble"]["events"] if e["event"] == "pair-requested"]
    assert requests[-1]["detail"]["io_capability"] == "KeyboardDisplay"
    other.close()
    client.wait_for(lambda: json.loads(client.call("/", "org.bluez.Mock", "GetAgents"))["agents"] == [],
                    what="the agent to leave with its client")
    disconnect(client, REFUSING)


def test_device_refusing_to_pair(harness, client):
    assert expect_error("org.bluez.Error.AuthenticationFailed", client.call, device_path(REFUSING), DEVICE,
                        "Pair", timeout=10) == "Authentication Failed"
    assert not client.get(device_path(REFUSING), DEVICE, "Paired")
    assert "pair-failed" in [e["event"] for e in received(client, REFUSING)["ble"]["events"]]
    disconnect(client, REFUSING)


def test_auto_pair_on_access_and_thread_capabilities(harness, client):
    connect(client, THREAD)
    info = transport(client, endpoints(client, THREAD))("proto-ver", b"ESP")
    assert b'"thread_prov", "thread_scan"' in info
    assert client.get(device_path(THREAD), DEVICE, "Bonded")
    paired = next(e for e in received(client, THREAD)["ble"]["events"] if e["event"] == "paired")
    assert paired["detail"]["how"] == "on-access"
    disconnect(client, THREAD)


def test_a_pairing_bluetoothd_started_itself_without_a_default_agent_leaves_the_access_hanging(harness, client):
    """As on the lab's Linux 6.1 with no default agent: the access waits unanswered; an explicit Pair completes it."""
    connect(client, HANGING)
    path = endpoints(client, HANGING)["proto-ver"]
    write = subprocess.Popen(["busctl", f"--address={harness['bus_address']}", "call", "org.bluez", path,
                              CHARACTERISTIC, "WriteValue", "aya{sv}", "3", "69", "83", "80", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    assert write.poll() is None, "the access was answered while bluetoothd's own pairing had failed"
    client.call(device_path(HANGING), DEVICE, "Pair", timeout=10)
    assert write.wait(10) == 0, write.stderr.read()
    events = [e["event"] for e in received(client, HANGING)["ble"]["events"]]
    assert events.index("auto-pair-failed") < events.index("paired")
    client.call("/org/bluez/hci0", ADAPTER, "RemoveDevice", "o", (device_path(HANGING),))


def test_a_device_refusing_the_pairing_bluetoothd_started_drops_the_link(harness, client):
    connect(client, REFUSING_ON_ACCESS)
    path = endpoints(client, REFUSING_ON_ACCESS)["proto-ver"]
    message = expect_error("org.bluez.Error.Failed", client.call, path, CHARACTERISTIC, "WriteValue", "aya{sv}",
                           (dbus.ByteArray(b"ESP"), {}))
    assert message == "Operation failed with ATT error: 0x0e"
    client.wait_for(lambda: not client.get(device_path(REFUSING_ON_ACCESS), DEVICE, "Connected"), what="link drop")
    assert not client.get(device_path(REFUSING_ON_ACCESS), DEVICE, "Paired")


def test_fallback_uuids_without_user_descriptions_and_a_vendor_endpoint(harness, client):
    connect(client, BARE)
    assert endpoints(client, BARE) == {}
    objects = client.objects()
    by_uuid = {str(i[CHARACTERISTIC]["UUID"]): p for p, i in objects.items()
               if CHARACTERISTIC in i and p.startswith(device_path(BARE) + "/")}
    assert characteristic_uuid(CUSTOM_SERVICE, 0xFF55) in by_uuid
    paths = {"proto-ver": by_uuid[characteristic_uuid(CUSTOM_SERVICE, 0xFF53)],
             "prov-session": by_uuid[characteristic_uuid(CUSTOM_SERVICE, 0xFF51)],
             "vendor-x": by_uuid[characteristic_uuid(CUSTOM_SERVICE, 0xFF55)]}
    spec = SpecClient(transport(client, paths), 0)
    spec.handshake()
    assert transport(client, paths)("vendor-x", b"ping") == b"SUCCESS\0"
    record = received(client, BARE)
    assert record["name"] == "Vendor Box" and record["service_uuid"] == CUSTOM_SERVICE
    assert any(e["event"] == "custom" and e["endpoint"] == "vendor-x" for e in record["protocomm"])
    disconnect(client, BARE)


def test_bluedroid_device_drops_the_link_on_a_refused_request(harness, client):
    connect(client, BLUEDROID)
    paths = endpoints(client, BLUEDROID)
    assert expect_error("org.bluez.Error.Failed", transport(client, paths), "prov-session",
                        bytes.fromhex("10015a25a201220a20") + bytes(31)) == "Operation failed"
    client.wait_for(lambda: not client.get(device_path(BLUEDROID), DEVICE, "Connected"), what="link dropped")
    events = received(client, BLUEDROID)["ble"]["events"]
    assert events[-1] == {"event": "disconnected", "detail": "device"}
    assert received(client, BLUEDROID)["exchanges"][-1]["att_error"] == 0x04
