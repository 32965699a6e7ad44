"""One emulated controller, /org/bluez/hciN with org.bluez.Adapter1, as BlueZ 5.66 behaves (src/adapter.c).

Discovery is per D-Bus client: each client may start one discovery (a second StartDiscovery is
InProgress), may preset a filter with SetDiscoveryFilter, and loses its session when it leaves the
bus. StopDiscovery keeps the client's filter as a preset one that its next StartDiscovery uses, as
bluetoothd has since 5.55 (discovery_remove puts a client with a filter back on set_filter_list). `Discovering` is true while any client discovers; a device is reported when it matches the
filter of at least one discovering client. Reports come advertise_delay_ms after StartDiscovery and
then every second (RSSI PropertiesChanged under a filter, as BlueZ reports every RSSI then), but
only while the device advertises: a BluFi peripheral is silent while connected (to any adapter).

With stop_discovery_rejected_first_n the first n StopDiscovery calls meet the race in which the kernel
rejects the stop (it was between scan windows, MGMT status 0x0b): bluetoothd ends the client's session
all the same and answers InProgress "Operation already in progress" (stop_discovery_complete).
"""

import time

import dbus
from gi.repository import GLib

from . import discovery_filter
from .dbus_export import Call, add_object, bluez_error, emit_properties_changed, export_method, install_property_access

ADAPTER_IFACE = "org.bluez.Adapter1"
REPORT_INTERVAL_MS = 1000
ADAPTER_CLASS = 0x6C010C
MODALIAS = "usb:v1D6Bp0246d0542"  # BlueZ 5.66


