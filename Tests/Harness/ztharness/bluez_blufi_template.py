"""python-dbusmock template: bluetoothd (BlueZ 5.66 D-Bus shapes) with emulated BluFi peripherals.

Run: /usr/bin/python3 -m dbusmock --template <this file> -l <log> -p '<json>'
Parameters: the scenario's "bluez" object (ztharness/scenario.py completes it: adapters, devices,
temporary_timeout_ms, connect_timeout_ms, connect_while_discovering_ms) plus "record_dir", where each device keeps
blufi-<ADDRESS>.json with everything it received (written 250 ms after a change, and when the mock ends:
while it runs, its records are asked for live). The objects live in bluez_adapter.py,
bluez_device.py (one Device1 view per adapter that hears the device), bluez_peripheral.py (the
device itself: link, faults, record) and bluez_gatt.py; each device runs ztharness/blufi_device.py.

`/` is the ObjectManager and every InterfacesAdded/Removed comes from there, as from bluetoothd.
`/org/bluez` has AgentManager1 (bluez_agents.py: agents per client, the default agent, used by
Device1.Pair) and ProfileManager1 (accepting, recorded). Test control, on `/`,
interface org.bluez.Mock:
  ForceDisconnect(s address)           link loss seen from the central (whichever adapter holds it)
  Notify(s address, s uuid, ay value)  inject a raw notification (fails unless subscribed)
  GetReceived(s address) → s           the device record as JSON
  GetAgents() → s                      registered agents and agent events as JSON
  AddAdapter(s json) → o, AddDevice(s json) → o   extend the scenario at run time (AddDevice
                                       answers the path on the device's first adapter)
Only these are module-level decorated methods: dbusmock attaches such functions to the root object.
With ZTHARNESS_TIMELINE=FILE in its environment the mock logs when each of its timers and idle callbacks ran
(ztharness/timeline.py).
"""

import atexit
import json
import os
import signal
import sys

import dbus
import dbus.service
from gi.repository import GLib

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ztharness import scenario, timeline  # noqa: E402
from ztharness.bluez_adapter import EmulatedAdapter  # noqa: E402
from ztharness.bluez_agents import AgentRegistry  # noqa: E402
from ztharness.bluez_device import EmulatedDevice, send_held_back_objects  # noqa: E402
from ztharness.bluez_peripheral import EmulatedPeripheral  # noqa: E402
from ztharness.dbus_export import add_object, bluez_error, export_method  # noqa: E402

BUS_NAME = "org.bluez"
MAIN_OBJ = "/"
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

MOCK_IFACE = "org.bluez.Mock"
AGENT_MANAGER_IFACE = "org.bluez.AgentManager1"
PROFILE_MANAGER_IFACE = "org.bluez.ProfileManager1"


