"""GATT objects of an emulated peripheral as BlueZ 5.66 exports them (src/gatt-client.c).

Characteristics implement ReadValue, WriteValue (write-type rules, MTU limit), StartNotify/StopNotify
with one session per D-Bus client, and AcquireWrite/AcquireNotify with real SOCK_SEQPACKET file
descriptors. Deviations from 5.66, on purpose, so that a client's choice of write is checked: a
`command` write to a characteristic without write-without-response is NotSupported (5.66 sends it
anyway), and a value longer than MTU−3 is InvalidValueLength (5.66 would fall back to a long write).
A characteristic made with long_values=True behaves as 5.66 does instead: a request write longer
than MTU−3, or with an `offset`, is a long write (Prepare Write PDUs of MTU−5 bytes, then Execute),
and ReadValue is a long read (Read, then Read Blob while a PDU comes back full) of at most 512 bytes
(src/gatt-client.c, src/shared/gatt-client.c); the peer refuses a long write that does not start at
offset 0 or exceeds 512 bytes, which BlueZ reports as InvalidArguments "Invalid offset" / "Invalid
Length". Its `guard(operation)` may refuse an access as the peer would (e.g. "Not paired"), or raise
AccessStalled: the owner then holds the call unanswered (`owner.stall`) and may run it again later.

The owner (bluez_device.EmulatedDevice) provides `connected`, `mtu`, `root`, `deliver_write()`,
`deliver_command()`, `watch_client()` and `subscription_changed()`.

Like 5.66, a characteristic has an `MTU` property only while the link is up, and it comes and goes
without a PropertiesChanged: a client that kept the tree from before a quick reconnect sees no MTU
there, while Properties.Get on the connected object answers the link's MTU.
"""

import socket

import dbus
from gi.repository import GLib

from .dbus_export import (Call, add_object, bluez_error, byte_array, emit_properties_changed, export_method,
                          install_property_access)

SERVICE_IFACE = "org.bluez.GattService1"
CHARACTERISTIC_IFACE = "org.bluez.GattCharacteristic1"
DESCRIPTOR_IFACE = "org.bluez.GattDescriptor1"
CCCD_UUID = "00002902-0000-1000-8000-00805f9b34fb"
READ_BUFFER = 512
ATT_MAX_VALUE = 512
USER_DESCRIPTION_UUID = "00002901-0000-1000-8000-00805f9b34fb"


