"""nm_softap_template on a private bus, checked with libnm (the library ztprov uses) and dbus-python.

No root needed: the bus is a private dbus-daemon with a system-type config in a temp directory.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import dbus
import pytest

from ztharness import bus as private_bus
from ztharness import processes

HARNESS = Path(__file__).resolve().parents[1]
TEMPLATE = HARNESS / "ztharness" / "nm_softap_template.py"
PROBE = Path(__file__).resolve().parent / "libnm_softap_probe.py"
NM = "org.freedesktop.NetworkManager"
INTERFACE = "zhtest0"
PROBE_UUID = "0b7e5d6c-1f1e-4a59-9d21-6c2b7b5e0a11"


def wait_for(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


@pytest.fixture(scope="module")
def bus_address(tmp_path_factory):
    """The harness's private bus, handed out once it accepts connections: its socket file appears before the
    daemon listens, and a loaded machine has had a mock refused in between."""
    run_dir = str(tmp_path_factory.mktemp("nmbus"))
    state = {"run_dir": run_dir, "pids": {}}
    address = private_bus.start(run_dir, state)
    yield address
    processes.stop(state["pids"]["dbus_daemon"])


class NmMock:
    def __init__(self, address, log_path, parameters):
        self.address = address
        self.environment = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": address}
        # Connected before the mock starts, so a bus that refuses leaves no mock running behind the test.
        self.bus = dbus.bus.BusConnection(address)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dbusmock", "--template", str(TEMPLATE), "-l", str(log_path),
             "-p", json.dumps({"interface": INTERFACE, "step_ms": 20, **parameters})],
            env=self.environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def wait_ready(self):
        wait_for(lambda: self.bus.name_has_owner(NM) or self.process.poll() is not None)
        assert self.process.poll() is None, self.process.stderr.read().decode()
        self.mock = dbus.Interface(self.bus.get_object(NM, "/org/freedesktop"), "org.freedesktop.DBus.Mock")

    def state(self):
        return json.loads(self.mock.GetNMState())

    def manager(self):
        return dbus.Interface(self.bus.get_object(NM, "/org/freedesktop/NetworkManager"), NM)

    def probe(self, **options):
        options = {"interface": INTERFACE, "ssid": "ZT_1A2B3C", "psk": "hotspot-pass", "uuid": PROBE_UUID,
                   "use_v2": True, "restore": True, **options}
        output = subprocess.run([sys.executable, str(PROBE), json.dumps(options)], env=self.environment,
                                capture_output=True, text=True, timeout=30, check=True).stdout
        return json.loads(output)

    def stop(self):
        self.bus.close()
        self.process.terminate()
        self.process.wait(5)
        self.process.stderr.close()


@pytest.fixture
def start_mock(bus_address, tmp_path):
    mocks = []

    def start(**parameters):
        mock = NmMock(bus_address, tmp_path / f"nm{len(mocks)}.log", parameters)
        mocks.append(mock)
        mock.wait_ready()
        return mock
    yield start
    for mock in mocks:
        mock.stop()


def calls(state, method):
    return [call for call in state["calls"] if call["method"] == method]


def test_libnm_joins_with_right_psk_then_restores_previous_and_leaves_no_profile(start_mock):
    nm = start_mock()
    result = nm.probe()
    assert (result["nm_running"], result["version"], result["device_type"]) == (True, "1.42.4", "DeviceWifi")
    assert result["previous"] == "HomeWiFi" and result["scan_completed"]
    assert result["access_points"][0] == {"ssid": "ZT_1A2B3C", "bssid": "24:0A:C4:1A:2B:3C", "strength": 80,
                                          "frequency": 2412, "flags": 1, "rsn_flags": 0x188}
    assert result["v2_error"] is None and result["active_id"] == "ztprov-probe"
    assert result["device_states"][:6] == [[110, 60], [30, 60], [40, 0], [50, 0], [70, 0], [100, 0]]
    assert result["active_states"][:2] == [[1, 0], [2, 1]]
    assert (result["ip4"], result["gateway"], result["primary"]) == ("192.168.4.2/24", "192.168.4.1", None)
    assert (result["restored"], result["restored_state"]) == ("HomeWiFi", 2)
    assert result["probe_profiles_left"] == 0 and result["profiles_after"] == ["HomeWiFi"]

    state = nm.state()
    assert [p["id"] for p in state["profiles"]] == ["HomeWiFi"]
    assert [(a["id"], a["state"]) for a in state["active_connections"]] == [("HomeWiFi", 2)]
    assert state["device"]["interface"] == INTERFACE and state["device"]["state"] == 100
    [request] = calls(state, "AddAndActivateConnection2")
    settings, device, ap, options = request["args"]
    assert options == {"persist": "volatile", "bind-activation": "dbus-client"}
    assert settings["connection"]["uuid"] == PROBE_UUID and settings["ipv4"]["never-default"] is True
    assert (device, ap) == (state["device"]["path"], state["access_points"][0]["path"])
    removed = [e for e in state["events"] if e["event"] == "profile_removed"]
    assert [(e["id"], e["reason"]) for e in removed] == [("ztprov-probe", "volatile profile deactivated")]
    assert calls(state, "DeactivateConnection") and calls(state, "ActivateConnection")


def test_libnm_wrong_psk_fails_with_no_secrets(start_mock):
    nm = start_mock()
    result = nm.probe(psk="wrong-password")
    assert result["device_states"] == [[110, 60], [30, 60], [40, 0], [50, 0], [60, 0], [120, 7], [30, 0]]
    assert result["active_states"] == [[1, 0], [4, 3]]
    assert result["probe_profiles_left"] == 0
    assert result["restored"] == "HomeWiFi"
    failed = [e for e in nm.state()["events"] if e["event"] == "activation_failed"]
    assert [e["device_reason"] for e in failed] == [7]


def test_libnm_unknown_ssid_fails_with_ssid_not_found(start_mock):
    nm = start_mock(not_found_steps=2)
    result = nm.probe(ssid="NotThere")
    assert [40, 0] in result["device_states"] and [120, 53] in result["device_states"]
    assert result["final_device_state"] == 30 and "ip4" not in result


def test_bind_activation_deactivates_when_the_client_leaves(start_mock):
    nm = start_mock(previous_connection={"id": "HomeWiFi", "ssid": "HomeNet", "autoconnect": False})
    result = nm.probe(exit_after_activation=True, restore=False)
    assert result["final_device_state"] == 100
    state = wait_for(lambda: (lambda s: s if not s["active_connections"] and not
                              any(p["id"] == "ztprov-probe" for p in s["profiles"]) else None)(nm.state()))
    assert any(e["event"] == "bound_client_left" for e in state["events"])
    assert state["device"]["state"] == 30


@pytest.mark.parametrize("autoconnect", [True, False])
def test_after_a_bound_client_left_only_an_autoconnect_profile_comes_back(start_mock, autoconnect):
    """NetworkManager 1.42 deactivates what a vanished client bound, then its policy autoconnects the home
    profile if, and only if, that profile autoconnects: otherwise the host stays off every network."""
    nm = start_mock(previous_connection={"id": "HomeWiFi", "ssid": "HomeNet", "autoconnect": autoconnect})
    nm.probe(exit_after_activation=True, restore=False)
    settled = "autoconnect" if autoconnect else "autoconnect_found_nothing"
    state = wait_for(lambda: (lambda s: s if any(e["event"] == settled for e in s["events"])
                              and all(a["state"] == 2 for a in s["active_connections"]) else None)(nm.state()))
    assert [p["id"] for p in state["profiles"]] == ["HomeWiFi"]
    expected = [("HomeWiFi", 2)] if autoconnect else []
    assert [(a["id"], a["state"]) for a in state["active_connections"]] == expected
    assert state["device"]["state"] == (100 if autoconnect else 30)


def test_without_add_and_activate2_libnm_falls_back_and_the_profile_persists(start_mock):
    nm = start_mock(version="1.14.0")
    result = nm.probe()
    assert result["v2_error"] == "g-dbus-error-quark:G_DBUS_ERROR_UNKNOWN_METHOD"
    assert result["v1_error"] is None and result["version"] == "1.14.0"
    assert result["probe_profiles_left"] == 1, "AddAndActivateConnection keeps a saved profile"
    assert result["profiles_after"] == ["HomeWiFi"]
    state = nm.state()
    assert calls(state, "AddAndActivateConnection") and calls(state, "Delete")
    assert not calls(state, "AddAndActivateConnection2")


def test_requested_settings_are_kept_and_reported(start_mock):
    nm = start_mock()
    settings = dbus.Dictionary({
        "connection": dbus.Dictionary({"id": "ztprov-ZT_1A2B3C", "uuid": PROBE_UUID, "autoconnect": False,
                                       "interface-name": INTERFACE}, signature="sv"),
        "802-11-wireless": dbus.Dictionary({"ssid": dbus.ByteArray(b"ZT_1A2B3C")}, signature="sv"),
        "802-11-wireless-security": dbus.Dictionary({"key-mgmt": "wpa-psk", "psk": "hotspot-pass"},
                                                    signature="sv"),
        "ipv4": dbus.Dictionary({"method": "auto", "never-default": True}, signature="sv"),
        "ipv6": dbus.Dictionary({"method": "disabled"}, signature="sv")}, signature="sa{sv}")
    profile, active, _ = nm.manager().AddAndActivateConnection2(
        settings, "/org/freedesktop/NetworkManager/Devices/1", "/", {"persist": dbus.String("volatile")})
    [summary] = [p for p in nm.state()["profiles"] if p["path"] == profile]
    assert {k: summary[k] for k in ("id", "uuid", "ssid", "persist", "autoconnect", "never_default",
                                    "ipv6_method", "key_mgmt", "psk", "interface_name")} == {
        "id": "ztprov-ZT_1A2B3C", "uuid": PROBE_UUID, "ssid": "ZT_1A2B3C", "persist": "volatile",
        "autoconnect": False, "never_default": True, "ipv6_method": "disabled", "key_mgmt": "wpa-psk",
        "psk": "hotspot-pass", "interface_name": INTERFACE}
    connection = nm.bus.get_object(NM, profile)
    assert "psk" not in connection.GetSettings(dbus_interface=NM + ".Settings.Connection")["802-11-wireless-security"]
    flags = connection.Get(NM + ".Settings.Connection", "Flags", dbus_interface=dbus.PROPERTIES_IFACE)
    assert flags == 0x5
    wait_for(lambda: nm.state()["device"]["state"] == 100)
    with pytest.raises(dbus.DBusException, match="UuidExists"):
        nm.manager().AddAndActivateConnection2(settings, "/", "/", {})
    with pytest.raises(dbus.DBusException, match="InvalidArguments"):
        nm.manager().AddAndActivateConnection2(settings, "/", "/", {"persist": "forever"})
    with pytest.raises(dbus.DBusException, match=r"InvalidArgs: Type of message, '\(a\{sv\}oo\)'"):
        nm.bus.call_blocking(NM, "/org/freedesktop/NetworkManager", NM, "AddAndActivateConnection",
                             "a{sv}oo", [{"id": "x"}, "/", "/"])
    nm.manager().DeactivateConnection(active)
    wait_for(lambda: all(p["path"] != profile for p in nm.state()["profiles"]))
    with pytest.raises(dbus.DBusException, match="ConnectionNotActive"):
        nm.manager().DeactivateConnection(active)


def test_settings_add_delete_and_hidden_ap_after_scan(start_mock):
    nm = start_mock(access_points=[{"ssid": "ZT_HIDDEN", "bssid": "24:0A:C4:00:00:09", "strength": 50,
                                    "frequency": 2462, "psk": None, "hidden_until_scan": True}],
                    previous_connection=None)
    state = nm.state()
    assert state["device"]["state"] == 30 and not state["active_connections"]
    assert [ap["visible"] for ap in state["access_points"]] == [False]
    device = nm.bus.get_object(NM, "/org/freedesktop/NetworkManager/Devices/1")
    wireless = NM + ".Device.Wireless"
    assert device.GetAllAccessPoints(dbus_interface=wireless) == []
    device.RequestScan({}, dbus_interface=wireless)
    wait_for(lambda: device.Get(wireless, "LastScan", dbus_interface=dbus.PROPERTIES_IFACE) > 0)
    assert len(device.GetAllAccessPoints(dbus_interface=wireless)) == 1

    settings_iface = dbus.Interface(nm.bus.get_object(NM, "/org/freedesktop/NetworkManager/Settings"),
                                    NM + ".Settings")
    path = settings_iface.AddConnection({
        "connection": {"id": "open-ap", "type": "802-11-wireless"},
        "802-11-wireless": {"ssid": dbus.ByteArray(b"ZT_HIDDEN")}})
    saved = [p for p in nm.state()["profiles"] if p["path"] == path][0]
    assert saved["persist"] == "disk"
    active = nm.manager().ActivateConnection(path, "/", "/")
    wait_for(lambda: [a["state"] for a in nm.state()["active_connections"]] == [2])
    assert nm.state()["active_connections"][0]["path"] == active
    nm.bus.get_object(NM, path).Delete(dbus_interface=NM + ".Settings.Connection")
    state = nm.state()
    assert not state["profiles"] and not state["active_connections"]
    with pytest.raises(dbus.DBusException, match="UnknownConnection"):
        nm.manager().ActivateConnection(path, "/", "/")


def test_a_scan_refreshes_last_seen_except_for_a_hotspot_that_went_away(start_mock):
    """NetworkManager keeps listing a hotspot that went away; scans no longer hear it, though the kernel's
    cache has each one report it again, NetworkManager's whole-second rounding moving LastSeen by at most one."""
    opened = int(time.clock_gettime(time.CLOCK_BOOTTIME))
    nm = start_mock(access_points=[
        {"ssid": "ZT_HERE", "bssid": "24:0A:C4:00:00:01", "psk": None, "seen_ago_s": 3},
        {"ssid": "ZT_GONE", "bssid": "24:0A:C4:00:00:02", "psk": None, "seen_ago_s": 5, "gone": True}])
    device = nm.bus.get_object(NM, "/org/freedesktop/NetworkManager/Devices/1")
    wireless = NM + ".Device.Wireless"
    before = {ap["ssid"]: ap["last_seen"] for ap in nm.state()["access_points"]}
    boottime = int(time.clock_gettime(time.CLOCK_BOOTTIME))
    # The mock sets LastSeen as it loads its access points, somewhere between the clock reading before it
    # started and the one after its state was read (seconds apart when the machine is busy).
    assert opened - 3 <= before["ZT_HERE"] <= boottime - 3 and opened - 5 <= before["ZT_GONE"] <= boottime - 5
    assert all(ap["visible"] for ap in nm.state()["access_points"])

    device.RequestScan({}, dbus_interface=wireless)
    wait_for(lambda: device.Get(wireless, "LastScan", dbus_interface=dbus.PROPERTIES_IFACE) > 0)
    wait_for(lambda: all(ap["last_seen"] != before[ap["ssid"]] for ap in nm.state()["access_points"]
                         if ap["ssid"] in before))
    after = {ap["ssid"]: ap["last_seen"] for ap in nm.state()["access_points"]}
    assert after["ZT_HERE"] >= boottime and after["ZT_GONE"] == before["ZT_GONE"] + 1 < boottime - 3
    assert len(device.GetAllAccessPoints(dbus_interface=wireless)) == 3
    last_scan_s = device.Get(wireless, "LastScan", dbus_interface=dbus.PROPERTIES_IFACE) // 1000
    assert after["ZT_HERE"] <= last_scan_s

    result = nm.probe(ssid="ZT_GONE", psk=None)
    assert [120, 53] in result["device_states"] and "ip4" not in result


