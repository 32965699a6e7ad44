"""The BluFi device model against the BluFi worked examples (the values of
Tests/BluFiTests/Vectors/worked-examples.json, which names their source), its error rules, and a
scripted phone session. The phone side here is written independently of the model (own framing,
own crypto via `cryptography`); only the CRC helper is shared, and it is pinned by the CRC vectors."""

import hashlib
import os
import sys

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from ztharness import blufi_frame as bf  # noqa: E402
from ztharness.blufi_device import BlufiConfig, BlufiDevice  # noqa: E402
from ztharness.blufi_security import FFDHE3072_PRIME, V1_PRIME, SecurityV1, SecurityV2  # noqa: E402


def h(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", "").replace("\n", ""))


def label_int(label: str) -> int:
    return int.from_bytes(hashlib.sha256(label.encode()).digest(), "big")


class FakeLink:
    """Collects notifications and timers; tests fire timers explicitly."""

    def __init__(self):
        self.sent: list[bytes] = []
        self.timers = []
        self.disconnects = 0

    def notify(self, value: bytes) -> None:
        self.sent.append(value)

    def disconnect(self) -> None:
        self.disconnects += 1

    def schedule(self, delay_ms, callback) -> None:
        self.timers.append((delay_ms, callback))

    def fire_timers(self) -> None:
        timers, self.timers = self.timers, []
        for _, callback in timers:
            callback()

    def take(self) -> list[bytes]:
        sent, self.sent = self.sent, []
        return sent


def make_device(mtu=259, private=None, **config) -> tuple[BlufiDevice, FakeLink]:
    link = FakeLink()
    random_bytes = (lambda n: private.to_bytes(n, "big")) if private is not None else os.urandom
    device = BlufiDevice(BlufiConfig.from_dict(config), link, random_bytes)
    device.ble_connected(mtu)
    return device, link


# --- worked examples: CRC ---------------------------------------------------------------------

def test_crc16_genibus_vectors():
    assert bf.crc16(b"123456789") == 0xD64E
    assert bf.crc16(h("00 00")) == 0xE2F0
    assert bf.crc16(h("06 06") + b"myssid") == 0x8EEF
    assert bf.checksum_bytes(6, b"myssid") == h("ef 8e")


# --- worked examples: plain frames ------------------------------------------------------------

def test_plain_version_and_ack_frames():
    device, link = make_device()
    device.receive(h("1c 00 00 00"))
    assert link.take() == [h("41 04 00 02 01 03")]
    device.receive(h("08 08 01 01 01"))
    assert link.take() == [h("00 04 01 01 01")]
    assert device.record["opmode"] == 1
    assert [m["name"] for m in device.record["messages"]] == ["GET_VERSION", "SET_OPMODE"]


# --- worked examples: fragmentation at MTU 23 ---------------------------------------------------

MTU23_FRAMES = [
    h("4d 12 05 0e 1e 00 41 42 43 44 45 46 47 48 49 4a 4b 4c 2c 3c"),
    h("4d 12 06 0e 12 00 4d 4e 4f 50 51 52 53 54 55 56 57 58 79 2e"),
    h("4d 02 07 06 59 5a 5b 5c 5d 5e 45 40"),
]
CUSTOM_30 = bytes(range(0x41, 0x5F))


def android_split(message: bytes, limit: int, checksum: bool) -> list[tuple[bool, bytes]]:
    """The official clients' splitting rule (EspBlufiForAndroid's `BlufiClientImpl.java`), kept apart from
    the model's own fragmenter."""
    per_frame = limit - 4 - 2 - (2 if checksum else 0)
    pieces, offset = [], 0
    while offset < len(message):
        chunk = message[offset:offset + per_frame]
        rest = len(message) - offset - len(chunk)
        if rest in (1, 2):
            chunk = message[offset:]
            rest = 0
        prefix = (len(message) - offset).to_bytes(2, "little") if rest else b""
        pieces.append((bool(rest), prefix + chunk))
        offset += len(chunk)
    return pieces


def test_phone_fragments_at_mtu23_match_vector_and_reassemble():
    frames, seq = [], 5
    for fragment, data in android_split(CUSTOM_30, 20, checksum=True):
        fc = bf.FC_CHECKSUM | (bf.FC_FRAGMENT if fragment else 0)
        frames.append(bytes([0x4D, fc, seq, len(data)]) + data + bf.checksum_bytes(seq, data))
        seq += 1
    assert frames == MTU23_FRAMES

    device, link = make_device(mtu=23)
    device._recv_seq = 5  # the vector starts mid-session
    for frame in MTU23_FRAMES:
        device.receive(frame)
    assert device.record["custom_data"] == [{"hex": CUSTOM_30.hex(), "text": CUSTOM_30.decode()}]
    assert device.record["errors_sent"] == []
    assert link.take() == []


def test_device_fragments_at_mtu23_like_the_vector():
    device, link = make_device(mtu=23)
    device.sec_mode = 0x01
    device._send_seq = 5
    device._send(bf.FRAME_DATA, bf.DATA_CUSTOM, CUSTOM_30)
    # Same fragments as the phone vector, with the direction bit set in FC.
    assert link.take() == [bytes([f[0], f[1] | bf.FC_DEVICE_TO_PHONE]) + f[2:] for f in MTU23_FRAMES]


# --- worked examples: V1 session ---------------------------------------------------------------

V1_A = h("""18a861d4861a96754cadeedef2ea533466d3c6406cba53dbba2ffb50eb288330df1275381c7df4e92f6fde3b8bef3d4f
66f69a541a3737203c625943b68ef79073135b2a3d5e5a7a18387a45ef424e1faf531ad8d0238614580bb3c9d77632ae
feb89ee9756bb1d027567c45aa2b8aaf444a27581292d6119c17415a6cefbe02""")
V1_B = h("""bc5eebe4d28460a99bbe497b47ac3597d29fa57b51ca8553b4e7a2f524848484a9d27e64bd1d35ddcd438e93ca2b259e
e2d25d84f4036ca972ebf59b8c0d1bc2222a7c2778d42abe50b596bc9a1d9cc22017a0cc4855d38007a5e7386925b42c
4906406d74a37ab6ac9dc1c1c5515b523008ef3326b500d3922f64323c7ceed0""")
WIFI_REPORT_PLAIN = h("01 00 00 01 06 112233445566 02 06") + b"myssid"


def neg_params(prime: int, size: int, public: bytes) -> bytes:
    p = prime.to_bytes(size, "big")
    return (len(p).to_bytes(2, "big") + p + h("00 01 02") + len(public).to_bytes(2, "big") + public)


def test_v1_public_keys_match_vector():
    a, b = label_int("blufi phone private v1"), label_int("blufi device private v1")
    assert a == int("3ea1f0cbafdce41b0cbbe188be3d8eaf15b3cd964cb13e1ef2c81478a90f5fae", 16)
    assert b == int("e7e63f0301b783d5cbc1eae65a956c2111a0b44989ffbe5ee6d5a302fb1b00b8", 16)
    assert pow(2, a, V1_PRIME).to_bytes(128, "big") == V1_A
    assert pow(2, b, V1_PRIME).to_bytes(128, "big") == V1_B


def test_v1_session_frames_byte_for_byte():
    device, link = make_device(private=label_int("blufi device private v1"), unsolicited_reports=[],
                               send_device_id=False, version=[1, 3])
    device.receive(h("1c 00 00 00"))
    assert link.take() == [h("41 04 00 02 01 03")]

    message = b"\x01" + neg_params(V1_PRIME, 128, V1_A)
    assert len(message) == 264
    first = h("01 10 02 fb 08 01") + message[:249]
    assert first[:10] == h("01 10 02 fb 08 01 01 00 80 cf")
    last = h("01 00 03 0f") + message[249:]
    assert last[:8] == h("01 00 03 0f 4a 27 58 12")
    device.receive(h("01 00 01 03 00 01 07"))
    device.receive(first)
    device.receive(last)
    assert link.take() == [h("01 04 01 80") + V1_B]
    assert device.security.key == h("4eea3ef94bde5f8e9c5ac440401bf506")

    device.receive(h("04 02 04 01 03 f1 ec"))
    device.receive(h("08 0b 05 01 95 83 fb"))
    assert link.take() == [h("00 04 02 01 05")]
    device.receive(h("09 03 06 06 d5 41 1e 4a 2e 5f ef 8e"))
    device.receive(h("0d 03 07 0d cc 1f 9f 86 6a 20 9c 18 5a c4 aa 04 a7 29 3f"))
    device.receive(h("0c 00 08 00"))
    link.fire_timers()
    device.receive(h("14 03 09 00 68 58"))
    assert link.take() == [h("3d 07 03 13 8d 74 b5 01 75 30 90 40 5d 33 a5 3d 63 c8 8d 64 3d c7 ce 1c a9")]

    record = device.record
    assert (record["sta_ssid"], record["sta_password"], record["opmode"]) == ("myssid", "mypassword123", 1)
    assert (record["security"], record["sec_mode"], record["errors_sent"]) == ("v1", 3, [])
    assert record["connect_attempts"][0]["ssid"] == "myssid"


def test_v1_leading_zero_secret_is_stripped():
    a = label_int("blufi phone private v1")
    b_prime = label_int("blufi device private v1 #21")
    assert b_prime == int("1d5130999243cb4fc420eabbb6410d5302b07b9047eaac2fbd3b33f7a1ab171f", 16)
    security = SecurityV1(lambda n: b_prime.to_bytes(n, "big"))
    device_public = security.agree(neg_params(V1_PRIME, 128, V1_A))
    assert security.key == h("4b73529745f01c269d5cb99a1203a5e6")
    padded = pow(int.from_bytes(device_public, "big"), a, V1_PRIME).to_bytes(128, "big")
    assert padded[:2] == h("00 73")
    assert hashlib.md5(padded).digest() == h("6cd8c826ce78c8ee4605e91a05e7dc03")


# --- worked examples: V2 session ---------------------------------------------------------------

def test_v2_session_frames_and_device_report():
    a2, b2 = label_int("blufi phone private v2"), label_int("blufi device private v2")
    assert a2 == int("370c4cfd65e439d5f44b984ba4930ea7e8741d68931a02676829ebad4f1b43da", 16)
    phone_public = pow(2, a2, FFDHE3072_PRIME).to_bytes(384, "big")
    assert hashlib.sha256(phone_public).digest() == h(
        "0067817177fa38d0f9bf8a55e7f37918cad40cd7f7bfc2de9a068ae0f4cc4ba0")
    device, link = make_device(private=b2, version=[1, 4], unsolicited_reports=[], send_device_id=False)

    # No GET_VERSION here, so the device's WIFI_REPORT lands on dev seq 3 as in the vector.
    message = b"\x01" + neg_params(FFDHE3072_PRIME, 384, phone_public)
    assert len(message) == 776
    seq = 0
    device.receive(bytes([0x01, 0x00, seq, 3]) + h("00 03 07"))
    seq += 1
    for fragment, data in android_split(message, 255, checksum=False):
        device.receive(bytes([0x01, bf.FC_FRAGMENT if fragment else 0, seq, len(data)]) + data)
        seq += 1
    reply = link.take()
    assert len(reply) == 2 and reply[0][:6] == h("01 14 00 f6 80 01")
    device_public = reply[0][6:] + reply[1][4:]
    assert hashlib.sha256(device_public).digest() == h(
        "9222cf38769011275cfb34ed6c6b5c64f1cdf6d5c16f6b6735d8960b712a1373")
    assert device.security.key == h("e302cf19c85888507d456c8e483f18f19c03d2e390a704eff8cf9adfa6e8cc81")

    def encrypted(type_byte, fc, ciphertext, plaintext):
        nonlocal seq
        frame = bytes([type_byte, fc, seq, len(ciphertext)]) + ciphertext + bf.checksum_bytes(seq, plaintext)
        seq += 1
        return frame

    device.receive(bytes([0x04, 0x02, seq, 1, 3]) + bf.checksum_bytes(seq, b"\x03"))
    seq += 1
    # Vector ciphertexts; V2 does not mix the sequence number in, only the CRC is recomputed.
    device.receive(encrypted(0x08, 0x0B, h("a4"), b"\x01"))
    device.receive(encrypted(0x09, 0x03, h("dd cc 93 9c 1a 60"), b"myssid"))
    device.receive(encrypted(0x0D, 0x03, h("ce e6 db 17 8c a8 b7 07 0c 99 4f 68 77"), b"mypassword123"))
    assert device.record["errors_sent"] == []
    assert (device.record["sta_ssid"], device.record["sta_password"]) == ("myssid", "mypassword123")
    assert link.take() == [h("00 04 02 01") + bytes([seq - 3])]

    device.receive(bytes([0x0C, 0x00, seq, 0]))
    link.fire_timers()
    assert device.wifi_report() == WIFI_REPORT_PLAIN
    device.receive(bytes([0x14, 0x03, seq + 1, 0]) + bf.checksum_bytes(seq + 1, b""))
    assert link.take() == [h("3d 07 03 13 cc 4a 2c d6 2d a6 0b 97 4e 90 b4 d4 eb 42 c1 62 59 10 16 1c a9")]


def test_v2_leading_zero_secret_stays_padded():
    b2_prime = label_int("blufi device private v2 #28")
    assert b2_prime == int("02590d225786e3f9be3d9b1949f41cc2a0aab7524b51d369e3f3f349f8541201", 16)
    phone_public = pow(2, label_int("blufi phone private v2"), FFDHE3072_PRIME).to_bytes(384, "big")
    security = SecurityV2(lambda n: b2_prime.to_bytes(n, "big"))
    security.agree(neg_params(FFDHE3072_PRIME, 384, phone_public))
    assert security.key == h("c84ba035416ca44e75691bf70a9c778bbb8cf98bfb96799b4ba915f2949a5bee")


# --- receive-path rules (sequence, length, fragments, NEG) ---------------------------------------

def errors(device) -> list[int]:
    return [e["code"] for e in device.record["errors_sent"]]


def test_length_mismatch_is_rejected_without_consuming_the_sequence():
    device, link = make_device()
    device.receive(h("1c 00 00 00 ff"))          # trailing byte
    device.receive(h("1c 02 00 00"))             # checksum flag but no checksum
    device.receive(h("1c 00"))                   # shorter than a header
    assert errors(device) == [9, 9, 9]
    assert link.take() == [h("49 04 00 01 09"), h("49 04 01 01 09"), h("49 04 02 01 09")]
    device.receive(h("1c 00 00 00"))
    assert link.take() == [h("41 04 03 02 01 03")]


def test_sequence_error_does_not_advance_and_session_stays_dead():
    device, link = make_device()
    device.receive(h("1c 00 01 00"))
    device.receive(h("1c 00 02 00"))
    assert errors(device) == [0, 0]
    device.receive(h("1c 00 00 00"))
    assert link.take()[-1] == h("41 04 02 02 01 03")


def test_checksum_error_consumes_sequence():
    device, link = make_device()
    device.receive(h("09 02 00 06") + b"myssid" + h("00 00"))
    assert errors(device) == [1] and device.record["sta_ssid"] is None
    device.receive(h("09 02 01 06") + b"myssid" + bf.checksum_bytes(1, b"myssid"))
    assert device.record["sta_ssid"] == "myssid"


def test_encrypted_frame_before_negotiation_is_a_decrypt_error():
    device, _ = make_device()
    device.receive(h("09 01 00 06") + b"myssid")
    assert errors(device) == [2]


def test_fragment_rules():
    device, _ = make_device()
    device.receive(h("4d 10 00 01 05"))                       # fragment shorter than its prefix
    device.receive(h("4d 10 01 03 00 00 41"))                 # total 0
    device.receive(h("4d 10 02 04 02 00 41 42"))              # total 2 …
    device.receive(h("4d 00 03 01 43"))                       # … but 3 bytes arrive
    assert errors(device) == [9, 9, 9]
    device.receive(h("4d 10 04 02 05 00"))                    # first fragment with no content
    device.receive(h("4d 10 05 03 05 00 41"))                 # looks like a first one again
    assert errors(device) == [9, 9, 9, 12]
    assert device.record["custom_data"] == []


def test_negotiation_errors():
    device, _ = make_device(security="none")
    device.receive(h("01 00 00 03 00 01 07"))
    assert errors(device) == [4]

    device, _ = make_device()
    device.receive(h("01 00 00 02 00 01"))                    # shorter than 3 bytes
    device.receive(h("01 00 01 04 01 00 00 00"))              # data before the length message
    device.receive(h("01 00 02 03 00 00 00"))                 # length 0
    assert errors(device) == [9, 6, 6]

    device, _ = make_device(version=[1, 4])                  # V2 firmware given a 128-byte key
    message = b"\x01" + neg_params(V1_PRIME, 128, V1_A)
    device.receive(bytes([0x01, 0, 0, 3]) + h("00 01 07"))
    seq = 1
    for fragment, data in android_split(message, 255, checksum=False):
        device.receive(bytes([0x01, bf.FC_FRAGMENT if fragment else 0, seq, len(data)]) + data)
        seq += 1
    assert errors(device) == [6]


def test_field_limits_and_firmware_abort():
    device, link = make_device()
    device.receive(bytes([0x09, 0, 0, 32]) + b"s" * 32)
    device.receive(bytes([0x0D, 0, 1, 64]) + b"p" * 64)
    device.receive(bytes([0x05, 0, 2, 5]) + b"\x11" * 5)
    assert errors(device) == [9, 9, 9]
    device.receive(h("08 00 03 01 04"))
    assert link.disconnects == 1 and "aborted" in device.record["aborted"]


def test_sequence_and_security_reset_on_reconnect():
    device, link = make_device()
    device.receive(h("1c 00 00 00"))
    device.receive(h("04 00 01 01 03"))
    device.ble_disconnected()
    device.receive(h("1c 00 02 00"))
    assert link.take() == [h("41 04 00 02 01 03")]            # nothing goes out while unconnected
    device.ble_connected(185)
    device.receive(h("1c 00 00 00"))
    assert link.take() == [h("41 04 00 02 01 03")]
    assert device.sec_mode == 0 and device.record["connections"] == 2


def test_wifi_outcomes_and_status_tlvs():
    device, link = make_device(wifi_outcome="wrong-password", rssi=-61)
    device.receive(h("14 00 00 00"))
    assert link.take() == [bytes([0x3D, 0x04, 0, 9]) + h("00 01 00 15 01 ff 16 01 80")]
    device.receive(h("08 00 01 01 01"))
    device.receive(h("09 00 02 04") + b"home")
    device.receive(h("0c 00 03 00"))
    assert link.take() == [bytes([0x3D, 0x04, 1, 6]) + h("01 02 00 14 01 02")]
    link.fire_timers()
    assert link.take() == [bytes([0x3D, 0x04, 2, 9]) + h("01 01 00 15 01 0f 16 01") + bytes([256 - 61])]

    device, link = make_device(wifi_outcome="not-found")
    device.receive(h("09 00 00 04") + b"home")
    device.receive(h("0c 00 01 00"))
    link.take()
    link.fire_timers()
    assert link.take()[0][4:] == h("00 01 00 15 01 c9 16 01 80")


def join_with(password: bytes, **config) -> bytes:
    """The failure reason byte (tag 0x15) of the final Wi-Fi report after joining HomeNet."""
    device, link = make_device(**config)
    device.receive(h("08 00 00 01 01"))
    device.receive(h("09 00 01 07") + b"HomeNet")
    device.receive(h("0d 00 02") + bytes([len(password)]) + password)
    device.receive(h("0c 00 03 00"))
    link.take()
    link.fire_timers()
    return link.take()[0][4:]


def test_target_credentials_decide_the_join():
    assert join_with(b"secret99", target_ssid="HomeNet", target_password="secret99")[:3] == h("01 00 00")
    wrong = join_with(b"wrong999", target_password="secret99")
    assert wrong[:3] == h("01 01 00") and h("15 01 0f") in wrong
    elsewhere = join_with(b"secret99", target_ssid="OtherNet")
    assert h("15 01 c9") in elsewhere


def test_softap_fields_and_wifi_list():
    device, link = make_device(wifi_list=[{"ssid": "Net-A", "rssi": -40}, {"ssid": "B", "rssi": -90}])
    device.receive(h("08 00 00 01 02"))
    device.receive(h("11 00 01 03") + b"zap")
    device.receive(h("15 00 02 08") + b"12345678")
    device.receive(h("1d 00 03 01 03"))
    device.receive(h("19 00 04 01 09"))                     # > 4: ignored by the example
    device.receive(h("21 00 05 01 06"))
    assert device.record["softap"] == {"ssid": "zap", "password": "12345678", "auth_mode": 3, "channel": 6}
    device.receive(h("14 00 06 00"))
    report = link.take()[-1]
    assert report[4:] == h("02 01 00 04 03") + b"zap" + h("05 08") + b"12345678" + h(
        "07 01 03 08 01 06 15 01 ff 16 01 80")
    device.receive(h("24 00 07 00"))
    assert link.take() == []
    link.fire_timers()
    assert link.take() == [h("45 04 01 0a 06 d8") + b"Net-A" + h("02 a6") + b"B"]


# --- scripted phone session (client side written here) ----------------------------------------

class ScriptedPhone:
    """A minimal BluFi V1 phone: own counters, Android splitting, CFB per frame, CRC on data frames."""

    def __init__(self, device: BlufiDevice, link: FakeLink, limit: int):
        self.device, self.link, self.limit = device, link, limit
        self.seq = 0
        self.expected_seq = 0
        self.key = None
        self.pending = bytearray()

    def send(self, type_byte: int, payload: bytes, ack=False, secure=None) -> None:
        secure = self.key is not None if secure is None else secure
        checksum = secure
        for fragment, data in android_split(payload, self.limit, checksum) or [(False, b"")]:
            fc = (bf.FC_FRAGMENT if fragment else 0) | (bf.FC_ACK_REQUIRED if ack else 0)
            crc = b""
            if checksum:
                fc |= bf.FC_CHECKSUM
                crc = bf.checksum_bytes(self.seq, data)
            if secure and data:
                fc |= bf.FC_ENCRYPTED
                data = self.cfb(self.seq, data, encrypt=True)
            self.device.receive(bytes([type_byte, fc, self.seq, len(data)]) + data + crc)
            self.seq += 1

    def cfb(self, seq: int, data: bytes, encrypt: bool) -> bytes:
        cipher = Cipher(algorithms.AES(self.key), modes.CFB(bytes([seq]) + bytes(15)))
        worker = cipher.encryptor() if encrypt else cipher.decryptor()
        return worker.update(data) + worker.finalize()

    def messages(self) -> list[tuple[int, bytes]]:
        """Decodes everything the device notified since the last call: (type byte, payload)."""
        out = []
        for value in self.link.take():
            kind, fc, seq, length = value[:4]
            assert seq == self.expected_seq
            self.expected_seq += 1
            data = value[4:4 + length]
            if fc & bf.FC_ENCRYPTED:
                data = self.cfb(seq, data, encrypt=False)
            if fc & bf.FC_CHECKSUM:
                assert value[4 + length:] == bf.checksum_bytes(seq, data)
            if fc & bf.FC_FRAGMENT:
                self.pending += data[2:]
                continue
            out.append((kind, bytes(self.pending) + data))
            self.pending.clear()
        return out


def test_scripted_v1_session_at_mtu_23():
    device, link = make_device(mtu=23, device_id="a1b2c3d4e5f6", bssid="24:0a:c4:00:00:01")
    phone = ScriptedPhone(device, link, limit=20)
    phone.send(0x1C, b"")
    assert phone.messages() == [(0x41, h("01 03"))]

    private = 0x1234567890ABCDEF1234567890ABCDEF
    public = pow(2, private, V1_PRIME).to_bytes(128, "big")
    params = b"\x01" + neg_params(V1_PRIME, 128, public)
    phone.send(0x01, b"\x00" + (len(params) - 1).to_bytes(2, "big"))
    phone.send(0x01, params)
    [(kind, device_public)] = phone.messages()
    assert kind == 0x01 and len(device_public) == 128
    secret = pow(int.from_bytes(device_public, "big"), private, V1_PRIME)
    stripped = secret.to_bytes((secret.bit_length() + 7) // 8, "big")
    phone.key = hashlib.md5(stripped).digest()
    phone.send(0x04, b"\x03", secure=False)
    phone.send(0x08, b"\x01", ack=True)
    assert phone.messages() == [(0x00, bytes([phone.seq - 1]))]
    phone.send(0x09, b"HomeNet")
    phone.send(0x0D, b"a-long-passphrase-over-several-frames")
    phone.send(0x0C, b"", secure=False)
    assert phone.messages() == [(0x3D, h("01 02 00 14 01 02"))]
    link.fire_timers()
    assert phone.messages() == [
        (0x3D, h("01 00 00 01 06 24 0a c4 00 00 01 02 07") + b"HomeNet"),
        (0x4D, b"a1b2c3d4e5f6"),
    ]
    phone.send(0x4D, b"hello from the phone")
    phone.send(0x20, b"", secure=False)
    assert link.disconnects == 1
    record = device.record
    assert record["errors_sent"] == [] and record["security"] == "v1"
    assert record["sta_password"] == "a-long-passphrase-over-several-frames"
    assert record["custom_data"][-1]["text"] == "hello from the phone"
    assert [m["name"] for m in record["messages"]][-2:] == ["CUSTOM_DATA", "DISCONNECT_BLE"]


def test_unknown_config_keys_are_rejected():
    with pytest.raises(ValueError):
        BlufiConfig.from_dict({"wifi_outcom": "success"})
    with pytest.raises(ValueError):
        BlufiConfig.from_dict({"security": "v3"})
