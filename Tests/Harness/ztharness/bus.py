"""A private "system" dbus-daemon for one harness run.

System type so that libdbus, GDBus/libnm, dbus-python, dbus-fast (bleak) and bluetoothctl all pick it
up from DBUS_SYSTEM_BUS_ADDRESS; permissive policy because everything on it is ours; no service
directories so nothing is ever activated. The socket is a path socket: unlike abstract sockets it is
reachable from every network namespace.
"""

import os
import socket
import time

from . import processes

SOCKET_NAME = "system_bus_socket"
CONFIG_NAME = "bus.conf"

CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow receive_sender="*"/>
    <allow eavesdrop="true"/>
  </policy>
</busconfig>
"""


def socket_path(run_dir: str) -> str:
    return os.path.join(run_dir, SOCKET_NAME)


def address(run_dir: str) -> str:
    return f"unix:path={socket_path(run_dir)}"


def start(run_dir: str, state: dict, timeout_s: float = 15.0) -> str:
    """Starts the daemon, records its PID in `state` and returns the bus address once it accepts."""
    path = socket_path(run_dir)
    if os.path.exists(path):
        os.unlink(path)
    config = os.path.join(run_dir, CONFIG_NAME)
    with open(config, "w", encoding="utf-8") as handle:
        handle.write(CONFIG.format(socket=path))
    processes.spawn(state, "dbus_daemon", ["dbus-daemon", "--nofork", f"--config-file={config}"], run_dir)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if os.path.exists(path):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                try:
                    probe.connect(path)
                    return address(run_dir)
                except OSError:
                    pass
        processes.require_alive(state, "dbus_daemon", run_dir)
        time.sleep(0.005)
    raise processes.StartupError(f"dbus-daemon did not listen on {path} within {timeout_s} s")


def remove_socket(run_dir: str) -> bool:
    path = socket_path(run_dir)
    if os.path.exists(path):
        os.unlink(path)
        return True
    return False
