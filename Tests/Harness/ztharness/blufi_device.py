"""A BluFi device (ESP32 running Espressif's BluFi example) as a pure state machine.

It is fed the values a GATT client writes to FF01 (`receive`) and answers through a `DeviceLink`
(notifications on FF02, a request to drop the BLE link, timers). No D-Bus and no clock of its own, so
the BlueZ mock drives it from its GLib loop and unit tests drive it by hand.

Behaviour follows ESP-IDF's current component (`btc_blufi_recv_handler`, `btc_blufi_send_encap` in
`blufi_prf.c`) and its BluFi example: strict length, sequence and CRC checks answered with ERROR
reports, fragment reassembly rules, ACKs, per-direction sequence counters reset on every BLE
connection, security mode bits applied on transmit, V1/V2 negotiation, Wi-Fi reports with the
example's TLVs. Everything received is kept in
`record` for tests to inspect (secrets included: this is the test side).
"""

import os
from dataclasses import dataclass, field, fields
from typing import Callable, Protocol

from . import blufi_frame as bf
from .blufi_security import NegotiationError, SecurityV1, SecurityV2

STA_CONNECTED = 0
STA_DISCONNECTED = 1
STA_CONNECTING = 2

REASON_ASSOC_LEAVE = 8
REASON_4WAY_HANDSHAKE_TIMEOUT = 15
REASON_NO_AP_FOUND = 201
REASON_NONE = 255
RSSI_NONE = -128

SEC_DATA_CHECKSUM = 0x01
SEC_DATA_ENCRYPT = 0x02
SEC_CTRL_CHECKSUM = 0x10

OPMODE_MAX = 3
SSID_MAX = 31
PASSWORD_MAX = 63
SOFTAP_PASSWORD_MAX = 31
SOFTAP_MAX_CONN_MAX = 4
CHANNEL_MAX = 13
NEG_PARAM_LEN_MAX = 1024
DEFAULT_ATT_MTU = 23


class DeviceLink(Protocol):
    """What the device needs from its BLE transport."""

    def notify(self, value: bytes) -> None:
        """Send one notification on FF02."""

    def disconnect(self) -> None:
        """The device terminates the BLE link (DISCONNECT_BLE, or a firmware abort)."""

    def schedule(self, delay_ms: int, callback: Callable[[], None]) -> None:
        """Run callback once after delay_ms."""


@dataclass
class BlufiConfig:
    """Per-device behaviour; keys match the "blufi" object of the harness scenario."""

    version: tuple[int, int] = (1, 3)
    security: str = "auto"
    wifi_outcome: str = "success"
    join_delay_ms: int = 300
    device_id: str = "zt-0001a2b3c4d5"
    send_device_id: bool = True
    device_id_delay_ms: int = 0
    bssid: str = "11:22:33:44:55:66"
    rssi: int = -40
    max_retry: int = 2
    scan_delay_ms: int = 100
    wifi_list: list = field(default_factory=lambda: [{"ssid": "HomeNet", "rssi": -45},
                                                      {"ssid": "Neighbour-5G", "rssi": -78}])
    unsolicited_reports: list = field(default_factory=lambda: ["connecting", "connected", "failed"])
    target_ssid: str | None = None
    target_password: str | None = None

    SECURITY_CHOICES = ("auto", "none", "v1", "v2")
    OUTCOME_CHOICES = ("success", "wrong-password", "not-found")

    @classmethod
    def from_dict(cls, values: dict) -> "BlufiConfig":
        """Builds a config from scenario JSON; unknown keys and values are errors, not ignored."""
        known = {f.name for f in fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"unknown blufi keys: {sorted(unknown)}")
        config = cls(**values)
        config.version = tuple(config.version)
        if config.security not in cls.SECURITY_CHOICES:
            raise ValueError(f"blufi.security must be one of {cls.SECURITY_CHOICES}")
        if config.wifi_outcome not in cls.OUTCOME_CHOICES:
            raise ValueError(f"blufi.wifi_outcome must be one of {cls.OUTCOME_CHOICES}")
        return config

    def scheme(self) -> str:
        """The key agreement this firmware implements: "auto" follows the version (≥ 1.4 → V2)."""
        if self.security != "auto":
            return self.security
        return "v2" if tuple(self.version) >= (1, 4) else "v1"


