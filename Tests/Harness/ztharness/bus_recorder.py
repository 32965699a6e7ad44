"""Records every message on the private bus as JSON lines (a bus monitor, like dbus-monitor).

`harness.py calls` turns the record into the method-call log of a mock: unlike dbusmock's own log it
names path and interface, keeps exact argument values, pairs each call with its reply or error, and
survives objects that were removed (GATT objects after RemoveDevice) and mock processes that ended.

Run: /usr/bin/python3 -m ztharness.bus_recorder --address ADDR --out FILE --ready-file FILE
"""

import argparse
import json
import time

import dbus
import dbus.lowlevel
import dbus.mainloop.glib
from gi.repository import GLib

MESSAGE_KINDS = {1: "call", 2: "return", 3: "error", 4: "signal"}


def plain(value):
    """A JSON-friendly copy of a dbus-python value (byte arrays become hex strings)."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, dbus.types.UnixFd):
        return "<fd>"
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, dict):
        return {str(plain(k)): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


def describe(message) -> dict:
    entry = {"time": round(time.time(), 4), "type": MESSAGE_KINDS.get(message.get_type(), "other"),
             "sender": message.get_sender(), "destination": message.get_destination(),
             "serial": message.get_serial(), "reply_serial": message.get_reply_serial(),
             "path": message.get_path(), "interface": message.get_interface(),
             "member": message.get_member(), "signature": message.get_signature()}
    if message.get_type() == 3:
        entry["error"] = message.get_error_name()
    try:
        entry["args"] = plain(message.get_args_list(byte_arrays=True))
    except Exception as error:  # a message dbus-python cannot unpack must not stop the record
        entry["args_error"] = str(error)
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--ready-file", required=True)
    options = parser.parse_args()

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    loop = GLib.MainLoop()
    bus = dbus.bus.BusConnection(options.address)
    out = open(options.out, "a", encoding="utf-8")  # noqa: SIM115 (open for the process lifetime)

    def on_message(_bus, message):
        if message.get_interface() == "org.freedesktop.DBus.Local":
            loop.quit()
            return
        out.write(json.dumps(describe(message)) + "\n")
        out.flush()

    bus.add_message_filter(on_message)
    bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Monitoring",
                      "BecomeMonitor", "asu", ([], dbus.UInt32(0)))
    with open(options.ready_file, "w", encoding="utf-8") as ready:
        ready.write("READY\n")
    loop.run()


if __name__ == "__main__":
    main()
