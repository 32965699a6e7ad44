"""ProtocommDevice against the protocomm worked examples (the values of Tests/ProtocommTests/Vectors/, which
name their source) and an independently written client (protocomm_spec_client.py)."""

import hashlib
import json

import pytest
from cryptography.exceptions import InvalidTag

from protocomm_spec_client import GROUP_HASH, SRP_K, SpecClient, pad384, via_model
from ztharness.protobuf_wire import decode, encode
from ztharness.protocomm_device import ProtocommDevice, cjson_print
from ztharness.protocomm_security import (SRP_G, SRP_N, ProtocommFailure, padded, sha512,
                                          srp_x)

SEC1_DEVICE_PRIVATE = "2122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f40"
SEC1_DEVICE_RANDOM = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
SEC2_SALT = "101112131415161718191a1b1c1d1e1f"
SEC2_B = bytes(range(0x61, 0x81)).hex()


def pinned(**values):
    """A random source returning the given hex per purpose, a fixed filler otherwise."""
    def random_bytes(purpose, length):
        if purpose in values:
            value = bytes.fromhex(values[purpose])
            assert len(value) == length, purpose
            return value
        return hashlib.sha256(purpose.encode()).digest()[:length]
    return random_bytes


def make_device(**config):
    randomness = pinned(sec1_device_private=SEC1_DEVICE_PRIVATE, sec1_device_random=SEC1_DEVICE_RANDOM,
                        sec2_b=SEC2_B, sec2_session_id="c1c2c3c4c5c6c7c8",
                        sec2_nonce=bytes(range(0xD0, 0xE0)).hex())
    device = ProtocommDevice({"srp_salt": SEC2_SALT, **config}, randomness)
    device.open_session()
    return device


def events(device, name):
    return [record for record in device.records if record["event"] == name]


# --- worked examples, byte for byte --------------------------------------------------------

def test_sec1_handshake_and_traffic_match_worked_example():
    device = make_device(security=1, pop="abcd1234")
    client = SpecClient(via_model(device), 1, pop="abcd1234")
    resp0 = client.sec1_command0()
    client_public = client.client_public
    assert client_public.hex() == "07a37cbc142093c8b755dc1b10e86cb426374ad16aa853ed0bdfc0b2b86d1c7c"
    device_public = bytes.fromhex("5869aff450549732cbaaed5e5df9b30a6da31cb0e5742bad5ad4a1a768f1a67b")
    assert client.bodies[0][1] == bytes.fromhex("10015a25a201220a20") + client_public
    assert resp0 == (bytes.fromhex("10015a390801aa01341220") + device_public + bytes.fromhex("1a10")
                     + bytes.fromhex(SEC1_DEVICE_RANDOM))
    assert device.security.key.hex() == "418320d971c2a559d1efc1d957f835d59a1958c2d73ad78f2d5c8101641ef7d9"

    resp1 = client.sec1_command1()
    assert client.bodies[1][1] == bytes.fromhex(
        "10015a270802b201221220527d5d0604ab390e387edfb2edd69291a9f5d3bc2486b9bfaf469157071f4eee")
    assert resp1 == bytes.fromhex(
        "10015a270803ba01221a202269f29d63597181e5a9ccb15dc0acde206674f74dbc91b1a0ad13a412d8403d")

    table = [("prov-config", "0bc6c65d49623f81d60a6b909704cf5fdae0755c1a87b011", "b1352496"),
             ("prov-config", "7b225e2a", "9678c19b"),
             ("prov-config", "ed3a", "dbba79867620")]
    for endpoint, request, response in table:
        assert device.handle(endpoint, bytes.fromhex(request)).body.hex() == response
    set_config = events(device, "set_config")[0]
    assert (set_config["ssid"], set_config["passphrase"]) == ("myssid", "mypassword")


