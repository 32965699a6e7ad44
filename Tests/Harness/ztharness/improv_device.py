"""Improv Wi-Fi over BLE, the device side, written from https://www.improv-wifi.com/ble/.

Independent of the Swift core: a second reading of the specification that the Swift client (and
py-improv-ble-client) must agree with. The peripheral (bluez_peripheral.py) hands it every write to
the RPC command characteristic and publishes what it sets through `link.set_value(uuid, value)`
(stored for reads and notified to subscribers).

Behaviour: writes collect until the frame's length byte is satisfied (clients split frames over
20-byte writes); a bad checksum or length is error 0x01; commands follow the specification's state
rules. `record` keeps what a test inspects (the password included: this is the test side).
"""

import dataclasses

SERVICE_UUID = "00467768-6228-2272-4663-277478268000"
STATE_UUID = "00467768-6228-2272-4663-277478268001"
ERROR_UUID = "00467768-6228-2272-4663-277478268002"
RPC_COMMAND_UUID = "00467768-6228-2272-4663-277478268003"
RPC_RESULT_UUID = "00467768-6228-2272-4663-277478268004"
CAPABILITIES_UUID = "00467768-6228-2272-4663-277478268005"
SERVICE_DATA_UUID = "00004677-0000-1000-8000-00805f9b34fb"

AUTHORIZATION_REQUIRED, AUTHORIZED, PROVISIONING, PROVISIONED = 1, 2, 3, 4
NO_ERROR, INVALID_RPC, UNKNOWN_RPC, UNABLE_TO_CONNECT, NOT_AUTHORIZED, BAD_HOSTNAME = 0, 1, 2, 3, 4, 5
WIFI_SETTINGS, IDENTIFY, DEVICE_INFO, SCAN, HOSTNAME, DEVICE_NAME = 1, 2, 3, 4, 5, 6
CAPABILITY_BITS = {"identify": 1, "device_info": 2, "scan": 4, "hostname": 8}
HOSTNAME_CHARACTERS = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


@dataclasses.dataclass
class ImprovConfig:
    """Scenario "improv" object; every key optional."""
    requires_authorization: bool = False
    provisioned: bool = False                # already provisioned at start (state 4)
    advertises_service_data: bool = True     # False: no service data 4677 (detection must read the GATT database)
    authorize_after_ms: int | None = None   # the button is pressed this long after connecting (None: never)
    capabilities: list = dataclasses.field(default_factory=lambda: ["identify", "device_info", "scan", "hostname"])
    supports_device_name: bool = True
    target_ssid: str = "HomeNet"
    target_password: str = "correct horse"
    join_delay_ms: int = 300
    redirect_url: str | None = "http://improv-device.local/"
    device_info: list = dataclasses.field(default_factory=lambda: ["ESPHome", "2024.6.0", "esp32-c3", "Kitchen Plug"])
    networks: list = dataclasses.field(default_factory=lambda: [["HomeNet", "-48", "WPA2"], ["Guest", "-71", "NO"]])
    scan_style: str = "per_network"          # or "single": the specification's one result
    hostname: str = "kitchen-plug"

    @classmethod
    def from_dict(cls, values: dict) -> "ImprovConfig":
        config = cls(**values)
        unknown = set(config.capabilities) - set(CAPABILITY_BITS)
        if unknown:
            raise ValueError(f"unknown capabilities {sorted(unknown)}")
        if config.scan_style not in ("per_network", "single"):
            raise ValueError("scan_style must be per_network or single")
        return config

    @property
    def capability_byte(self) -> int:
        return sum(CAPABILITY_BITS[name] for name in self.capabilities)


def checksum(data: bytes) -> int:
    return sum(data) & 0xFF


def frame(command: int, strings: list[bytes]) -> bytes:
    data = b"".join(bytes([len(s)]) + s for s in strings)
    body = bytes([command, len(data)]) + data
    return body + bytes([checksum(body)])


def split_strings(data: bytes) -> list[bytes] | None:
    strings, position = [], 0
    while position < len(data):
        end = position + 1 + data[position]
        if end > len(data):
            return None
        strings.append(data[position + 1:end])
        position = end
    return strings