def bssid_bytes(text: str) -> bytes:
    return bytes(int(part, 16) for part in text.split(":"))


def bssid_text(raw: bytes) -> str:
    return ":".join(f"{b:02x}" for b in raw)


def text_or_hex(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.hex()


class BlufiDevice:
    """One emulated device. Call ble_connected/ble_disconnected around each BLE connection."""

    def __init__(self, config: BlufiConfig, link: DeviceLink,
                 random_bytes: Callable[[int], bytes] = os.urandom):
        self.config = config
        self._link = link
        self._random_bytes = random_bytes
        self.connected = False
        self.mtu = DEFAULT_ATT_MTU
        self.opmode = 0
        self.sta_ssid: bytes | None = None
        self.sta_password: bytes | None = None
        self.sta_bssid: bytes | None = None
        self.softap: dict = {}
        self.sta_state = STA_DISCONNECTED
        self.end_reason = REASON_NONE
        self.end_rssi = RSSI_NONE
        self._join_generation = 0
        self.record = {
            "connections": 0, "frames": 0, "frame_log": [], "messages": [], "errors_sent": [],
            "notifications": 0, "security": None, "sec_mode": 0, "opmode": None,
            "sta_ssid": None, "sta_password": None, "sta_bssid": None, "softap": {},
            "connect_ap": 0, "connect_attempts": [], "disconnect_ap": 0, "deauth": [],
            "custom_data": [], "enterprise": {}, "wifi_state": "idle", "aborted": None,
        }
        self._reset_session()

    # BLE connection lifecycle -------------------------------------------------------------------

    def ble_connected(self, mtu: int) -> None:
        self._reset_session()
        self.connected = True
        self.mtu = mtu
        self.record["connections"] += 1
        prepare = getattr(self.security, "prepare", None)
        if prepare is not None:
            # While the central resolves services and subscribes, not once its key arrives.
            self._link.schedule(0, prepare)

    def ble_disconnected(self) -> None:
        """The component clears sequence counters, sec_mode and half-received fragments."""
        self.connected = False
        self._reset_session()

    def _reset_session(self) -> None:
        self._recv_seq = 0
        self._send_seq = 0
        self.sec_mode = 0
        self._aggregate: bytearray | None = None
        self._aggregate_total = 0
        self._neg_param_len: int | None = None
        scheme = self.config.scheme()
        if scheme == "v1":
            self.security = SecurityV1(self._random_bytes)
        elif scheme == "v2":
            self.security = SecurityV2(self._random_bytes)
        else:
            self.security = None

    # Receive path (btc_blufi_recv_handler) ------------------------------------------------------

    def receive(self, value: bytes) -> None:
        """Handles one ATT write to FF01."""
        self.record["frames"] += 1
        entry = {"raw": value.hex(), "verdict": "ok"}
        self.record["frame_log"].append(entry)
        verdict = self._receive_frame(value)
        if verdict:
            entry["verdict"] = verdict

    def _receive_frame(self, value: bytes) -> str | None:
        if len(value) < bf.HEADER_LEN or len(value) != bf.declared_length(value):
            return self._error(bf.ERR_DATA_FORMAT, f"length {len(value)} does not match header")
        frame = bf.decode(value)
        if frame.seq != self._recv_seq:
            return self._error(bf.ERR_SEQUENCE, f"seq {frame.seq}, expected {self._recv_seq}")
        self._recv_seq = (self._recv_seq + 1) & 0xFF
        data = frame.data
        if frame.fc & bf.FC_ENCRYPTED:
            if self.security is None or self.security.key is None:
                self._drop_aggregate()
                return self._error(bf.ERR_DECRYPT, "encrypted frame but no key")
            data = self.security.decrypt(frame.seq, data)
        if frame.fc & bf.FC_CHECKSUM and frame.checksum != bf.checksum_bytes(frame.seq, data):
            self._drop_aggregate()
            return self._error(bf.ERR_CHECKSUM, "checksum mismatch")
        if frame.fc & bf.FC_ACK_REQUIRED:
            self._send(bf.FRAME_CTRL, bf.CTRL_ACK, bytes([frame.seq]))
        if frame.fc & bf.FC_FRAGMENT:
            return self._add_fragment(data)
        if self._aggregate_offset():
            return self._finish_fragments(frame, data)
        self._dispatch(frame, data)
        return None

    def _add_fragment(self, data: bytes) -> str | None:
        if len(data) < 2:
            self._drop_aggregate()
            return self._error(bf.ERR_DATA_FORMAT, "fragment without total-length prefix")
        content = data[2:]
        if not self._aggregate_offset():
            if self._aggregate is not None:
                self._drop_aggregate()
                return self._error(bf.ERR_MSG_STATE, "new first fragment while a message is pending")
            total = int.from_bytes(data[:2], "little")
            if total == 0:
                return self._error(bf.ERR_DATA_FORMAT, "first fragment announces 0 bytes")
            self._aggregate = bytearray()
            self._aggregate_total = total
        if len(self._aggregate) + len(content) > self._aggregate_total:
            self._drop_aggregate()
            return self._error(bf.ERR_DATA_FORMAT, "fragments exceed announced total")
        self._aggregate += content
        return None

    def _finish_fragments(self, frame: bf.Frame, data: bytes) -> str | None:
        if len(self._aggregate) + len(data) != self._aggregate_total:
            self._drop_aggregate()
            return self._error(bf.ERR_DATA_FORMAT, "last fragment does not complete the total")
        message = bytes(self._aggregate) + data
        self._drop_aggregate()
        self._dispatch(frame, message)
        return None

    def _aggregate_offset(self) -> int:
        """Content bytes collected so far; like IDF, "first fragment" means offset 0."""
        return len(self._aggregate) if self._aggregate is not None else 0

    def _drop_aggregate(self) -> None:
        self._aggregate = None
        self._aggregate_total = 0

    # Dispatch (btc_blufi_protocol_handler + the example's event handler) -----------------------

    def _dispatch(self, frame: bf.Frame, message: bytes) -> None:
        self.record["messages"].append({
            "name": bf.subtype_name(frame.frame_type, frame.subtype), "type": frame.type,
            "seq": frame.seq, "fc": frame.fc, "data": message.hex(),
        })
        if frame.frame_type == bf.FRAME_CTRL:
            self._on_control(frame.subtype, message)
        elif frame.frame_type == bf.FRAME_DATA:
            self._on_data(frame.subtype, message)

    def _on_control(self, subtype: int, message: bytes) -> None:
        if subtype == bf.CTRL_SET_SEC_MODE and message:
            self.sec_mode = message[0]
            self.record["sec_mode"] = self.sec_mode
        elif subtype == bf.CTRL_SET_OPMODE and message:
            self._set_opmode(message[0])
        elif subtype == bf.CTRL_CONNECT_AP:
            self._start_join()
        elif subtype == bf.CTRL_DISCONNECT_AP:
            self._join_generation += 1
            self._set_sta(STA_DISCONNECTED, REASON_ASSOC_LEAVE, RSSI_NONE)
            self.record["disconnect_ap"] += 1
        elif subtype == bf.CTRL_GET_WIFI_STATUS:
            self._send_wifi_report()
        elif subtype == bf.CTRL_DEAUTH_STA:
            self.record["deauth"].append(message.hex())
        elif subtype == bf.CTRL_GET_VERSION:
            self._send(bf.FRAME_DATA, bf.DATA_VERSION, bytes(self.config.version))
        elif subtype == bf.CTRL_DISCONNECT_BLE:
            self._link.disconnect()
        elif subtype == bf.CTRL_GET_WIFI_LIST:
            self._link.schedule(self.config.scan_delay_ms, self._send_wifi_list)

    def _set_opmode(self, mode: int) -> None:
        if mode > OPMODE_MAX:
            # The example passes the value to esp_wifi_set_mode() under ESP_ERROR_CHECK: it reboots.
            self.record["aborted"] = f"SET_OPMODE {mode} aborted the firmware"
            self._link.disconnect()
            return
        self.opmode = mode
        self.record["opmode"] = mode

    def _on_data(self, subtype: int, message: bytes) -> None:
        handler = {
            bf.DATA_NEG: self._on_negotiation,
            bf.DATA_STA_BSSID: self._on_sta_bssid,
            bf.DATA_STA_SSID: self._on_sta_ssid,
            bf.DATA_STA_PASSWD: self._on_sta_password,
            bf.DATA_SOFTAP_SSID: self._on_softap_ssid,
            bf.DATA_SOFTAP_PASSWD: self._on_softap_password,
            bf.DATA_SOFTAP_MAX_CONN: self._on_softap_max_conn,
            bf.DATA_SOFTAP_AUTH_MODE: self._on_softap_auth_mode,
            bf.DATA_SOFTAP_CHANNEL: self._on_softap_channel,
            bf.DATA_CUSTOM: self._on_custom_data,
        }.get(subtype)
        if handler:
            handler(message)
        elif bf.DATA_USERNAME <= subtype <= bf.DATA_SERVER_PRIV_KEY:
            self.record["enterprise"][bf.subtype_name(bf.FRAME_DATA, subtype)] = len(message)

    def _on_sta_bssid(self, message: bytes) -> None:
        if len(message) < 6:
            self._error(bf.ERR_DATA_FORMAT, "BSSID shorter than 6 bytes")
            return
        self.sta_bssid = message[:6]
        self.record["sta_bssid"] = bssid_text(self.sta_bssid)

    def _on_sta_ssid(self, message: bytes) -> None:
        if self._fits(message, SSID_MAX, "SSID"):
            self.sta_ssid = message
            self.record["sta_ssid"] = text_or_hex(message)

    def _on_sta_password(self, message: bytes) -> None:
        if self._fits(message, PASSWORD_MAX, "password"):
            self.sta_password = message
            self.record["sta_password"] = text_or_hex(message)

    def _on_softap_ssid(self, message: bytes) -> None:
        if self._fits(message, SSID_MAX, "SoftAP SSID"):
            self._set_softap("ssid", message, text_or_hex(message))

    def _on_softap_password(self, message: bytes) -> None:
        if self._fits(message, SOFTAP_PASSWORD_MAX, "SoftAP password"):
            self._set_softap("password", message, text_or_hex(message))

    def _fits(self, message: bytes, limit: int, what: str) -> bool:
        """Whether `message` is at most `limit` bytes; a longer one is answered with a data-format error."""
        if len(message) <= limit:
            return True
        self._error(bf.ERR_DATA_FORMAT, f"{what} longer than {limit} bytes")
        return False

    def _on_softap_max_conn(self, message: bytes) -> None:
        if message and message[0] <= SOFTAP_MAX_CONN_MAX:
            self._set_softap("max_conn", message[0], message[0])

    def _on_softap_auth_mode(self, message: bytes) -> None:
        if message:
            self._set_softap("auth_mode", message[0], message[0])

    def _on_softap_channel(self, message: bytes) -> None:
        if message and message[0] <= CHANNEL_MAX:
            self._set_softap("channel", message[0], message[0])

    def _set_softap(self, key: str, value, recorded) -> None:
        self.softap[key] = value
        self.record["softap"][key] = recorded

    def _on_custom_data(self, message: bytes) -> None:
        self.record["custom_data"].append({"hex": message.hex(), "text": text_or_hex(message)})

    # Security negotiation (the example's negotiate_data_handler) --------------------------------

    def _on_negotiation(self, message: bytes) -> None:
        if len(message) < 3:
            self._error(bf.ERR_DATA_FORMAT, "NEG message shorter than 3 bytes")
            return
        if self.security is None:
            self._error(bf.ERR_INIT_SECURITY, "firmware without BluFi security")
            return
        kind = message[0]
        if kind == 0x00:
            self._neg_param_len = int.from_bytes(message[1:3], "big")
            if not 1 <= self._neg_param_len <= NEG_PARAM_LEN_MAX:
                self._neg_param_len = None
                self._error(bf.ERR_DH_PARAM, "parameter length outside 1…1024")
        elif kind == 0x01:
            self._agree(message[1:])
        elif self.security.name == "v2":
            self._error(bf.ERR_DATA_FORMAT, f"unknown NEG sub-code {kind}")

    def _agree(self, params: bytes) -> None:
        if self._neg_param_len is None or len(params) < self._neg_param_len:
            self._error(bf.ERR_DH_PARAM, "parameter data without or shorter than announced length")
            return
        try:
            own_public = self.security.agree(params[:self._neg_param_len])
        except NegotiationError as failure:
            self._error(failure.code, str(failure))
            return
        self._neg_param_len = None
        self.record["security"] = self.security.name
        self._send(bf.FRAME_DATA, bf.DATA_NEG, own_public)

    # Wi-Fi station -------------------------------------------------------------------------------

    def _start_join(self) -> None:
        self._join_generation += 1
        generation = self._join_generation
        self.record["connect_ap"] += 1
        self.record["connect_attempts"].append({
            "ssid": self.record["sta_ssid"], "password": self.record["sta_password"],
            "bssid": self.record["sta_bssid"], "opmode": self.opmode,
        })
        self._set_sta(STA_CONNECTING, REASON_NONE, RSSI_NONE)
        if "connecting" in self.config.unsolicited_reports:
            self._send_wifi_report()
        self._link.schedule(self.config.join_delay_ms, lambda: self._finish_join(generation))

    def _finish_join(self, generation: int) -> None:
        if generation != self._join_generation:
            return
        outcome = self._join_outcome()
        if outcome == "success":
            self._set_sta(STA_CONNECTED, REASON_NONE, self.config.rssi)
            if "connected" in self.config.unsolicited_reports:
                self._send_wifi_report()
            if self.config.send_device_id and self.config.device_id_delay_ms > 0:
                self._link.schedule(self.config.device_id_delay_ms, lambda: self._send_device_id(generation))
            elif self.config.send_device_id:
                self._send_device_id(generation)
        else:
            reason, rssi = ((REASON_4WAY_HANDSHAKE_TIMEOUT, self.config.rssi)
                            if outcome == "wrong-password" else (REASON_NO_AP_FOUND, RSSI_NONE))
            self._set_sta(STA_DISCONNECTED, reason, rssi)
            if "failed" in self.config.unsolicited_reports:
                self._send_wifi_report()

    def _send_device_id(self, generation: int) -> None:
        """Zhiting firmware sends its ID as custom data once joined; some builds only after a while."""
        if generation == self._join_generation and self.connected and self.sta_state == STA_CONNECTED:
            self._send(bf.FRAME_DATA, bf.DATA_CUSTOM, self.config.device_id.encode())

    def _join_outcome(self) -> str:
        """The scripted outcome, unless the station settings miss the network the device can reach."""
        if not self.sta_ssid or (self.config.target_ssid is not None
                                 and self.sta_ssid != self.config.target_ssid.encode()):
            return "not-found"
        if self.config.target_password is not None and (self.sta_password or b"") != \
                self.config.target_password.encode():
            return "wrong-password"
        return self.config.wifi_outcome

    def _set_sta(self, state: int, reason: int, rssi: int) -> None:
        self.sta_state, self.end_reason, self.end_rssi = state, reason, rssi
        self.record["wifi_state"] = {STA_CONNECTED: "connected", STA_CONNECTING: "connecting",
                                     STA_DISCONNECTED: "disconnected"}[state]

    def wifi_report(self) -> bytes:
        """WIFI_REPORT payload with the TLVs ESP-IDF's BluFi example sets for the current state."""
        report = bytearray([self.opmode, self.sta_state, 0])

        def tlv(tag: int, value: bytes) -> None:
            report.extend(bytes([tag, len(value)]) + value)

        if self.sta_state == STA_CONNECTED:
            tlv(bf.DATA_STA_BSSID, bssid_bytes(self.config.bssid))
            tlv(bf.DATA_STA_SSID, self.sta_ssid)
        if self.opmode in (2, 3):
            if "ssid" in self.softap:
                tlv(bf.DATA_SOFTAP_SSID, self.softap["ssid"])
            if "password" in self.softap:
                tlv(bf.DATA_SOFTAP_PASSWD, self.softap["password"])
            for key, tag in (("auth_mode", bf.DATA_SOFTAP_AUTH_MODE),
                             ("max_conn", bf.DATA_SOFTAP_MAX_CONN),
                             ("channel", bf.DATA_SOFTAP_CHANNEL)):
                if key in self.softap:
                    tlv(tag, bytes([self.softap[key]]))
        if self.sta_state == STA_CONNECTING:
            tlv(bf.DATA_STA_MAX_CONN_RETRY, bytes([self.config.max_retry]))
        if self.sta_state == STA_DISCONNECTED:
            tlv(bf.DATA_STA_CONN_END_REASON, bytes([self.end_reason]))
            tlv(bf.DATA_STA_CONN_RSSI, bytes([self.end_rssi & 0xFF]))
        return bytes(report)

    def _send_wifi_report(self) -> None:
        self._send(bf.FRAME_DATA, bf.DATA_WIFI_REPORT, self.wifi_report())

    def _send_wifi_list(self) -> None:
        """Records of (1 + ssid length, rssi, ssid); no answer at all when nothing was found."""
        payload = bytearray()
        for network in self.config.wifi_list:
            ssid = network["ssid"].encode()
            payload.extend(bytes([len(ssid) + 1, network["rssi"] & 0xFF]) + ssid)
        self._send(bf.FRAME_DATA, bf.DATA_WIFI_LIST, bytes(payload))

    # Transmit path (btc_blufi_send_encap) -------------------------------------------------------

    def _error(self, code: int, reason: str) -> str:
        self.record["errors_sent"].append({"code": code, "name": bf.ERROR_NAMES[code], "reason": reason})
        self._send(bf.FRAME_DATA, bf.DATA_ERROR, bytes([code]))
        return f"error {bf.ERROR_NAMES[code]}: {reason}"

    def _send(self, frame_type: int, subtype: int, message: bytes) -> None:
        """Fragments, checksums and encrypts like the component; nothing is sent while unconnected."""
        if not self.connected or not message:
            return
        for is_fragment, data in bf.device_fragments(message, bf.device_frag_size(self.mtu)):
            seq = self._send_seq
            self._send_seq = (seq + 1) & 0xFF
            fc = bf.FC_DEVICE_TO_PHONE | (bf.FC_FRAGMENT if is_fragment else 0)
            checksum = b""
            if frame_type == bf.FRAME_CTRL:
                if self.sec_mode & SEC_CTRL_CHECKSUM:
                    fc |= bf.FC_CHECKSUM
                    checksum = bf.checksum_bytes(seq, data)
            elif subtype not in (bf.DATA_NEG, bf.DATA_ERROR):
                if self.sec_mode & SEC_DATA_CHECKSUM:
                    fc |= bf.FC_CHECKSUM
                    checksum = bf.checksum_bytes(seq, data)
                if self.sec_mode & SEC_DATA_ENCRYPT and self.security and self.security.key:
                    fc |= bf.FC_ENCRYPTED
                    data = self.security.encrypt(seq, data)
            frame = bf.Frame(bf.type_byte(frame_type, subtype), fc, seq, data, checksum)
            self.record["notifications"] += 1
            self._link.notify(frame.encode())
