"""One adapter's view of an emulated BLE peripheral: its Device1 object and GATT tree.

The peripheral itself (BluFi model, link, faults, record) is bluez_peripheral.EmulatedPeripheral;
a device heard by several adapters has one view per adapter, /org/bluez/hciN/dev_…, as in BlueZ.

Shapes follow BlueZ 5.66 (src/device.c, src/gatt-client.c):
- the object appears with InterfacesAdded when first seen in a discovery; a known device gets RSSI
  PropertiesChanged instead; RSSI is invalidated when discovery stops; a never-connected device is
  removed TemporaryTimeout after discovery stops;
- Connect replies once the link is up (before ServicesResolved); the GATT tree appears after
  resolve_delay_ms, then ServicesResolved turns true; Connect on a connected device succeeds;
  Disconnect on an unconnected one too; Connect while another adapter holds the peripheral's link
  waits for it to advertise again (bluez_peripheral.py); Connect while any client discovers on the
  adapter takes connect_while_discovering_ms, or fails after connect_timeout_ms when that is not
  shorter (scenario.py), and Disconnect cancels such a pending Connect;
  with objects_after_resolved_ms the first connection's ServicesResolved comes that long before the GATT
  objects' InterfacesAdded, as bluetoothd's per-object signal batching can order them (gdbus/object.c),
  unless a method call comes first: gdbus sends every signal it holds before any reply, so objects held
  back are sent before the mock handles the next call (send_held_back_objects);
- on disconnect: acquired sockets are shut, ServicesResolved then Connected turn false, and with the
  default GATT cache the GATT objects stay exported (calls on them fail with "Not connected");
  StartNotify sessions survive and are active again after the next connection.

Faults (scenario "faults", counted per peripheral): the first in_progress_first_n Connect calls fail with InProgress, the next
connect_fail_first_n with connect_error; link_loss_at_frame=n: the n-th frame written in a connection
is acknowledged and reaches the device, then the link drops before any answer (once per device);
drop_notification / corrupt_notification = n or [n, …]: the n-th notification of the device's life
is lost / has its last byte inverted; write_latency_ms delays each write's reply (a GLib timer, so
devices on several adapters progress concurrently), and with handles_before_answering the device acts on
a frame before that reply (as a DISCONNECT_BLE that closes the link first); with works_during_latency the
device handles a frame as it arrives, inside the modeled latency, and its notifications wait for the reply
(a firmware's work overlaps the link's connection events; what it sends follows the write), while its
timers still count from the reply, as without it. A write still unanswered
when the link drops fails with ATT 0x0E, as bluetoothd fails requests in flight (src/shared/att.c).

Pairing (src/device.c pair_device, cancel_pairing; doc/device-api.txt): Pair connects first if needed,
uses the caller's agent or the default one, and with neither the NoInputNoOutput capability (so
"Just Works" needs no agent, as in 5.66's code; pairing.agent_required models the documented rule
"fails without an agent" with AuthenticationFailed). In progress → InProgress, already bonded →
AlreadyExists, the peer refusing → AuthenticationFailed, a disconnect meanwhile or CancelPairing →
AuthenticationCanceled; CancelPairing with nothing in progress → DoesNotExist. Success sets Paired
(and Bonded when the peer bonds) and encrypts the link; a bonded device's link is encrypted again on
the first protected access of a later connection; RemoveDevice forgets the bond. A protocomm device
with pairing.required refuses endpoint access on an unencrypted link with ATT 0x05, which 5.66
reports as NotPermitted "Not paired" (src/gatt-client.c), unless pairing.auto_pair_on_access: then
bluetoothd raises the link's security itself (src/shared/att.c change_security) and pairs, as the lab
shows with Linux 6.1. A device refusing that pairing drops the link and the access fails with "Operation
failed with ATT error: 0x0e". With pairing.auto_pair_needs_agent the kernel asks user space to confirm
the Just Works pairing, bluetoothd asks only the default agent (src/device.c device_confirm_passkey,
new_auth), and without one the pairing fails and the access is never answered (the kernel keeps the ATT
channel suspended) until a later pairing succeeds, which runs it, or the link drops, which fails it. An
explicit Pair confirms by itself.
"""

import time

import dbus
import dbus.lowlevel
from gi.repository import GLib

