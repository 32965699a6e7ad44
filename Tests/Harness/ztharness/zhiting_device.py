"""Pure model of a Zhiting device's LAN UDP service (port 54321), after the SA hub's discovery server
(zhiting-tech/smartassistant `modules/sadiscover/`) and what the Zhiting apps expect of a device.

`handle(datagram, sender)` returns the datagrams to send back to `sender` (unicast) and
records what arrived; no sockets here (device_host.py owns the UDP socket).

Packets: 32-byte header `21 31 | length | reserved | device id (6) | serial (4) | checksum (16)`
then the payload, AES-128-CBC/PKCS#7 with key = MD5(secret), IV = MD5(key ‖ secret).
Hello (`21310020` + `ff`×28) → hello reply; token request (reserved `fffe`, 16-byte key in the
checksum field) → token encrypted with the key; later requests carry JSON encrypted with the
token: `get_prop.info` and `set_prop.server` are answered with the request's `id`.

Configuration (the "device_host.zhiting" object of the scenario; every key optional):
  device_id         12 hex digits (default "a1b2c3d4e5f6"; device_host derives it from the
                    SoftAP BSSID when the scenario says "<derived>")
  token             32 hex digits = the 16 raw token bytes (default: random, purpose "zhiting_token")
  model, sw_ver, hw_ver   get_prop.info fields ("zt-plug-v1", "1.2.3", "1.0")
  info_extra        extra get_prop.info result members ({})
  checksum_style    what replies carry in bytes 16..31: "md5-token" (miIO: MD5(header[:16] ‖ token
                    ‖ payload)), "md5-packet" (SA: MD5 of the datagram with the field zeroed),
                    "key" (the client's session key) or "zero" (default "md5-token")
  require_checksum  null (accept anything, as SA and the apps) | "key" | "md5-packet" |
                    "md5-token": drop requests whose field follows another convention
  reserved_variant  reserved field of token/JSON replies: "zero" | "ffff" | "echo" (default "zero")
  accept_reserved   reserved values accepted on JSON requests: "any" | "zero" | "ffff" ("any")
  hello_reply       "json" (SA 2.x: reserved ffff, serial 1, plaintext {"model": …}) | "bare"
                    (SA 1.x: 32-byte header only) (default "json")
  echo_server, echo_port   set_prop.server answers with these instead of the sent values
  errors            "miio" ({"id", "error": {"code", "message"}} for unknown methods or bad
                    params) | "silent" (drop them, as SA does) (default "miio")
  silent            record everything, answer nothing (default false)
"""

import hashlib
import json
import os

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

MAGIC = b"\x21\x31"
HEADER_LEN = 32
HELLO = MAGIC + b"\x00\x20" + b"\xff" * 28
RESERVED_HELLO = b"\xff\xff"
RESERVED_TOKEN_KEY = b"\xff\xfe"

DEFAULTS = {
    "device_id": "a1b2c3d4e5f6", "token": None, "model": "zt-plug-v1", "sw_ver": "1.2.3",
    "hw_ver": "1.0", "info_extra": {}, "checksum_style": "md5-token", "require_checksum": None,
    "reserved_variant": "zero", "accept_reserved": "any", "hello_reply": "json",
    "echo_server": None, "echo_port": None, "errors": "miio", "silent": False,
}
RESERVED_VALUES = {"zero": b"\x00\x00", "ffff": b"\xff\xff"}


def _key_iv(secret):
    key = hashlib.md5(secret).digest()
    return key, hashlib.md5(key + secret).digest()


def encrypt(secret, plaintext):
    key, iv = _key_iv(secret)
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plaintext) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return encryptor.update(padded) + encryptor.finalize()


def decrypt(secret, ciphertext):
    """Raises ValueError for a length or padding that cannot be AES-CBC/PKCS#7 output."""
    if not ciphertext or len(ciphertext) % 16:
        raise ValueError("ciphertext is not a whole number of AES blocks")
    key, iv = _key_iv(secret)
    decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    padded = decryptor.update(ciphertext) + decryptor.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    return unpadder.update(padded) + unpadder.finalize()


def md5_packet_checksum(datagram):
    return hashlib.md5(datagram[:16] + b"\0" * 16 + datagram[32:]).digest()


def md5_token_checksum(datagram, token):
    return hashlib.md5(datagram[:16] + token + datagram[32:]).digest()


def system_random(_purpose, length):
    return os.urandom(length)


