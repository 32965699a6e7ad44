"""BluFi frame layout: type byte, frame control, sequence, length, data, optional CRC.

Frame format and subtype numbers as ESP-IDF defines them (`blufi_prf.c`, `blufi_int.h`). Only encoding
and decoding live here; what a device does with a frame is in blufi_device.py.
"""

from dataclasses import dataclass

FRAME_CTRL = 0
FRAME_DATA = 1

FC_ENCRYPTED = 0x01
FC_CHECKSUM = 0x02
FC_DEVICE_TO_PHONE = 0x04
FC_ACK_REQUIRED = 0x08
FC_FRAGMENT = 0x10

CTRL_ACK = 0x00
CTRL_SET_SEC_MODE = 0x01
CTRL_SET_OPMODE = 0x02
CTRL_CONNECT_AP = 0x03
CTRL_DISCONNECT_AP = 0x04
CTRL_GET_WIFI_STATUS = 0x05
CTRL_DEAUTH_STA = 0x06
CTRL_GET_VERSION = 0x07
CTRL_DISCONNECT_BLE = 0x08
CTRL_GET_WIFI_LIST = 0x09

DATA_NEG = 0x00
DATA_STA_BSSID = 0x01
DATA_STA_SSID = 0x02
DATA_STA_PASSWD = 0x03
DATA_SOFTAP_SSID = 0x04
DATA_SOFTAP_PASSWD = 0x05
DATA_SOFTAP_MAX_CONN = 0x06
DATA_SOFTAP_AUTH_MODE = 0x07
DATA_SOFTAP_CHANNEL = 0x08
DATA_USERNAME = 0x09
DATA_CA_CERT = 0x0A
DATA_CLIENT_CERT = 0x0B
DATA_SERVER_CERT = 0x0C
DATA_CLIENT_PRIV_KEY = 0x0D
DATA_SERVER_PRIV_KEY = 0x0E
DATA_WIFI_REPORT = 0x0F
DATA_VERSION = 0x10
DATA_WIFI_LIST = 0x11
DATA_ERROR = 0x12
DATA_CUSTOM = 0x13
DATA_STA_MAX_CONN_RETRY = 0x14
DATA_STA_CONN_END_REASON = 0x15
DATA_STA_CONN_RSSI = 0x16

CTRL_NAMES = {
    CTRL_ACK: "ACK", CTRL_SET_SEC_MODE: "SET_SEC_MODE", CTRL_SET_OPMODE: "SET_OPMODE",
    CTRL_CONNECT_AP: "CONNECT_AP", CTRL_DISCONNECT_AP: "DISCONNECT_AP",
    CTRL_GET_WIFI_STATUS: "GET_WIFI_STATUS", CTRL_DEAUTH_STA: "DEAUTH_STA",
    CTRL_GET_VERSION: "GET_VERSION", CTRL_DISCONNECT_BLE: "DISCONNECT_BLE",
    CTRL_GET_WIFI_LIST: "GET_WIFI_LIST",
}
DATA_NAMES = {
    DATA_NEG: "NEG", DATA_STA_BSSID: "STA_BSSID", DATA_STA_SSID: "STA_SSID",
    DATA_STA_PASSWD: "STA_PASSWD", DATA_SOFTAP_SSID: "SOFTAP_SSID",
    DATA_SOFTAP_PASSWD: "SOFTAP_PASSWD", DATA_SOFTAP_MAX_CONN: "SOFTAP_MAX_CONN_NUM",
    DATA_SOFTAP_AUTH_MODE: "SOFTAP_AUTH_MODE", DATA_SOFTAP_CHANNEL: "SOFTAP_CHANNEL",
    DATA_USERNAME: "USERNAME", DATA_CA_CERT: "CA_CERT", DATA_CLIENT_CERT: "CLIENT_CERT",
    DATA_SERVER_CERT: "SERVER_CERT", DATA_CLIENT_PRIV_KEY: "CLIENT_PRIV_KEY",
    DATA_SERVER_PRIV_KEY: "SERVER_PRIV_KEY", DATA_WIFI_REPORT: "WIFI_REPORT",
    DATA_VERSION: "VERSION", DATA_WIFI_LIST: "WIFI_LIST", DATA_ERROR: "ERROR",
    DATA_CUSTOM: "CUSTOM_DATA",
}

