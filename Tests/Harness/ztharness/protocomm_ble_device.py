"""ESP network_provisioning over BLE, the device side: protocomm's BLE transport around ProtocommDevice.

Written from idf-extra-components `network_provisioning` (src/scheme_ble.c, src/manager.c) and
ESP-IDF's protocomm NimBLE transport (components/protocomm/src/transports/protocomm_nimble.c):
- one primary service with a 128-bit UUID (advertised, with the name in the scan response); each
  endpoint is a read/write characteristic whose UUID is the service UUID with bytes 12–13
  (little-endian) replaced by the endpoint's 16-bit id, and a read-only 0x2901 descriptor holding the
  endpoint name. The manager registers prov-ctrl FF4F, prov-scan FF50, prov-session FF51,
  prov-config FF52, proto-ver FF53; endpoints the application adds get FF54 upwards;
- a write hands the whole value to protocomm; its answer is kept for the characteristic and handed
  out by the next reads; a protocomm failure makes the write fail with ATT "Invalid PDU" (0x04) on
  the NimBLE host (protocomm_nimble.c), while the Bluedroid host closes the link instead
  (protocomm_ble.c, esp_ble_gatts_close) — `ble_stack` chooses;
- every connection opens a new security session, a disconnect closes it.
The GATT side (permissions, long reads/writes, pairing) is bluez_device.py and bluez_gatt.py; this
module is pure and says only what the device does with bytes.
"""

import dataclasses

from .protocomm_device import ProtocommDevice, system_random
from .protocomm_security import ProtocommFailure

EXAMPLE_SERVICE_UUID = "021a9004-0382-4aea-bff4-6b3f1c5adfb4"
MANAGER_ENDPOINTS = (("prov-ctrl", 0xFF4F), ("prov-scan", 0xFF50), ("prov-session", 0xFF51),
                     ("prov-config", 0xFF52), ("proto-ver", 0xFF53))
FIRST_CUSTOM_UUID16 = 0xFF54
ATT_INVALID_PDU = 0x04
# The protocomm model's defaults that differ for a network_provisioning BLE device.
BLE_PROTOCOMM_DEFAULTS = {"proto_ver_style": "netprov-v1.2"}


def characteristic_uuid(service_uuid: str, uuid16: int) -> str:
    """Bytes 12–13 of the little-endian UUID are characters 4–8 of its text form."""
    return f"{service_uuid[:4]}{uuid16:04x}{service_uuid[8:]}".lower()


@dataclasses.dataclass
class PairingConfig:
    """Forced link encryption / bonding (CONFIG_NETWORK_PROV_BLE_FORCE_ENCRYPTION, _BONDING)."""
    required: bool = False             # endpoint reads/writes need an encrypted link (ATT 0x05)
    accept: bool = True                # the device takes part in pairing ("Just Works", NoInputNoOutput)
    bonding: bool = True               # keys are kept: Bonded, and a reconnection encrypts without pairing
    agent_required: bool = False       # Pair without any agent fails (doc/device-api.txt; 5.66 code does not)
    auto_pair_on_access: bool = False  # BlueZ raises the link security itself on ATT 0x05 and pairs
    auto_pair_needs_agent: bool = False  # ...and that pairing needs a default agent to confirm (Linux 6.1)
    mitm: bool = False                 # asks for MITM protection (NimBLE sm_mitm; the lab's peripheral)
    pair_delay_ms: int = 50


