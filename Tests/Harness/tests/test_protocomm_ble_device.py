"""The protocomm-over-BLE device model on its own: UUID layout, endpoint table, write-then-read
exchanges driven by the independently written protocomm_spec_client, Thread provisioning and the
network_provisioning version rules. The model served by the BlueZ mock is tested in
test_protocomm_ble_mock.py."""

import random
import uuid

import pytest

from protocomm_spec_client import SpecClient
from ztharness import scenario
from ztharness.protobuf_wire import encode
from ztharness.protocomm_ble_device import (EXAMPLE_SERVICE_UUID, ProtocommBleConfig, ProtocommBleDevice,
                                            characteristic_uuid, default_name)
from ztharness.protocomm_thread import parse_tlvs

NETPROV_DEFAULT_SERVICE_LSB_FIRST = bytes([0x07, 0xED, 0x9B, 0x2D, 0x0F, 0x06, 0x7C, 0x87,
                                           0x9B, 0x43, 0x43, 0x6B, 0x4D, 0x24, 0x75, 0x17])
# An active operational dataset in MeshCoP TLVs: channel 15, PAN ID 0x1234, extended PAN ID,
# network name "OpenThread-zt", network key, mesh-local prefix, active timestamp.
DATASET = bytes.fromhex("000300000f" "01021234" "0208dead00beef00cafe" "030d4f70656e5468726561642d7a74"
                        "051000112233445566778899aabbccddeeff" "0708fd00db8000000000" "0e080000000000010000")


class Link:
    """What the peripheral gives the model; the pure model needs nothing from it."""


def make(**config) -> ProtocommBleDevice:
    device = ProtocommBleDevice(ProtocommBleConfig.from_dict(config), Link(),
                                lambda purpose, n: bytes((len(purpose) + i) % 256 for i in range(n)))
    device.ble_connected(23)
    return device


def exchange(device: ProtocommBleDevice):
    """A transport for SpecClient: write the request, then read the characteristic, as esp_prov does."""
    def transport(endpoint, body):
        outcome = device.write(endpoint, body, 1)
        assert not isinstance(outcome, int), f"write to {endpoint} failed with ATT error {outcome}"
        return device.read(endpoint)
    return transport


def uuid_from_le_bytes(le_bytes: bytes) -> str:
    return str(uuid.UUID(bytes=bytes(reversed(le_bytes))))


def test_characteristic_uuids_put_the_endpoint_id_into_bytes_12_and_13():
    assert characteristic_uuid(EXAMPLE_SERVICE_UUID, 0xFF51) == "021aff51-0382-4aea-bff4-6b3f1c5adfb4"
    netprov_default = uuid_from_le_bytes(NETPROV_DEFAULT_SERVICE_LSB_FIRST)
    assert netprov_default == "1775244d-6b43-439b-877c-060f2d9bed07"
    generator = random.Random(16)
    for _ in range(200):
        le_bytes = bytearray(generator.randbytes(16))
        uuid16 = generator.randrange(0x10000)
        service = uuid_from_le_bytes(bytes(le_bytes))
        le_bytes[12:14] = uuid16.to_bytes(2, "little")
        assert characteristic_uuid(service, uuid16) == uuid_from_le_bytes(bytes(le_bytes))


def test_endpoint_table_matches_the_manager_and_numbers_custom_endpoints_upwards():
    device = make(custom_endpoints=["custom-data", "vendor-x"])
    assert device.endpoints == [("prov-ctrl", 0xFF4F), ("prov-scan", 0xFF50), ("prov-session", 0xFF51),
                                ("prov-config", 0xFF52), ("proto-ver", 0xFF53), ("custom-data", 0xFF54),
                                ("vendor-x", 0xFF55)]
    assert device.name_of("021AFF55-0382-4aea-bff4-6b3f1c5adfb4") == "vendor-x"
    assert device.name_of("021aff56-0382-4aea-bff4-6b3f1c5adfb4") is None
    assert default_name("24:0A:C4:12:34:56") == "PROV_123456"


