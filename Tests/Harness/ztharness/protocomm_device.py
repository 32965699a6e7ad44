"""Pure model of an ESP device running the Wi-Fi provisioning manager on protocomm.

Follows ESP-IDF 5.5's provisioning manager (`proto-ver` JSON, security 0/1/2, the Wi-Fi messages
and their timing; `components/wifi_provisioning/src/`) without generated protobuf code. No sockets
here: the HTTP layer (device_host.py) owns connections and the cookie rules of `protocomm_httpd.c`
and calls `open_session()` whenever the device would start a new security session, then
`handle(endpoint, body)` per request. `handle` returns a `Reply` or raises `ProtocommFailure`,
meaning the device closes the socket without a response.

Configuration (the "device_host.protocomm" object of the scenario; every key optional):
  security            0 | 1 | 2 (default 1)
  pop                 Sec1 proof of possession; null or "" = none (cap "no_pop") (default "abcd1234")
  sec2_patch          0 = one fixed 16-byte GCM IV, 1 = session id + counter IV (default 1)
  srp_username, srp_password   Sec2 credentials; salt + verifier derive from them
                      (defaults "wifiprov" / "abcd1234")
  srp_salt            hex; default: 16 bytes from the random source ("sec2_salt")
  proto_ver_style     "v1.1" (wifi_provisioning) | "netprov-v1.2" (network_provisioning, adds
                      cap "wifi_prov" and lets ctrl reset succeed when already reset)
  include_sec_ver, include_sec_patch_ver   proto-ver keys present (IDF ≥ 5.0 / patched) (true)
  wifi_outcome        "success" | "auth-error" | "not-found" (default "success")
  target_ssid, target_passphrase   when set, the outcome follows from comparing the applied
                      credentials with them (ssid differs → not-found, passphrase → auth-error)
  connecting_polls    GetStatus answers "connecting" this many times after apply (default 2)
  station_ip          IPv4 reported when connected (default "192.168.1.50")
  networks            scan list [{"ssid", "channel", "rssi", "bssid", "auth"}]
  scan_max_entries    CONFIG_WIFI_PROV_SCAN_MAX_ENTRIES (default 16)
  scan_duration_ms    a blocking scan delays its reply by this much (default 300)
  scan_status_polls   a non-blocking scan reports unfinished for this many status polls (1)
  ctrl_endpoint       register prov-ctrl (IDF ≥ 5.1) (default true)
  auto_stop           service stops after the first "connected" GetStatus (default true);
                      false models wifi_prov_mgr_disable_auto_stop(), which also enables reprov
  cleanup_delay_ms    delay between that response and the stop (default 1000)
  custom_endpoints    extra endpoint names answering b"SUCCESS\\0" like the IDF example ([])
  ap_bssid            informational here (device_host derives the Zhiting device id from it)
  network             "wifi" | "thread" (network_provisioning builds are one or the other; "thread"
                      needs proto_ver_style "netprov-v1.2"; protocomm_thread.py, thread_networks)
  firmware_version    network_provisioning version (default "1.2.4"): from 1.2.1 a prov-ctrl reset
                      succeeds when the firmware already reset itself; before, it fails
  auto_reset_on_failure   the firmware resets the state machine itself once a failure is reported
                      (the ESP example's CONFIG_EXAMPLE_RESET_PROV_MGR_ON_FAILURE) (default false)

Randomness: `random_bytes(purpose, length)`; purposes "session_id" (4) plus those listed in
protocomm_security.py and "sec2_salt" (16). Every request is recorded through `record`.
"""

import json
import os
from dataclasses import dataclass

from .protobuf_wire import WireError, decode, encode, proto3
from .protocomm_security import ProtocommFailure, Security0, Security1, Security2
from .protocomm_thread import ThreadProvisioning