def test_sec1_first_message_offsets_match_worked_example():
    for plaintext, ciphertext in ((b"\x52\x00", "51c4"), (b"hello", "6ba1c8252c")):
        device = make_device(security=1, pop="abcd1234", custom_endpoints=["custom-data"])
        client = SpecClient(via_model(device), 1, pop="abcd1234")
        client.handshake()
        assert client.seal(plaintext).hex() == ciphertext
        endpoint = "prov-config" if plaintext.startswith(b"\x52") else "custom-data"
        reply = client.open(device.handle(endpoint, bytes.fromhex(ciphertext)).body)
        assert reply == (b"\x08\x01\x5a\x02\x10\x01" if endpoint == "prov-config" else b"SUCCESS\0")


def test_srp_constants_and_sec2_values_match_worked_example():
    assert int.from_bytes(sha512(padded(SRP_N), padded(SRP_G)), "big") == SRP_K
    assert bytes(a ^ b for a, b in zip(sha512(padded(SRP_N)), sha512(padded(SRP_G)))) == GROUP_HASH
    x = srp_x(b"wifiprov", b"abcd1234", bytes.fromhex(SEC2_SALT))
    assert f"{x:0128x}" == ("328b22460acfcf3cf0303efb1504054960ec1cf3796e8a901ce421995607f1c1"
                            "44d23224a0a2c328d872642e6a9281a1fefffc5773b77809a24eb079a0ff5b46")
    device = make_device(security=2)
    verifier = pad384(device.security.verifier)
    assert (verifier[:8].hex(), verifier[-8:].hex()) == ("c9395552d47c234a", "2e5d652bd86a6da1")

    client = SpecClient(via_model(device), 2)
    client.sec2_command0()
    assert (client.client_public[:8].hex(), client.client_public[-8:].hex()) == ("b3f0c97d44cf97c6", "7b755d6182b7a230")
    assert (client.device_public[:8].hex(), client.device_public[-8:].hex()) == ("2e2d7a31a154154b", "10d195095bf7c08a")
    assert client.salt.hex() == SEC2_SALT
    assert f"{client.u:0128x}" == ("6803326f51457f740a36444a240908425c321f36a0c5c83a4038b316ba486277"
                                   "1e2512db96ca86d0a4c3d2becd78add77243e3230e9c2d81b4290053cce29f34")
    expected_key = ("f32d663f6c4d1e2bd134fe0ef097aa591b2d336795b1fc32046b5122a4ef4599"
                    "26034534fee89267512c973f2c6d003a3931482a46fe7a865097f79724b82dbd")
    assert device.security.session_key.hex() == client.session_key.hex() == expected_key
    assert client.proof.hex() == ("2e9ee946dc2fab2a6d71e6c1f9326e278d8fa6b07966eed893cb254712a627b2"
                                  "34e36af8d70914741854695e7b5e27248162bc68f819fd28a497ac20bad94e9e")
    client.sec2_command1()
    assert client.device_proof.hex() == ("b531055b0e4f95c3c0758c08530f3354636aedcd3efcc967e57467c84d1f3c15"
                                         "577bf33eb73e2e0a350bad25c84fe4077350df9695c8cedd812811bfbfff45e6")


@pytest.mark.parametrize("patch, nonce, request_hex, response_hex", [
    (1, "c1c2c3c4c5c6c7c800000001", "2ec9d6f1fa29ba73aad67289691212792575",
     "b9d33fe913ab3b18e538a0d98b54033e76e1abe88142"),
    (0, bytes(range(0xD0, 0xE0)).hex(), "51867d9faebf3469493c5f4c6a348f838904",
     "0b87c884010814387f699c1c98406c7ec778a4931c83"),
])
def test_sec2_gcm_framing_matches_worked_example(patch, nonce, request_hex, response_hex):
    device = make_device(security=2, sec2_patch=patch)
    client = SpecClient(via_model(device), 2, patch=patch)
    client.handshake()
    assert client.nonce.hex() == nonce
    assert client.seal(b"\x52\x00").hex() == request_hex
    assert device.handle("prov-config", bytes.fromhex(request_hex)).body.hex() == response_hex
    assert client.open(bytes.fromhex(response_hex)) == bytes.fromhex("08015a021001")


