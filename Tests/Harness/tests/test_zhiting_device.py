"""ZhitingDevice against the worked packets of Tests/ZhitingLANTests/Vectors/worked-example.json and the
Zhiting apps' behaviour."""

import hashlib
import json

import pytest
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from ztharness.zhiting_device import ZhitingDevice

DEVICE_ID = "a1b2c3d4e5f6"
KEY = b"abcdefghijklmnop"
TOKEN = b"0123456789abcdef"
SENDER = ("192.168.4.2", 54321)
GET_INFO = b'{"method":"get_prop.info","params":[],"id":1}'
SPEC_REQUEST = bytes.fromhex(
    "213100500000a1b2c3d4e5f6000000006162636465666768696a6b6c6d6e6f70"
    "49536e33d93f3c3491f8ff976ac73ca38169053bdcac46009c00945c811648da"
    "3ea8b3a7379920008f798db49327386f")


# A client written from the packet layout alone, independent of the model's helpers.
def aes(secret, data, decrypt=False):
    key = hashlib.md5(secret).digest()
    cipher = Cipher(algorithms.AES(key), modes.CBC(hashlib.md5(key + secret).digest()))
    if decrypt:
        unpadder = padding.PKCS7(128).unpadder()
        plain = cipher.decryptor().update(data)
        return unpadder.update(plain) + unpadder.finalize()
    padder = padding.PKCS7(128).padder()
    return cipher.encryptor().update(padder.update(data) + padder.finalize())


def client_packet(payload_json, reserved=b"\0\0", checksum=KEY, device_id=DEVICE_ID, token=TOKEN):
    payload = aes(token, payload_json)
    return (b"\x21\x31" + (32 + len(payload)).to_bytes(2, "big") + reserved + bytes.fromhex(device_id)
            + b"\0\0\0\0" + checksum + payload)


def token_request(key=KEY):
    return bytes.fromhex("21310020fffe" + DEVICE_ID + "00000000") + key


def make_device(**config):
    return ZhitingDevice({"device_id": DEVICE_ID, "token": TOKEN.hex(), **config})


def reply_json(reply):
    return json.loads(aes(TOKEN, reply[32:], decrypt=True))


def test_client_request_matches_worked_packet_and_device_reads_it():
    assert client_packet(GET_INFO) == SPEC_REQUEST
    device = make_device(model="ZTSW3SLW001W", sw_ver="1.0.0", hw_ver="esp32c3")
    device.handle(token_request(), SENDER)
    [reply] = device.handle(SPEC_REQUEST, SENDER)
    assert reply[:4] == b"\x21\x31" + len(reply).to_bytes(2, "big")
    assert reply[4:16] == bytes.fromhex("0000" + DEVICE_ID + "00000000")
    assert reply_json(reply) == {"id": 1, "result": {"model": "ZTSW3SLW001W", "token": TOKEN.hex().upper(),
                                                     "hw_ver": "esp32c3", "sw_ver": "1.0.0"}}
    request = device.records[-1]
    assert (request["event"], request["method"], request["id"], request["checksum"], request["reserved"]) == \
        ("request", "get_prop.info", 1, "key", "0000")


def test_token_reply_matches_worked_packet():
    device = make_device(checksum_style="md5-packet")
    [reply] = device.handle(token_request(), SENDER)
    assert reply == bytes.fromhex(
        "213100400000a1b2c3d4e5f60000000087e68a18b963f348311252e97a919090"
        "693bab00c0971e31fb90e6e96f39eb3c29ce226f187575dcf7be8c0223f08475")
    assert aes(KEY, reply[32:], decrypt=True) == TOKEN
    assert device.records[0]["key"] == KEY.decode()


def test_hello_reply_matches_worked_sa_packet():
    device = make_device(checksum_style="md5-packet", model="MH-SA00DCLB001W")
    hello = bytes.fromhex("21310020" + "ff" * 28)
    assert device.handle(hello, SENDER) == [bytes.fromhex(
        "2131003bffffa1b2c3d4e5f600000001aad45eeac25e6cc2995b00ebcc404d57"
        "7b226d6f64656c223a224d482d5341303044434c4230303157227d")]
    bare = make_device(hello_reply="bare", checksum_style="zero").handle(hello, SENDER)
    assert bare == [bytes.fromhex("213100200000" + DEVICE_ID + "00" * 20)]


