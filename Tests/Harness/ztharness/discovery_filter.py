"""Adapter1.SetDiscoveryFilter as BlueZ 5.66 parses and applies it (src/adapter.c).

Keys and types: UUIDs as, RSSI n (−127…20), Pathloss q (≤ 137), Transport s (auto|bredr|le),
DuplicateData b, Discoverable b, Pattern s. Any other key, a wrong type, a bad UUID or RSSI together
with Pathloss is InvalidArguments. A device matches a filter when one of its advertised UUIDs is in
the list (or the list is empty), its RSSI is at least the threshold, and Pattern is a prefix of its
address or name. Filters of several clients are ORed by the caller.
"""

import re
from dataclasses import dataclass, field

import dbus

BASE_UUID_SUFFIX = "-0000-1000-8000-00805f9b34fb"
FILTER_KEYS = ("UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern")
PATHLOSS_MAX = 137


class InvalidFilter(ValueError):
    """SetDiscoveryFilter must answer org.bluez.Error.InvalidArguments."""


def uuid128(text: str) -> str:
    """Normalises a 16-, 32- or 128-bit UUID string like bt_string_to_uuid + bt_uuid_to_uuid128."""
    value = text.lower()
    if re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", value):
        return value
    short = value[2:] if value.startswith("0x") else value
    if re.fullmatch(r"[0-9a-f]{4}", short):
        return f"0000{short}{BASE_UUID_SUFFIX}"
    if re.fullmatch(r"[0-9a-f]{8}", short):
        return f"{short}{BASE_UUID_SUFFIX}"
    raise InvalidFilter(f"bad UUID {text!r}")


@dataclass
class DiscoveryFilter:
    uuids: list[str] = field(default_factory=list)
    rssi: int | None = None
    pathloss: int | None = None
    transport: str = "auto"
    duplicate_data: bool = False
    discoverable: bool = False
    pattern: str | None = None

    def matches(self, address: str, name: str | None, uuids: list[str], rssi: int) -> bool:
        if self.transport == "bredr":
            return False
        if self.uuids and not set(self.uuids) & {uuid128(u) for u in uuids}:
            return False
        if self.rssi is not None and rssi < self.rssi:
            return False
        if self.pathloss is not None:
            return False  # our peripherals advertise no TX power, so BlueZ cannot compute a pathloss
        if self.pattern:
            return address.startswith(self.pattern) or bool(name and name.startswith(self.pattern))
        return True


def _expect(value, kind, key: str):
    if not isinstance(value, kind):
        raise InvalidFilter(f"{key} has the wrong D-Bus type")
    return value


def parse(properties: dict) -> DiscoveryFilter | None:
    """Returns the filter, or None for an empty dictionary (which clears the caller's filter)."""
    if not properties:
        return None
    result = DiscoveryFilter()
    for key, value in properties.items():
        if key == "UUIDs":
            items = _expect(value, dbus.Array, key)
            result.uuids = [uuid128(str(_expect(item, dbus.String, key))) for item in items]
        elif key == "RSSI":
            result.rssi = int(_expect(value, dbus.Int16, key))
            if not -127 <= result.rssi <= 20:
                raise InvalidFilter("RSSI outside −127…20")
        elif key == "Pathloss":
            result.pathloss = int(_expect(value, dbus.UInt16, key))
            if result.pathloss > PATHLOSS_MAX:
                raise InvalidFilter("Pathloss above 137")
        elif key == "Transport":
            result.transport = str(_expect(value, dbus.String, key))
            if result.transport not in ("auto", "bredr", "le"):
                raise InvalidFilter(f"unknown transport {result.transport!r}")
        elif key == "DuplicateData":
            result.duplicate_data = bool(_expect(value, dbus.Boolean, key))
        elif key == "Discoverable":
            result.discoverable = bool(_expect(value, dbus.Boolean, key))
        elif key == "Pattern":
            result.pattern = str(_expect(value, dbus.String, key))
        else:
            raise InvalidFilter(f"unknown key {key!r}")
    if result.rssi is not None and result.pathloss is not None:
        raise InvalidFilter("RSSI and Pathloss are mutually exclusive")
    return result
