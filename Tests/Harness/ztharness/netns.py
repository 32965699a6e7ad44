"""Network namespaces and veth pair of one harness run.

zth-<id> is the "host" side, where the tool under test runs (via `ip netns exec`); ztd-<id> is the
emulated device. The veth ends are created directly inside the namespaces, so nothing ever appears
in the root namespace, and deleting the two namespaces removes the pair as well.
"""

import os
import secrets
import subprocess

HOST_IP = "192.168.4.2"
DEVICE_IP = "192.168.4.1"
PREFIX_LEN = 24
BROADCAST = "192.168.4.255"
NETNS_DIR = "/run/netns"


class NetnsError(RuntimeError):
    pass


def new_run_id(owner_pid: int) -> str:
    """<owner pid>-<4 hex digits>: the owning test process in every name (see stale.py), and interface
    names within the kernel's 15 characters (zh + 7 digits + - + 4)."""
    return f"{owner_pid}-{secrets.token_hex(2)}"


def names(run_id: str) -> dict:
    return {"host_netns": f"zth-{run_id}", "device_netns": f"ztd-{run_id}",
            "host_interface": f"zh{run_id}", "device_interface": f"zd{run_id}"}


def _ip(*args: str, batch: str | None = None) -> None:
    result = subprocess.run(["ip", *args], input=batch, capture_output=True, text=True, check=False)
    if result.returncode:
        raise NetnsError(f"ip {' '.join(args)} failed: {result.stderr.strip()}")


def exists(namespace: str) -> bool:
    return os.path.exists(os.path.join(NETNS_DIR, namespace))


def reserve(owner_pid: int, attempts: int = 16) -> dict:
    """The names of a new run whose two namespaces this call has created. Run ids are random, so two runs
    of one test process can draw the same; `ip netns add` refuses a name that exists, so a drawn name
    another run holds is left to it and another is drawn."""
    for _ in range(attempts):
        topology = names(new_run_id(owner_pid))
        if not _add_if_free(topology["host_netns"]):
            continue
        if _add_if_free(topology["device_netns"]):
            return topology
        _ip("netns", "delete", topology["host_netns"])
    raise NetnsError(f"no free namespace name in {attempts} draws")


def _add_if_free(namespace: str) -> bool:
    """Creates `namespace`; False when it exists already (another run's), an error for any other failure."""
    try:
        _ip("netns", "add", namespace)
        return True
    except NetnsError:
        if exists(namespace):
            return False
        raise


def connect(topology: dict) -> None:
    """The veth pair between the two reserved namespaces, addresses, links up (lo included)."""
    host, device = topology["host_netns"], topology["device_netns"]
    host_if, device_if = topology["host_interface"], topology["device_interface"]
    _ip("link", "add", host_if, "netns", host, "type", "veth", "peer", "name", device_if, "netns", device)
    _ip("-n", host, "-batch", "-", batch=(
        f"addr add {HOST_IP}/{PREFIX_LEN} brd {BROADCAST} dev {host_if}\n"
        f"link set {host_if} up\nlink set lo up\n"))
    _ip("-n", device, "-batch", "-", batch=(
        f"addr add {DEVICE_IP}/{PREFIX_LEN} brd {BROADCAST} dev {device_if}\n"
        f"link set {device_if} up\nlink set lo up\n"))


def delete(topology: dict) -> list[str]:
    """Deletes whichever of the two namespaces exists; returns what was removed."""
    removed = []
    for key in ("host_netns", "device_netns"):
        namespace = topology[key]
        if exists(namespace):
            _ip("netns", "delete", namespace)
            removed.append(f"netns {namespace}")
    return removed


def exec_prefix(namespace: str) -> list[str]:
    return ["ip", "netns", "exec", namespace]