def write_pdus(length: int, offset: int, mtu: int) -> int:
    """ATT PDUs a request write takes: one Write Request, or Prepare Writes plus one Execute."""
    if length <= mtu - 3 and not offset:
        return 1
    return max(1, -(-length // (mtu - 5))) + 1


def read_pdus(length: int, mtu: int) -> int:
    """ATT PDUs of a long read: the first Read, then a Read Blob after every full answer."""
    return length // (mtu - 1) + 1


def parse_options(options: dict) -> tuple[int, str | None]:
    """The `offset` (must be q) and `type` (must be s) options; other keys are ignored like 5.66."""
    offset, kind = 0, None
    for key, value in options.items():
        if key.lower() == "offset":
            if not isinstance(value, dbus.UInt16):
                raise bluez_error("InvalidArguments", "Invalid arguments in method call")
            offset = int(value)
        elif key.lower() == "type":
            if not isinstance(value, dbus.String):
                raise bluez_error("InvalidArguments", "Invalid arguments in method call")
            kind = str(value)
    return offset, kind



class AccessStalled(Exception):
    """Raised by a guard: the access waits unanswered until its owner runs it again or the link drops."""

class GattService:
    def __init__(self, owner, device_path: str, handle: int, uuid: str):
        self.owner = owner
        self.path = f"{device_path}/service{handle:04x}"
        self.props = {"UUID": dbus.String(uuid), "Device": dbus.ObjectPath(device_path),
                      "Primary": dbus.Boolean(True), "Includes": dbus.Array([], signature="o")}
        self.obj = None

    def export(self) -> None:
        self.obj = add_object(self.owner.root, self.path, SERVICE_IFACE, self.props)
        install_property_access(self.obj, {}, None)


class GattCharacteristic:
    """One characteristic with its notify sessions and acquired sockets."""

    def __init__(self, owner, service_path: str, handle: int, uuid: str, flags: list[str],
                 read_value: bytes = b"\x00", long_values: bool = False, guard=None, on_read=None):
        self.owner = owner
        self.path = f"{service_path}/char{handle:04x}"
        self.service_path = service_path
        self.uuid = uuid
        self.flags = list(flags)
        self.read_value = read_value
        self.notify_clients: dict[str, object] = {}
        self.notify_socket: socket.socket | None = None
        self.write_socket: socket.socket | None = None
        self._watches: dict[int, int] = {}
        self.write_pending = False
        self.sessions_registered = False
        self.long_values = long_values
        self.guard = guard
        self.on_read = on_read
        self.obj = None

    @property
    def can_notify(self) -> bool:
        return "notify" in self.flags or "indicate" in self.flags

    def initial_props(self) -> dict:
        props = {"UUID": dbus.String(self.uuid), "Service": dbus.ObjectPath(self.service_path),
                 "Flags": dbus.Array(self.flags, signature="s"), "MTU": dbus.UInt16(self.owner.mtu)}
        if self.can_notify:
            props["Notifying"] = dbus.Boolean(False)
        if "write-without-response" in self.flags:
            props["WriteAcquired"] = dbus.Boolean(False)
        if "notify" in self.flags:
            props["NotifyAcquired"] = dbus.Boolean(False)
        return props

    def export(self) -> None:
        self.obj = add_object(self.owner.root, self.path, CHARACTERISTIC_IFACE, self.initial_props())
        install_property_access(self.obj, {}, None)
        for name, in_sig, out_sig, implementation in (
                ("ReadValue", "a{sv}", "ay", self._read_value),
                ("WriteValue", "aya{sv}", "", self._write_value),
                ("StartNotify", "", "", self._start_notify),
                ("StopNotify", "", "", self._stop_notify),
                ("AcquireWrite", "a{sv}", "hq", self._acquire_write),
                ("AcquireNotify", "a{sv}", "hq", self._acquire_notify)):
            export_method(self.obj, CHARACTERISTIC_IFACE, name, in_sig, out_sig, implementation)

    def _set(self, name: str, value) -> None:
        self.obj.props[CHARACTERISTIC_IFACE][name] = value
        emit_properties_changed(self.obj, CHARACTERISTIC_IFACE, {name: value}, flush=name == "Value")

    def _require_connection(self) -> None:
        if not self.owner.connected:
            raise bluez_error("Failed", "Not connected")

    # Reads and writes ----------------------------------------------------------------------------

    def _read_value(self, call: Call):
        self._require_connection()
        offset, _ = parse_options(call.args[0])
        if "read" not in self.flags:
            raise bluez_error("NotPermitted", "Read not permitted")
        if self.guard is not None:
            try:
                self.guard("read")
            except AccessStalled:
                return self.owner.stall(call, lambda: self._read_value(call))
        if offset > len(self.read_value):
            raise bluez_error("InvalidArguments", "Invalid offset")
        data = self.read_value[offset:]
        if self.long_values:
            data = data[:max(0, ATT_MAX_VALUE - offset)]
            if self.on_read is not None:
                self.on_read(offset, len(data), read_pdus(len(data), self.owner.mtu))
        value = byte_array(data)
        self._set("Value", value)
        return (value,)

    def _write_value(self, call: Call):
        value, options = bytes(call.args[0]), call.args[1]
        self._require_connection()
        if self.write_socket is not None:
            raise bluez_error("NotPermitted", "Write acquired")
        if self.write_pending:
            raise bluez_error("InProgress", "In Progress")
        offset, kind = parse_options(options)
        kind = kind or ("request" if "write" in self.flags
                        else "command" if "write-without-response" in self.flags else None)
        if kind == "request" and "write" not in self.flags:
            raise bluez_error("NotPermitted", "Write not permitted")
        if kind not in ("request", "reliable", "command") or (
                kind == "command" and "write-without-response" not in self.flags):
            raise bluez_error("NotSupported", "Operation is not supported")
        if self.long_values and kind == "request":
            if self.guard is not None:
                try:
                    self.guard("write")
                except AccessStalled:
                    return self.owner.stall(call, lambda: self._write_value(call))
            if offset:
                raise bluez_error("InvalidArguments", "Invalid offset")
            if len(value) > ATT_MAX_VALUE:
                raise bluez_error("InvalidArguments", "Invalid Length")
            return self.owner.deliver_write(self, value, call)
        if offset:
            raise bluez_error("InvalidArguments", "Invalid offset")
        if kind != "reliable" and len(value) > self.owner.mtu - 3:
            raise bluez_error("InvalidValueLength",
                              f"Value of {len(value)} bytes exceeds ATT MTU {self.owner.mtu} - 3")
        return self.owner.deliver_write(self, value, call)

    # Notifications -------------------------------------------------------------------------------

    @property
    def subscribed(self) -> bool:
        """Whether the peer has notifications enabled (CCCD) on the current connection."""
        return self.owner.connected and (self.notify_socket is not None
                                         or (self.sessions_registered and bool(self.notify_clients)))

    def _start_notify(self, call: Call):
        if self.notify_socket is not None:
            raise bluez_error("NotPermitted", "Notify acquired")
        if not self.can_notify:
            raise bluez_error("NotSupported", "Operation is not supported")
        if call.sender in self.notify_clients:
            return None
        self.notify_clients[call.sender] = self.owner.watch_client(
            call.sender, lambda: self._drop_notify_client(call.sender))
        if self.owner.connected:
            self.sessions_registered = True
            if not self.obj.props[CHARACTERISTIC_IFACE]["Notifying"]:
                self._set("Notifying", dbus.Boolean(True))
        self.owner.subscription_changed()
        return None

    def _stop_notify(self, call: Call):
        if self.notify_socket is not None:
            self._release("notify")
            return None
        if call.sender not in self.notify_clients:
            raise bluez_error("Failed", "No notify session started")
        self._drop_notify_client(call.sender)
        return None

    def _drop_notify_client(self, sender: str) -> None:
        watch = self.notify_clients.pop(sender, None)
        if watch is not None:
            watch.cancel()
        if not self.notify_clients and self.obj.props[CHARACTERISTIC_IFACE].get("Notifying"):
            self._set("Notifying", dbus.Boolean(False))
        self.owner.subscription_changed()

    def notify(self, value: bytes) -> bool:
        """Hands a notification to subscribers; False if nobody has notifications enabled."""
        if not self.subscribed:
            return False
        if self.notify_socket is not None:
            try:
                self.notify_socket.send(value)
            except OSError:
                return False
            return True
        self._set("Value", byte_array(value))
        return True

    # Acquired sockets ----------------------------------------------------------------------------

    def _acquire_write(self, _call: Call):
        self._require_connection()
        if self.write_socket is not None:
            raise bluez_error("NotPermitted", "Write acquired")
        if "write-without-response" not in self.flags:
            raise bluez_error("NotSupported", "Operation is not supported")
        return self._open_socket("write")

    def _acquire_notify(self, _call: Call):
        self._require_connection()
        if self.notify_socket is not None:
            raise bluez_error("NotPermitted", "Notify acquired")
        if self.notify_clients:
            raise bluez_error("InProgress", "In Progress")
        if "notify" not in self.flags:
            raise bluez_error("NotSupported", "Operation is not supported")
        result = self._open_socket("notify")
        self.owner.subscription_changed()
        return result

    def _open_socket(self, kind: str):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        ours.setblocking(False)
        setattr(self, f"{kind}_socket", ours)
        conditions = GLib.IOCondition.HUP | GLib.IOCondition.ERR
        if kind == "write":
            conditions |= GLib.IOCondition.IN
        self._watches[ours.fileno()] = GLib.io_add_watch(
            ours.fileno(), GLib.PRIORITY_DEFAULT, conditions, self._on_socket_event, kind)
        self._set("WriteAcquired" if kind == "write" else "NotifyAcquired", dbus.Boolean(True))
        fd = dbus.types.UnixFd(theirs.fileno())
        theirs.close()
        return (fd, dbus.UInt16(self.owner.mtu))

    def _on_socket_event(self, fd: int, condition, kind: str) -> bool:
        sock = getattr(self, f"{kind}_socket")
        if sock is None or sock.fileno() != fd:
            return False
        if kind == "write" and condition & GLib.IOCondition.IN:
            # Drain first: a client that writes and closes at once shows up as IN|HUP together.
            while True:
                try:
                    value = sock.recv(READ_BUFFER)
                except BlockingIOError:
                    break
                except OSError:
                    value = b""
                if not value:
                    condition |= GLib.IOCondition.HUP
                    break
                if self.owner.connected and len(value) <= self.owner.mtu - 3:
                    self.owner.deliver_command(self, value)
        if condition & (GLib.IOCondition.HUP | GLib.IOCondition.ERR):
            self._watches.pop(fd, None)
            self._release(kind, from_watch=True)
            return False
        return True

    def _release(self, kind: str, from_watch: bool = False) -> None:
        sock = getattr(self, f"{kind}_socket")
        if sock is None:
            return
        watch = self._watches.pop(sock.fileno(), None)
        if watch is not None and not from_watch:
            GLib.source_remove(watch)
        sock.close()
        setattr(self, f"{kind}_socket", None)
        self._set("WriteAcquired" if kind == "write" else "NotifyAcquired", dbus.Boolean(False))
        if kind == "notify":
            self.owner.subscription_changed()

    def link_up(self) -> None:
        """Once the GATT client is ready after a (re)connection, BlueZ registers every StartNotify session."""
        self.sessions_registered = True
        self.obj.props[CHARACTERISTIC_IFACE]["MTU"] = dbus.UInt16(self.owner.mtu)
        if self.notify_clients and not self.obj.props[CHARACTERISTIC_IFACE]["Notifying"]:
            self._set("Notifying", dbus.Boolean(True))

    def link_down(self) -> None:
        """On disconnect BlueZ shuts acquired sockets; StartNotify sessions survive and come back."""
        self._release("write")
        self._release("notify")
        self.write_pending = False
        self.sessions_registered = False
        self.obj.props[CHARACTERISTIC_IFACE].pop("MTU", None)

    def forget(self) -> None:
        """The object goes away (RemoveDevice, or no GATT cache): end every session."""
        self.link_down()
        for watch in self.notify_clients.values():
            watch.cancel()
        self.notify_clients.clear()


class GattDescriptor:
    def __init__(self, owner, characteristic: GattCharacteristic, handle: int, uuid: str,
                 value: bytes | None = None):
        self.owner = owner
        self.characteristic = characteristic
        self.path = f"{characteristic.path}/desc{handle:04x}"
        self.uuid = uuid
        self.value = value
        self.obj = None

    def export(self) -> None:
        props = {"UUID": dbus.String(self.uuid), "Characteristic": dbus.ObjectPath(self.characteristic.path)}
        self.obj = add_object(self.owner.root, self.path, DESCRIPTOR_IFACE, props)
        install_property_access(self.obj, {}, None)
        export_method(self.obj, DESCRIPTOR_IFACE, "ReadValue", "a{sv}", "ay", self._read_value)
        export_method(self.obj, DESCRIPTOR_IFACE, "WriteValue", "aya{sv}", "", self._write_value)

    def _read_value(self, call: Call):
        if not self.owner.connected:
            raise bluez_error("Failed", "Not connected")
        offset, _ = parse_options(call.args[0])
        if self.value is not None:
            value = self.value
        else:
            value = b"\x01\x00" if self.characteristic.subscribed else b"\x00\x00"
        if offset > len(value):
            raise bluez_error("InvalidArguments", "Invalid offset")
        array = byte_array(value[offset:])
        self.obj.props[DESCRIPTOR_IFACE]["Value"] = array
        emit_properties_changed(self.obj, DESCRIPTOR_IFACE, {"Value": array})
        return (array,)

    def _write_value(self, _call: Call):
        """BlueZ refuses CCCD writes (use StartNotify); a user description is read-only on the peer."""
        if not self.owner.connected:
            raise bluez_error("Failed", "Not connected")
        raise bluez_error("NotPermitted", "Write not permitted")