class BluezEmulation:
    """All adapters and devices of this mock process."""

    def __init__(self, root, bluez: dict, record_dir: str | None):
        self.root = root
        self.record_dir = record_dir
        self.temporary_timeout_ms = bluez["temporary_timeout_ms"]
        self.connect_timeout_ms = bluez["connect_timeout_ms"]
        self.connect_while_discovering_ms = bluez["connect_while_discovering_ms"]
        self.adapters: dict[str, EmulatedAdapter] = {}
        self.devices: list[EmulatedPeripheral] = []
        self.agent_events: list[dict] = []
        self.agents = AgentRegistry(
            lambda sender, on_gone: root.connection.watch_name_owner(sender, lambda owner: owner or on_gone()),
            self.agent_events.append)
        root.connection.add_message_filter(send_held_back_objects)
        manager = add_object(root, "/org/bluez", AGENT_MANAGER_IFACE, {}, announce=False)
        for name, in_sig, implementation in (("RegisterAgent", "os", self.agents.register),
                                             ("UnregisterAgent", "o", self.agents.unregister),
                                             ("RequestDefaultAgent", "o", self.agents.request_default)):
            export_method(manager, AGENT_MANAGER_IFACE, name, in_sig, "", implementation)
        manager.props[PROFILE_MANAGER_IFACE] = dbus.Dictionary({}, signature="sv")
        for name, in_sig in (("RegisterProfile", "osa{sv}"), ("UnregisterProfile", "o")):
            export_method(manager, PROFILE_MANAGER_IFACE, name, in_sig, "", lambda call: None)
        for adapter in bluez["adapters"]:
            self.add_adapter(adapter)
        for device in bluez["devices"]:
            self.add_device(device)

    def add_adapter(self, config: dict) -> EmulatedAdapter:
        if config["name"] in self.adapters:
            raise bluez_error("AlreadyExists", f"adapter {config['name']} exists")
        adapter = EmulatedAdapter(self.root, config, self.temporary_timeout_ms)
        adapter.agents = self.agents
        adapter.export()
        self.adapters[adapter.name] = adapter
        return adapter

    def add_device(self, config: dict) -> EmulatedPeripheral:
        """One peripheral, with a Device1 view on each adapter that hears it."""
        peripheral = EmulatedPeripheral(config, self.record_dir, self.connect_timeout_ms,
                                        self.connect_while_discovering_ms)
        for name in config["adapters"]:
            adapter = self.adapters[name]
            adapter.devices.append(EmulatedDevice(self.root, adapter, peripheral))
        self.devices.append(peripheral)
        return peripheral

    def device(self, address: str) -> EmulatedPeripheral:
        for device in self.devices:
            if device.address == address.upper():
                return device
        raise bluez_error("DoesNotExist", f"no emulated device {address}")


EMULATION: dict[str, BluezEmulation] = {}


def load(mock, parameters):
    timeline.install()
    parameters = dict(parameters)
    record_dir = parameters.pop("record_dir", None)
    EMULATION["bluez"] = BluezEmulation(mock, scenario.bluez_with_defaults(parameters), record_dir)
    atexit.register(_flush_records)
    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, _end_on_term)


def _flush_records() -> None:
    """The device records a write still waits for go to their files: they outlive the mock."""
    for device in EMULATION["bluez"].devices:
        device.flush_record()


def _end_on_term() -> bool:
    """`harness.py down` stops the mock with SIGTERM: write the records, then end as SIGTERM ends it."""
    _flush_records()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)
    return False


def _completed(kind: str, text: str) -> dict:
    try:
        given = json.loads(text)
        if kind == "adapter":
            return scenario.bluez_with_defaults({"adapters": [given], "devices": []})["adapters"][0]
        adapters = [{"name": name} for name in EMULATION["bluez"].adapters]
        return scenario.bluez_with_defaults({"adapters": adapters, "devices": [given]})["devices"][0]
    except (ValueError, scenario.ScenarioError) as error:
        raise bluez_error("InvalidArguments", str(error)) from error


@dbus.service.method(MOCK_IFACE, in_signature="s", out_signature="")
def ForceDisconnect(_self, address):
    holder = EMULATION["bluez"].device(address).holder
    if holder is not None:
        holder.force_disconnect()


@dbus.service.method(MOCK_IFACE, in_signature="ssay", out_signature="")
def Notify(_self, address, uuid, value):
    peripheral = EMULATION["bluez"].device(address)
    (peripheral.holder or peripheral.views[0]).inject_notification(uuid, bytes(value))


@dbus.service.method(MOCK_IFACE, in_signature="s", out_signature="s")
def GetReceived(_self, address):
    return json.dumps(EMULATION["bluez"].device(address).received())


@dbus.service.method(MOCK_IFACE, in_signature="", out_signature="s")
def GetAgents(_self):
    emulation = EMULATION["bluez"]
    return json.dumps({"agents": emulation.agents.snapshot(), "events": emulation.agent_events})


@dbus.service.method(MOCK_IFACE, in_signature="s", out_signature="o")
def AddAdapter(_self, config_json):
    return dbus.ObjectPath(EMULATION["bluez"].add_adapter(_completed("adapter", config_json)).path)


@dbus.service.method(MOCK_IFACE, in_signature="s", out_signature="o")
def AddDevice(_self, config_json):
    return dbus.ObjectPath(EMULATION["bluez"].add_device(_completed("device", config_json)).views[0].path)