def test_sec0_handshake_bytes_and_plaintext_payloads():
    device = make_device(security=0)
    client = SpecClient(via_model(device), 0)
    client.handshake()
    assert client.bodies[0][1] == bytes.fromhex("5203a20100")
    assert device.handle("prov-config", bytes.fromhex("5200")).body == bytes.fromhex("08015a021001")


# --- full flows driven by protocomm_spec_client -----------------------------------------------

@pytest.mark.parametrize("security, patch, pop", [(0, 0, ""), (1, 0, "abcd1234"), (1, 0, ""),
                                                  (2, 0, ""), (2, 1, "")])
def test_provisioning_succeeds_on_every_security_level(security, patch, pop):
    device = make_device(security=security, sec2_patch=patch, pop=pop or None, connecting_polls=2,
                         networks=[{"ssid": "myssid", "channel": 6, "rssi": -40,
                                    "bssid": "11:22:33:44:55:66", "auth": 3}],
                         station_ip="192.168.1.50")
    client = SpecClient(via_model(device), security, pop=pop, patch=patch)
    client.handshake()
    assert client.set_config("myssid", "mypassword").message(13).uint(1) == 0
    assert client.apply_config().message(15).uint(1) == 0
    states = [client.get_status().uint(2) for _ in range(3)]
    assert states == [1, 1, 0]
    assert device.records[-1]["event"] == "service_stop_scheduled"
    connected = client.call("prov-config", [(10, [])]).message(11).message(11)
    assert (connected.bytes(1), connected.bytes(3), connected.uint(5)) == (b"192.168.1.50", b"myssid", 6)


def test_connected_status_wire_bytes_match_spec_example():
    device = make_device(security=0, connecting_polls=0, station_ip="192.168.1.50",
                         networks=[{"ssid": "myssid", "channel": 6, "rssi": -40,
                                    "bssid": "11:22:33:44:55:66", "auth": 3}])
    SpecClient(via_model(device), 0).handshake()
    device.handle("prov-config", encode([(1, 2), (12, [(1, b"myssid"), (2, b"mypassword")])]))
    device.handle("prov-config", bytes.fromhex("0804"))
    reply = device.handle("prov-config", bytes.fromhex("5200"))
    assert reply.body == bytes.fromhex(
        "08015a245a220a0c3139322e3136382e312e353010031a066d797373696422061122334455662806")
    assert reply.stop_service_after_ms == 1000


@pytest.mark.parametrize("config, ssid, passphrase, reason", [
    ({"wifi_outcome": "auth-error"}, "myssid", "mypassword", 0),
    ({"wifi_outcome": "not-found"}, "myssid", "mypassword", 1),
    ({"target_ssid": "HomeNet", "target_passphrase": "right"}, "HomeNet", "wrong", 0),
    ({"target_ssid": "HomeNet", "target_passphrase": "right"}, "Elsewhere", "right", 1),
])
def test_failure_reasons_then_reset_allows_new_credentials(config, ssid, passphrase, reason):
    device = make_device(security=1, connecting_polls=1, **config)
    client = SpecClient(via_model(device), 1, pop="abcd1234")
    client.handshake()
    client.set_config(ssid, passphrase)
    client.apply_config()
    assert client.get_status().uint(2) == 1
    failed = client.call("prov-config", [(10, [])])
    assert failed.message(11).uint(2) == 3
    assert failed.message(11).has(10) and failed.message(11).uint(10) == reason
    assert client.set_config("HomeNet", "right").message(13).uint(1) == 0
    assert client.apply_config().message(15).uint(1) == 5, "apply refused until reset"
    reset = client.call("prov-ctrl", [(1, 1), (11, [])])
    assert (reset.uint(1), reset.uint(2)) == (2, 0)
    client.set_config("HomeNet", "right")
    assert client.apply_config().message(15).uint(1) == 0


def test_auth_error_status_wire_bytes():
    device = make_device(security=0, wifi_outcome="auth-error", connecting_polls=0)
    device.handle("prov-config", encode([(1, 2), (12, [(1, b"x"), (2, b"y")])]))
    device.handle("prov-config", bytes.fromhex("0804"))
    assert device.handle("prov-config", bytes.fromhex("5200")).body == bytes.fromhex("08015a0410035000")


