"""One emulated BLE peripheral on the BlueZ mock: its Device1 object, GATT tree, BluFi model and faults.

Shapes follow BlueZ 5.66 (src/device.c, src/gatt-client.c):
- the object appears with InterfacesAdded when first seen in a discovery; a known device gets RSSI
  PropertiesChanged instead; RSSI is invalidated when discovery stops; a never-connected device is
  removed TemporaryTimeout after discovery stops;
- Connect replies once the link is up (before ServicesResolved); the GATT tree appears after
  resolve_delay_ms, then ServicesResolved turns true; Connect on a connected device succeeds;
  Disconnect on an unconnected one too;
- on disconnect: acquired sockets are shut, ServicesResolved then Connected turn false, and with the
  default GATT cache the GATT objects stay exported (calls on them fail with "Not connected");
  StartNotify sessions survive and are active again after the next connection.

Faults (scenario "faults"): the first in_progress_first_n Connect calls fail with InProgress, the next
connect_fail_first_n with connect_error; link_loss_at_frame=n: the n-th frame written in a connection
is acknowledged and reaches the device, then the link drops before any answer (once per device);
drop_notification / corrupt_notification = n or [n, …]: the n-th notification of the device's life
is lost / has its last byte inverted; write_latency_ms delays each write's reply.
"""

import json
import os

import dbus
from gi.repository import GLib

from . import bluez_gatt as gatt
from .blufi_device import BlufiConfig, BlufiDevice
from .dbus_export import (DEFERRED, Call, add_object, bluez_error, byte_array, emit_properties_changed,
                          export_method, install_property_access, remove_object)
from .discovery_filter import uuid128

DEVICE_IFACE = "org.bluez.Device1"
GATT_SERVICE_UUID = "00001801-0000-1000-8000-00805f9b34fb"
SERVICE_CHANGED_UUID = "00002a05-0000-1000-8000-00805f9b34fb"
BLUFI_SERVICE_UUID = "0000ffff-0000-1000-8000-00805f9b34fb"
BLUFI_WRITE_UUID = "0000ff01-0000-1000-8000-00805f9b34fb"
BLUFI_NOTIFY_UUID = "0000ff02-0000-1000-8000-00805f9b34fb"
DEVICE_DISCONNECT_DELAY_MS = 10


def fault_hits(setting, count: int) -> bool:
    """A fault given as n or [n, …] applies to the count-th event."""
    if setting is None:
        return False
    return count in setting if isinstance(setting, list) else count == setting


def dict_of_bytes(values: dict, key_type, signature: str) -> dbus.Dictionary:
    return dbus.Dictionary({key_type(k): byte_array(bytes.fromhex(v)) for k, v in values.items()},
                           signature=signature)