@pytest.mark.parametrize("bad", [{"service_uuid": "ffff"}, {"service_uuid": "021a9004-0382-4aea-bff4-6b3f1c5adfbz"},
                                 {"custom_endpoints": ["prov-session"]}, {"custom_endpoints": [""]},
                                 {"pairing": {"reqired": True}}, {"protocomm": {"security": 3}},
                                 {"protocomm": {"network": "zigbee"}}, {"protocomm": {"firmware_version": "1.2.x"}},
                                 {"ble_stack": "zephyr"}, {"colour": "blue"}])
def test_bad_configurations_are_refused(bad):
    with pytest.raises((TypeError, ValueError)):
        ProtocommBleConfig.from_dict(bad)


def test_scenario_completes_a_protocomm_ble_device():
    bluez = scenario.bluez_with_defaults({"devices": [{"protocomm_ble": {}}]})
    device = bluez["devices"][0]
    assert device["uuids"] == [EXAMPLE_SERVICE_UUID] and device["name"] == "PROV_123456"
    assert device["manufacturer"] == {} and device["protocomm_ble"]["custom_endpoints"] == ["custom-data"]
    with pytest.raises(scenario.ScenarioError, match="either improv or protocomm_ble"):
        scenario.bluez_with_defaults({"devices": [{"protocomm_ble": {}, "improv": {}}]})
    with pytest.raises(scenario.ScenarioError, match="protocomm_ble"):
        scenario.bluez_with_defaults({"devices": [{"protocomm_ble": {"service_uuid": "1234"}}]})


@pytest.mark.parametrize("security,patch", [(0, 1), (1, 1), (2, 0), (2, 1)])
def test_write_then_read_provisions_with_every_security(security, patch):
    device = make(protocomm={"security": security, "sec2_patch": patch, "target_ssid": "HomeNet",
                             "target_passphrase": "correct horse", "connecting_polls": 1})
    client = SpecClient(exchange(device), security, pop="abcd1234", patch=patch)
    version = exchange(device)("proto-ver", b"ESP")
    assert b'"netprov-v1.2"' in version and b'"wifi_prov"' in version
    client.handshake()
    assert client.set_config("HomeNet", "correct horse").message(13).uint(1) == 0
    assert client.apply_config().message(15).uint(1) == 0
    assert client.get_status().uint(2) == 1
    connected = client.get_status()
    assert connected.uint(2) == 0 and connected.message(11).bytes(3) == b"HomeNet"
    set_config = [e for e in device.record["protocomm"] if e["event"] == "set_config"]
    assert set_config[0]["passphrase"] == "correct horse"
    assert device.record["failures"] == 0


def test_custom_endpoint_answers_success_like_the_example():
    device = make(protocomm={"security": 1})
    client = SpecClient(exchange(device), 1, pop="abcd1234")
    client.handshake()
    assert client.open(client.post("custom-data", client.seal(b"hello"))) == b"SUCCESS\0"


def test_protocomm_failure_is_att_invalid_pdu_and_empty_write_is_ignored():
    device = make(protocomm={"security": 1})
    assert device.write("prov-session", b"\xff\xff\xff", 1) == 0x04
    assert device.record["failures"] == 1 and device.record["exchanges"][-1]["att_error"] == 0x04
    assert device.write("prov-config", b"", 1) is None
    assert device.record["exchanges"][-1]["ignored"] is True
    assert device.read("prov-config") == b""


def test_reconnection_starts_a_new_session():
    device = make(protocomm={"security": 1})
    client = SpecClient(exchange(device), 1, pop="abcd1234")
    client.handshake()
    device.ble_disconnected()
    device.ble_connected(23)
    assert device.write("prov-config", client.seal(encode([(10, [])])), 1) == 0x04


