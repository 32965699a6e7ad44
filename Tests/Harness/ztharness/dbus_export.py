"""Glue between our BlueZ emulation and python-dbusmock objects.

dbusmock attaches every @dbus.service.method function of a template module to the root object and
gives string-coded methods no access to the caller or to asynchronous replies. So methods here are
built at run time and put straight into a mock object's method table (dbusmock's method lookup
consults it first): each one sees the sender, may answer later, checks the call's signature the way
BlueZ's gdbus does (mismatch → UnknownMethod) and is logged like a dbusmock method.
"""

import time
from dataclasses import dataclass
from typing import Any, Callable

import dbus
import dbus.lowlevel
from dbusmock import mockobject
from gi.repository import GLib

PROPERTIES_IFACE = "org.freedesktop.DBus.Properties"
INTROSPECTABLE_IFACE = "org.freedesktop.DBus.Introspectable"
OBJECT_MANAGER_IFACE = "org.freedesktop.DBus.ObjectManager"

DEFERRED = object()
"""Returned by a method implementation that will call `call.reply` or `call.fail` later."""


def bluez_error(name: str, message: str) -> dbus.exceptions.DBusException:
    return dbus.exceptions.DBusException(message, name=f"org.bluez.Error.{name}")


def dbus_error(name: str, message: str) -> dbus.exceptions.DBusException:
    return dbus.exceptions.DBusException(message, name=f"org.freedesktop.DBus.Error.{name}")


@dataclass
class Call:
    """One incoming method call: its arguments, its sender and a way to answer it."""

    args: tuple
    sender: str
    _reply: Callable
    _error: Callable
    # time.monotonic_ns() as the call reached the mock, before its logging: a modeled latency counts from here.
    arrived_ns: int = 0

    def reply(self, *values) -> None:
        self._reply(*values)

    def fail(self, error: dbus.exceptions.DBusException) -> None:
        self._error(error)


def export_method(obj: mockobject.DBusMockObject, interface: str, name: str, in_sig: str,
                  out_sig: str, implementation: Callable[[Call], Any]) -> None:
    """Adds `name` to `obj` on `interface`.

    `implementation(call)` returns a tuple of return values (or None for none), returns DEFERRED
    and answers through the call later, or raises a DBusException.
    """

    def method(self, *args, sender=None, message=None, reply=None, error=None):
        arrived_ns = time.monotonic_ns()
        self.log(name + mockobject._format_args(args))
        self.call_log.append((int(time.time()), name, args))
        if message.get_signature() != in_sig:
            error(dbus_error("UnknownMethod", f'Method "{name}" with signature '
                             f'"{message.get_signature()}" on interface "{interface}" doesn\'t exist'))
            return
        try:
            result = implementation(Call(tuple(args), sender, reply, error, arrived_ns))
        except dbus.exceptions.DBusException as failure:
            self.log(f"{name} raised: {failure.get_dbus_name()}: {failure.get_dbus_message()}")
            error(failure)
            return
        if result is not DEFERRED:
            reply(*(result or ()))

    method.__name__ = name
    method._dbus_is_method = True
    method._dbus_interface = interface
    method._dbus_in_signature = in_sig
    method._dbus_out_signature = out_sig
    method._dbus_args = [f"arg{index}" for index in range(len(dbus.Signature(in_sig)))]
    method._dbus_async_callbacks = ("reply", "error")
    method._dbus_sender_keyword = "sender"
    method._dbus_message_keyword = "message"
    method._dbus_path_keyword = None
    method._dbus_rel_path_keyword = None
    method._dbus_destination_keyword = None
    method._dbus_connection_keyword = None
    method._dbus_get_args_options = {"byte_arrays": True}
    obj.methods.setdefault(interface, {})[name] = (in_sig, out_sig, "", method)


_pending_changes: dict[str, dict[str, tuple]] = {}
"""Per object path and interface: (object, changed values, invalidated names) not yet signalled."""


def emit_properties_changed(obj: mockobject.DBusMockObject, interface: str, changed: dict,
                            invalidated: list | None = None, flush: bool = False) -> None:
    """Signals property changes the way BlueZ's gdbus does.

    Changes are collected per object and sent from an idle callback, merged into one signal per
    interface, so a method's reply goes out before the signals its call caused (clients such as
    bleak depend on that order). `flush` sends at once, with everything pending for the object
    before it, as BlueZ does for characteristic values (notifications).
    """
    entries = _pending_changes.setdefault(obj.path, {})
    if not entries:
        GLib.idle_add(flush_properties_changed, obj.path)
    _, values, names = entries.setdefault(interface, (obj, {}, []))
    for name, value in changed.items():
        values[name] = value
        if name in names:
            names.remove(name)
    for name in invalidated or []:
        values.pop(name, None)
        if name not in names:
            names.append(name)
    if flush:
        flush_properties_changed(obj.path)


