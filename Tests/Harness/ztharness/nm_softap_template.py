"""python-dbusmock template: NetworkManager with one Wi-Fi device, for SoftAP provisioning tests.

Run on the private system bus:
  /usr/bin/python3 -m dbusmock --template ztharness/nm_softap_template.py -l LOG -p 'JSON'

It loads dbusmock's stock `networkmanager` template (manager and settings objects) and replaces
the parts a SoftAP client exercises with NetworkManager 1.42's behaviour (its D-Bus API,
`org.freedesktop.NetworkManager.*`): a Wi-Fi device named after `interface`, access points,
RequestScan with LastScan and each access point's LastSeen, AddAndActivateConnection2 / AddAndActivateConnection /
ActivateConnection / DeactivateConnection with staged states, Settings AddConnection(2) /
Delete / Update, and a "previous" connection active at start so a client can restore it.

Parameters (-p JSON; all optional — the scenario's "nm" object plus "interface"):
  version            Manager.Version (default "1.42.4")
  step_ms            time per activation step (default 100)
  interface          Wi-Fi interface name (default "wlan0"; the harness passes the host veth)
  hw_address         the device's MAC (default "02:00:00:00:00:02")
  access_points      [{"ssid", "bssid", "strength" (0..100), "frequency" (MHz), "psk" (null = open),
                      "wpa_flags", "rsn_flags" (defaults 0 / 0x188 when psk is set),
                      "max_bitrate", "hidden_until_scan" (appears only after RequestScan),
                      "seen_ago_s" (LastSeen at start this many seconds back, default 2),
                      "gone" (switched off: listed from an earlier scan, no scan hears it again),
                      "heard_ago_s" (a gone one's last beacon this many seconds before the mock
                      started, default seen_ago_s; may be later than the listed LastSeen)}]
  scan_ms            how long a scan takes (default step_ms)
  scan_running_ms    a scan (periodic, or another client's) is under way at start and finishes this
                     long after the first RequestScan (default: none)
  scan_rate_limit_ms least time from one scan's start to the next (NetworkManager: 8000 while
                     connected, 1500 otherwise; default 0)
  previous_connection  {"id", "ssid", "psk", "uuid", "ip4", "gateway", "autoconnect" (default true)}
                     active at start, or null
                     (an access point for its SSID is added when none is listed)
  ip4, gateway       address the SoftAP activation gets (default "192.168.4.2/24", "192.168.4.1")
  add_and_activate2  offer AddAndActivateConnection2 (default: when version ≥ 1.16; false
                     models NM < 1.16, where callers get UnknownMethod)
  not_found_steps    steps before an unknown SSID fails with SSID_NOT_FOUND (default 5)
  autoconnect_steps  steps after a bound caller left before NetworkManager autoconnects (default 3)

Staged activation, one step each (reasons follow NetworkManager's nm-device-wifi.c and
nm-act-request.c): active connection ACTIVATING, device PREPARE → CONFIG → IP_CONFIG →
ACTIVATED (Ip4Config with the address) and the active connection ACTIVATED. A wrong or
missing PSK goes CONFIG → NEED_AUTH → FAILED (device reason NO_SECRETS 7, active connection
DEACTIVATED with DEVICE_DISCONNECTED 3) → DISCONNECTED; an SSID no visible AP has (or an open
AP given a PSK profile, or a "gone" one) fails with SSID_NOT_FOUND 53. Deactivation removes the active
connection; a volatile profile (persist=volatile) is deleted with it. bind-activation=dbus-client
deactivates when the caller's bus connection goes away (NetworkManager 1.42 watches the caller's unique
name), and then, as its policy does for a device left disconnected, autoconnects the first stored
profile with connection.autoconnect on whose network is in range, "autoconnect_steps" steps later
(default 3; the real daemon took 4–5 s) unless another activation came first. A profile that does not
autoconnect stays down: only the caller could have restored it. A new activation on the device
supersedes the current one (reason NEW_ACTIVATION 60).

Scanning follows NetworkManager 1.42 (src/core/devices/wifi/nm-device-wifi.c) as the real daemon
shows it. RequestScan is accepted at once, also while a scan runs: the requested scan starts when the
running one has finished and the rate limit allows. When a scan finishes, hidden access points it heard
appear, the device's LastScan (CLOCK_BOOTTIME milliseconds) changes, and a moment later (as in the
real daemon, which handles wpa_supplicant's BSS updates after its scanning state) every access point
not "gone" is heard: LastSeen now, PropertiesChanged. An access point stays listed long after it went
away (as long as wpa_supplicant keeps the BSS, minutes), and for 30 s after its last beacon the kernel
reports it in every scan's results again: each report recomputes LastSeen (CLOCK_BOOTTIME seconds)
from wpa_supplicant's whole-second Age, so it moves up to a second past the last beacon, which the
mock always takes at its worst. A scan under way at start ("scan_running_ms") so reports a hotspot
heard shortly before it went away with a LastSeen later than the listed one.

Inspection through org.freedesktop.DBus.Mock on /org/freedesktop:
  GetNMState() -> s   JSON {"version", "device", "access_points", "profiles",
                       "active_connections", "calls", "events"}; "calls" lists every NetworkManager
                       API call (time, path, interface, method, args, sender)
  ClearNMCalls()      empties "calls" and "events"
"""

import itertools
import json
import time
import uuid

import dbus
import dbusmock
from dbusmock import MOCK_IFACE
from dbusmock.templates import networkmanager as stock
from gi.repository import GLib

BUS_NAME = stock.BUS_NAME
MAIN_OBJ = stock.MAIN_OBJ
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