ERROR_NAMES = {
    0: "SEQUENCE_ERROR", 1: "CHECKSUM_ERROR", 2: "DECRYPT_ERROR", 3: "ENCRYPT_ERROR",
    4: "INIT_SECURITY_ERROR", 5: "DH_MALLOC_ERROR", 6: "DH_PARAM_ERROR", 7: "READ_PARAM_ERROR",
    8: "MAKE_PUBLIC_ERROR", 9: "DATA_FORMAT_ERROR", 10: "CALC_MD5_ERROR", 11: "WIFI_SCAN_FAIL",
    12: "MSG_STATE_ERROR", 13: "CALC_SHA_256_ERROR",
}
ERR_SEQUENCE = 0
ERR_CHECKSUM = 1
ERR_DECRYPT = 2
ERR_INIT_SECURITY = 4
ERR_DH_PARAM = 6
ERR_READ_PARAM = 7
ERR_DATA_FORMAT = 9
ERR_MSG_STATE = 12

HEADER_LEN = 4
MAX_DATA_LEN = 255
# 4 header + 2 total-length prefix + 2 checksum + 3 ATT header (BLUFI_MTU_RESERVED_SIZE).
MTU_RESERVED = 11


def crc16(data: bytes) -> int:
    """CRC-16/GENIBUS (poly 0x1021, init 0xFFFF, xorout 0xFFFF, not reflected), as ESP ROM crc16_be(0, …)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc ^ 0xFFFF


def type_byte(frame_type: int, subtype: int) -> int:
    return (subtype << 2) | frame_type


def split_type(value: int) -> tuple[int, int]:
    """Returns (frame type, subtype) of a type byte."""
    return value & 0x03, (value & 0xFC) >> 2


def subtype_name(frame_type: int, subtype: int) -> str:
    names = CTRL_NAMES if frame_type == FRAME_CTRL else DATA_NAMES
    return names.get(subtype, f"UNKNOWN_{frame_type}_{subtype:#04x}")


def checksum_bytes(seq: int, plain_data: bytes) -> bytes:
    """The two checksum bytes (low byte first) over seq, data_len and the plaintext data."""
    value = crc16(bytes([seq, len(plain_data)]) + plain_data)
    return bytes([value & 0xFF, value >> 8])


@dataclass(frozen=True)
class Frame:
    """One BluFi frame as it travels in one ATT write or notification."""

    type: int
    fc: int
    seq: int
    data: bytes
    checksum: bytes = b""

    @property
    def frame_type(self) -> int:
        return split_type(self.type)[0]

    @property
    def subtype(self) -> int:
        return split_type(self.type)[1]

    def encode(self) -> bytes:
        return bytes([self.type, self.fc, self.seq, len(self.data)]) + self.data + self.checksum


def declared_length(value: bytes) -> int:
    """The length a value must have according to its own header (data_len and FC.checksum)."""
    return HEADER_LEN + value[3] + (2 if value[1] & FC_CHECKSUM else 0)


def decode(value: bytes) -> Frame:
    """Splits a value whose length was already checked against declared_length()."""
    data_len = value[3]
    data = value[HEADER_LEN:HEADER_LEN + data_len]
    checksum = value[HEADER_LEN + data_len:]
    return Frame(type=value[0], fc=value[1], seq=value[2], data=data, checksum=checksum)


def device_fragments(message: bytes, frag_size: int) -> list[tuple[bool, bytes]]:
    """Splits a message the way ESP-IDF's btc_blufi_send_encap does.

    Returns (is_fragment, data field) pairs: every piece but the last carries FC.frag and a 2-byte
    little-endian "remaining content" prefix and exactly frag_size content bytes.
    """
    pieces = []
    remaining = len(message)
    while remaining > 0:
        start = len(message) - remaining
        if remaining > frag_size:
            prefix = bytes([remaining & 0xFF, remaining >> 8])
            pieces.append((True, prefix + message[start:start + frag_size]))
            remaining -= frag_size
        else:
            pieces.append((False, message[start:]))
            remaining = 0
    return pieces


def device_frag_size(mtu: int) -> int:
    """Content bytes per device fragment for a negotiated ATT MTU (`BLUFI_MTU_RESERVED_SIZE` in `blufi_int.h`)."""
    return min(mtu, MAX_DATA_LEN) - MTU_RESERVED