def flush_properties_changed(path: str) -> bool:
    """Sends what is pending for `path` (also called before the object is removed)."""
    for interface, (obj, values, names) in _pending_changes.pop(path, {}).items():
        send_signal(obj, PROPERTIES_IFACE, "PropertiesChanged", "sa{sv}as", [
            interface, dbus.Dictionary(values, signature="sv"), dbus.Array(names, signature="s")])
    return False


def send_signal(obj: mockobject.DBusMockObject, interface: str, name: str, signature: str, args: list) -> None:
    """Sends a signal from `obj` as dbusmock's EmitSignal does, without its per-signal log line and its
    second marshalling of the arguments: every discovery report is a signal, from one process serving
    every adapter and device (the bus recorder keeps every signal anyway)."""
    message = dbus.lowlevel.SignalMessage(obj.path, interface, name)
    message.append(*args, signature=signature)
    for connection, _path, _fallback in obj.locations:
        connection.send_message(message)


def install_property_access(obj: mockobject.DBusMockObject, writable: dict[str, set[str]],
                            on_set: Callable[[str, str, Any], None]) -> None:
    """Replaces dbusmock's permissive Get/Set/GetAll by BlueZ's gdbus behaviour.

    Unknown or absent properties are InvalidArgs, read-only ones PropertyReadOnly; a write to a
    writable property goes to `on_set(interface, name, value)`, which stores it and signals.
    """

    def get(call: Call):
        interface, name = call.args
        values = obj.props.get(str(interface))
        if values is None or str(name) not in values:
            raise dbus_error("InvalidArgs", f"No such property '{name}'")
        return (values[str(name)],)

    def get_all(call: Call):
        interface = str(call.args[0])
        if interface not in obj.props:
            raise dbus_error("InvalidArgs", f"No such interface '{interface}'")
        return (dbus.Dictionary(obj.props[interface], signature="sv"),)

    def set_(call: Call):
        interface, name, value = (str(call.args[0]), str(call.args[1]), call.args[2])
        if interface not in obj.props or name not in obj.props[interface]:
            raise dbus_error("InvalidArgs", f"No such property '{name}'")
        if name not in writable.get(interface, set()):
            raise dbus_error("PropertyReadOnly", f"Property '{name}' is not writable")
        current = obj.props[interface][name]
        if type(value) is not type(current):
            raise dbus_error("InvalidArgs", "Invalid arguments in method call")
        # Values arrive with variant_level 1, which is immutable: rebuild them as plain values.
        on_set(interface, name, type(current)(value))

    export_method(obj, PROPERTIES_IFACE, "Get", "ss", "v", get)
    export_method(obj, PROPERTIES_IFACE, "GetAll", "s", "a{sv}", get_all)
    export_method(obj, PROPERTIES_IFACE, "Set", "ssv", "", set_)


def standard_interfaces() -> dict:
    """The empty entries BlueZ lists next to its own interfaces in GetManagedObjects/InterfacesAdded."""
    return {INTROSPECTABLE_IFACE: dbus.Dictionary({}, signature="sv"),
            PROPERTIES_IFACE: dbus.Dictionary({}, signature="sv")}


def byte_array(value: bytes) -> dbus.Array:
    return dbus.Array([dbus.Byte(b) for b in value], signature="y")


def add_object(root: mockobject.DBusMockObject, path: str, interface: str, props: dict,
               announce: bool = True) -> mockobject.DBusMockObject:
    """Creates a mock object with BlueZ's interface list and (optionally) announces it from `/`."""
    root.AddObject(path, interface, dbus.Dictionary(props, signature="sv"), [])
    obj = mockobject.objects[path]
    obj.props.update(standard_interfaces())
    if announce:
        announce_added(root, path)
    return obj


def announce_added(root: mockobject.DBusMockObject, path: str) -> None:
    obj = mockobject.objects[path]
    send_signal(root, OBJECT_MANAGER_IFACE, "InterfacesAdded", "oa{sa{sv}}",
                [dbus.ObjectPath(path), dbus.Dictionary(obj.props, signature="sa{sv}")])


def remove_object(root: mockobject.DBusMockObject, path: str) -> None:
    flush_properties_changed(path)
    obj = mockobject.objects[path]
    interfaces = dbus.Array(list(obj.props), signature="s")
    root.RemoveObject(path)
    send_signal(root, OBJECT_MANAGER_IFACE, "InterfacesRemoved", "oas", [dbus.ObjectPath(path), interfaces])