def test_md5_token_checksum_is_the_miio_form():
    [reply] = make_device().handle(token_request(), SENDER)
    assert reply[16:32] == hashlib.md5(reply[:16] + TOKEN + reply[32:]).digest()


@pytest.mark.parametrize("checksum, convention", [
    (KEY, "key"),
    (bytes.fromhex("961240f1abe10fca705bb761634f8608"), "md5-packet"),
    (bytes.fromhex("47d3e938ab52d009a1dcbdf3ca8051dc"), "md5-token"),
    (b"\x01" * 16, "other"),
])
def test_request_checksum_conventions_are_recognised_and_can_be_required(checksum, convention):
    device = make_device()
    device.handle(token_request(), SENDER)
    assert len(device.handle(client_packet(GET_INFO, checksum=checksum), SENDER)) == 1
    assert device.records[-1]["checksum"] == convention
    strict = make_device(require_checksum="key")
    strict.handle(token_request(), SENDER)
    answered = strict.handle(client_packet(GET_INFO, checksum=checksum), SENDER)
    assert len(answered) == (1 if convention == "key" else 0)


def test_reserved_variants():
    android = client_packet(GET_INFO, reserved=b"\xff\xff")
    assert android[:6].hex() == "21310050ffff" and android[32:] == SPEC_REQUEST[32:]
    [reply] = make_device(reserved_variant="echo").handle(android, SENDER)
    assert reply[4:6] == b"\xff\xff"
    assert make_device(accept_reserved="zero").handle(android, SENDER) == []
    assert make_device(reserved_variant="ffff").handle(SPEC_REQUEST, SENDER)[0][4:6] == b"\xff\xff"


def test_set_prop_server_echo_and_configured_other_server():
    text = ('{"method":"set_prop.server","params":{"server":"gz.sc.zhitingtech.com","port":54321,'
            '"access_token":"ACCESS","area_id": "123"\n},"id": 2}').encode()
    device = make_device()
    [reply] = device.handle(client_packet(text), SENDER)
    assert reply_json(reply) == {"id": 2, "result": {"server": "gz.sc.zhitingtech.com", "port": 54321,
                                                     "area_id": "123", "access_token": "ACCESS"}}
    assert device.records[-1]["params"]["access_token"] == "ACCESS"
    [other] = make_device(echo_server="elsewhere.example").handle(client_packet(text), SENDER)
    assert reply_json(other)["result"]["server"] == "elsewhere.example"


def test_errors_for_unknown_method_and_bad_params():
    unknown = client_packet(b'{"method":"miIO.info","params":[],"id":7}')
    [reply] = make_device().handle(unknown, SENDER)
    assert reply_json(reply) == {"id": 7, "error": {"code": -32601, "message": "method not found"}}
    bad = client_packet(b'{"method":"set_prop.server","params":{"server":"x"},"id":8}')
    assert reply_json(make_device().handle(bad, SENDER)[0])["error"]["code"] == -32602
    assert make_device(errors="silent").handle(unknown, SENDER) == []


def test_silent_device_records_but_never_answers():
    device = make_device(silent=True)
    assert device.handle(bytes.fromhex("21310020" + "ff" * 28), SENDER) == []
    assert device.handle(token_request(), SENDER) == []
    assert device.handle(SPEC_REQUEST, SENDER) == []
    assert [r["event"] for r in device.records] == ["hello", "token_request", "request"]


@pytest.mark.parametrize("datagram, reason", [
    (b"\x21\x31\x00\x20" + b"\0" * 10, "not a Zhiting packet"),
    (SPEC_REQUEST[:2] + b"\x00\x60" + SPEC_REQUEST[4:], "length field mismatch"),
    (client_packet(GET_INFO, device_id="010203040506"), "other device id"),
    (client_packet(GET_INFO, token=b"another-token!!!"), "undecryptable"),
    (client_packet(b"[1, 2]"), "JSON is not an object"),
])
def test_malformed_requests_are_dropped_and_recorded(datagram, reason):
    device = make_device()
    assert device.handle(datagram, SENDER) == []
    assert device.records[-1]["event"] == "dropped" and reason in device.records[-1]["reason"]


def test_random_token_when_not_configured():
    device = ZhitingDevice({"device_id": DEVICE_ID}, lambda purpose, n: bytes([7]) * n)
    assert device.token == bytes([7]) * 16