class EmulatedAdapter:
    def __init__(self, root, config: dict, temporary_timeout_ms: int):
        self.root = root
        self.name = config["name"]
        self.path = f"/org/bluez/{self.name}"
        self.config = config
        self.temporary_timeout_ms = temporary_timeout_ms
        self.stop_rejections_left = config["stop_discovery_rejected_first_n"]
        self.devices = []
        self.clients: dict[str, discovery_filter.DiscoveryFilter | None] = {}
        self.preset_filters: dict[str, discovery_filter.DiscoveryFilter] = {}
        self._watches = {}
        self._ticker = None
        # When a client first started discovery: devices with appears_after_ms advertise from then on.
        self._first_discovery_at = None
        self.agents = None  # the emulation's AgentRegistry, shared by every adapter
        self.obj = None

    @property
    def powered(self) -> bool:
        return bool(self.obj.props[ADAPTER_IFACE]["Powered"])

    @property
    def discovering(self) -> bool:
        return bool(self.clients)

    def export(self) -> None:
        props = {
            "Address": dbus.String(self.config["address"].upper()), "AddressType": dbus.String("public"),
            "Name": dbus.String("ztharness"), "Alias": dbus.String("ztharness"),
            "Class": dbus.UInt32(ADAPTER_CLASS), "Powered": dbus.Boolean(self.config["powered"]),
            "Discoverable": dbus.Boolean(False), "DiscoverableTimeout": dbus.UInt32(180),
            "Pairable": dbus.Boolean(True), "PairableTimeout": dbus.UInt32(0),
            "Discovering": dbus.Boolean(False),
            "UUIDs": dbus.Array(["00001800-0000-1000-8000-00805f9b34fb",
                                 "00001801-0000-1000-8000-00805f9b34fb"], signature="s"),
            "Modalias": dbus.String(MODALIAS), "Roles": dbus.Array(["central", "peripheral"], signature="s"),
        }
        self.obj = add_object(self.root, self.path, ADAPTER_IFACE, props)
        writable = {"Alias", "Powered", "Discoverable", "DiscoverableTimeout", "Pairable", "PairableTimeout"}
        install_property_access(self.obj, {ADAPTER_IFACE: writable}, self._on_set)
        for name, in_sig, out_sig, implementation in (
                ("StartDiscovery", "", "", self._start_discovery),
                ("StopDiscovery", "", "", self._stop_discovery),
                ("SetDiscoveryFilter", "a{sv}", "", self._set_discovery_filter),
                ("GetDiscoveryFilters", "", "as", self._get_discovery_filters),
                ("RemoveDevice", "o", "", self._remove_device)):
            export_method(self.obj, ADAPTER_IFACE, name, in_sig, out_sig, implementation)

    def _set(self, name: str, value) -> None:
        self.obj.props[ADAPTER_IFACE][name] = value
        emit_properties_changed(self.obj, ADAPTER_IFACE, {name: value})

    def _on_set(self, _interface: str, name: str, value) -> None:
        if name == "Powered" and not value:
            for sender in list(self.clients):
                self._end_session(sender)
            for device in self.devices:
                device.adapter_powered_off()
        self._set(name, value)

    def _require_power(self) -> None:
        if not self.powered:
            raise bluez_error("NotReady", "Resource Not Ready")

    # Client sessions -----------------------------------------------------------------------------

    def _watch(self, sender: str) -> None:
        if sender not in self._watches:
            self._watches[sender] = self.root.connection.watch_name_owner(
                sender, lambda owner: owner or self._client_left(sender))

    def _client_left(self, sender: str) -> None:
        self.preset_filters.pop(sender, None)
        if sender in self.clients:
            self._end_session(sender)
        self._unwatch(sender)

    def _unwatch(self, sender: str) -> None:
        if sender not in self.clients and sender not in self.preset_filters and sender in self._watches:
            self._watches.pop(sender).cancel()

    def _start_discovery(self, call: Call):
        self._require_power()
        if call.sender in self.clients:
            raise bluez_error("InProgress", "Operation already in progress")
        self.clients[call.sender] = self.preset_filters.pop(call.sender, None)
        self._watch(call.sender)
        if not self.obj.props[ADAPTER_IFACE]["Discovering"]:
            self._set("Discovering", dbus.Boolean(True))
            self._ticker = GLib.timeout_add(REPORT_INTERVAL_MS, self._report_all)
        if self._first_discovery_at is None:
            self._first_discovery_at = time.monotonic()
        for device in self.devices:
            delay = max(device.config["advertise_delay_ms"], self._until_appears_ms(device))
            GLib.timeout_add(delay, self._report_one, device)
        return None

    def _until_appears_ms(self, device) -> int:
        """How long until a device with appears_after_ms (powered on late) starts advertising; 0 once it has."""
        if self._first_discovery_at is None:
            return device.config["appears_after_ms"]
        elapsed_ms = (time.monotonic() - self._first_discovery_at) * 1000
        return max(0, int(device.config["appears_after_ms"] - elapsed_ms + 0.999))

    def _stop_discovery(self, call: Call):
        self._require_power()
        if call.sender not in self.clients:
            raise bluez_error("Failed", "No discovery started")
        kept = self.clients[call.sender]
        if kept is not None:
            self.preset_filters[call.sender] = kept
        self._end_session(call.sender)
        if self.stop_rejections_left > 0:
            self.stop_rejections_left -= 1
            raise bluez_error("InProgress", "Operation already in progress")
        return None

    def _end_session(self, sender: str) -> None:
        """Ends the client's discovery; a filter it keeps stays in preset_filters."""
        del self.clients[sender]
        self._unwatch(sender)
        if self.clients:
            return
        GLib.source_remove(self._ticker)
        self._ticker = None
        self._set("Discovering", dbus.Boolean(False))
        for device in self.devices:
            device.discovery_stopped(self.temporary_timeout_ms)

    def _set_discovery_filter(self, call: Call):
        self._require_power()
        try:
            parsed = discovery_filter.parse(call.args[0])
        except discovery_filter.InvalidFilter as error:
            self.obj.log(f"SetDiscoveryFilter rejected: {error}")
            raise bluez_error("InvalidArguments", "Invalid arguments in method call") from error
        if call.sender in self.clients:
            self.clients[call.sender] = parsed
        elif parsed is None:
            self.preset_filters.pop(call.sender, None)
            self._unwatch(call.sender)
        else:
            self.preset_filters[call.sender] = parsed
            self._watch(call.sender)
        return None

    def _get_discovery_filters(self, _call: Call):
        return (dbus.Array(discovery_filter.FILTER_KEYS, signature="s"),)

    def _remove_device(self, call: Call):
        path = str(call.args[0])
        device = next((d for d in self.devices if d.path == path and d.exported), None)
        if device is None:
            raise bluez_error("DoesNotExist", "Does Not Exist")
        self._require_power()
        device.remove()
        return None

    # Advertisement reports -----------------------------------------------------------------------

    def _report_one(self, device) -> bool:
        filters = list(self.clients.values())
        if self._until_appears_ms(device) > 0:
            return False
        if device.peripheral.advertising and filters and any(device.visible_to(f) for f in filters):
            device.advertise(filtered=any(f is not None for f in filters))
        return False

    def _report_all(self) -> bool:
        for device in self.devices:
            self._report_one(device)
        return True