@dataclasses.dataclass
class ProtocommBleConfig:
    """Scenario "protocomm_ble" object; every key optional."""
    service_uuid: str = EXAMPLE_SERVICE_UUID
    ble_stack: str = "nimble"          # or "bluedroid": how a refused request ends (see above)
    user_descriptions: bool = True
    custom_endpoints: list = dataclasses.field(default_factory=lambda: ["custom-data"])
    protocomm: dict = dataclasses.field(default_factory=dict)
    pairing: dict = dataclasses.field(default_factory=dict)

    @classmethod
    def from_dict(cls, values: dict) -> "ProtocommBleConfig":
        config = cls(**values)
        config.service_uuid = config.service_uuid.lower()
        hex_digits = config.service_uuid.replace("-", "")
        if len(config.service_uuid) != 36 or len(hex_digits) != 32 or set(hex_digits) - set("0123456789abcdef"):
            raise ValueError("service_uuid must be a 128-bit UUID in its text form")
        if config.ble_stack not in ("nimble", "bluedroid"):
            raise ValueError("ble_stack must be nimble or bluedroid")
        names = [name for name, _ in MANAGER_ENDPOINTS] + list(config.custom_endpoints)
        if len(set(names)) != len(names) or not all(isinstance(n, str) and 0 < len(n) <= 64 for n in names):
            raise ValueError("custom_endpoints must be distinct new names of 1…64 characters")
        PairingConfig(**config.pairing)
        ProtocommDevice({**BLE_PROTOCOMM_DEFAULTS, **config.protocomm}, lambda _purpose, n: bytes(n))
        return config

    @property
    def pairing_config(self) -> PairingConfig:
        return PairingConfig(**self.pairing)


class ProtocommBleDevice:
    def __init__(self, config: ProtocommBleConfig, link, random_bytes=system_random):
        self.config = config
        self.link = link
        self.endpoints = list(MANAGER_ENDPOINTS) + [
            (name, FIRST_CUSTOM_UUID16 + index) for index, name in enumerate(config.custom_endpoints)]
        self.record = {"service_uuid": config.service_uuid, "connections": 0, "exchanges": [],
                       "failures": 0, "protocomm": []}
        protocomm_config = {**BLE_PROTOCOMM_DEFAULTS, **config.protocomm,
                            "custom_endpoints": list(config.custom_endpoints)}
        self.protocomm = ProtocommDevice(protocomm_config, random_bytes, self.record["protocomm"].append)
        self.responses: dict[str, bytes] = {}

    def uuid_of(self, name: str) -> str:
        return characteristic_uuid(self.config.service_uuid, dict(self.endpoints)[name])

    def name_of(self, uuid: str) -> str | None:
        return next((name for name, _ in self.endpoints if self.uuid_of(name) == uuid.lower()), None)

    def ble_connected(self, _mtu: int) -> None:
        self.record["connections"] += 1
        self.protocomm.open_session()

    def ble_disconnected(self) -> None:
        self.protocomm.security.reset()

    def write(self, name: str, value: bytes, pdus: int):
        """One written value; returns the protocomm Reply, or the ATT error code the write fails with."""
        exchange = {"endpoint": name, "written": len(value), "write_pdus": pdus}
        self.record["exchanges"].append(exchange)
        if not value:
            # protocomm_nimble ignores an empty write and answers it with success.
            exchange["ignored"] = True
            return None
        try:
            reply = self.protocomm.handle(name, value)
        except ProtocommFailure as failure:
            self.record["failures"] += 1
            exchange["att_error"] = ATT_INVALID_PDU
            exchange["reason"] = str(failure)
            return ATT_INVALID_PDU
        self.responses[name] = reply.body
        exchange["answer"] = len(reply.body)
        return reply

    def read(self, name: str) -> bytes:
        return self.responses.get(name, b"")

    def note_read(self, name: str, offset: int, length: int, pdus: int) -> None:
        exchanges = self.record["exchanges"]
        if exchanges and exchanges[-1]["endpoint"] == name and "read" not in exchanges[-1]:
            exchanges[-1].update(read=length, read_offset=offset, read_pdus=pdus)
        else:
            exchanges.append({"endpoint": name, "read": length, "read_offset": offset, "read_pdus": pdus})


def default_name(address: str) -> str:
    """The ESP examples' service name: PROV_ and the last three bytes of the MAC."""
    return "PROV_" + address.replace(":", "")[-6:].upper()

