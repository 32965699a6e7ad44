"""The daemons of the lab guest and the knobs scenarios turn on them.

Bluetooth: dbus-daemon, the real bluetoothd, four hci_vhci controllers (ble_world). Wi-Fi:
mac80211_hwsim with three radios; wlan0 stays with the host and the real NetworkManager (with
systemd-udevd and wpa_supplicant); wlan1 moves to namespace "dev" where hostapd plays the device's
hotspot with dnsmasq and the harness's protocomm HTTP + Zhiting UDP device host behind it; wlan2
moves to namespace "home" where hostapd plays the user's home network with dnsmasq and a Zhiting
UDP device (the provisioned device, now on the LAN) for the hand-off.
"""

import asyncio
import json
import os
import signal
import time

from ble_world import BleWorld

HARNESS = os.path.join(os.environ["ZTLAB_REPO"], "Tests", "Harness")
# Four controllers: `batch` runs a lane on each; single runs use hci0 unless a scenario picks another.
KERNEL_CONTROLLERS = ["F0:00:00:00:00:01", "F0:00:00:00:00:02", "F0:00:00:00:00:03", "F0:00:00:00:00:04"]
HOME_SSID = "HomeNet"
HOME_PASSWORD = "home-pass-4711"
HOTSPOT_PASSWORD = "hotspot-pass-99"
NM_CONF = """[main]
plugins=keyfile
dhcp=internal
dns=none
rc-manager=unmanaged
no-auto-default=*
auth-polkit=true

[keyfile]
path=/run/NetworkManager/system-connections
unmanaged-devices=except:interface-name:wlan0

[device]
wifi.scan-rand-mac-address=no

[connectivity]
enabled=false
"""
# Tests/RealStack/run --daemon-debug: debug logs of bluetoothd, NetworkManager (scans at trace level) and
# wpa_supplicant, btmon's record of the HCI traffic, and NetworkManager's property changes on the bus.
DAEMON_DEBUG = bool(os.environ.get("ZTLAB_DAEMON_DEBUG"))
NM_DEBUG_LOGGING = """
[logging]
level=INFO
domains=ALL:INFO,WIFI_SCAN:TRACE,WIFI:DEBUG,SUPPLICANT:DEBUG
"""


class StackError(Exception):
    pass


async def run(*argv, check=True, timeout=90.0, env=None) -> tuple[int, str]:
    """Runs a command to its end; output is stdout and stderr together."""
    process = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.STDOUT, env=env)
    try:
        output, _ = await asyncio.wait_for(process.communicate(), timeout)
    except asyncio.TimeoutError:
        process.kill()
        await process.wait()
        raise StackError(f"{' '.join(argv)} did not finish within {timeout}s")
    text = output.decode(errors="replace")
    if check and process.returncode != 0:
        raise StackError(f"{' '.join(argv)} → {process.returncode}: {text.strip()}")
    return process.returncode, text