from . import bluez_gatt as gatt
from . import precise_timers
from .dbus_export import (DEFERRED, Call, add_object, bluez_error, byte_array, emit_properties_changed,
                          export_method, install_property_access, remove_object)
from .discovery_filter import uuid128
from .echo_device import CHARACTERISTIC_UUID as ECHO_CHARACTERISTIC_UUID
from .echo_device import SERVICE_UUID as ECHO_SERVICE_UUID
from .improv_device import (CAPABILITIES_UUID, ERROR_UUID, RPC_COMMAND_UUID, RPC_RESULT_UUID, STATE_UUID)
from .improv_device import SERVICE_UUID as IMPROV_SERVICE_UUID
from .protocomm_ble_device import PairingConfig

DEVICE_IFACE = "org.bluez.Device1"
# What bluetoothd answers a request in flight when the link drops (no ATT response: BT_ATT_ERROR_UNLIKELY).
LINK_DROPPED_UNDER_ACCESS = "Operation failed with ATT error: 0x0e"
GATT_SERVICE_UUID = "00001801-0000-1000-8000-00805f9b34fb"
SERVICE_CHANGED_UUID = "00002a05-0000-1000-8000-00805f9b34fb"
_held_back: dict[int, tuple[int, "EmulatedDevice", int]] = {}
"""GATT trees exported but not yet announced (objects_after_resolved_ms): the timer, the view, its generation."""
BLUFI_SERVICE_UUID = "0000ffff-0000-1000-8000-00805f9b34fb"
BLUFI_WRITE_UUID = "0000ff01-0000-1000-8000-00805f9b34fb"
BLUFI_NOTIFY_UUID = "0000ff02-0000-1000-8000-00805f9b34fb"


def dict_of_bytes(values: dict, key_type, signature: str) -> dbus.Dictionary:
    return dbus.Dictionary({key_type(k): byte_array(bytes.fromhex(v)) for k, v in values.items()},
                           signature=signature)


def send_held_back_objects(_connection, message) -> int:
    """A message filter on the mock's connection: before a method call is handled, the GATT trees held back
    after ServicesResolved are announced, as gdbus sends the signals it holds before any reply
    (gdbus/object.c g_dbus_send_message)."""
    if isinstance(message, dbus.lowlevel.MethodCallMessage):
        for timer, device, generation in list(_held_back.values()):
            GLib.source_remove(timer)
            device._export_gatt(generation)
    return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED


class EmulatedDevice:
    def __init__(self, root, adapter, peripheral):
        self.root = root
        self.adapter = adapter
        self.peripheral = peripheral
        self.config = peripheral.config
        self.address = peripheral.address
        self.path = f"{adapter.path}/dev_{self.address.replace(':', '_')}"
        self.mtu = peripheral.mtu
        self.advertised_uuids = [uuid128(u) for u in self.config["uuids"]]
        self.obj = None
        self.temporary = not self.config["cached"]
        self.gatt_objects: list = []
        self._pending_connect: tuple | None = None
        self.write_characteristic = None
        self.notify_characteristic = None
        self.generation = 0
        self.paired = False
        self.bonded = False
        self.encrypted = False
        self._pairing = None
        self._stalled = []
        self._temporary_timer = None
        peripheral.views.append(self)
        if self.config["cached"]:
            self._export(with_rssi=False)

    @property
    def connected(self) -> bool:
        return self.peripheral.holder is self

    # Device1 object ------------------------------------------------------------------------------

    def _props(self, with_rssi: bool) -> dict:
        name = self.config["name"]
        props = {
            "Address": dbus.String(self.address),
            "AddressType": dbus.String(self.config["address_type"]),
            "Alias": dbus.String(name or self.address.replace(":", "-")),
            "Paired": dbus.Boolean(self.paired), "Bonded": dbus.Boolean(self.bonded),
            "Trusted": dbus.Boolean(False), "Blocked": dbus.Boolean(False),
            "LegacyPairing": dbus.Boolean(False), "Connected": dbus.Boolean(False),
            "UUIDs": dbus.Array(self.advertised_uuids, signature="s"),
            "Adapter": dbus.ObjectPath(self.adapter.path),
            "ServicesResolved": dbus.Boolean(False),
        }
        if name:
            props["Name"] = dbus.String(name)
        if with_rssi:
            props["RSSI"] = dbus.Int16(self.rssi)
        if self.config["manufacturer"]:
            props["ManufacturerData"] = dict_of_bytes(self.config["manufacturer"], lambda k: dbus.UInt16(int(k)),
                                                      "qv")
        if service_data := self.peripheral.service_data():
            props["ServiceData"] = dict_of_bytes(service_data, lambda k: dbus.String(uuid128(k)), "sv")
        return props

    def service_data_changed(self) -> None:
        """The device advertises new service data (an Improv state change); BlueZ updates ServiceData."""
        if self.exported and (service_data := self.peripheral.service_data()):
            self._set("ServiceData", dict_of_bytes(service_data, lambda k: dbus.String(uuid128(k)), "sv"))

    def _export(self, with_rssi: bool) -> None:
        self.obj = add_object(self.root, self.path, DEVICE_IFACE, self._props(with_rssi))
        install_property_access(self.obj, {DEVICE_IFACE: {"Alias", "Trusted", "Blocked"}}, self._on_set)
        export_method(self.obj, DEVICE_IFACE, "Connect", "", "", self._connect)
        export_method(self.obj, DEVICE_IFACE, "Disconnect", "", "", self._disconnect)
        export_method(self.obj, DEVICE_IFACE, "Pair", "", "", self._pair)
        export_method(self.obj, DEVICE_IFACE, "CancelPairing", "", "", self._cancel_pairing)

    @property
    def exported(self) -> bool:
        return self.obj is not None

    def _set(self, name: str, value, flush: bool = False) -> None:
        self.obj.props[DEVICE_IFACE][name] = value
        emit_properties_changed(self.obj, DEVICE_IFACE, {name: value}, flush=flush)

    def _on_set(self, _interface: str, name: str, value) -> None:
        self._set(name, value)

    # Discovery -----------------------------------------------------------------------------------

    @property
    def rssi(self) -> int:
        """The strength this adapter hears the device at: one number, or one per adapter name."""
        rssi = self.config["rssi"]
        return rssi[self.adapter.name] if isinstance(rssi, dict) else rssi

    def visible_to(self, discovery_filter) -> bool:
        return discovery_filter is None or discovery_filter.matches(
            self.address, self.config["name"], self.advertised_uuids, self.rssi)

    def advertise(self, filtered: bool) -> None:
        """One advertisement was received during discovery (the adapter checked the filters)."""
        self._cancel_temporary_timer()
        if not self.exported:
            self._export(with_rssi=True)
        elif filtered or "RSSI" not in self.obj.props[DEVICE_IFACE]:
            # Filtered discovery reports every RSSI; otherwise only a change (here: from "none").
            self._set("RSSI", dbus.Int16(self.rssi))

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
            self.link_down("removed")
        self._remove_gatt()
        remove_object(self.root, self.path)
        self.obj = None
        self.temporary = True
        if self.bonded or self.paired:
            self.peripheral.event("bond-removed", self.adapter.name)
        self.paired = self.bonded = False

    # Connection ----------------------------------------------------------------------------------

    def _connect(self, call: Call):
        self.peripheral.check_connect_faults()
        if not self.adapter.powered:
            raise bluez_error("NotReady", "Resource Not Ready")
        if self.connected:
            return None
        if self._pending_connect is not None:
            raise bluez_error("InProgress", "In Progress")
        if self.adapter.discovering and self.peripheral.connect_while_discovering_ms > 0:
            self._connect_while_discovering(call)
            return DEFERRED
        if not self.peripheral.advertising:
            self.peripheral.wait_for_advertising(self, call)
            return DEFERRED
        self.link_up()
        return None

    def _connect_while_discovering(self, call: Call) -> None:
        """The kernel interrupts the adapter's scan to create the connection and bluetoothd restarts the
        discovery its clients still hold on a timer of its own: the Connect settles late, or times out."""
        delay = self.peripheral.connect_while_discovering_ms
        timeout = self.peripheral.connect_timeout_ms
        self.peripheral.event("connect-while-discovering", self.adapter.name)

        def settle() -> bool:
            self._pending_connect = None
            if delay >= timeout:
                self.peripheral.event("connect-timeout", self.adapter.name)
                call.fail(bluez_error("Failed", "le-connection-abort-by-local"))
            elif not self.adapter.powered or not self.exported:
                call.fail(bluez_error("NotReady", "Resource Not Ready"))
            elif self.connected:
                call.reply()
            elif self.peripheral.advertising:
                self.link_up()
                call.reply()
            else:
                self.peripheral.wait_for_advertising(self, call)
            return False

        self._pending_connect = (GLib.timeout_add(min(delay, timeout), settle), call)

    def _cancel_pending_connect(self) -> None:
        if self._pending_connect is None:
            return
        timer, call = self._pending_connect
        self._pending_connect = None
        GLib.source_remove(timer)
        call.fail(bluez_error("Failed", "le-connection-abort-by-local"))

    def link_up(self) -> None:
        """This adapter takes the peripheral's link."""
        self._cancel_temporary_timer()
        self.temporary = False
        self.generation += 1
        self.peripheral.holder = self
        # The kernel reports the link before BlueZ answers Connect, so this signal precedes the reply.
        self._set("Connected", dbus.Boolean(True), flush=True)
        self.peripheral.attached(self)
        precise_timers.timeout_add(self.config["resolve_delay_ms"], self._resolve_services, self.generation)

    def _resolve_services(self, generation: int) -> bool:
        if generation != self.generation:
            return False
        late = self.config["objects_after_resolved_ms"]
        if not self.gatt_objects and late:
            self._announce_resolved()
            _held_back[id(self)] = (GLib.timeout_add(late, self._export_gatt, generation), self, generation)
            return False
        self._export_gatt(generation)
        self._announce_resolved()
        return False

    def _export_gatt(self, generation: int) -> bool:
        _held_back.pop(id(self), None)
        if generation != self.generation:
            return False
        if not self.gatt_objects:
            self._build_gatt()
        for item in self.gatt_objects:
            if isinstance(item, gatt.GattCharacteristic):
                item.link_up()
        return False

    def _announce_resolved(self) -> None:
        service_uuid = (self.peripheral.protocomm_ble.config.service_uuid if self.peripheral.protocomm_ble
                        else IMPROV_SERVICE_UUID if self.peripheral.improv
                        else ECHO_SERVICE_UUID if self.peripheral.echo else BLUFI_SERVICE_UUID)
        uuids = list(dict.fromkeys(self.advertised_uuids + [GATT_SERVICE_UUID, service_uuid]))
        if list(self.obj.props[DEVICE_IFACE]["UUIDs"]) != uuids:
            self._set("UUIDs", dbus.Array(uuids, signature="s"))
        self._set("ServicesResolved", dbus.Boolean(True))

    def _build_gatt(self) -> None:
        """Generic Attribute service (as every ESP32 exposes) plus the BluFi service FFFF or Improv's."""
        gatt_service = gatt.GattService(self, self.path, 0x0001, GATT_SERVICE_UUID)
        service_changed = gatt.GattCharacteristic(self, gatt_service.path, 0x0002, SERVICE_CHANGED_UUID,
                                                  ["indicate"])
        if self.peripheral.improv:
            self._build_improv_gatt([gatt_service, service_changed,
                                     gatt.GattDescriptor(self, service_changed, 0x0004, gatt.CCCD_UUID)])
            return
        if self.peripheral.echo:
            self._build_echo_gatt([gatt_service, service_changed,
                                   gatt.GattDescriptor(self, service_changed, 0x0004, gatt.CCCD_UUID)])
            return
        if self.peripheral.protocomm_ble:
            self._build_protocomm_gatt([gatt_service, service_changed,
                                        gatt.GattDescriptor(self, service_changed, 0x0004, gatt.CCCD_UUID)])
            return
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

    def _build_improv_gatt(self, objects: list) -> None:
        """The Improv service: state, error and RPC result notify; commands are written with response."""
        service = gatt.GattService(self, self.path, 0x0028, IMPROV_SERVICE_UUID)
        objects.append(service)
        handle = 0x0029
        for uuid, flags in ((CAPABILITIES_UUID, ["read"]), (STATE_UUID, ["read", "notify"]),
                            (ERROR_UUID, ["read", "notify"]), (RPC_COMMAND_UUID, ["write"]),
                            (RPC_RESULT_UUID, ["read", "notify"])):
            characteristic = gatt.GattCharacteristic(self, service.path, handle, uuid, flags,
                                                     self.peripheral.values.get(uuid, b""))
            objects.append(characteristic)
            if characteristic.can_notify:
                objects.append(gatt.GattDescriptor(self, characteristic, handle + 2, gatt.CCCD_UUID))
            handle += 3
        self.write_characteristic = next(o for o in objects if getattr(o, "uuid", None) == RPC_COMMAND_UUID
                                         and isinstance(o, gatt.GattCharacteristic))
        self.notify_characteristic = next(o for o in objects if getattr(o, "uuid", None) == RPC_RESULT_UUID
                                          and isinstance(o, gatt.GattCharacteristic))
        self.gatt_objects = objects
        for item in self.gatt_objects:
            item.export()

    def _build_echo_gatt(self, objects: list) -> None:
        """The echo service: one characteristic that reads back what was written."""
        service = gatt.GattService(self, self.path, 0x0028, ECHO_SERVICE_UUID)
        self.write_characteristic = gatt.GattCharacteristic(self, service.path, 0x0029, ECHO_CHARACTERISTIC_UUID,
                                                            ["read", "write"], self.peripheral.values.get(
                                                                ECHO_CHARACTERISTIC_UUID, b""))
        self.gatt_objects = objects + [service, self.write_characteristic]
        for item in self.gatt_objects:
            item.export()

    def _build_protocomm_gatt(self, objects: list) -> None:
        """The provisioning service: one read/write characteristic per endpoint, each named by 0x2901."""
        model = self.peripheral.protocomm_ble
        service = gatt.GattService(self, self.path, 0x0028, model.config.service_uuid)
        objects.append(service)
        handle = 0x0029
        for name, _ in model.endpoints:
            characteristic = gatt.GattCharacteristic(
                self, service.path, handle, model.uuid_of(name), ["read", "write"], model.read(name),
                long_values=True, guard=self._protected_access,
                on_read=lambda offset, length, pdus, name=name: model.note_read(name, offset, length, pdus))
            characteristic.endpoint = name
            objects.append(characteristic)
            if model.config.user_descriptions:
                objects.append(gatt.GattDescriptor(self, characteristic, handle + 2, gatt.USER_DESCRIPTION_UUID,
                                                   name.encode()))
            handle += 3
        self.gatt_objects = objects
        for item in self.gatt_objects:
            item.export()

    def characteristic_changed(self, uuid: str, value: bytes) -> bool:
        """Improv: keep the value for reads and notify it; False if nobody is subscribed."""
        target = next((item for item in self.gatt_objects
                       if isinstance(item, gatt.GattCharacteristic) and item.uuid == uuid), None)
        if target is None:
            return False
        target.read_value = value
        return target.notify(value)

    def _remove_gatt(self) -> None:
        for item in reversed(self.gatt_objects):
            if isinstance(item, gatt.GattCharacteristic):
                item.forget()
            remove_object(self.root, item.path)
        self.gatt_objects = []
        self.write_characteristic = self.notify_characteristic = None

    def _disconnect(self, _call: Call):
        self._cancel_pending_connect()
        if self.connected:
            self.link_down("local")
        return None

    def force_disconnect(self) -> None:
        """Link loss seen from the central: the remote side is gone."""
        if self.connected:
            self.link_down("remote")

    def link_down(self, reason: str) -> None:
        self.peripheral.holder = None
        self.generation += 1
        self.encrypted = False
        if self._pairing is not None:
            self._finish_pairing(bluez_error("AuthenticationCanceled", "Authentication Canceled"))
        self._fail_stalled()
        if self.paired and not self.bonded:
            # Keys of a pairing without bonding die with the link (device_remove_connection).
            self.paired = False
            self._set("Paired", dbus.Boolean(False))
        for item in self.gatt_objects:
            if isinstance(item, gatt.GattCharacteristic):
                item.link_down()
        if self.obj.props[DEVICE_IFACE]["ServicesResolved"]:
            self._set("ServicesResolved", dbus.Boolean(False))
        self._set("Connected", dbus.Boolean(False))
        if not self.config["gatt_cache"]:
            self._remove_gatt()
            self._set("UUIDs", dbus.Array(self.advertised_uuids, signature="s"))
        self.peripheral.detached(reason)

    def adapter_powered_off(self) -> None:
        if self.connected:
            self.link_down("adapter-off")

    # Writes from the central ---------------------------------------------------------------------

    def deliver_write(self, characteristic, value: bytes, call: Call):
        """WriteValue passed BlueZ's checks: answer (after write_latency_ms), then hand it over."""
        if self.peripheral.protocomm_ble:
            return self._protocomm_write(characteristic, value, call)
        if self.peripheral.echo:
            self.peripheral.frame_arrived(self, value)
            return None
        latency = self.config["write_latency_ms"]
        generation = self.generation
        if not latency:
            GLib.idle_add(self._frame_arrived, characteristic, value, generation)
            return None
        if self.config["handles_before_answering"]:
            GLib.idle_add(self._frame_arrived, characteristic, value, generation)
            return self._answer_later(characteristic, call, latency)
        if self.config["works_during_latency"]:
            # The answer's timer starts first, so the device's own work runs inside the modeled latency.
            answer = self._answer_later(characteristic, call, latency, then=self.peripheral.release_notifications,
                                        failed=self.peripheral.discard_notifications)
            self.peripheral.hold_notifications(latency)
            self._frame_arrived(characteristic, value, generation)
            return answer
        return self._answer_later(characteristic, call, latency,
                                  then=lambda: self._frame_arrived(characteristic, value, generation))

    def deliver_command(self, characteristic, value: bytes) -> None:
        """A datagram from an AcquireWrite socket (write without response)."""
        self._frame_arrived(characteristic, value, self.generation)

    def subscription_changed(self) -> None:
        self.peripheral.save_record()

    def _frame_arrived(self, characteristic, value: bytes, generation: int) -> bool:
        if generation != self.generation or characteristic is not self.write_characteristic:
            return False
        self.peripheral.frame_arrived(self, value)
        return False

    def _protocomm_write(self, characteristic, value: bytes, call: Call):
        """The device answers the write only after protocomm handled it (a blocking scan holds it)."""
        pdus = gatt.write_pdus(len(value), 0, self.mtu)
        outcome = self.peripheral.protocomm_write(characteristic.endpoint, value, pdus)
        if isinstance(outcome, int):
            if self.peripheral.protocomm_ble.config.ble_stack == "bluedroid":
                # The device closes the link unanswered; BlueZ fails the pending write without an ATT code.
                self.peripheral.disconnect()
                raise bluez_error("Failed", "Operation failed")
            raise bluez_error("Failed", f"Operation failed with ATT error: 0x{outcome:02x}")
        if outcome is not None:
            characteristic.read_value = outcome.body
        delay = self.config["write_latency_ms"] + (outcome.delay_ms if outcome is not None else 0)
        if not delay:
            return None
        return self._answer_later(characteristic, call, delay)

    def _answer_later(self, characteristic, call: Call, delay_ms: int, then=None, failed=None):
        """Answers a write BlueZ holds `delay_ms` after it reached the mock, then runs `then`; a link dropped
        meanwhile fails the write as bluetoothd does, then runs `failed`. The mock's own handling of the call
        (its log line, the device's checks) falls inside the delay, as a controller's does."""
        characteristic.write_pending = True
        generation = self.generation

        def answer() -> bool:
            characteristic.write_pending = False
            if generation != self.generation:
                call.fail(bluez_error("Failed", LINK_DROPPED_UNDER_ACCESS))
                if failed is not None:
                    failed()
            else:
                call.reply()
                if then is not None:
                    then()
            return False

        handled_ms = (time.monotonic_ns() - call.arrived_ns) / 1_000_000 if call.arrived_ns else 0
        precise_timers.timeout_add(delay_ms - handled_ms, answer)
        return DEFERRED

    # Pairing -------------------------------------------------------------------------------------

    @property
    def pairing_config(self) -> PairingConfig:
        model = self.peripheral.protocomm_ble
        return model.config.pairing_config if model else PairingConfig()

    def _protected_access(self, operation: str) -> None:
        """An endpoint read/write on a device that forces link encryption."""
        config = self.pairing_config
        if not config.required or self.encrypted:
            return
        if self.bonded:
            self.encrypted = True
            self.peripheral.event("encrypted-with-bond", self.adapter.name)
            return
        if config.auto_pair_on_access:
            default_agent = self.adapter.agents.capability_for(None) is not None
            if not config.accept:
                self.peripheral.event("auto-pair-failed", {"operation": operation, "reason": "refused"})
                GLib.idle_add(lambda: self.force_disconnect() and False)
                raise bluez_error("Failed", "Operation failed with ATT error: 0x0e")
            if default_agent or not (config.agent_required or config.auto_pair_needs_agent):
                self._paired(config, "on-access")
                return
            self.peripheral.event("auto-pair-failed", {"operation": operation, "reason": "no default agent"})
            raise gatt.AccessStalled()
        self.peripheral.event("access-refused", {"operation": operation, "att_error": 0x05})
        raise bluez_error("NotPermitted", "Not paired")

    def stall(self, call: Call, again) -> object:
        """Holds an access bluetoothd's failed pairing left unanswered; `again` runs it once the link is encrypted."""
        self._stalled.append((call, again))
        return DEFERRED

    def _run_stalled(self) -> None:
        stalled, self._stalled = self._stalled, []
        for call, again in stalled:
            try:
                result = again()
            except dbus.exceptions.DBusException as error:
                call.fail(error)
                continue
            if result is not DEFERRED:
                call.reply(*(result or ()))

    def _fail_stalled(self) -> None:
        stalled, self._stalled = self._stalled, []
        for call, _ in stalled:
            call.fail(bluez_error("Failed", "Not connected"))

    def _pair(self, call: Call):
        if self._pairing is not None:
            raise bluez_error("InProgress", "In Progress")
        if self.bonded or self.paired:
            raise bluez_error("AlreadyExists", "Already Exists")
        self.temporary = False
        self._cancel_temporary_timer()
        capability = self.adapter.agents.capability_for(call.sender)
        self.peripheral.event("pair-requested", {"adapter": self.adapter.name,
                                                 "io_capability": capability or "NoInputNoOutput"})
        if not self.connected:
            if not self.peripheral.advertising or not self.adapter.powered:
                raise bluez_error("ConnectionAttemptFailed", "Page Timeout")
            self.link_up()
        config = self.pairing_config
        self._pairing = (call, GLib.timeout_add(config.pair_delay_ms, self._pairing_done, capability))
        return DEFERRED

    def _pairing_done(self, capability) -> bool:
        config = self.pairing_config
        if self._pairing is None:
            return False
        self._pairing = (self._pairing[0], None)
        if not config.accept or (capability is None and config.agent_required):
            self.peripheral.event("pair-failed", "refused by the device" if not config.accept else "no agent")
            self._finish_pairing(bluez_error("AuthenticationFailed", "Authentication Failed"))
        else:
            self._paired(config, "pair")
            self._finish_pairing(None)
        return False

    def _finish_pairing(self, error) -> None:
        call, timer = self._pairing
        self._pairing = None
        if timer is not None:
            GLib.source_remove(timer)
        if error is None:
            call.reply()
        else:
            call.fail(error)

    def _cancel_pairing(self, _call: Call):
        if self._pairing is None:
            raise bluez_error("DoesNotExist", "Does Not Exist")
        self.peripheral.event("pair-canceled", self.adapter.name)
        self._finish_pairing(bluez_error("AuthenticationCanceled", "Authentication Canceled"))
        return None

    def _paired(self, config: PairingConfig, how: str) -> None:
        self.encrypted = True
        self.paired = True
        self._set("Paired", dbus.Boolean(True))
        if config.bonding:
            self.bonded = True
            self._set("Bonded", dbus.Boolean(True))
        self.peripheral.event("paired", {"adapter": self.adapter.name, "how": how, "bonded": config.bonding})
        GLib.idle_add(lambda: self._run_stalled() and False)

    # Control interface ---------------------------------------------------------------------------

    def inject_notification(self, uuid: str, value: bytes) -> None:
        """org.bluez.Mock.Notify: a raw value on the characteristic with this UUID."""
        target = next((item for item in self.gatt_objects
                       if isinstance(item, gatt.GattCharacteristic) and item.uuid == uuid128(uuid)), None)
        if target is None or not target.notify(value):
            raise bluez_error("Failed", f"{uuid} on {self.address} is not subscribed")

    def watch_client(self, sender: str, on_gone):
        """Calls on_gone once when the D-Bus client `sender` leaves the bus; returns a cancellable."""
        return self.root.connection.watch_name_owner(sender, lambda owner: owner or on_gone())