DEFAULTS = {
    "security": 1, "pop": "abcd1234", "sec2_patch": 1,
    "srp_username": "wifiprov", "srp_password": "abcd1234", "srp_salt": None,
    "proto_ver_style": "v1.1", "include_sec_ver": True, "include_sec_patch_ver": True,
    "wifi_outcome": "success", "target_ssid": None, "target_passphrase": None,
    "connecting_polls": 2, "station_ip": "192.168.1.50",
    "networks": [{"ssid": "HomeNet", "channel": 6, "rssi": -45,
                  "bssid": "aa:bb:cc:00:00:01", "auth": 3}],
    "scan_max_entries": 16, "scan_duration_ms": 300, "scan_status_polls": 1,
    "ctrl_endpoint": True, "auto_stop": True, "cleanup_delay_ms": 1000,
    "custom_endpoints": [], "ap_bssid": "24:0a:c4:1a:2b:3c",
    "network": "wifi", "firmware_version": "1.2.4", "auto_reset_on_failure": False, "thread_networks": None,
}

# Status (constants.proto)
SUCCESS, INVALID_ARGUMENT, INTERNAL_ERROR = 0, 4, 5
# WifiStationState / WifiConnectFailedReason (wifi_constants.proto)
CONNECTED, CONNECTING, CONNECTION_FAILED = 0, 1, 3
FAIL_REASONS = {"auth-error": 0, "not-found": 1}


@dataclass
class Reply:
    body: bytes
    delay_ms: int = 0
    stop_service_after_ms: int = None


def system_random(_purpose, length):
    return os.urandom(length)


def _text(data):
    return data.decode("utf-8", "backslashreplace")


def _mac_bytes(text):
    return bytes.fromhex(text.replace(":", ""))