class ImprovDevice:
    def __init__(self, config: ImprovConfig, link):
        self.config = config
        self.link = link
        self.state = AUTHORIZATION_REQUIRED if config.requires_authorization else AUTHORIZED
        if config.provisioned:
            self.state = PROVISIONED
        self.error = NO_ERROR
        self.pending = b""
        self.hostname = config.hostname
        self.device_name = config.device_info[3]
        # "errors": every error the device reported, in order; the next command clears the current one.
        self.record = {"connections": 0, "commands": [], "identify": 0, "join_attempts": [], "invalid_frames": 0,
                       "authorized_by_button": 0, "errors": []}

    @property
    def service_data(self) -> bytes:
        return bytes([self.state, self.config.capability_byte, 0, 0, 0, 0])

    def initial_values(self) -> dict:
        return {STATE_UUID: bytes([self.state]), ERROR_UUID: bytes([self.error]),
                CAPABILITIES_UUID: bytes([self.config.capability_byte]), RPC_RESULT_UUID: b""}

    def ble_connected(self, _mtu: int) -> None:
        self.record["connections"] += 1
        self.pending = b""
        if self.state == AUTHORIZATION_REQUIRED and self.config.authorize_after_ms is not None:
            self.link.schedule(self.config.authorize_after_ms, self.press_button)

    def ble_disconnected(self) -> None:
        self.pending = b""

    def press_button(self) -> None:
        if self.state == AUTHORIZATION_REQUIRED:
            self.record["authorized_by_button"] += 1
            self._set_state(AUTHORIZED)

    def receive(self, value: bytes) -> None:
        self.pending += value
        if len(self.pending) < 2 or len(self.pending) < self.pending[1] + 3:
            return
        data, self.pending = self.pending, b""
        strings = split_strings(data[2:-1]) if len(data) == data[1] + 3 else None
        if strings is None or data[-1] != checksum(data[:-1]):
            self.record["invalid_frames"] += 1
            self._set_error(INVALID_RPC)
            return
        self.record["commands"].append(data[0])
        if self.error != NO_ERROR:
            self._set_error(NO_ERROR)
        self._handle(data[0], strings)

    def _handle(self, command: int, strings: list[bytes]) -> None:
        capabilities = self.config.capabilities
        if self.state not in (AUTHORIZATION_REQUIRED, AUTHORIZED):
            self._set_error(0xFF)
        elif command == WIFI_SETTINGS:
            self._join(strings)
        elif command == IDENTIFY and "identify" in capabilities:
            self.record["identify"] += 1
        elif command == DEVICE_INFO and "device_info" in capabilities:
            self._result(DEVICE_INFO, [s.encode() for s in self.config.device_info])
        elif command == SCAN and "scan" in capabilities:
            self._scan()
        elif command == HOSTNAME and "hostname" in capabilities:
            self._name(HOSTNAME, strings)
        elif command == DEVICE_NAME and self.config.supports_device_name:
            self._name(DEVICE_NAME, strings)
        else:
            self._set_error(UNKNOWN_RPC)

    def _join(self, strings: list[bytes]) -> None:
        if len(strings) != 2:
            self._set_error(INVALID_RPC)
            return
        if self.state != AUTHORIZED:
            self._set_error(NOT_AUTHORIZED)
            return
        ssid, password = (s.decode("utf-8", "replace") for s in strings)
        self.record["join_attempts"].append({"ssid": ssid, "password": password})
        self._set_state(PROVISIONING)

        def finish() -> None:
            if self.state != PROVISIONING:
                return
            if ssid == self.config.target_ssid and password == self.config.target_password:
                self._set_state(PROVISIONED)
                url = self.config.redirect_url
                self._result(WIFI_SETTINGS, [url.encode()] if url is not None else [])
            else:
                self._set_error(UNABLE_TO_CONNECT)
                self._set_state(AUTHORIZED)

        self.link.schedule(self.config.join_delay_ms, finish)

    def _scan(self) -> None:
        entries = [[field.encode() for field in network] for network in self.config.networks]
        if self.config.scan_style == "single":
            self._result(SCAN, [field for entry in entries for field in entry])
            return
        for entry in entries:
            self._result(SCAN, entry)
        self._result(SCAN, [])

    def _name(self, command: int, strings: list[bytes]) -> None:
        if len(strings) > 1:
            self._set_error(INVALID_RPC)
            return
        if strings or command == HOSTNAME:
            if self.state != AUTHORIZED:
                self._set_error(NOT_AUTHORIZED)
                return
        if strings and command == HOSTNAME:
            name = strings[0]
            if not 1 <= len(name) <= 255 or not set(name) <= HOSTNAME_CHARACTERS | {ord(".")}:
                self._set_error(BAD_HOSTNAME)
                return
            self.hostname = name.decode()
        elif strings:
            self.device_name = strings[0].decode("utf-8", "replace")
        self._result(command, [(self.hostname if command == HOSTNAME else self.device_name).encode()])

    def _result(self, command: int, strings: list[bytes]) -> None:
        self.link.set_value(RPC_RESULT_UUID, frame(command, strings))

    def _set_state(self, state: int) -> None:
        self.state = state
        self.record["state"] = state
        self.link.set_value(STATE_UUID, bytes([state]))
        self.link.advertisement_changed()

    def _set_error(self, error: int) -> None:
        self.error = error
        self.record["error"] = error
        if error != NO_ERROR:
            self.record["errors"].append(error)
        self.link.set_value(ERROR_UUID, bytes([error]))