def wrong_password_then_reset(firmware_version: str, auto_reset: bool) -> tuple[int, SpecClient]:
    device = make(protocomm={"security": 2, "target_passphrase": "right one", "connecting_polls": 0,
                             "firmware_version": firmware_version, "auto_reset_on_failure": auto_reset})
    client = SpecClient(exchange(device), 2)
    client.handshake()
    client.set_config("HomeNet", "wrong one")
    client.apply_config()
    failed = client.get_status()
    assert failed.uint(2) == 3 and failed.uint(10) == 0
    reset = client.call("prov-ctrl", [(1, 1), (11, [])])
    assert reset.uint(1) == 2
    return reset.uint(2), client


@pytest.mark.parametrize("version,auto_reset,status", [
    ("1.2.4", False, 0), ("1.2.4", True, 0), ("1.2.1", True, 0), ("1.2.0", True, 5), ("1.2.0", False, 0)])
def test_ctrl_reset_after_a_wrong_password_follows_the_firmware_version(version, auto_reset, status):
    reset_status, client = wrong_password_then_reset(version, auto_reset)
    assert reset_status == status
    if status == 0:
        assert client.set_config("HomeNet", "right one").message(13).uint(1) == 0
        assert client.apply_config().message(15).uint(1) == 0
        assert client.get_status().uint(2) == 0


def test_scan_pages_of_four_as_ble_clients_read_them():
    networks = [{"ssid": f"net{i}", "channel": 1 + i, "rssi": -40 - i, "bssid": f"aa:bb:cc:00:00:{i:02x}",
                 "auth": 3} for i in range(10)]
    device = make(protocomm={"security": 0, "networks": networks, "scan_duration_ms": 0})
    client = SpecClient(exchange(device), 0)
    client.handshake()
    client.call("prov-scan", [(1, 0), (10, [(1, True)])])
    status = client.call("prov-scan", [(1, 2), (12, [])]).message(13)
    assert status.boolean(1) and status.uint(2) == 10
    seen = []
    for start in range(0, 10, 4):
        page = client.call("prov-scan", [(1, 4), (14, [(1, start), (2, min(4, 10 - start))])])
        assert page.uint(2) == 0
        seen += [entry.bytes(1).decode() for entry in page.message(15).messages(1)]
    assert seen == [f"net{i}" for i in range(10)]


def thread_device(**protocomm):
    device = make(protocomm={"security": 2, "network": "thread", "connecting_polls": 1, **protocomm})
    client = SpecClient(exchange(device), 2)
    client.handshake()
    return device, client


def test_thread_device_announces_thread_and_refuses_wifi():
    device, client = thread_device()
    info = exchange(device)("proto-ver", b"ESP").decode()
    assert '"thread_prov", "thread_scan"' in info and "wifi" not in info
    assert client.set_config("HomeNet", "x").message(13).uint(1) == 4
    assert client.call("prov-scan", [(1, 0), (10, [])]).uint(2) == 4
    with pytest.raises(ValueError):
        make(protocomm={"network": "thread", "proto_ver_style": "v1.1"})


def test_thread_dataset_attaches_and_reports_the_network():
    device, client = thread_device()
    assert client.call("prov-config", [(1, 8), (18, [(1, DATASET)])]).message(19).uint(1) == 0
    assert client.call("prov-config", [(1, 10), (20, [])]).message(21).uint(1) == 0
    attaching = client.call("prov-config", [(1, 6), (16, [])])
    assert attaching.uint(1) == 7 and attaching.message(17).uint(2) == 1
    attached = client.call("prov-config", [(1, 6), (16, [])]).message(17)
    assert attached.uint(2) == 0
    state = attached.message(11)
    assert (state.uint(1), state.bytes(2).hex(), state.uint(3), state.bytes(4)) == (
        0x1234, "dead00beef00cafe", 15, b"OpenThread-zt")
    applied = [e for e in device.record["protocomm"] if e["event"] == "thread_set_config"]
    assert applied[0]["dataset_hex"] == DATASET.hex()


@pytest.mark.parametrize("dataset,reason", [(DATASET[:-3], 0), (DATASET.replace(bytes.fromhex("0510"), bytes.fromhex("0610")), 0),
                                            (DATASET.replace(bytes.fromhex("dead00beef00cafe"), bytes(8)), 1)])