def cjson_print(value, depth=0):
    """Formats like cJSON_Print (tabs, `"key":\\t`, arrays on one line) as the device does."""
    if isinstance(value, dict):
        if not value:
            return "{\n" + "\t" * depth + "}"
        inner = "\t" * (depth + 1)
        items = [f'{inner}{json.dumps(key)}:\t{cjson_print(item, depth + 1)}' for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "\t" * depth + "}"
    if isinstance(value, list):
        return "[" + ", ".join(cjson_print(item, depth) for item in value) + "]"
    return json.dumps(value)


class ProtocommDevice:
    def __init__(self, config=None, random_bytes=system_random, record=None):
        self.config = {**DEFAULTS, **(config or {})}
        if self.config["wifi_outcome"] not in ("success", *FAIL_REASONS):
            raise ValueError("wifi_outcome must be success, auth-error or not-found")
        if self.config["network"] not in ("wifi", "thread"):
            raise ValueError("network must be wifi or thread")
        if self.config["network"] == "thread" and self.config["proto_ver_style"] != "netprov-v1.2":
            raise ValueError("a thread device runs network_provisioning: proto_ver_style netprov-v1.2")
        self.thread = ThreadProvisioning(self.config, self.record) if self.config["network"] == "thread" else None
        try:
            self.firmware_version = tuple(int(part) for part in str(self.config["firmware_version"]).split("."))
        except ValueError as error:
            raise ValueError("firmware_version must be dotted numbers like 1.2.1") from error
        self.random_bytes = random_bytes
        self.records = []
        self.sink = record
        self.security = self._make_security()
        self.session_id = None
        # Manager state machine (manager.c): started → cred_recv → fail | success.
        self.prov_state = "started"
        self.pending_config = None
        self.applied = None
        self.outcome = None
        self.polls_after_apply = 0
        self.station_state = CONNECTING
        self.scan = {"running": False, "status_polls_left": 0, "done": False}
        self.service_stopping = False

    def _make_security(self):
        level = self.config["security"]
        if level == 0:
            return Security0(self.record)
        if level == 1:
            pop = self.config["pop"]
            return Security1(pop.encode() if pop else b"", self.random_bytes, self.record)
        if level == 2:
            salt = self.config["srp_salt"]
            salt = bytes.fromhex(salt) if salt else self.random_bytes("sec2_salt", 16)
            return Security2(self.config["srp_username"].encode(), self.config["srp_password"].encode(),
                             salt, self.config["sec2_patch"], self.random_bytes, self.record)
        raise ValueError(f"unsupported security level {level}")

    def record(self, event, **fields):
        entry = {"source": "protocomm", "event": event, **fields}
        self.records.append(entry)
        if self.sink:
            self.sink(entry)

    # --- endpoints -------------------------------------------------------------------

    def endpoints(self):
        names = ["proto-ver", "prov-session", "prov-config", "prov-scan"]
        if self.config["ctrl_endpoint"]:
            names.append("prov-ctrl")
        return names + list(self.config["custom_endpoints"])

    def open_session(self):
        """Closes the old security session and starts a new one; returns its 32-bit id."""
        self.session_id = int.from_bytes(self.random_bytes("session_id", 4), "big")
        self.security.reset()
        self.record("session_opened", session_id=self.session_id)
        return self.session_id

    def handle(self, endpoint, body):
        if endpoint not in self.endpoints():
            raise KeyError(f"no endpoint {endpoint!r}; the transport answers 404 itself")
        if endpoint == "proto-ver":
            self.record("proto_ver", body=_text(body))
            return Reply(self.version_json().encode())
        if endpoint == "prov-session":
            try:
                session_data = decode(body)
                return Reply(self.security.handshake(session_data))
            except (WireError, ProtocommFailure) as error:
                self._fail(endpoint, error)
        try:
            plaintext = self.security.decrypt(body)
        except ProtocommFailure as error:
            self._fail(endpoint, error)
        handler = {"prov-config": self._config, "prov-scan": self._scan,
                   "prov-ctrl": self._ctrl}.get(endpoint, self._custom)
        try:
            response, delay_ms, stop_after = handler(endpoint, plaintext)
        except (WireError, ProtocommFailure) as error:
            self._fail(endpoint, error)
        return Reply(self.security.encrypt(response), delay_ms, stop_after)

    def _fail(self, endpoint, error):
        self.record("failure", endpoint=endpoint, reason=str(error))
        raise ProtocommFailure(str(error)) from error

    def version_json(self):
        level = self.config["security"]
        netprov = self.config["proto_ver_style"] == "netprov-v1.2"
        info = {"ver": "netprov-v1.2" if netprov else "v1.1"}
        if self.config["include_sec_ver"]:
            info["sec_ver"] = level
        if self.config["include_sec_patch_ver"]:
            info["sec_patch_ver"] = self.config["sec2_patch"] if level == 2 else 0
        caps = []
        if level == 0:
            caps.append("no_sec")
        elif level == 1 and not self.config["pop"]:
            caps.append("no_pop")
        if self.thread is not None:
            caps += ["thread_prov", "thread_scan"]
        else:
            caps += ["wifi_prov", "wifi_scan"] if netprov else ["wifi_scan"]
        info["cap"] = caps
        return cjson_print({"prov": info})

    # --- prov-config -----------------------------------------------------------------

    def _config(self, _endpoint, plaintext):
        request = decode(plaintext)
        msg = request.uint(1)
        if msg in (0, 2, 4) and self.thread is not None or msg in (6, 8, 10) and self.thread is None:
            # A build for the other network answers the command with InvalidArgument (network_config.c).
            return encode([(1, msg + 1), (11 + msg, [(1, INVALID_ARGUMENT)])]), 0, None
        if msg == 6:
            return encode([(1, 7), (17, [(1, proto3(SUCCESS))] + self.thread.status_fields())]), 0, None
        if msg == 8:
            command = request.message(18)
            if command is None:
                raise ProtocommFailure("CmdSetThreadConfig without its oneof member")
            return encode([(1, 9), (19, [(1, proto3(self.thread.set_config(command)))])]), 0, None
        if msg == 10:
            return encode([(1, 11), (21, [(1, proto3(self.thread.apply_config()))])]), 0, None
        if msg == 0:
            return encode([(1, 1), (11, self._get_status())]), 0, self._stop_after_status()
        if msg == 2:
            command = request.message(12)
            if command is None:
                raise ProtocommFailure("CmdSetConfig without its oneof member")
            return encode([(1, 3), (13, [(1, proto3(self._set_config(command)))])]), 0, None
        if msg == 4:
            return encode([(1, 5), (15, [(1, proto3(self._apply_config()))])]), 0, None
        raise ProtocommFailure(f"unknown prov-config msg {msg}")

    def _set_config(self, command):
        ssid, passphrase, bssid = command.bytes(1), command.bytes(2), command.bytes(3)
        channel = command.int32(4)
        status = SUCCESS
        if len(bssid) not in (0, 6) or len(ssid) > 32 or len(passphrase) > 63:
            status = INVALID_ARGUMENT
        else:
            self.pending_config = {"ssid": ssid, "passphrase": passphrase}
        self.record("set_config", ssid=_text(ssid), ssid_hex=ssid.hex(), passphrase=_text(passphrase),
                    bssid=bssid.hex(), channel=channel, status=status)
        return status

    def _apply_config(self):
        status = INTERNAL_ERROR
        if self.pending_config is not None and self.prov_state == "started":
            self.applied = self.pending_config
            self.outcome = self._decide_outcome(self.applied)
            self.prov_state = "cred_recv"
            self.station_state = CONNECTING
            self.polls_after_apply = 0
            status = SUCCESS
        self.pending_config = None
        self.record("apply_config", status=status, outcome=self.outcome if status == SUCCESS else None)
        return status

    def _decide_outcome(self, applied):
        target_ssid, target_pass = self.config["target_ssid"], self.config["target_passphrase"]
        if target_ssid is None and target_pass is None:
            return self.config["wifi_outcome"]
        if target_ssid is not None and applied["ssid"] != target_ssid.encode():
            return "not-found"
        if target_pass is not None and applied["passphrase"] != target_pass.encode():
            return "auth-error"
        return "success"

    def _get_status(self):
        if self.prov_state == "cred_recv":
            self.polls_after_apply += 1
            if self.polls_after_apply > self.config["connecting_polls"]:
                if self.outcome == "success":
                    self.prov_state, self.station_state = "success", CONNECTED
                else:
                    self.prov_state, self.station_state = "fail", CONNECTION_FAILED
        fields = [(2, proto3(self.station_state))]
        if self.station_state == CONNECTED:
            fields.append((11, self._connected_state()))
        elif self.station_state == CONNECTION_FAILED:
            fields.append((10, FAIL_REASONS.get(self.outcome, 0)))
        self.record("get_status", sta_state=self.station_state,
                    fail_reason=self.outcome if self.station_state == CONNECTION_FAILED else None)
        if self.prov_state == "fail" and self.config["auto_reset_on_failure"]:
            self.prov_state, self.applied = "started", None
            self.record("firmware_reset_on_failure")
        return fields

    def _connected_state(self):
        ssid = self.applied["ssid"]
        network = next((n for n in self.config["networks"] if n["ssid"].encode() == ssid), {})
        return [(1, self.config["station_ip"]), (2, proto3(network.get("auth", 3))), (3, ssid),
                (4, _mac_bytes(network.get("bssid", "02:00:00:00:00:01"))),
                (5, proto3(network.get("channel", 1)))]

    def _stop_after_status(self):
        """The first "connected" answer calls wifi_prov_mgr_done(): the service stops soon after."""
        if self.station_state != CONNECTED or not self.config["auto_stop"] or self.service_stopping:
            return None
        self.service_stopping = True
        self.record("service_stop_scheduled", after_ms=self.config["cleanup_delay_ms"])
        return self.config["cleanup_delay_ms"]

    # --- prov-scan -------------------------------------------------------------------

    def _scan_results(self):
        ranked = sorted(self.config["networks"], key=lambda n: n["rssi"], reverse=True)
        return ranked[:self.config["scan_max_entries"]]

    def _scan(self, _endpoint, plaintext):
        request = decode(plaintext)
        msg = request.uint(1)
        if msg in (0, 2, 4) and self.thread is not None or msg in (6, 8, 10) and self.thread is None:
            return encode([(1, msg + 1), (2, INVALID_ARGUMENT), (11 + msg, [])]), 0, None
        if msg == 6:
            self.thread.scan_start(request.message(16))
            return encode([(1, 7), (17, [])]), 0, None
        if msg == 8:
            return encode([(1, 9), (19, self.thread.scan_status())]), 0, None
        if msg == 10:
            status, entries = self.thread.scan_result(request.message(20))
            return encode([(1, 11), (2, proto3(status)), (21, entries)]), 0, None
        if msg == 0:
            command = request.message(10)
            if command is None:
                raise ProtocommFailure("CmdScanStart without its oneof member")
            blocking = command.boolean(1)
            self.record("scan_start", blocking=blocking, passive=command.boolean(2),
                        group_channels=command.uint(3), period_ms=command.uint(4))
            if not self.scan["running"]:
                self.scan = {"running": not blocking, "done": blocking,
                             "status_polls_left": 0 if blocking else self.config["scan_status_polls"]}
            delay = self.config["scan_duration_ms"] if blocking else 0
            return encode([(1, 1), (11, [])]), delay, None
        if msg == 2:
            if self.scan["running"]:
                if self.scan["status_polls_left"] > 0:
                    self.scan["status_polls_left"] -= 1
                else:
                    self.scan = {"running": False, "done": True, "status_polls_left": 0}
            finished = not self.scan["running"]
            count = len(self._scan_results()) if self.scan["done"] else 0
            self.record("scan_status", finished=finished, result_count=count)
            return encode([(1, 3), (13, [(1, proto3(finished)), (2, proto3(count))])]), 0, None
        if msg == 4:
            command = request.message(14)
            if command is None:
                raise ProtocommFailure("CmdScanResult without its oneof member")
            start, count = command.uint(1), command.uint(2)
            results = self._scan_results() if self.scan["done"] else []
            status, entries = SUCCESS, []
            if start + count > len(results):
                status = INTERNAL_ERROR
            else:
                entries = [(1, self._scan_entry(n)) for n in results[start:start + count]]
            self.record("scan_result", start_index=start, count=count, status=status)
            return encode([(1, 5), (2, proto3(status)), (15, entries)]), 0, None
        raise ProtocommFailure(f"unknown prov-scan msg {msg}")

    @staticmethod
    def _scan_entry(network):
        return [(1, network["ssid"].encode()), (2, proto3(network.get("channel", 1))),
                (3, proto3(network.get("rssi", -50))),
                (4, _mac_bytes(network.get("bssid", "02:00:00:00:00:01"))),
                (5, proto3(network.get("auth", 3)))]

    # --- prov-ctrl and custom endpoints ----------------------------------------------

    def _ctrl(self, _endpoint, plaintext):
        request = decode(plaintext)
        msg = request.uint(1)
        if msg in (1, 3) and self.thread is not None or msg in (5, 7) and self.thread is None:
            self.record("ctrl_wrong_network", msg=msg)
            return encode([(1, msg + 1), (2, INVALID_ARGUMENT), (11 + msg, [])]), 0, None
        if msg == 5:
            status = self.thread.reset(self._reset_when_already_reset())
            self.record("thread_ctrl_reset", status=status)
            return encode([(1, 6), (2, proto3(status)), (16, [])]), 0, None
        if msg == 7:
            status = self.thread.reprov(not self.config["auto_stop"])
            self.record("thread_ctrl_reprov", status=status)
            return encode([(1, 8), (2, proto3(status)), (18, [])]), 0, None
        if msg == 1:
            status = self._reset_on_failure()
            self.record("ctrl_reset", status=status)
            return encode([(1, 2), (2, proto3(status)), (12, [])]), 0, None
        if msg == 3:
            status = SUCCESS if not self.config["auto_stop"] else INTERNAL_ERROR
            if status == SUCCESS:
                self.prov_state, self.applied, self.service_stopping = "started", None, False
            self.record("ctrl_reprov", status=status)
            return encode([(1, 4), (2, proto3(status)), (14, [])]), 0, None
        raise ProtocommFailure(f"unknown prov-ctrl msg {msg}")

    def _reset_on_failure(self):
        if self.prov_state == "fail":
            self.prov_state, self.applied = "started", None
            return SUCCESS
        already_reset = self.prov_state == "started"
        return SUCCESS if already_reset and self._reset_when_already_reset() else INTERNAL_ERROR

    def _reset_when_already_reset(self):
        """network_provisioning 1.2.1: "prov-ctrl reset handler returns success when already reset"."""
        if self.config["proto_ver_style"] != "netprov-v1.2":
            return False
        return self.firmware_version >= (1, 2, 1)

    def _custom(self, endpoint, plaintext):
        self.record("custom", endpoint=endpoint, data_hex=plaintext.hex())
        return b"SUCCESS\0", 0, None