def test_a_scan_under_way_at_start_reports_what_it_heard_and_a_request_waits_for_it(start_mock):
    """NetworkManager 1.42 accepts RequestScan while a scan runs and starts the requested scan after it;
    the running scan, finishing first, reports a hotspot it heard just before the hotspot went away."""
    opened = int(time.clock_gettime(time.CLOCK_BOOTTIME))
    nm = start_mock(scan_running_ms=400, scan_ms=200, access_points=[
        {"ssid": "ZT_GONE", "bssid": "24:0A:C4:00:00:02", "psk": None, "seen_ago_s": 40, "heard_ago_s": 3,
         "gone": True}])
    device = nm.bus.get_object(NM, "/org/freedesktop/NetworkManager/Devices/1")
    wireless = NM + ".Device.Wireless"
    listed = nm.state()["access_points"][0]["last_seen"]
    boottime = int(time.clock_gettime(time.CLOCK_BOOTTIME))
    assert opened - 40 <= listed <= boottime - 40

    device.RequestScan({}, dbus_interface=wireless)
    first = wait_for(lambda: device.Get(wireless, "LastScan", dbus_interface=dbus.PROPERTIES_IFACE) > 0 and
                     device.Get(wireless, "LastScan", dbus_interface=dbus.PROPERTIES_IFACE))
    reported = wait_for(lambda: nm.state()["access_points"][0]["last_seen"] != listed and
                        nm.state()["access_points"][0]["last_seen"])
    assert opened - 3 <= reported <= boottime - 1, "heard 3 s before the start, plus NetworkManager's rounding"
    second = wait_for(lambda: device.Get(wireless, "LastScan", dbus_interface=dbus.PROPERTIES_IFACE) > first and
                      device.Get(wireless, "LastScan", dbus_interface=dbus.PROPERTIES_IFACE))
    assert second - first >= 150, "the requested scan ran after the running one"
    assert nm.state()["access_points"][0]["last_seen"] == reported
    kinds = [(e["event"], e.get("scan"), e.get("running")) for e in nm.state()["events"]
             if e["event"].startswith("scan_")]
    assert kinds == [("scan_started", "running at start", None), ("scan_requested", None, True),
                     ("scan_finished", "running at start", None), ("scan_started", "requested", None),
                     ("scan_finished", "requested", None)], kinds


def test_the_rate_limit_delays_a_requested_scan(start_mock):
    """Scans start at least scan_rate_limit_ms apart, as NetworkManager rate-limits them (8 s while connected)."""
    nm = start_mock(scan_ms=50, scan_rate_limit_ms=700)
    device = nm.bus.get_object(NM, "/org/freedesktop/NetworkManager/Devices/1")
    wireless = NM + ".Device.Wireless"
    last_scan = lambda: device.Get(wireless, "LastScan", dbus_interface=dbus.PROPERTIES_IFACE)
    device.RequestScan({}, dbus_interface=wireless)
    first = wait_for(lambda: last_scan() > 0 and last_scan())
    device.RequestScan({}, dbus_interface=wireless)
    second = wait_for(lambda: last_scan() > first and last_scan())
    assert second - first >= 600
