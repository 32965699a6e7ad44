"""A libnm client (python3-gi, NM 1.0 typelib) doing what a SoftAP provisioning tool does.

Run by test_nm_mock.py in its own process (GDBus reads DBUS_SYSTEM_BUS_ADDRESS once per process):
  /usr/bin/python3 libnm_softap_probe.py '{"interface": "...", "ssid": "...", "psk": "...", ...}'
Prints one JSON object describing what libnm observed. Options: "use_v2" (true: try
AddAndActivateConnection2 with persist=volatile + bind-activation=dbus-client, falling back to
AddAndActivateConnection only on UnknownMethod), "restore" (deactivate, then re-activate the
connection that was active before), "exit_after_activation" (leave without cleaning up).
"""

import json
import sys

import gi

gi.require_version("NM", "1.0")
from gi.repository import Gio, GLib, NM  # noqa: E402

TIMEOUT_MS = 15000


class Probe:
    def __init__(self, options):
        self.options = options
        self.loop = GLib.MainLoop()
        self.client = NM.Client.new(None)
        self.result = {"nm_running": self.client.get_nm_running(), "version": self.client.get_version()}
        self.volatile = False

    def wait(self, done):
        """Iterates the main loop until done() is true; False on timeout."""
        context = self.loop.get_context()
        deadline = GLib.get_monotonic_time() + TIMEOUT_MS * 1000
        ticker = GLib.timeout_add(20, lambda: True)
        try:
            while not done():
                if GLib.get_monotonic_time() > deadline:
                    return False
                context.iteration(True)
            return True
        finally:
            GLib.source_remove(ticker)

    @staticmethod
    def describe(error):
        """domain:code, with GDBus codes named (UnknownMethod arrives as G_DBUS_ERROR_UNKNOWN_METHOD)."""
        if error.domain == "g-dbus-error-quark":
            return f"{error.domain}:{Gio.DBusError(error.code).value_name}"
        return f"{error.domain}:{error.code}:{error.message}"

    def call(self, start):
        """Runs one async libnm call; returns (result, error message)."""
        box = {}

        def finished(source, result, _data):
            try:
                box["value"] = start.finish(source, result)
            except GLib.Error as error:
                box["error"] = self.describe(error)
        start.begin(finished)
        if not self.wait(lambda: box):
            return None, "timeout"
        return box.get("value"), box.get("error")

    def device(self):
        return self.client.get_device_by_iface(self.options["interface"])

    def scan(self, device):
        before = device.get_last_scan()
        device.request_scan_async(None, None, None)
        self.result["scan_completed"] = self.wait(lambda: device.get_last_scan() != before)
        self.result["access_points"] = [
            {"ssid": ap.get_ssid().get_data().decode(), "bssid": ap.get_bssid(), "strength": ap.get_strength(),
             "frequency": ap.get_frequency(), "flags": int(ap.get_flags()), "rsn_flags": int(ap.get_rsn_flags())}
            for ap in device.get_access_points()]
        return next((ap for ap in device.get_access_points()
                     if ap.get_ssid().get_data().decode() == self.options["ssid"]), None)

    def partial_connection(self):
        connection = NM.SimpleConnection.new()
        setting = NM.SettingConnection.new()
        setting.set_property("id", "ztprov-probe")
        setting.set_property("uuid", self.options["uuid"])
        setting.set_property("type", "802-11-wireless")
        setting.set_property("autoconnect", False)
        setting.set_property("interface-name", self.options["interface"])
        connection.add_setting(setting)
        wireless = NM.SettingWireless.new()
        wireless.set_property("ssid", GLib.Bytes.new(self.options["ssid"].encode()))
        connection.add_setting(wireless)
        if self.options.get("psk") is not None:
            security = NM.SettingWirelessSecurity.new()
            security.set_property("key-mgmt", "wpa-psk")
            security.set_property("psk", self.options["psk"])
            connection.add_setting(security)
        ipv4 = NM.SettingIP4Config.new()
        ipv4.set_property("method", "auto")
        ipv4.set_property("never-default", True)
        connection.add_setting(ipv4)
        ipv6 = NM.SettingIP6Config.new()
        ipv6.set_property("method", "disabled")
        connection.add_setting(ipv6)
        return connection

    def add_and_activate(self, device, ap):
        connection = self.partial_connection()
        if self.options.get("use_v2", True):
            options = GLib.Variant("a{sv}", {"persist": GLib.Variant("s", "volatile"),
                                             "bind-activation": GLib.Variant("s", "dbus-client")})
            value, error = self.call(Call(lambda cb: self.client.add_and_activate_connection2(
                connection, device, ap.get_path() if ap else None, options, None, cb, None),
                self.client.add_and_activate_connection2_finish))
            self.result["v2_error"] = error
            if value is not None:
                self.volatile = True
                return value[0]
            if not error.endswith("G_DBUS_ERROR_UNKNOWN_METHOD"):
                return None
        value, error = self.call(Call(lambda cb: self.client.add_and_activate_connection_async(
            connection, device, ap.get_path() if ap else None, None, cb, None),
            self.client.add_and_activate_connection_finish))
        self.result["v1_error"] = error
        return value

    def watch_device(self, device):
        self.device_states = []
        device.connect("state-changed",
                       lambda _d, new, _old, reason: self.device_states.append([int(new), int(reason)]))

    def track(self, device, active):
        active_states = [[int(active.get_state()), int(active.get_state_reason())]]
        active.connect("state-changed", lambda _a, state, reason: active_states.append([int(state), int(reason)]))
        finished = self.wait(lambda: int(device.get_state()) in (100, 120) and
                             (int(device.get_state()) != 120 or active_states[-1:] and active_states[-1][0] == 4))
        self.wait(lambda: int(device.get_state()) in (30, 100))
        self.result.update({"finished": finished, "device_states": list(self.device_states),
                            "active_states": active_states,
                            "final_device_state": int(device.get_state()),
                            "final_reason": int(device.get_state_reason())})

    def run(self):
        device = self.device()
        self.result["device_type"] = type(device).__name__
        previous = device.get_active_connection()
        self.result["previous"] = previous.get_id() if previous else None
        previous_profile = previous.get_connection() if previous else None
        ap = self.scan(device)
        self.watch_device(device)
        active = self.add_and_activate(device, ap)
        self.result["active_id"] = active.get_id() if active else None
        if active is None:
            return self.result
        self.track(device, active)
        if int(device.get_state()) == 100:
            config = device.get_ip4_config()
            address = config.get_addresses()[0]
            self.result["ip4"] = f"{address.get_address()}/{address.get_prefix()}"
            self.result["gateway"] = config.get_gateway()
            self.result["primary"] = self.client.get_primary_connection().get_id() \
                if self.client.get_primary_connection() else None
        if self.options.get("exit_after_activation"):
            return self.result
        if int(device.get_state()) == 100 and self.options.get("restore"):
            self.call(Call(lambda cb: self.client.deactivate_connection_async(active, None, cb, None),
                           self.client.deactivate_connection_finish))
            self.wait(lambda: not any(a.get_id() == "ztprov-probe" for a in self.client.get_active_connections()))
        if self.volatile:
            self.wait(lambda: not any(c.get_id() == "ztprov-probe" for c in self.client.get_connections()))
        left = [c for c in self.client.get_connections() if c.get_id() == "ztprov-probe"]
        self.result["probe_profiles_left"] = len(left)
        for profile in left:
            self.call(Call(lambda cb, p=profile: p.delete_async(None, cb, None), profile.delete_finish))
        if previous_profile is not None and self.options.get("restore"):
            restored, error = self.call(Call(lambda cb: self.client.activate_connection_async(
                previous_profile, device, None, None, cb, None), self.client.activate_connection_finish))
            self.result["restore_error"] = error
            if restored is not None:
                self.wait(lambda: int(restored.get_state()) == 2)
                self.result["restored"] = restored.get_id()
                self.result["restored_state"] = int(restored.get_state())
        self.result["profiles_after"] = sorted(c.get_id() for c in self.client.get_connections())
        return self.result


class Call:
    """Adapts a libnm async call to Probe.call: begin(callback) and finish(source, result)."""

    def __init__(self, begin, finish):
        self._begin = begin
        self._finish = finish

    def begin(self, callback):
        self._begin(callback)

    def finish(self, _source, result):
        return self._finish(result)


if __name__ == "__main__":
    print(json.dumps(Probe(json.loads(sys.argv[1])).run()))
