#!/usr/bin/python3
"""The real NetworkManager daemon in a network namespace, for one test.

  real_nm.py [--no-dhcp]

Builds two namespaces joined by a veth pair: ztnm-<pid> runs NetworkManager on its end (ztnm0),
ztdv-<pid> is the "device" (192.168.4.1/24 on ztdv0, dnsmasq serving 192.168.4.10-20 unless
--no-dhcp). NetworkManager runs in a private mount and UTS namespace with a tmpfs /run, a read-only
/sys (so it manages links without udev), its state and profiles in a temporary directory, and a
private system bus whose path socket is reachable from every namespace.

Prints one JSON line once NetworkManager manages ztnm0 -- {"bus_address", "interface", "nm_netns",
"device_netns"} -- or {"error"} if it never does. Then answers one JSON line per command line on
standard input:
  state                      what the daemon and the kernel say: profiles, active connections,
                             ztnm0's IPv4 addresses, default routes in NetworkManager's namespace
  activate-static NAME CIDR  adds and activates a persistent static profile on ztnm0 ("previous")
until standard input closes (the test is done, or died) or a signal arrives, and then removes
everything: daemons, namespaces, the directory.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import dbus

from ztharness import bus as private_bus

NM_INTERFACE = "ztnm0"
DEVICE_INTERFACE = "ztdv0"
DEVICE_ADDRESS = "192.168.4.1/24"
NM = "org.freedesktop.NetworkManager"
PROPERTIES = "org.freedesktop.DBus.Properties"
VOLATILE_FLAG = 0x4  # NMSettingsConnectionFlags: deleted when it goes down
STARTUP_TIMEOUT_S = 30.0  # bounds a real failure; a loaded two-core CI can stall start-up for seconds


# hostname-mode=none: the daemon shares the host's hostname otherwise (the UTS namespace is a second guard).
NM_CONFIG = """[main]
plugins=keyfile
auth-polkit=false
dns=none
rc-manager=unmanaged
hostname-mode=none
no-auto-default=*
dhcp=internal

[keyfile]
path={profiles}

[device]
match-device=*
managed=1
"""

# Runs inside NetworkManager's own mount namespace, so these mounts never reach the host.
NM_START = """set -e
mount -t tmpfs tmpfs /run
mount -o remount,bind,ro /sys
mount --bind "$LAB/varlib" /var/lib/NetworkManager
exec NetworkManager --no-daemon --debug --config="$LAB/nm.conf" --config-dir="$LAB/conf.d" \
    --system-config-dir="$LAB/conf.d" --intern-config="$LAB/varlib/intern.conf" \
    --state-file="$LAB/varlib/NetworkManager.state" --pid-file=/run/NetworkManager.pid