NM = "org.freedesktop.NetworkManager"
MANAGER_PATH = "/org/freedesktop/NetworkManager"
SETTINGS_PATH = MANAGER_PATH + "/Settings"
SETTINGS_IFACE = NM + ".Settings"
CONNECTION_IFACE = NM + ".Settings.Connection"
DEVICE_IFACE = NM + ".Device"
WIRELESS_IFACE = NM + ".Device.Wireless"
AP_IFACE = NM + ".AccessPoint"
ACTIVE_IFACE = NM + ".Connection.Active"
IP4_IFACE = NM + ".IP4Config"

# NMDeviceState, NMDeviceStateReason, NMActiveConnectionState(Reason), NMState
DISCONNECTED, PREPARE, CONFIG, NEED_AUTH, IP_CONFIG, ACTIVATED, DEACTIVATING, FAILED = \
    30, 40, 50, 60, 70, 100, 110, 120
REASON_NONE, REASON_NO_SECRETS, REASON_USER_REQUESTED, REASON_SSID_NOT_FOUND, REASON_NEW_ACTIVATION = \
    0, 7, 39, 53, 60
AC_ACTIVATING, AC_ACTIVATED, AC_DEACTIVATING, AC_DEACTIVATED = 1, 2, 3, 4
AC_REASON_UNKNOWN, AC_REASON_NONE, AC_REASON_USER_DISCONNECTED, AC_REASON_DEVICE_DISCONNECTED = 0, 1, 2, 3
NM_STATE_DISCONNECTED, NM_STATE_CONNECTING, NM_STATE_CONNECTED_GLOBAL = 20, 40, 70
FLAG_UNSAVED, FLAG_VOLATILE = 0x1, 0x4
ADD2_TO_DISK, ADD2_IN_MEMORY = 0x1, 0x2

DEFAULTS = {
    "version": "1.42.4", "step_ms": 100, "interface": "wlan0", "hw_address": "02:00:00:00:00:02",
    "access_points": [{"ssid": "ZT_1A2B3C", "bssid": "24:0A:C4:1A:2B:3C", "strength": 80,
                       "frequency": 2412, "psk": "hotspot-pass"}],
    "previous_connection": {"id": "HomeWiFi", "ssid": "HomeNet"},
    "ip4": "192.168.4.2/24", "gateway": "192.168.4.1", "add_and_activate2": None,
    "not_found_steps": 5, "autoconnect_steps": 3,
    "scan_ms": None, "scan_running_ms": None, "scan_rate_limit_ms": 0,
}
# The kernel's cfg80211 keeps a BSS heard within this long in every scan's results.
KERNEL_BSS_CACHE_S = 30
# NetworkManager 1.42 in the lab: LastSeen changes 20–200 ms after the LastScan of the scan that heard it.
LAST_SEEN_LAG_MS = 50


def boottime_s():
    return int(time.clock_gettime(time.CLOCK_BOOTTIME))


def u32(value):
    return dbus.UInt32(value)


def error(name, message):
    return dbus.exceptions.DBusException(message, name=name)


def version_tuple(text):
    return tuple(int(part) for part in text.split(".")[:3] if part.isdigit())


def plain(value):
    """D-Bus values as JSON-friendly Python (byte arrays become text)."""
    if value is None:
        return None
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (bytes, dbus.ByteArray)):
        return bytes(value).decode("utf-8", "backslashreplace")
    if isinstance(value, (dbus.Array, list, tuple, dbus.Struct)):
        items = list(value)
        if items and all(isinstance(item, dbus.Byte) for item in items):
            return bytes(int(item) for item in items).decode("utf-8", "backslashreplace")
        return [plain(item) for item in items]
    if isinstance(value, (bool, dbus.Boolean)):
        return bool(value)
    if isinstance(value, (int, dbus.Byte)):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


def ssid_bytes(settings):
    ssid = settings.get("802-11-wireless", {}).get("ssid")
    return None if ssid is None else bytes(int(b) for b in ssid)


def update(obj, interface, changes):
    """Sets properties and emits one standard PropertiesChanged, as NetworkManager does."""
    obj.props[interface].update(changes)
    obj.EmitSignal(dbus.PROPERTIES_IFACE, "PropertiesChanged", "sa{sv}as",
                   [interface, dbus.Dictionary(changes, signature="sv"), dbus.Array([], signature="s")])