def test_thread_dataset_failures(dataset, reason):
    _, client = thread_device()
    client.call("prov-config", [(1, 8), (18, [(1, dataset)])])
    client.call("prov-config", [(1, 10), (20, [])])
    client.call("prov-config", [(1, 6), (16, [])])
    failed = client.call("prov-config", [(1, 6), (16, [])]).message(17)
    assert failed.uint(2) == 3 and failed.uint(10) == reason
    assert client.call("prov-ctrl", [(1, 5), (15, [])]).uint(2) == 0
    assert client.call("prov-config", [(1, 8), (18, [(1, DATASET)])]).message(19).uint(1) == 0


@pytest.mark.parametrize("outcome,state,reason", [("detached", 2, None), ("not-found", 3, 1),
                                                  ("dataset-invalid", 3, 0), ("attached", 0, None)])
def test_thread_dataset_outcome_overrides_the_decision(outcome, state, reason):
    _, client = thread_device(thread_dataset_outcome=outcome, thread_networks=[
        {"network_name": "other", "pan_id": 1, "ext_pan_id": "0102030405060708", "channel": 11, "rssi": -50,
         "lqi": 100, "ext_addr": "a0a0a0a0a0a0a0a0"}])
    client.call("prov-config", [(1, 8), (18, [(1, DATASET)])])
    client.call("prov-config", [(1, 10), (20, [])])
    client.call("prov-config", [(1, 6), (16, [])])
    answer = client.call("prov-config", [(1, 6), (16, [])]).message(17)
    assert answer.uint(2) == state
    if reason is not None:
        assert answer.uint(10) == reason
    with pytest.raises(ValueError):
        thread_device(thread_dataset_outcome="maybe")


def test_thread_dataset_longer_than_254_bytes_is_invalid_argument():
    _, client = thread_device()
    assert client.call("prov-config", [(1, 8), (18, [(1, bytes(255))])]).message(19).uint(1) == 4
    assert client.call("prov-config", [(1, 10), (20, [])]).message(21).uint(1) == 5


def test_thread_scan_lists_the_configured_networks():
    networks = [{"network_name": f"mesh{i}", "pan_id": 0x1000 + i, "ext_pan_id": f"{i:016x}", "channel": 11 + i,
                 "rssi": -50 - i, "lqi": 100 + i, "ext_addr": f"{0xA0 + i:016x}"} for i in range(6)]
    _, client = thread_device(thread_networks=networks)
    client.call("prov-scan", [(1, 6), (16, [(1, True), (2, 0x07FFF800)])])
    status = client.call("prov-scan", [(1, 8), (18, [])]).message(19)
    assert status.boolean(1) and status.uint(2) == 6
    names = []
    for start in (0, 4):
        page = client.call("prov-scan", [(1, 10), (20, [(1, start), (2, min(4, 6 - start))])])
        assert page.uint(1) == 11 and page.uint(2) == 0
        names += [entry.bytes(6).decode() for entry in page.message(21).messages(1)]
    assert names == [f"mesh{i}" for i in range(6)]
    assert client.call("prov-scan", [(1, 10), (20, [(1, 4), (2, 3)])]).uint(2) == 5


def test_tlv_parser_rejects_every_truncation():
    assert parse_tlvs(DATASET)[3] == b"OpenThread-zt"
    for cut in range(1, len(DATASET)):
        parsed = parse_tlvs(DATASET[:cut])
        assert parsed is None or sum(len(v) + 2 for v in parsed.values()) == cut


def test_arbitrary_writes_never_crash_the_model():
    generator = random.Random(7)
    for security in (0, 1, 2):
        device = make(protocomm={"security": security}, custom_endpoints=["custom-data"])
        for _ in range(300):
            name = generator.choice([name for name, _ in device.endpoints])
            body = generator.randbytes(generator.randrange(0, 80))
            outcome = device.write(name, body, 1)
            assert outcome is None or outcome == 0x04 or isinstance(outcome.body, bytes)