"""


class Lab:
    """Everything one run creates, so that `close` removes exactly that, whatever failed."""

    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="ztprov-realnm-")
        self.nm_netns = f"ztnm-{os.getpid()}"
        self.device_netns = f"ztdv-{os.getpid()}"
        self.bus_socket = os.path.join(self.directory, "system_bus_socket")
        self.processes: list[subprocess.Popen] = []
        self.namespaces: list[str] = []

    def path(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def spawn(self, name: str, argv: list[str], **options) -> subprocess.Popen:
        log = open(self.path(f"{name}.log"), "wb")
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, **options)
        log.close()
        self.processes.append(process)
        return process

    def close(self) -> None:
        for process in reversed(self.processes):
            stop(process)
        for namespace in reversed(self.namespaces):
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, check=False)
        shutil.rmtree(self.directory, ignore_errors=True)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def ip(*args: str) -> None:
    result = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if result.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {result.stderr.strip()}")


def wait_until(what: str, condition) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting until {what}")
        time.sleep(0.05)


def build_network(lab: Lab) -> None:
    for namespace in (lab.nm_netns, lab.device_netns):
        ip("netns", "add", namespace)
        lab.namespaces.append(namespace)
        ip("-n", namespace, "link", "set", "lo", "up")
    ip("link", "add", NM_INTERFACE, "netns", lab.nm_netns, "type", "veth",
       "peer", "name", DEVICE_INTERFACE, "netns", lab.device_netns)
    ip("-n", lab.device_netns, "addr", "add", DEVICE_ADDRESS, "dev", DEVICE_INTERFACE)
    ip("-n", lab.device_netns, "link", "set", DEVICE_INTERFACE, "up")


def start_dhcp_server(lab: Lab) -> None:
    # --no-ping: dnsmasq otherwise probes each new address for three seconds before offering it.
    lab.spawn("dnsmasq", [
        "ip", "netns", "exec", lab.device_netns, "dnsmasq", "--no-daemon", "--conf-file=/dev/null",
        "--port=0", f"--interface={DEVICE_INTERFACE}", "--bind-interfaces", "--no-ping",
        "--dhcp-range=192.168.4.10,192.168.4.20,255.255.255.0,1h", f"--dhcp-leasefile={lab.path('leases')}",
    ])


def start_bus(lab: Lab) -> None:
    with open(lab.path("bus.conf"), "w", encoding="utf-8") as handle:
        handle.write(private_bus.CONFIG.format(socket=lab.bus_socket))
    lab.spawn("dbus-daemon", ["dbus-daemon", "--nofork", f"--config-file={lab.path('bus.conf')}"])
    wait_until("the private bus accepts connections", lambda: accepts(lab.bus_socket))


def accepts(path: str) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
            return True
        except OSError:
            return False


def start_network_manager(lab: Lab, environment: dict) -> None:
    for directory in ("varlib", "conf.d", "profiles"):
        os.mkdir(lab.path(directory))
    with open(lab.path("nm.conf"), "w", encoding="utf-8") as handle:
        handle.write(NM_CONFIG.format(profiles=lab.path("profiles")))
    lab.spawn("NetworkManager", [
        "ip", "netns", "exec", lab.nm_netns, "unshare", "--mount", "--uts", "--propagation", "private",
        "/bin/sh", "-c", NM_START,
    ], env=environment | {"LAB": lab.directory})
    wait_until(f"NetworkManager manages {NM_INTERFACE}", lambda: device_state(environment) == "disconnected")


def device_state(environment: dict) -> str | None:
    result = subprocess.run(["nmcli", "-t", "-f", "DEVICE,STATE", "device"], env=environment,
                            capture_output=True, text=True, check=False)
    states = dict(line.split(":", 1) for line in result.stdout.splitlines() if ":" in line)
    return states.get(NM_INTERFACE)


def daemon_state(lab: Lab, environment: dict) -> dict:
    bus = dbus.bus.BusConnection(environment["DBUS_SYSTEM_BUS_ADDRESS"])
    try:
        return {"profiles": profiles(bus), "active": active_connections(bus),
                "addresses": addresses(lab), "default_routes": default_routes(lab)}
    finally:
        bus.close()


def profiles(bus) -> list[dict]:
    settings = bus.get_object(NM, "/org/freedesktop/NetworkManager/Settings")
    found = []
    for path in settings.ListConnections(dbus_interface=f"{NM}.Settings"):
        profile = bus.get_object(NM, path)
        connection = profile.GetSettings(dbus_interface=f"{NM}.Settings.Connection")["connection"]
        flags = profile.Get(f"{NM}.Settings.Connection", "Flags", dbus_interface=PROPERTIES)
        found.append({"id": str(connection["id"]), "type": str(connection["type"]),
                      "volatile": bool(flags & VOLATILE_FLAG)})
    return found


def active_connections(bus) -> list[dict]:
    manager = bus.get_object(NM, "/org/freedesktop/NetworkManager")
    found = []
    for path in manager.Get(NM, "ActiveConnections", dbus_interface=PROPERTIES):
        active = bus.get_object(NM, path).GetAll(f"{NM}.Connection.Active", dbus_interface=PROPERTIES)
        found.append({"id": str(active["Id"]), "state": int(active["State"])})
    return found


def addresses(lab: Lab) -> list[str]:
    links = ip_json("-n", lab.nm_netns, "-4", "addr", "show", "dev", NM_INTERFACE)
    return [f"{entry['local']}/{entry['prefixlen']}" for link in links for entry in link.get("addr_info", [])]


def default_routes(lab: Lab) -> list[dict]:
    return ip_json("-n", lab.nm_netns, "-4", "route", "show", "default")


def ip_json(*args: str) -> list:
    result = subprocess.run(["ip", "-j", *args], capture_output=True, text=True, check=True)
    return json.loads(result.stdout or "[]")


def activate_static(name: str, cidr: str, environment: dict) -> dict:
    commands = [
        ["connection", "add", "type", "ethernet", "ifname", NM_INTERFACE, "con-name", name, "autoconnect", "no",
         "ipv4.method", "manual", "ipv4.addresses", cidr, "ipv6.method", "disabled"],
        ["--wait", "20", "connection", "up", name],
    ]
    for command in commands:
        result = subprocess.run(["nmcli", *command], env=environment, capture_output=True, text=True, check=False)
        if result.returncode:
            return {"error": f"nmcli {' '.join(command)}: {result.stderr.strip()}"}
    return {"ok": True}


def serve(lab: Lab, environment: dict) -> None:
    for line in sys.stdin:
        words = line.split()
        if words == ["state"]:
            try:
                report(daemon_state(lab, environment))
            except (dbus.DBusException, subprocess.CalledProcessError) as error:
                report({"error": f"reading the state failed: {error}\n{log_tail(lab, 'NetworkManager')}"})
        elif len(words) == 3 and words[0] == "activate-static":
            report(activate_static(words[1], words[2], environment))
        else:
            report({"error": f"unknown command: {line.strip()}"})


def log_tail(lab: Lab, name: str, lines: int = 30) -> str:
    try:
        with open(lab.path(f"{name}.log"), encoding="utf-8", errors="replace") as handle:
            return "".join(handle.readlines()[-lines:])
    except OSError:
        return ""


def run(with_dhcp: bool) -> int:
    lab = Lab()
    try:
        environment = os.environ | {"DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={lab.bus_socket}"}
        try:
            build_network(lab)
            if with_dhcp:
                start_dhcp_server(lab)
            start_bus(lab)
            start_network_manager(lab, environment)
        except (RuntimeError, OSError) as error:
            report({"error": f"{error}\n{log_tail(lab, 'NetworkManager')}"})
            return 1
        report({"bus_address": environment["DBUS_SYSTEM_BUS_ADDRESS"], "interface": NM_INTERFACE,
                "nm_netns": lab.nm_netns, "device_netns": lab.device_netns})
        serve(lab, environment)
        return 0
    finally:
        lab.close()


def report(message: dict) -> None:
    print(json.dumps(message), flush=True)


def leave_on_signal(signum, frame) -> None:
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, leave_on_signal)
    # A test started from a Swift concurrency thread hands down a blocked signal mask; undo it.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    sys.exit(run(with_dhcp="--no-dhcp" not in sys.argv[1:]))