class SoftApNetworkManager:
    def __init__(self, mock, parameters):
        self.mock = mock
        self.params = {**DEFAULTS, **parameters}
        self.step_ms = self.params["step_ms"]
        self.calls = []
        self.events = []
        self.counters = {kind: itertools.count(1) for kind in ("ap", "settings", "active", "ip4")}
        self.profiles = {}
        self.actives = {}
        self.generation = itertools.count(1)
        self.current_generation = 0
        self.bound_watches = {}
        self.manager = dbusmock.get_object(MANAGER_PATH)
        self.settings = dbusmock.get_object(SETTINGS_PATH)
        self.device = None
        self.started_at = time.clock_gettime(time.CLOCK_BOOTTIME)
        self.scan_ms = self.params["scan_ms"] or self.step_ms
        self.scan_running = False
        self.scan_requested = False
        self.scan_started_at = None

    # --- plumbing ---------------------------------------------------------------------

    def export(self, obj, interface, name, in_sig, out_sig, implementation):
        """Adds a method that is journaled with its sender, then calls implementation(*args, sender).

        A call whose signature differs is refused with InvalidArgs and GDBus's wording, as
        NetworkManager does, so a hand-marshalled client cannot pass here and fail there.
        """
        def handler(_target, *args, sender=None, message=None):
            self.calls.append({"time": round(time.time(), 3), "path": obj.path, "interface": interface,
                               "method": name, "args": plain(list(args)), "sender": sender})
            obj.call_log.append((int(time.time()), name, args))
            if message.get_signature() != in_sig:
                raise error("org.freedesktop.DBus.Error.InvalidArgs",
                            f"Type of message, '({message.get_signature()})', does not match "
                            f"expected type '({in_sig})'")
            return implementation(*args, sender=sender)
        method = dbus.service.method(interface, out_signature=out_sig)(handler)
        method.__name__ = name
        method._dbus_in_signature = in_sig
        method._dbus_args = [f"arg{index}" for index in range(len(list(dbus.Signature(in_sig))))]
        method._dbus_sender_keyword = "sender"
        method._dbus_message_keyword = "message"
        obj.methods.setdefault(interface, {})[name] = (in_sig, out_sig, "", method)

    def event(self, kind, **fields):
        self.events.append({"time": round(time.time(), 3), "event": kind, **fields})

    def later(self, steps, action):
        generation = self.current_generation

        def fire():
            if generation == self.current_generation:
                action()
            return False
        GLib.timeout_add(int(steps * self.step_ms), fire)

    def add_object(self, path, interface, props):
        self.mock.AddObject(path, interface, props, [])
        return dbusmock.get_object(path)

    def announce(self, path):
        self.mock.object_manager_emit_added(path)

    def remove_object(self, path):
        self.mock.object_manager_emit_removed(path)
        self.mock.RemoveObject(path)

    # --- set-up -----------------------------------------------------------------------

    def setup(self):
        version = self.params["version"]
        self.manager.AddProperties(NM, {
            "AllDevices": dbus.Array([], signature="o"), "PrimaryConnection": dbus.ObjectPath("/"),
            "PrimaryConnectionType": "", "ActivatingConnection": dbus.ObjectPath("/"),
            "Capabilities": dbus.Array([], signature="u"), "Checkpoints": dbus.Array([], signature="o"),
            "Metered": u32(0), "ConnectivityCheckAvailable": False, "ConnectivityCheckEnabled": False})
        offer2 = self.params["add_and_activate2"]
        if offer2 is None:
            offer2 = version_tuple(version) >= (1, 16)
        manager_methods = [
            ("ActivateConnection", "ooo", "o", self.activate_connection),
            ("DeactivateConnection", "o", "", self.deactivate_connection),
            ("AddAndActivateConnection", "a{sa{sv}}oo", "oo", self.add_and_activate),
            ("GetDevices", "", "ao", lambda sender: [self.device.path]),
            ("GetAllDevices", "", "ao", lambda sender: [self.device.path]),
        ]
        if offer2:
            manager_methods.append(("AddAndActivateConnection2", "a{sa{sv}}ooa{sv}", "ooa{sv}",
                                    self.add_and_activate2))
        for name, in_sig, out_sig, implementation in manager_methods:
            self.export(self.manager, NM, name, in_sig, out_sig, implementation)
        settings_methods = [
            ("ListConnections", "", "ao", lambda sender: list(self.profiles)),
            ("GetConnectionByUuid", "s", "o", self.connection_by_uuid),
            ("AddConnection", "a{sa{sv}}", "o", lambda s, sender: self.add_profile(s, "disk")),
            ("AddConnectionUnsaved", "a{sa{sv}}", "o", lambda s, sender: self.add_profile(s, "memory")),
        ]
        if version_tuple(version) >= (1, 20):
            settings_methods.append(("AddConnection2", "a{sa{sv}}ua{sv}", "oa{sv}", self.add_connection2))
        for name, in_sig, out_sig, implementation in settings_methods:
            self.export(self.settings, SETTINGS_IFACE, name, in_sig, out_sig, implementation)
        self.create_device()
        for ap in self.params["access_points"]:
            self.create_access_point(ap)
        previous = self.params["previous_connection"]
        if previous:
            self.start_previous(previous)
        if self.params["scan_running_ms"] is not None:
            self.scan_running = True
            self.scan_started_at = self.started_at
            self.event("scan_started", scan="running at start")

    def create_device(self):
        interface = self.params["interface"]
        path = stock.AddWiFiDevice(self.mock, "1", interface, DISCONNECTED)
        self.device = dbusmock.get_object(path)
        hw_address = self.params["hw_address"]
        self.device.props[WIRELESS_IFACE].update({"HwAddress": hw_address, "PermHwAddress": hw_address,
                                                  "LastScan": dbus.Int64(-1)})
        self.device.props[DEVICE_IFACE].update({
            "StateReason": dbus.Struct((u32(DISCONNECTED), u32(REASON_NONE)), signature="uu"),
            "Ip4Config": dbus.ObjectPath("/"), "Ip6Config": dbus.ObjectPath("/"),
            "Dhcp4Config": dbus.ObjectPath("/"), "Dhcp6Config": dbus.ObjectPath("/"),
            "Udi": f"/sys/devices/virtual/net/{interface}", "Path": "", "Capabilities": u32(1),
            "Mtu": u32(1500), "Metered": u32(0), "Real": True, "NmPluginMissing": False,
            "FirmwareMissing": False, "HwAddress": hw_address, "InterfaceFlags": u32(0x10003),
            "Ports": dbus.Array([], signature="o"), "Autoconnect": True,
            "LldpNeighbors": dbus.Array([], signature="a{sv}")})
        update(self.manager, NM, {"AllDevices": dbus.Array([path], signature="o")})
        self.export(self.device, WIRELESS_IFACE, "RequestScan", "a{sv}", "", self.request_scan)
        self.export(self.device, WIRELESS_IFACE, "GetAccessPoints", "", "ao", lambda sender: self.visible_aps())
        self.export(self.device, WIRELESS_IFACE, "GetAllAccessPoints", "", "ao",
                    lambda sender: self.visible_aps())
        self.export(self.device, DEVICE_IFACE, "Disconnect", "", "", self.disconnect_device)

    def create_access_point(self, ap):
        path = f"{MANAGER_PATH}/AccessPoint/{next(self.counters['ap'])}"
        secured = ap.get("psk") is not None
        props = {
            "Ssid": dbus.ByteArray(ap["ssid"].encode()), "HwAddress": ap["bssid"].upper(),
            "Flags": u32(1 if secured else 0), "WpaFlags": u32(ap.get("wpa_flags", 0)),
            "RsnFlags": u32(ap.get("rsn_flags", 0x188 if secured else 0)),
            "Frequency": u32(ap.get("frequency", 2412)), "MaxBitrate": u32(ap.get("max_bitrate", 54000)),
            "Mode": u32(2), "Strength": dbus.Byte(ap.get("strength", 70)),
            "LastSeen": dbus.Int32(boottime_s() - ap.get("seen_ago_s", 2)),
            "Bandwidth": u32(20)}
        obj = self.add_object(path, AP_IFACE, props)
        obj.psk = ap.get("psk")
        obj.ssid = ap["ssid"].encode()
        obj.visible = not ap.get("hidden_until_scan", False)
        obj.gone = bool(ap.get("gone", False))
        obj.heard_at = self.started_at - ap.get("heard_ago_s", ap.get("seen_ago_s", 2))
        self.device.access_points.append(path)
        if obj.visible:
            self.show_access_point(path)
        return path

    def show_access_point(self, path):
        dbusmock.get_object(path).visible = True
        self.announce(path)
        update(self.device, WIRELESS_IFACE, {"AccessPoints": dbus.Array(self.visible_aps(), signature="o")})
        self.device.EmitSignal(WIRELESS_IFACE, "AccessPointAdded", "o", [dbus.ObjectPath(path)])

    def visible_aps(self):
        return [p for p in self.device.access_points if dbusmock.get_object(p).visible]

    def find_ap(self, ssid):
        return next((p for p in self.visible_aps() if dbusmock.get_object(p).ssid == ssid), None)

    def start_previous(self, previous):
        ssid = previous["ssid"].encode()
        if not any(dbusmock.get_object(p).ssid == ssid for p in self.device.access_points):
            self.create_access_point({"ssid": previous["ssid"], "bssid": "AA:BB:CC:00:00:01",
                                      "strength": 65, "frequency": 2437, "psk": previous.get("psk")})
        settings = {"connection": {"id": previous["id"], "uuid": previous.get("uuid", str(uuid.uuid4())),
                                   "type": "802-11-wireless",
                                   "autoconnect": bool(previous.get("autoconnect", True)),
                                   "interface-name": self.params["interface"]},
                    "802-11-wireless": {"ssid": dbus.ByteArray(ssid), "mode": "infrastructure"},
                    "ipv4": {"method": "auto"}, "ipv6": {"method": "auto"}}
        if previous.get("psk"):
            settings["802-11-wireless-security"] = {"key-mgmt": "wpa-psk", "psk": previous["psk"]}
        profile = self.add_profile(settings, "disk")
        ap = self.find_ap(ssid)
        active = self.create_active(profile, ap, bind=None)
        ip4 = self.create_ip4(previous.get("ip4", "192.168.4.2/24"), previous.get("gateway", "192.168.4.1"))
        self.set_device_state(ACTIVATED, REASON_NONE)
        update(self.device, DEVICE_IFACE, {"ActiveConnection": dbus.ObjectPath(active), "Ip4Config": ip4})
        self.set_active_state(active, AC_ACTIVATED, AC_REASON_NONE, ip4)
        self.event("previous_connection_active", profile=profile, active=active)

    # --- profiles -----------------------------------------------------------------------

    def complete(self, settings, ap_path):
        """Fills what NetworkManager's complete_connection() fills for a Wi-Fi profile."""
        settings = {str(k): dict(v) for k, v in settings.items()}
        connection = settings.setdefault("connection", {})
        wireless = settings.setdefault("802-11-wireless", {})
        if ssid_bytes(settings) is None:
            if ap_path is None:
                raise error(NM + ".Settings.Connection.MissingProperty",
                            "802-11-wireless.ssid: property is missing")
            wireless["ssid"] = dbus.ByteArray(dbusmock.get_object(ap_path).ssid)
        ssid = ssid_bytes(settings)
        ap = ap_path or self.find_ap(ssid)
        if ap and dbusmock.get_object(ap).psk is not None and "802-11-wireless-security" not in settings:
            settings["802-11-wireless-security"] = {"key-mgmt": "wpa-psk"}
        connection.setdefault("type", "802-11-wireless")
        connection.setdefault("id", ssid.decode("utf-8", "replace"))
        connection.setdefault("uuid", str(uuid.uuid4()))
        wireless.setdefault("mode", "infrastructure")
        settings.setdefault("ipv4", {}).setdefault("method", "auto")
        settings.setdefault("ipv6", {}).setdefault("method", "auto")
        return settings

    def add_profile(self, settings, persist):
        settings = {str(k): dict(v) for k, v in settings.items()}
        connection = settings.setdefault("connection", {})
        connection.setdefault("uuid", str(uuid.uuid4()))
        if any(p["settings"]["connection"]["uuid"] == connection["uuid"] for p in self.profiles.values()):
            raise error(SETTINGS_IFACE + ".UuidExists", f"a connection with UUID {connection['uuid']} exists")
        path = f"{SETTINGS_PATH}/{next(self.counters['settings'])}"
        saved = persist == "disk"
        flags = 0 if saved else FLAG_UNSAVED | (FLAG_VOLATILE if persist == "volatile" else 0)
        filename = f"/etc/NetworkManager/system-connections/{connection.get('id', path)}.nmconnection"
        obj = self.add_object(path, CONNECTION_IFACE, {"Unsaved": not saved, "Flags": u32(flags),
                                                       "Filename": filename if saved else ""})
        self.profiles[path] = {"settings": settings, "persist": persist}
        self.export(obj, CONNECTION_IFACE, "GetSettings", "", "a{sa{sv}}", lambda sender: self.get_settings(path))
        self.export(obj, CONNECTION_IFACE, "GetSecrets", "s", "a{sa{sv}}",
                    lambda setting, sender: self.get_secrets(path, setting))
        self.export(obj, CONNECTION_IFACE, "Delete", "", "", lambda sender: self.delete_profile(path, "Delete"))
        self.export(obj, CONNECTION_IFACE, "Update", "a{sa{sv}}", "",
                    lambda new, sender: self.update_profile(path, new))
        self.export(obj, CONNECTION_IFACE, "UpdateUnsaved", "a{sa{sv}}", "",
                    lambda new, sender: self.update_profile(path, new))
        self.export(obj, CONNECTION_IFACE, "Save", "", "", lambda sender: None)
        self.announce(path)
        self.refresh_profile_lists()
        self.settings.EmitSignal(SETTINGS_IFACE, "NewConnection", "o", [dbus.ObjectPath(path)])
        self.event("profile_added", path=path, id=connection.get("id"), persist=persist)
        return dbus.ObjectPath(path)

    def refresh_profile_lists(self):
        paths = dbus.Array([dbus.ObjectPath(p) for p in self.profiles], signature="o")
        update(self.settings, SETTINGS_IFACE, {"Connections": paths})
        update(self.device, DEVICE_IFACE, {"AvailableConnections": paths})

    def get_settings(self, path):
        settings = self.profiles[path]["settings"]
        stripped = {name: {k: v for k, v in values.items() if k != "psk"} for name, values in settings.items()}
        return dbus.Dictionary({name: dbus.Dictionary(values, signature="sv") for name, values in stripped.items()},
                               signature="sa{sv}")

    def get_secrets(self, path, setting):
        values = self.profiles[path]["settings"].get(setting, {})
        secrets = {k: v for k, v in values.items() if k == "psk"}
        return dbus.Dictionary({setting: dbus.Dictionary(secrets, signature="sv")}, signature="sa{sv}")

    def update_profile(self, path, new):
        old_security = self.profiles[path]["settings"].get("802-11-wireless-security", {})
        settings = {str(k): dict(v) for k, v in new.items()}
        security = settings.get("802-11-wireless-security")
        if security is not None and "psk" not in security and "psk" in old_security:
            security["psk"] = old_security["psk"]
        self.profiles[path]["settings"] = settings
        dbusmock.get_object(path).EmitSignal(CONNECTION_IFACE, "Updated", "", [])

    def delete_profile(self, path, reason):
        if path not in self.profiles:
            raise error(NM + ".Settings.Connection.NotFound", f"no connection {path}")
        profile = self.profiles.pop(path)
        for active, info in list(self.actives.items()):
            if info["profile"] == path:
                self.finish_deactivation(active, AC_REASON_USER_DISCONNECTED, REASON_USER_REQUESTED)
        dbusmock.get_object(path).EmitSignal(CONNECTION_IFACE, "Removed", "", [])
        self.remove_object(path)
        self.refresh_profile_lists()
        self.settings.EmitSignal(SETTINGS_IFACE, "ConnectionRemoved", "o", [dbus.ObjectPath(path)])
        self.event("profile_removed", path=path, id=profile["settings"]["connection"].get("id"), reason=reason)

    def connection_by_uuid(self, wanted, sender):
        for path, profile in self.profiles.items():
            if profile["settings"]["connection"].get("uuid") == wanted:
                return dbus.ObjectPath(path)
        raise error(NM + ".Settings.InvalidConnection", f"no connection with UUID {wanted}")

    def add_connection2(self, settings, flags, args, sender):
        if not flags & (ADD2_TO_DISK | ADD2_IN_MEMORY):
            raise error(NM + ".Settings.InvalidArguments", "either to-disk or in-memory is required")
        path = self.add_profile(settings, "disk" if flags & ADD2_TO_DISK else "memory")
        return path, dbus.Dictionary({}, signature="sv")

    # --- activation -----------------------------------------------------------------------

    def check_device(self, device_path):
        if device_path not in ("/", self.device.path):
            raise error(NM + ".UnknownDevice", f"no device {device_path}")

    def check_ap(self, ap_path):
        if ap_path in ("/", ""):
            return None
        if ap_path not in self.visible_aps():
            raise error(DEVICE_IFACE + ".SpecificObjectNotFound",
                        f"the requested access point {ap_path} is not known")
        return ap_path

    def add_and_activate(self, settings, device_path, ap_path, sender):
        return self._add_and_activate(settings, device_path, ap_path, {}, sender)[:2]

    def add_and_activate2(self, settings, device_path, ap_path, options, sender):
        return self._add_and_activate(settings, device_path, ap_path, options, sender)

    def _add_and_activate(self, settings, device_path, ap_path, options, sender):
        self.check_device(device_path)
        ap = self.check_ap(ap_path)
        persist, bind = "disk", None
        for key, value in options.items():
            if key == "persist" and value in ("disk", "memory", "volatile"):
                persist = str(value)
            elif key == "bind-activation" and value in ("dbus-client", "none"):
                bind = sender if value == "dbus-client" else None
            else:
                raise error(NM + ".InvalidArguments", f"unknown or invalid option {key!r}")
        profile = self.add_profile(self.complete(settings, ap), persist)
        active = self.start_activation(profile, ap, bind)
        return profile, active, dbus.Dictionary({}, signature="sv")

    def activate_connection(self, profile, device_path, ap_path, sender):
        if profile not in self.profiles:
            raise error(NM + ".UnknownConnection", f"connection {profile} is not known")
        self.check_device(device_path)
        return self.start_activation(profile, self.check_ap(ap_path), None)

    def outcome(self, settings, ap_path):
        ssid = ssid_bytes(settings)
        ap = ap_path if ap_path and dbusmock.get_object(ap_path).ssid == ssid else self.find_ap(ssid)
        if ap is None:
            return "ssid-not-found", None
        if dbusmock.get_object(ap).gone:
            return "ssid-not-found", ap
        expected_psk = dbusmock.get_object(ap).psk
        security = settings.get("802-11-wireless-security")
        if expected_psk is None:
            return ("success" if security is None else "ssid-not-found"), ap
        if security is None or str(security.get("psk", "")) != expected_psk:
            return "no-secrets", ap
        return "success", ap

    def start_activation(self, profile, ap_path, bind):
        settings = self.profiles[profile]["settings"]
        result, ap = self.outcome(settings, ap_path)
        self.current_generation = next(self.generation)
        for old in list(self.actives):
            self.set_device_state(DEACTIVATING, REASON_NEW_ACTIVATION)
            self.finish_deactivation(old, AC_REASON_DEVICE_DISCONNECTED, REASON_NEW_ACTIVATION)
        active = self.create_active(profile, ap, bind)
        update(self.device, DEVICE_IFACE, {"ActiveConnection": active})
        update(self.manager, NM, {"ActivatingConnection": active})
        self.refresh_global_state()
        self.event("activation_started", active=active, profile=profile,
                   id=settings["connection"].get("id"), expected_outcome=result)
        self.later(0, lambda: self.set_device_state(PREPARE, REASON_NONE))
        self.later(1, lambda: self.set_device_state(CONFIG, REASON_NONE))
        if result == "success":
            self.later(2, lambda: self.set_device_state(IP_CONFIG, REASON_NONE))
            self.later(3, lambda: self.complete_activation(active))
        elif result == "no-secrets":
            self.later(2, lambda: self.set_device_state(NEED_AUTH, REASON_NONE))
            self.later(3, lambda: self.fail_activation(active, REASON_NO_SECRETS))
        else:
            self.later(1 + self.params["not_found_steps"],
                       lambda: self.fail_activation(active, REASON_SSID_NOT_FOUND))
        return active

    def create_active(self, profile, ap_path, bind):
        path = f"{MANAGER_PATH}/ActiveConnection/{next(self.counters['active'])}"
        connection = self.profiles[profile]["settings"]["connection"]
        never_default = bool(self.profiles[profile]["settings"].get("ipv4", {}).get("never-default", False))
        props = {"Connection": dbus.ObjectPath(profile), "SpecificObject": dbus.ObjectPath(ap_path or "/"),
                 "Id": connection.get("id", ""), "Uuid": connection.get("uuid", ""),
                 "Type": connection.get("type", "802-11-wireless"),
                 "Devices": dbus.Array([dbus.ObjectPath(self.device.path)], signature="o"),
                 "State": u32(AC_ACTIVATING), "StateFlags": u32(0), "Default": False, "Default6": False,
                 "Ip4Config": dbus.ObjectPath("/"), "Ip6Config": dbus.ObjectPath("/"),
                 "Dhcp4Config": dbus.ObjectPath("/"), "Dhcp6Config": dbus.ObjectPath("/"),
                 "Vpn": False, "Master": dbus.ObjectPath("/"), "Controller": dbus.ObjectPath("/")}
        self.add_object(path, ACTIVE_IFACE, props)
        self.announce(path)
        self.actives[path] = {"profile": profile, "never_default": never_default, "bind": bind}
        self.refresh_active_list()
        if bind:
            self.watch_client(bind, path)
        return dbus.ObjectPath(path)

    def create_ip4(self, address, gateway):
        path = f"{MANAGER_PATH}/IP4Config/{next(self.counters['ip4'])}"
        ip, prefix = address.split("/")
        packed = lambda text: u32(int.from_bytes(bytes(int(p) for p in text.split(".")), "little"))
        self.add_object(path, IP4_IFACE, {
            "AddressData": dbus.Array([dbus.Dictionary({"address": ip, "prefix": u32(int(prefix))},
                                                       signature="sv")], signature="a{sv}"),
            "Addresses": dbus.Array([dbus.Array([packed(ip), u32(int(prefix)), packed(gateway)],
                                                signature="u")], signature="au"),
            "Gateway": gateway, "RouteData": dbus.Array([], signature="a{sv}"),
            "Routes": dbus.Array([], signature="au"), "NameserverData": dbus.Array([], signature="a{sv}"),
            "Nameservers": dbus.Array([], signature="u"), "Domains": dbus.Array([], signature="s"),
            "Searches": dbus.Array([], signature="s"), "DnsOptions": dbus.Array([], signature="s"),
            "DnsPriority": dbus.Int32(0), "WinsServerData": dbus.Array([], signature="s"),
            "WinsServers": dbus.Array([], signature="u")})
        self.announce(path)
        return dbus.ObjectPath(path)

    def complete_activation(self, active):
        ip4 = self.create_ip4(self.params["ip4"], self.params["gateway"])
        update(self.device, DEVICE_IFACE, {"Ip4Config": ip4})
        self.set_device_state(ACTIVATED, REASON_NONE)
        self.set_active_state(active, AC_ACTIVATED, AC_REASON_NONE, ip4)
        update(self.manager, NM, {"ActivatingConnection": dbus.ObjectPath("/")})
        self.event("activated", active=active)

    def fail_activation(self, active, reason):
        self.set_device_state(FAILED, reason)
        self.finish_deactivation(active, AC_REASON_DEVICE_DISCONNECTED, None)
        self.event("activation_failed", active=active, device_reason=reason)
        self.later(1, lambda: self.set_device_state(DISCONNECTED, REASON_NONE))

    def set_device_state(self, state, reason):
        old = int(self.device.props[DEVICE_IFACE]["State"])
        update(self.device, DEVICE_IFACE, {
            "State": u32(state), "StateReason": dbus.Struct((u32(state), u32(reason)), signature="uu")})
        self.device.EmitSignal(DEVICE_IFACE, "StateChanged", "uuu", [u32(state), u32(old), u32(reason)])

    def set_active_state(self, active, state, reason, ip4=None):
        obj = dbusmock.get_object(active)
        changes = {"State": u32(state)}
        if state == AC_ACTIVATED:
            is_default = not self.actives[active]["never_default"]
            changes.update({"Ip4Config": ip4, "Default": is_default})
        update(obj, ACTIVE_IFACE, changes)
        obj.EmitSignal(ACTIVE_IFACE, "StateChanged", "uu", [u32(state), u32(reason)])
        self.refresh_global_state()

    def refresh_active_list(self):
        update(self.manager, NM, {"ActiveConnections": dbus.Array(
            [dbus.ObjectPath(p) for p in self.actives], signature="o")})

    def refresh_global_state(self):
        states = [int(dbusmock.get_object(p).props[ACTIVE_IFACE]["State"]) for p in self.actives]
        primary = next((p for p in self.actives if dbusmock.get_object(p).props[ACTIVE_IFACE]["Default"]), "/")
        state = (NM_STATE_CONNECTED_GLOBAL if AC_ACTIVATED in states
                 else NM_STATE_CONNECTING if AC_ACTIVATING in states else NM_STATE_DISCONNECTED)
        changes = {}
        if int(self.manager.props[NM]["State"]) != state:
            changes["State"] = u32(state)
        if str(self.manager.props[NM]["PrimaryConnection"]) != primary:
            changes["PrimaryConnection"] = dbus.ObjectPath(primary)
            changes["PrimaryConnectionType"] = "802-11-wireless" if primary != "/" else ""
        if changes:
            update(self.manager, NM, changes)
        if "State" in changes:
            self.manager.EmitSignal(NM, "StateChanged", "u", [u32(state)])

    # --- deactivation -----------------------------------------------------------------------

    def deactivate_connection(self, active, sender):
        if active not in self.actives:
            raise error(NM + ".ConnectionNotActive", f"the connection {active} is not active")
        self.begin_deactivation(active, "DeactivateConnection")

    def disconnect_device(self, sender):
        if not self.actives:
            raise error(DEVICE_IFACE + ".NotActive", "this device is not active")
        self.begin_deactivation(next(iter(self.actives)), "Device.Disconnect")

    def begin_deactivation(self, active, cause):
        if int(dbusmock.get_object(active).props[ACTIVE_IFACE]["State"]) == AC_DEACTIVATING:
            return
        self.current_generation = next(self.generation)
        self.event("deactivation_started", active=active, cause=cause)
        self.set_device_state(DEACTIVATING, REASON_USER_REQUESTED)
        self.set_active_state(active, AC_DEACTIVATING, AC_REASON_USER_DISCONNECTED)
        self.later(1, lambda: self.finish_deactivation(active, AC_REASON_USER_DISCONNECTED,
                                                       REASON_USER_REQUESTED))

    def finish_deactivation(self, active, ac_reason, device_reason):
        """Active connection DEACTIVATED and removed; volatile profile deleted; device released."""
        if active not in self.actives:
            return
        info = self.actives[active]
        self.set_active_state(active, AC_DEACTIVATED, ac_reason)
        del self.actives[active]
        self.refresh_active_list()
        self.remove_object(active)
        watch = self.bound_watches.pop(active, None)
        if watch:
            watch.remove()
        update(self.device, DEVICE_IFACE, {"ActiveConnection": dbus.ObjectPath("/"),
                                           "Ip4Config": dbus.ObjectPath("/")})
        if str(self.manager.props[NM]["ActivatingConnection"]) == active:
            update(self.manager, NM, {"ActivatingConnection": dbus.ObjectPath("/")})
        if device_reason is not None:
            self.set_device_state(DISCONNECTED, device_reason)
        self.refresh_global_state()
        self.event("deactivated", active=active, reason=ac_reason)
        if self.profiles.get(info["profile"], {}).get("persist") == "volatile":
            self.delete_profile(info["profile"], "volatile profile deactivated")

    def watch_client(self, client, active):
        def owner_changed(name, old_owner, new_owner):
            if not new_owner and active in self.actives:
                self.event("bound_client_left", client=client, active=active)
                self.begin_deactivation(active, "bind-activation client left the bus")
                self.later(1 + self.params["autoconnect_steps"], self.autoconnect)
        self.bound_watches[active] = self.mock.connection.add_signal_receiver(
            owner_changed, signal_name="NameOwnerChanged", dbus_interface="org.freedesktop.DBus",
            path="/org/freedesktop/DBus", arg0=client)

    def autoconnect(self):
        """NetworkManager's policy on a disconnected device: the first autoconnect profile in range."""
        if self.actives:
            return
        for path, profile in self.profiles.items():
            settings = profile["settings"]
            ap = self.find_ap(ssid_bytes(settings))
            if profile["persist"] != "volatile" and settings["connection"].get("autoconnect", True) and ap:
                self.event("autoconnect", profile=path)
                self.start_activation(path, ap, None)
                return
        self.event("autoconnect_found_nothing")

    # --- scanning -------------------------------------------------------------------------

    def request_scan(self, options, sender):
        """Accepted at once; the scan runs now, or after the running one and the rate limit."""
        first = not any(e["event"] == "scan_requested" for e in self.events)
        self.scan_requested = True
        self.event("scan_requested", running=self.scan_running)
        if first and self.params["scan_running_ms"] is not None:
            GLib.timeout_add(int(self.params["scan_running_ms"]), lambda: self.finish_scan("running at start"))
        elif not self.scan_running:
            self.start_requested_scan()

    def start_requested_scan(self):
        now = time.clock_gettime(time.CLOCK_BOOTTIME)
        allowed_at = (self.scan_started_at or 0) + self.params["scan_rate_limit_ms"] / 1000
        if now < allowed_at:
            self.scan_running = True  # waiting for the rate limit counts as scanning, as in NetworkManager
            GLib.timeout_add(int((allowed_at - now) * 1000) + 1, self.start_waiting_scan)
            return
        self.scan_requested = False
        self.start_scan("requested")

    def start_waiting_scan(self):
        self.scan_running = False
        self.start_requested_scan()
        return False

    def start_scan(self, kind):
        self.scan_running = True
        self.scan_started_at = time.clock_gettime(time.CLOCK_BOOTTIME)
        self.event("scan_started", scan=kind)
        GLib.timeout_add(int(self.scan_ms), lambda: self.finish_scan(kind))

    def finish_scan(self, kind):
        """Access points new to the list first, then LastScan, then (a moment later, as NetworkManager
        processes wpa_supplicant's BSS updates after its scanning state) the LastSeen of those listed."""
        now = time.clock_gettime(time.CLOCK_BOOTTIME)
        for path in self.device.access_points:
            ap = dbusmock.get_object(path)
            if not ap.gone and not ap.visible:
                update(ap, AP_IFACE, {"LastSeen": dbus.Int32(int(now))})
                self.show_access_point(path)
        update(self.device, WIRELESS_IFACE, {"LastScan": dbus.Int64(int(now * 1000))})
        self.scan_running = False
        self.event("scan_finished", scan=kind)
        GLib.timeout_add(LAST_SEEN_LAG_MS, lambda: self.report_heard(now))
        if self.scan_requested:
            self.start_requested_scan()
        return False

    def report_heard(self, now):
        for path in self.device.access_points:
            ap = dbusmock.get_object(path)
            if not ap.gone:
                update(ap, AP_IFACE, {"LastSeen": dbus.Int32(int(now))})
            elif now - ap.heard_at < KERNEL_BSS_CACHE_S:
                update(ap, AP_IFACE, {"LastSeen": dbus.Int32(int(ap.heard_at) + 1)})
        return False

    # --- inspection -----------------------------------------------------------------------

    def state(self):
        device = self.device.props[DEVICE_IFACE]
        return {
            "version": self.params["version"],
            "device": {"path": self.device.path, "interface": str(device["Interface"]),
                       "state": int(device["State"]), "state_reason": [int(v) for v in device["StateReason"]],
                       "active_connection": str(device["ActiveConnection"])},
            "access_points": [{"path": p, "ssid": dbusmock.get_object(p).ssid.decode("utf-8", "replace"),
                               "visible": dbusmock.get_object(p).visible,
                               "last_seen": int(dbusmock.get_object(p).props[AP_IFACE]["LastSeen"])}
                              for p in self.device.access_points],
            "profiles": [self.profile_summary(path) for path in self.profiles],
            "active_connections": [
                {"path": path, "profile": info["profile"],
                 "id": str(dbusmock.get_object(path).props[ACTIVE_IFACE]["Id"]),
                 "uuid": str(dbusmock.get_object(path).props[ACTIVE_IFACE]["Uuid"]),
                 "state": int(dbusmock.get_object(path).props[ACTIVE_IFACE]["State"]),
                 "bound_to": info["bind"]} for path, info in self.actives.items()],
            "calls": self.calls,
            "events": self.events,
        }

    def profile_summary(self, path):
        profile = self.profiles[path]
        settings = profile["settings"]
        connection, ipv4 = settings["connection"], settings.get("ipv4", {})
        security = settings.get("802-11-wireless-security", {})
        ssid = ssid_bytes(settings)
        return {"path": path, "id": plain(connection.get("id")), "uuid": plain(connection.get("uuid")),
                "ssid": None if ssid is None else ssid.decode("utf-8", "backslashreplace"),
                "persist": profile["persist"], "autoconnect": bool(connection.get("autoconnect", True)),
                "interface_name": plain(connection.get("interface-name")),
                "never_default": bool(ipv4.get("never-default", False)),
                "ipv4_method": plain(ipv4.get("method")),
                "ipv6_method": plain(settings.get("ipv6", {}).get("method")),
                "key_mgmt": plain(security.get("key-mgmt")), "psk": plain(security.get("psk")),
                "settings": plain(self.get_settings(path))}


def load(mock, parameters):
    parameters = dict(parameters or {})
    stock.load(mock, {"Version": parameters.get("version", DEFAULTS["version"])})
    mock.nm_softap = SoftApNetworkManager(mock, parameters)
    mock.nm_softap.setup()


@dbus.service.method(MOCK_IFACE, in_signature="", out_signature="s")
def GetNMState(self):
    return json.dumps(self.nm_softap.state())


@dbus.service.method(MOCK_IFACE, in_signature="", out_signature="")
def ClearNMCalls(self):
    self.nm_softap.calls.clear()
    self.nm_softap.events.clear()