class EmulatedDevice:
    def __init__(self, root, adapter, config: dict, record_dir: str | None):
        self.root = root
        self.adapter = adapter
        self.config = config
        self.faults = config["faults"]
        self.address = config["address"].upper()
        self.path = f"{adapter.path}/dev_{self.address.replace(':', '_')}"
        self.mtu = config["mtu"]
        self.advertised_uuids = [uuid128(u) for u in config["uuids"]]
        self.obj = None
        self.connected = False
        self.temporary = not config["cached"]
        self.gatt_objects: list = []
        self.write_characteristic = None
        self.notify_characteristic = None
        self._generation = 0
        self._temporary_timer = None
        self._record_path = os.path.join(record_dir, f"blufi-{self.address.replace(':', '_')}.json") \
            if record_dir else None
        self._record_pending = False
        self._suppress_notifications = False
        self._frames_this_connection = 0
        self._link_loss_done = False
        self._notification_count = 0
        self.ble = {"connect_calls": 0, "events": [], "writes": 0, "notifications_dropped": [],
                    "notifications_corrupted": [], "dropped_unsubscribed": 0}
        self.blufi = BlufiDevice(BlufiConfig.from_dict(config["blufi"]), self)
        if config["cached"]:
            self._export(with_rssi=False)

    # Device1 object ------------------------------------------------------------------------------

    def _props(self, with_rssi: bool) -> dict:
        name = self.config["name"]
        props = {
            "Address": dbus.String(self.address),
            "AddressType": dbus.String(self.config["address_type"]),
            "Alias": dbus.String(name or self.address.replace(":", "-")),
            "Paired": dbus.Boolean(False), "Bonded": dbus.Boolean(False),
            "Trusted": dbus.Boolean(False), "Blocked": dbus.Boolean(False),
            "LegacyPairing": dbus.Boolean(False), "Connected": dbus.Boolean(False),
            "UUIDs": dbus.Array(self.advertised_uuids, signature="s"),
            "Adapter": dbus.ObjectPath(self.adapter.path),
            "ServicesResolved": dbus.Boolean(False),
        }
        if name:
            props["Name"] = dbus.String(name)
        if with_rssi:
            props["RSSI"] = dbus.Int16(self.config["rssi"])
        if self.config["manufacturer"]:
            props["ManufacturerData"] = dict_of_bytes(self.config["manufacturer"], lambda k: dbus.UInt16(int(k)),
                                                      "qv")
        if self.config["service_data"]:
            props["ServiceData"] = dict_of_bytes(self.config["service_data"], lambda k: dbus.String(uuid128(k)),
                                                 "sv")
        return props

    def _export(self, with_rssi: bool) -> None:
        self.obj = add_object(self.root, self.path, DEVICE_IFACE, self._props(with_rssi))
        install_property_access(self.obj, {DEVICE_IFACE: {"Alias", "Trusted", "Blocked"}}, self._on_set)
        export_method(self.obj, DEVICE_IFACE, "Connect", "", "", self._connect)
        export_method(self.obj, DEVICE_IFACE, "Disconnect", "", "", self._disconnect)

    @property
    def exported(self) -> bool:
        return self.obj is not None

    def _set(self, name: str, value, flush: bool = False) -> None:
        self.obj.props[DEVICE_IFACE][name] = value
        emit_properties_changed(self.obj, DEVICE_IFACE, {name: value}, flush=flush)

    def _on_set(self, _interface: str, name: str, value) -> None:
        self._set(name, value)

    # Discovery -----------------------------------------------------------------------------------

    def visible_to(self, discovery_filter) -> bool:
        return discovery_filter is None or discovery_filter.matches(
            self.address, self.config["name"], self.advertised_uuids, self.config["rssi"])

    def advertise(self, filtered: bool) -> None:
        """One advertisement was received during discovery (the adapter checked the filters)."""
        self._cancel_temporary_timer()
        if not self.exported:
            self._export(with_rssi=True)
        elif filtered or "RSSI" not in self.obj.props[DEVICE_IFACE]:
            # Filtered discovery reports every RSSI; otherwise only a change (here: from "none").
            self._set("RSSI", dbus.Int16(self.config["rssi"]))

    def discovery_stopped(self, temporary_timeout_ms: int) -> None:
        if not self.exported:
            return
        if "RSSI" in self.obj.props[DEVICE_IFACE]:
            del self.obj.props[DEVICE_IFACE]["RSSI"]
            emit_properties_changed(self.obj, DEVICE_IFACE, {}, ["RSSI"])
        if self.temporary and not self.connected:
            self._cancel_temporary_timer()
            self._temporary_timer = GLib.timeout_add(temporary_timeout_ms, self._temporary_expired)

    def _temporary_expired(self) -> bool:
        self._temporary_timer = None
        if self.exported and self.temporary and not self.connected and not self.adapter.discovering:
            self.remove()
        return False

    def _cancel_temporary_timer(self) -> None:
        if self._temporary_timer is not None:
            GLib.source_remove(self._temporary_timer)
            self._temporary_timer = None

    def remove(self) -> None:
        """Adapter1.RemoveDevice, or expiry of a temporary device: disconnect, unexport everything."""
        self._cancel_temporary_timer()
        if self.connected:
            self._link_down("removed")
        self._remove_gatt()
        remove_object(self.root, self.path)
        self.obj = None
        self.temporary = True

    # Connection ----------------------------------------------------------------------------------

    def _connect(self, _call: Call):
        self.ble["connect_calls"] += 1
        attempt = self.ble["connect_calls"]
        in_progress = self.faults["in_progress_first_n"]
        if attempt <= in_progress:
            self._event("connect-refused", "InProgress")
            raise bluez_error("InProgress", "In Progress")
        if attempt <= in_progress + self.faults["connect_fail_first_n"]:
            name, message = self.faults["connect_error"].split(":", 1)
            self._event("connect-refused", name)
            raise dbus.exceptions.DBusException(message, name=name)
        if not self.adapter.powered:
            raise bluez_error("NotReady", "Resource Not Ready")
        if self.connected:
            return None
        self._cancel_temporary_timer()
        self.temporary = False
        self.connected = True
        self._generation += 1
        self._frames_this_connection = 0
        # The kernel reports the link before BlueZ answers Connect, so this signal precedes the reply.
        self._set("Connected", dbus.Boolean(True), flush=True)
        self.blufi.ble_connected(self.mtu)
        self._event("connected", None)
        generation = self._generation
        GLib.timeout_add(self.config["resolve_delay_ms"], self._resolve_services, generation)
        return None

    def _resolve_services(self, generation: int) -> bool:
        if generation != self._generation:
            return False
        if not self.gatt_objects:
            self._build_gatt()
        for item in self.gatt_objects:
            if isinstance(item, gatt.GattCharacteristic):
                item.link_up()
        uuids = list(dict.fromkeys(self.advertised_uuids + [GATT_SERVICE_UUID, BLUFI_SERVICE_UUID]))
        if list(self.obj.props[DEVICE_IFACE]["UUIDs"]) != uuids:
            self._set("UUIDs", dbus.Array(uuids, signature="s"))
        self._set("ServicesResolved", dbus.Boolean(True))
        return False

    def _build_gatt(self) -> None:
        """Generic Attribute service (as every ESP32 exposes) plus the BluFi service FFFF."""
        gatt_service = gatt.GattService(self, self.path, 0x0001, GATT_SERVICE_UUID)
        service_changed = gatt.GattCharacteristic(self, gatt_service.path, 0x0002, SERVICE_CHANGED_UUID,
                                                  ["indicate"])
        blufi_service = gatt.GattService(self, self.path, 0x0028, BLUFI_SERVICE_UUID)
        self.write_characteristic = gatt.GattCharacteristic(self, blufi_service.path, 0x0029, BLUFI_WRITE_UUID,
                                                            self.config["p2e_flags"])
        self.notify_characteristic = gatt.GattCharacteristic(self, blufi_service.path, 0x002B,
                                                             BLUFI_NOTIFY_UUID, self.config["e2p_flags"])
        self.gatt_objects = [gatt_service, service_changed,
                             gatt.GattDescriptor(self, service_changed, 0x0004, gatt.CCCD_UUID),
                             blufi_service, self.write_characteristic, self.notify_characteristic]
        if self.notify_characteristic.can_notify:
            self.gatt_objects.append(gatt.GattDescriptor(self, self.notify_characteristic, 0x002D, gatt.CCCD_UUID))
        for item in self.gatt_objects:
            item.export()

    def _remove_gatt(self) -> None:
        for item in reversed(self.gatt_objects):
            if isinstance(item, gatt.GattCharacteristic):
                item.forget()
            remove_object(self.root, item.path)
        self.gatt_objects = []
        self.write_characteristic = self.notify_characteristic = None

    def _disconnect(self, _call: Call):
        if self.connected:
            self._link_down("local")
        return None

    def force_disconnect(self) -> None:
        """Link loss seen from the central: the remote side is gone."""
        if self.connected:
            self._link_down("remote")

    def _link_down(self, reason: str) -> None:
        self.connected = False
        self._generation += 1
        for item in self.gatt_objects:
            if isinstance(item, gatt.GattCharacteristic):
                item.link_down()
        if self.obj.props[DEVICE_IFACE]["ServicesResolved"]:
            self._set("ServicesResolved", dbus.Boolean(False))
        self._set("Connected", dbus.Boolean(False))
        self.blufi.ble_disconnected()
        self._event("disconnected", reason)
        if not self.config["gatt_cache"]:
            self._remove_gatt()
            self._set("UUIDs", dbus.Array(self.advertised_uuids, signature="s"))

    def adapter_powered_off(self) -> None:
        if self.connected:
            self._link_down("adapter-off")

    # Writes from the central ---------------------------------------------------------------------

    def deliver_write(self, characteristic, value: bytes, call: Call):
        """WriteValue passed BlueZ's checks: answer (after write_latency_ms), then hand it over."""
        latency = self.config["write_latency_ms"]
        generation = self._generation
        if not latency:
            GLib.idle_add(self._frame_arrived, characteristic, value, generation)
            return None
        characteristic.write_pending = True

        def answer() -> bool:
            characteristic.write_pending = False
            if generation != self._generation:
                call.fail(bluez_error("Failed", "Not connected"))
            else:
                call.reply()
                self._frame_arrived(characteristic, value, generation)
            return False

        GLib.timeout_add(latency, answer)
        return DEFERRED

    def deliver_command(self, characteristic, value: bytes) -> None:
        """A datagram from an AcquireWrite socket (write without response)."""
        self._frame_arrived(characteristic, value, self._generation)

    def subscription_changed(self) -> None:
        self._save_record()

    def _frame_arrived(self, characteristic, value: bytes, generation: int) -> bool:
        if generation != self._generation or characteristic is not self.write_characteristic:
            return False
        self.ble["writes"] += 1
        self._frames_this_connection += 1
        loss_at = self.faults["link_loss_at_frame"]
        if loss_at and not self._link_loss_done and self._frames_this_connection == loss_at:
            self._link_loss_done = True
            self._suppress_notifications = True
            self.blufi.receive(value)
            self._suppress_notifications = False
            self._link_down("link-loss")
        else:
            self.blufi.receive(value)
        self._save_record()
        return False

    # DeviceLink for the BluFi model ---------------------------------------------------------------

    def notify(self, value: bytes) -> None:
        if not self.connected or self._suppress_notifications or self.notify_characteristic is None:
            return
        self._notification_count += 1
        count = self._notification_count
        if fault_hits(self.faults["drop_notification"], count):
            self.ble["notifications_dropped"].append({"index": count, "value": value.hex()})
            return
        if fault_hits(self.faults["corrupt_notification"], count):
            value = value[:-1] + bytes([value[-1] ^ 0xFF])
            self.ble["notifications_corrupted"].append({"index": count, "value": value.hex()})
        if not self.notify_characteristic.notify(value):
            self.ble["dropped_unsubscribed"] += 1
        self._save_record()

    def disconnect(self) -> None:
        generation = self._generation

        def terminate() -> bool:
            if generation == self._generation and self.connected:
                self._link_down("device")
            return False

        GLib.timeout_add(DEVICE_DISCONNECT_DELAY_MS, terminate)

    def schedule(self, delay_ms: int, callback) -> None:
        def fire() -> bool:
            callback()
            self._save_record()
            return False

        GLib.timeout_add(delay_ms, fire)

    # Control interface and records ---------------------------------------------------------------

    def inject_notification(self, uuid: str, value: bytes) -> None:
        """org.bluez.Mock.Notify: a raw value on the characteristic with this UUID."""
        target = next((item for item in self.gatt_objects
                       if isinstance(item, gatt.GattCharacteristic) and item.uuid == uuid128(uuid)), None)
        if target is None or not target.notify(value):
            raise bluez_error("Failed", f"{uuid} on {self.address} is not subscribed")

    def watch_client(self, sender: str, on_gone):
        """Calls on_gone once when the D-Bus client `sender` leaves the bus; returns a cancellable."""
        return self.root.connection.watch_name_owner(sender, lambda owner: owner or on_gone())

    def received(self) -> dict:
        return {"source": "blufi", "address": self.address, "adapter": self.adapter.name,
                "name": self.config["name"], "ble": self.ble, **self.blufi.record}

    def _event(self, kind: str, detail) -> None:
        self.ble["events"].append({"event": kind, "detail": detail})
        self._save_record()

    def _save_record(self) -> None:
        """Writes the record file once the current burst of activity is over."""
        if self._record_path is None or self._record_pending:
            return
        self._record_pending = True

        def write() -> bool:
            self._record_pending = False
            temporary = self._record_path + ".tmp"
            with open(temporary, "w", encoding="utf-8") as handle:
                json.dump(self.received(), handle, indent=1)
            os.replace(temporary, self._record_path)
            return False

        GLib.idle_add(write)