def test_ctrl_reset_and_reprov_refused_in_wrong_state():
    device = make_device(security=0)
    assert device.handle("prov-ctrl", bytes.fromhex("0801")).body == bytes.fromhex("080210056200")
    assert decode(device.handle("prov-ctrl", bytes.fromhex("0803")).body).uint(2) == 5
    netprov = make_device(security=0, proto_ver_style="netprov-v1.2", auto_stop=False)
    assert decode(netprov.handle("prov-ctrl", bytes.fromhex("0801")).body).uint(2) == 0
    assert decode(netprov.handle("prov-ctrl", bytes.fromhex("0803")).body).uint(2) == 0
    assert [r["event"] for r in netprov.records][-2:] == ["ctrl_reset", "ctrl_reprov"]


def test_set_config_length_checks_keep_the_connection():
    device = make_device(security=0)
    client = SpecClient(via_model(device), 0)
    assert client.set_config("s" * 33, "p").message(13).uint(1) == 4
    assert client.set_config("s" * 32, "p" * 64).message(13).uint(1) == 4
    assert client.set_config("s" * 32, "p" * 63).message(13).uint(1) == 0
    bad_bssid = client.call("prov-config", [(1, 2), (12, [(1, b"s"), (3, b"\x01\x02")])])
    assert bad_bssid.message(13).uint(1) == 4
    with pytest.raises(ProtocommFailure):
        device.handle("prov-config", bytes.fromhex("0802"))


def test_scan_paging_sorted_by_rssi_and_past_the_end():
    networks = [{"ssid": f"net{i}", "channel": i + 1, "rssi": -90 + 10 * i,
                 "bssid": f"aa:bb:cc:00:00:0{i}", "auth": i % 8} for i in range(5)]
    device = make_device(security=2, networks=networks, scan_duration_ms=250)
    client = SpecClient(via_model(device), 2)
    client.handshake()
    request = client.seal(bytes.fromhex("5206080118052078"))
    reply = device.handle("prov-scan", request)
    assert reply.delay_ms == 250
    assert decode(client.open(reply.body)).uint(1) == 1
    status = client.call("prov-scan", [(1, 2), (12, [])]).message(13)
    assert (status.boolean(1), status.uint(2)) == (True, 5)
    seen = []
    for start, count in ((0, 2), (2, 2), (4, 1)):
        page = client.call("prov-scan", [(1, 4), (14, [(1, start), (2, count)])])
        assert page.uint(2) == 0
        for entry in page.message(15).messages(1):
            seen.append((entry.bytes(1).decode(), entry.int32(3), entry.bytes(4).hex(), entry.uint(5)))
    assert [name for name, *_ in seen] == ["net4", "net3", "net2", "net1", "net0"]
    assert seen[-1] == ("net0", -90, "aabbcc000000", 0)
    past_end = client.call("prov-scan", [(1, 4), (14, [(1, 4), (2, 2)])])
    assert past_end.uint(2) == 5 and not past_end.message(15).messages(1)
    scan_start = events(device, "scan_start")[0]
    assert scan_start == {"source": "protocomm", "event": "scan_start", "blocking": True,
                          "passive": False, "group_channels": 5, "period_ms": 120}


def test_non_blocking_scan_reports_unfinished_first():
    device = make_device(security=0, scan_status_polls=1)
    device.handle("prov-scan", encode([(10, [(4, 120)])]))
    first = decode(device.handle("prov-scan", bytes.fromhex("08026200")).body).message(13)
    second = decode(device.handle("prov-scan", bytes.fromhex("08026200")).body).message(13)
    assert (first.boolean(1), second.boolean(1), second.uint(2)) == (False, True, 1)


def test_wrong_pop_closes_at_command1():
    device = make_device(security=1, pop="abcd1234")
    client = SpecClient(via_model(device), 1, pop="wrong-pop")
    client.sec1_command0()
    with pytest.raises(ProtocommFailure, match="key mismatch"):
        client.sec1_command1()
    assert events(device, "session")[-1]["ok"] is False
    with pytest.raises(ProtocommFailure):
        device.handle("prov-config", b"\x00\x01")