class ZhitingDevice:
    def __init__(self, config=None, random_bytes=system_random, record=None):
        self.config = {**DEFAULTS, **(config or {})}
        self.device_id = bytes.fromhex(self.config["device_id"])
        if len(self.device_id) != 6:
            raise ValueError("device_id must be 12 hex digits")
        token = self.config["token"]
        self.token = bytes.fromhex(token) if token else random_bytes("zhiting_token", 16)
        self.keys = {}
        self.records = []
        self.sink = record

    def record(self, event, sender, **fields):
        entry = {"source": "zhiting", "event": event, "sender": f"{sender[0]}:{sender[1]}", **fields}
        self.records.append(entry)
        if self.sink:
            self.sink(entry)

    # --- packet building -------------------------------------------------------------

    def build(self, reserved, serial, payload, session_key=b""):
        header = MAGIC + (HEADER_LEN + len(payload)).to_bytes(2, "big") + reserved + self.device_id
        datagram = header + serial + b"\0" * 16 + payload
        style = self.config["checksum_style"]
        if style == "md5-packet":
            checksum = md5_packet_checksum(datagram)
        elif style == "md5-token":
            checksum = md5_token_checksum(datagram, self.token)
        elif style == "key":
            checksum = session_key.ljust(16, b"\0")[:16]
        elif style == "zero":
            checksum = b"\0" * 16
        else:
            raise ValueError(f"unknown checksum_style {style!r}")
        return datagram[:16] + checksum + datagram[32:]

    def _reply_reserved(self, request_reserved):
        variant = self.config["reserved_variant"]
        return request_reserved if variant == "echo" else RESERVED_VALUES[variant]

    # --- handling ---------------------------------------------------------------------

    def handle(self, datagram, sender):
        replies = self._dispatch(datagram, sender)
        return [] if self.config["silent"] else replies

    def _dispatch(self, datagram, sender):
        if datagram == HELLO:
            self.record("hello", sender)
            return [self._hello_reply()]
        if len(datagram) < HEADER_LEN or datagram[:2] != MAGIC:
            self.record("dropped", sender, reason="not a Zhiting packet", data_hex=datagram.hex())
            return []
        length = int.from_bytes(datagram[2:4], "big")
        reserved, device_id = datagram[4:6], datagram[6:12]
        serial, checksum = datagram[12:16], datagram[16:32]
        common = {"reserved": reserved.hex(), "device_id": device_id.hex(), "serial": serial.hex(),
                  "length_field": length, "length": len(datagram)}
        if length != len(datagram):
            self.record("dropped", sender, reason="length field mismatch", **common)
            return []
        if device_id != self.device_id:
            self.record("dropped", sender, reason="other device id", **common)
            return []
        if reserved == RESERVED_TOKEN_KEY:
            return self._token_reply(sender, serial, checksum, datagram, common)
        return self._json_request(sender, datagram, reserved, serial, checksum, common)

    def _hello_reply(self):
        if self.config["hello_reply"] == "bare":
            return self.build(b"\0\0", b"\0\0\0\0", b"")
        payload = json.dumps({"model": self.config["model"]}, separators=(",", ":")).encode()
        return self.build(RESERVED_HELLO, (1).to_bytes(4, "big"), payload)

    def _token_reply(self, sender, serial, key, datagram, common):
        self.keys[sender] = key
        self.record("token_request", sender, key=key.decode("latin-1"), **common)
        if len(datagram) != HEADER_LEN:
            self.record("dropped", sender, reason="token request with payload", **common)
            return []
        return [self.build(self._reply_reserved(RESERVED_TOKEN_KEY), serial,
                           encrypt(key, self.token), key)]

    def _checksum_convention(self, sender, checksum, datagram):
        if checksum == self.keys.get(sender):
            return "key"
        if checksum == md5_packet_checksum(datagram):
            return "md5-packet"
        if checksum == md5_token_checksum(datagram, self.token):
            return "md5-token"
        return "other"

    def _reserved_accepted(self, reserved):
        accepted = self.config["accept_reserved"]
        return accepted == "any" or reserved == RESERVED_VALUES[accepted]

    def _json_request(self, sender, datagram, reserved, serial, checksum, common):
        convention = self._checksum_convention(sender, checksum, datagram)
        common = {**common, "checksum": convention, "checksum_hex": checksum.hex()}
        required = self.config["require_checksum"]
        if required and convention != required:
            self.record("dropped", sender, reason=f"checksum is {convention}, not {required}", **common)
            return []
        if not self._reserved_accepted(reserved):
            self.record("dropped", sender, reason="reserved field not accepted", **common)
            return []
        try:
            text = decrypt(self.token, datagram[HEADER_LEN:])
            request = json.loads(text)
        except ValueError as error:
            self.record("dropped", sender, reason=f"undecryptable or not JSON: {error}", **common)
            return []
        if not isinstance(request, dict):
            self.record("dropped", sender, reason="JSON is not an object", **common)
            return []
        method, request_id, params = request.get("method"), request.get("id"), request.get("params")
        self.record("request", sender, method=method, id=request_id, params=params,
                    json=text.decode("utf-8", "backslashreplace"), **common)
        body = self._answer(method, request_id, params)
        if body is None:
            return []
        payload = json.dumps(body, separators=(",", ":")).encode()
        return [self.build(self._reply_reserved(reserved), serial, encrypt(self.token, payload),
                           self.keys.get(sender, b""))]

    def _answer(self, method, request_id, params):
        if method == "get_prop.info":
            info = {"model": self.config["model"], "token": self.token.hex().upper(),
                    "hw_ver": self.config["hw_ver"], "sw_ver": self.config["sw_ver"],
                    **self.config["info_extra"]}
            return {"id": request_id, "result": info}
        if method == "set_prop.server":
            if not isinstance(params, dict) or not isinstance(params.get("server"), str) \
                    or not isinstance(params.get("port"), int):
                return self._error(request_id, -32602, "invalid params")
            result = {"server": self.config["echo_server"] or params["server"],
                      "port": self.config["echo_port"] or params["port"],
                      "area_id": params.get("area_id"), "access_token": params.get("access_token")}
            return {"id": request_id, "result": result}
        return self._error(request_id, -32601, "method not found")

    def _error(self, request_id, code, message):
        if self.config["errors"] == "silent":
            return None
        return {"id": request_id, "error": {"code": code, "message": message}}