async def wait_until(what: str, probe, timeout: float, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while True:
        result = await probe()
        if result:
            return result
        if time.monotonic() > deadline:
            raise StackError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(interval)


class Daemon:
    """A long-running process with its output in the results directory."""

    def __init__(self, name: str, argv: list[str], logs: str, env=None):
        self.name = name
        self.argv = argv
        self.log_path = os.path.join(logs, f"{name}.log")
        self.env = env
        self.process = None

    async def start(self) -> None:
        log = open(self.log_path, "ab")
        self.process = await asyncio.create_subprocess_exec(*self.argv, stdout=log, stderr=log, env=self.env,
                                                            start_new_session=True)
        log.close()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def stop(self) -> None:
        if not self.running:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except asyncio.TimeoutError:
            self.process.kill()
            await self.process.wait()


class GuestStack:
    def __init__(self, results: str):
        self.results = results
        self.logs = os.path.join(results, "logs")
        os.makedirs(self.logs, exist_ok=True)
        self.ble = BleWorld()
        self.daemons: dict[str, Daemon] = {}
        self.hotspot_bssid = ""
        self.device_id = ""
        self.hotspot: tuple | None = None

    # Bluetooth -------------------------------------------------------------------------------------

    async def start_bus(self) -> None:
        os.makedirs("/run/dbus", exist_ok=True)
        await run("dbus-daemon", "--system", "--fork")
        await wait_until("the system bus", self._bus_up, 10)
        # NetworkManager asks polkit about every caller but root (its own rule), as on a Debian host.
        await self.start_daemon("polkitd", ["/usr/lib/polkit-1/polkitd", "--no-debug"])

    async def start_bluetooth(self) -> None:
        await run("modprobe", "hci_vhci")
        await self.start_bluetoothd()
        for address in KERNEL_CONTROLLERS:
            await self.ble.add_kernel_controller(address)
        await wait_until("every adapter powered", self.adapters_powered, 60)

    async def _bus_up(self) -> bool:
        return os.path.exists("/run/dbus/system_bus_socket")

    async def start_bluetoothd(self) -> None:
        if DAEMON_DEBUG and "btmon" not in self.daemons:
            await self.start_daemon("btmon", ["btmon", "-T"])
        await self.start_daemon("bluetoothd", ["/usr/libexec/bluetooth/bluetoothd", "-n"]
                                + (["-d"] if DAEMON_DEBUG else []))
        await wait_until("bluetoothd on the bus", lambda: self.on_bus("org.bluez"), 15)

    async def on_bus(self, name: str) -> bool:
        code, text = await run("busctl", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                               "org.freedesktop.DBus", "NameHasOwner", "s", name, check=False)
        return code == 0 and "true" in text

    async def adapters_powered(self) -> bool:
        for index in range(len(KERNEL_CONTROLLERS)):
            code, text = await run("busctl", "get-property", "org.bluez", f"/org/bluez/hci{index}",
                                   "org.bluez.Adapter1", "Powered", check=False)
            if code != 0 or "true" not in text:
                return False
        return True

    async def assign_slot(self, controller: str, slot: int) -> None:
        """A udev rule like the one a station installs gives `controller` the station slot `slot`."""
        os.makedirs("/etc/udev/rules.d", exist_ok=True)
        with open("/etc/udev/rules.d/70-ztlab-slot.rules", "w") as handle:
            handle.write(f'SUBSYSTEM=="bluetooth", KERNEL=="{controller}", ENV{{ZTPROV_SLOT}}="{slot}"\n')
        await run("udevadm", "control", "--reload")
        await run("udevadm", "trigger", "--action=add", "--subsystem-match=bluetooth")
        await run("udevadm", "settle", "--timeout=20", timeout=25)

    async def set_powered(self, index: int, powered: bool) -> None:
        await run("btmgmt", "--index", str(index), "power", "on" if powered else "off")

    def bluetooth_rfkill(self) -> list[str]:
        """The controllers' rfkill switches (the hwsim radios moved to namespaces vanish from the list)."""
        paths = []
        for index in range(len(KERNEL_CONTROLLERS)):
            base = f"/sys/class/bluetooth/hci{index}"
            paths += [f"{base}/{entry}" for entry in os.listdir(base) if entry.startswith("rfkill")]
        return paths

    def set_bluetooth_soft_block(self, blocked: bool) -> None:
        for base in self.bluetooth_rfkill():
            with open(f"{base}/soft", "w") as handle:
                handle.write("1" if blocked else "0")

    async def device_connected(self, adapter: str, address: str) -> bool | None:
        """bluetoothd's `Connected` for the device on `adapter`; None when it keeps no such device."""
        return await self._device_flag(adapter, address, "Connected")

    async def device_paired(self, adapter: str, address: str) -> bool | None:
        """bluetoothd's `Paired` for the device on `adapter`; None when it keeps no such device."""
        return await self._device_flag(adapter, address, "Paired")

    async def _device_flag(self, adapter: str, address: str, flag: str) -> bool | None:
        path = f"/org/bluez/{adapter}/dev_{address.replace(':', '_')}"
        code, text = await run("busctl", "get-property", "org.bluez", path, "org.bluez.Device1", flag, check=False)
        if code != 0:
            return None
        return "true" in text

    # Wi-Fi -----------------------------------------------------------------------------------------

    async def start_wifi(self) -> None:
        await run("modprobe", "mac80211_hwsim", "radios=3")
        await wait_until("three hwsim radios", self._three_radios, 10)
        with open("/sys/class/net/wlan1/address") as handle:
            self.hotspot_bssid = handle.read().strip()
        self.device_id = self.hotspot_bssid.replace(":", "")
        for netns, interface, address in (("dev", "wlan1", "192.168.4.1/24"), ("home", "wlan2", "192.168.50.1/24")):
            phy = os.path.basename(os.readlink(f"/sys/class/net/{interface}/phy80211"))
            await run("ip", "netns", "add", netns)
            await run("iw", "phy", phy, "set", "netns", "name", netns)
            await run("ip", "-n", netns, "link", "set", "lo", "up")
            await run("ip", "-n", netns, "addr", "add", address, "dev", interface)
        await self.start_home()
        await self.start_hotspot("wpa2")
        await self.start_network_manager()

    async def _three_radios(self) -> bool:
        return all(os.path.exists(f"/sys/class/net/wlan{n}") for n in range(3))

    def _write(self, name: str, text: str) -> str:
        path = os.path.join("/run", name)
        with open(path, "w") as handle:
            handle.write(text)
        return path

    def _hostapd_conf(self, interface: str, ssid: str, password: str | None) -> str:
        lines = [f"interface={interface}", "driver=nl80211", f"ssid={ssid}", "hw_mode=g", "channel=6",
                 "ctrl_interface=/run/hostapd-" + interface]
        if password is not None:
            lines += ["wpa=2", "wpa_key_mgmt=WPA-PSK", "rsn_pairwise=CCMP", f"wpa_passphrase={password}"]
        return self._write(f"hostapd-{interface}.conf", "\n".join(lines) + "\n")

    async def start_home(self) -> None:
        conf = self._hostapd_conf("wlan2", HOME_SSID, HOME_PASSWORD)
        await self.start_daemon("hostapd-home", ["ip", "netns", "exec", "home", "hostapd", conf])
        await self.start_daemon("dnsmasq-home", self._dnsmasq("home", "wlan2", "192.168.50"))
        await self.start_home_device()

    async def start_home_device(self) -> None:
        """The provisioned device on the home LAN: its Zhiting UDP service answers the hand-off."""
        config = {"zhiting": {"device_id": self.device_id}}
        await self._device_host("home-device", "home", config, "192.168.50.1:8080")

    def _dnsmasq(self, netns: str, interface: str, prefix: str) -> list[str]:
        return ["ip", "netns", "exec", netns, "dnsmasq", "--keep-in-foreground", "--no-ping", "--port=0",
                f"--interface={interface}", "--bind-interfaces", f"--dhcp-range={prefix}.10,{prefix}.60,1h",
                f"--dhcp-leasefile=/run/dnsmasq-{netns}.leases", "--no-resolv", "--log-dhcp"]

    async def start_hotspot(self, security: str, ssid: str | None = None) -> str:
        """The device's hotspot: "wpa2" or "open" (kept when it already runs so). Returns its SSID."""
        ssid = ssid or ("PROV_LAB_WPA2" if security == "wpa2" else "PROV_LAB_OPEN")
        if self.hotspot == (security, ssid) and "hostapd-dev" in self.daemons:
            return ssid
        self.hotspot = (security, ssid)
        await self.stop_daemon("hostapd-dev")
        await self.stop_daemon("dnsmasq-dev")
        conf = self._hostapd_conf("wlan1", ssid, HOTSPOT_PASSWORD if security == "wpa2" else None)
        await self.start_daemon("hostapd-dev", ["ip", "netns", "exec", "dev", "hostapd", conf])
        await self.start_daemon("dnsmasq-dev", self._dnsmasq("dev", "wlan1", "192.168.4"))
        return ssid

    async def stop_hotspot(self) -> None:
        self.hotspot = None
        await self.stop_daemon("hostapd-dev")
        await self.stop_daemon("dnsmasq-dev")

    async def start_device_host(self, config: dict) -> None:
        """The device's HTTP and UDP services behind the hotspot, restarted for each provisioning run
        (the provisioning manager stops after success) unless nothing used it since."""
        config = json.loads(json.dumps(config))
        config.setdefault("protocomm", {})["ap_bssid"] = self.hotspot_bssid
        await self._device_host("device-host", "dev", config, "192.168.4.1:80")

    async def _device_host(self, name: str, netns: str, config: dict, http_addr: str) -> None:
        await self.stop_daemon(name)
        config_path = self._write(f"{name}.json", json.dumps(config))
        ready = f"/run/{name}.ready"
        if os.path.exists(ready):
            os.remove(ready)
        env = dict(os.environ, PYTHONPATH=HARNESS)
        await self.start_daemon(name, ["ip", "netns", "exec", netns, "/usr/bin/python3", "-m",
                                       "ztharness.device_host", "--config", config_path, "--record",
                                       os.path.join(self.logs, f"{name}.records.jsonl"),
                                       "--http-addr", http_addr, "--ready-file", ready], env=env)

        async def ready_file() -> bool:
            return os.path.exists(ready)

        await wait_until(f"{name} listening", ready_file, 60)

    async def start_network_manager(self) -> None:
        os.makedirs("/etc/NetworkManager/conf.d", exist_ok=True)
        for entry in os.listdir("/etc/NetworkManager/conf.d"):
            os.remove(os.path.join("/etc/NetworkManager/conf.d", entry))
        with open("/etc/NetworkManager/NetworkManager.conf", "w") as handle:
            handle.write(NM_CONF + (NM_DEBUG_LOGGING if DAEMON_DEBUG else ""))
        os.makedirs("/run/NetworkManager/system-connections", exist_ok=True)
        await run("/lib/systemd/systemd-udevd", "--daemon")
        await run("udevadm", "trigger", "--action=add", "--subsystem-match=net", "--subsystem-match=rfkill",
                  "--subsystem-match=ieee80211")
        await run("udevadm", "settle", "--timeout=20", timeout=25)
        os.makedirs("/run/wpa_supplicant", exist_ok=True)
        await self.start_daemon("wpa_supplicant", ["wpa_supplicant", "-u", "-O", "/run/wpa_supplicant"]
                                + (["-d", "-t"] if DAEMON_DEBUG else []))
        if DAEMON_DEBUG:
            # NetworkManager's scan results as a client sees them (LastScan, each access point's LastSeen).
            await self.start_daemon("nm-signals", [
                "dbus-monitor", "--system", "--monitor",
                "type='signal',sender='org.freedesktop.NetworkManager',member='PropertiesChanged'"])
        await self.start_nm()
        await run("nmcli", "connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", "home",
                  "ssid", HOME_SSID, "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.psk", HOME_PASSWORD)
        await self.connect_home()

    async def start_nm(self) -> None:
        # --debug: the log goes to stderr (the guest has no syslog), so NetworkManager.log holds it.
        await self.start_daemon("NetworkManager", ["NetworkManager", "--no-daemon", "--debug"])
        await wait_until("NetworkManager managing wlan0", self._wlan0_managed, 60)

    async def _wlan0_managed(self) -> bool:
        code, text = await run("nmcli", "-t", "-f", "DEVICE,STATE", "device", check=False)
        return code == 0 and any(line.startswith("wlan0:") and "unmanaged" not in line and "unavailable" not in line
                                 for line in text.splitlines())

    async def connect_home(self) -> None:
        async def home_visible() -> bool:
            await run("nmcli", "device", "wifi", "rescan", check=False)
            _, text = await run("nmcli", "-t", "-f", "SSID", "device", "wifi", "list", check=False)
            return HOME_SSID in text.split()

        await wait_until("HomeNet in NetworkManager's scan list", home_visible, 40, interval=1.5)
        await run("nmcli", "connection", "up", "home", timeout=40)

    @staticmethod
    def boottime() -> float:
        """CLOCK_BOOTTIME seconds, the clock of NetworkManager's LastSeen."""
        return time.clock_gettime(time.CLOCK_BOOTTIME)

    async def access_points(self) -> list[dict]:
        """wlan0's access points as NetworkManager lists them: SSID and LastSeen (CLOCK_BOOTTIME seconds)."""
        nm = "org.freedesktop.NetworkManager"
        _, text = await run("busctl", "--json=short", "call", nm, "/org/freedesktop/NetworkManager", nm,
                            "GetDeviceByIpIface", "s", "wlan0")
        device = json.loads(text)["data"][0]
        _, text = await run("busctl", "--json=short", "get-property", nm, device, nm + ".Device.Wireless",
                            "AccessPoints")
        found = []
        for path in json.loads(text)["data"]:
            code, ssid = await run("busctl", "--json=short", "get-property", nm, path, nm + ".AccessPoint", "Ssid",
                                   check=False)
            code2, seen = await run("busctl", "--json=short", "get-property", nm, path, nm + ".AccessPoint",
                                    "LastSeen", check=False)
            if code == 0 and code2 == 0:
                found.append({"ssid": bytes(json.loads(ssid)["data"]).decode(errors="replace"),
                              "last_seen": json.loads(seen)["data"]})
        return found

    async def wifi_state(self) -> dict:
        """What a scenario leaves behind: active connections and every profile NetworkManager has."""
        _, active = await run("nmcli", "-t", "-f", "NAME,DEVICE", "connection", "show", "--active", check=False)
        _, profiles = await run("nmcli", "-t", "-f", "NAME", "connection", "show", check=False)
        _, address = await run("ip", "-4", "-o", "addr", "show", "wlan0", check=False)
        return {"active": [line for line in active.splitlines() if line],
                "profiles": [line for line in profiles.splitlines() if line],
                "wlan0": address.strip()}

    # Daemons ---------------------------------------------------------------------------------------

    async def start_daemon(self, name: str, argv: list[str], env=None) -> None:
        daemon = Daemon(name, argv, self.logs, env)
        await daemon.start()
        self.daemons[name] = daemon

    async def stop_daemon(self, name: str) -> None:
        daemon = self.daemons.pop(name, None)
        if daemon is not None:
            await daemon.stop()