@pytest.mark.parametrize("username, password", [("wifiprov", "wrong"), ("someone", "abcd1234")])
def test_wrong_srp_credentials_close_at_command1(username, password):
    device = make_device(security=2)
    client = SpecClient(via_model(device), 2, username=username, password=password)
    client.sec2_command0()
    with pytest.raises(ProtocommFailure, match="proof mismatch"):
        client.sec2_command1()


def test_patch_mismatch_fails_gcm_authentication():
    device = make_device(security=2, sec2_patch=1)
    client = SpecClient(via_model(device), 2, patch=0)
    client.handshake()
    with pytest.raises(InvalidTag):
        client.get_status()
    with pytest.raises(ProtocommFailure, match="GCM"):
        client.get_status()


@pytest.mark.parametrize("security", [1, 2])
def test_requests_before_the_handshake_close_the_connection(security):
    device = make_device(security=security)
    with pytest.raises(ProtocommFailure, match="not established"):
        device.handle("prov-config", bytes.fromhex("5200" + "00" * 16))


@pytest.mark.parametrize("security", [1, 2])
def test_command0_restarts_an_established_session(security):
    device = make_device(security=security, pop="abcd1234")
    client = SpecClient(via_model(device), security, pop="abcd1234")
    client.handshake()
    client.get_status()
    fresh = SpecClient(via_model(device), security, pop="abcd1234")
    fresh.handshake()
    assert fresh.get_status().uint(2) == 1
    with pytest.raises(ProtocommFailure):
        device.handle("prov-session", encode([(2, security), (10 + security, [(1, 2)])]))


def test_session_data_with_wrong_scheme_is_rejected():
    device = make_device(security=1)
    with pytest.raises(ProtocommFailure, match="version mismatch"):
        device.handle("prov-session", bytes.fromhex("5203a20100"))


def test_new_transport_session_drops_the_security_session():
    device = make_device(security=1, pop="abcd1234")
    client = SpecClient(via_model(device), 1, pop="abcd1234")
    client.handshake()
    device.open_session()
    with pytest.raises(ProtocommFailure):
        client.get_status()


@pytest.mark.parametrize("config, expected", [
    ({"security": 1}, {"prov": {"ver": "v1.1", "sec_ver": 1, "sec_patch_ver": 0, "cap": ["wifi_scan"]}}),
    ({"security": 1, "pop": None}, {"prov": {"ver": "v1.1", "sec_ver": 1, "sec_patch_ver": 0,
                                             "cap": ["no_pop", "wifi_scan"]}}),
    ({"security": 0, "proto_ver_style": "netprov-v1.2"},
     {"prov": {"ver": "netprov-v1.2", "sec_ver": 0, "sec_patch_ver": 0, "cap": ["no_sec", "wifi_prov", "wifi_scan"]}}),
    ({"security": 2, "sec2_patch": 1, "include_sec_patch_ver": False},
     {"prov": {"ver": "v1.1", "sec_ver": 2, "cap": ["wifi_scan"]}}),
])
def test_proto_ver_json(config, expected):
    device = make_device(**config)
    body = device.handle("proto-ver", b"ESP").body.decode()
    assert json.loads(body) == expected
    assert "\n\t\"prov\":\t{\n" in body


def test_cjson_print_layout():
    assert cjson_print({"prov": {"ver": "v1.1", "cap": ["a", "b"]}}) == \
        '{\n\t"prov":\t{\n\t\t"ver":\t"v1.1",\n\t\t"cap":\t["a", "b"]\n\t}\n}'


def test_unknown_endpoint_and_ctrl_absent_before_idf_5_1():
    device = make_device(security=0, ctrl_endpoint=False)
    assert "prov-ctrl" not in device.endpoints()
    with pytest.raises(KeyError):
        device.handle("prov-ctrl", b"\x08\x01")
