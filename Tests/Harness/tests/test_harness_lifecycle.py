"""harness.py up/down leave nothing behind: no process, no namespace, no veth, no bus socket —
also after an `up` that failed, an `up` killed half-way, a component that died, and a second down."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

HARNESS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, HARNESS_DIR)

from ztharness import netns, processes  # noqa: E402

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root (CI runs as root)"),
    pytest.mark.skipif(shutil.which("dbus-daemon") is None or shutil.which("ip") is None,
                       reason="dbus-daemon or iproute2 is not installed"),
]

HARNESS = ["/usr/bin/python3", os.path.join(HARNESS_DIR, "harness.py")]


def harness(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(HARNESS + list(args), capture_output=True, text=True, timeout=60)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def processes_mentioning(text: str) -> list[str]:
    """Command lines of live (non-zombie) processes that mention `text`, found independently of state.json."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in command and processes.start_time(int(entry)) is not None:
            found.append(f"{entry}: {command}")
    return found


def assert_nothing_left(run_dir: str, topology: dict | None) -> None:
    state = processes.load_state(run_dir)
    for name, entry in (state or {}).get("pids", {}).items():
        assert not processes.is_running(entry), f"{name} still running"
    assert processes_mentioning(run_dir) == []
    assert not os.path.exists(os.path.join(run_dir, "system_bus_socket"))
    if topology:
        namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
        assert topology["host_netns"] not in namespaces and topology["device_netns"] not in namespaces
        links = subprocess.run(["ip", "-br", "link"], capture_output=True, text=True, check=True).stdout
        assert topology["host_interface"] not in links and topology["device_interface"] not in links


@pytest.fixture
def run_dir(tmp_path):
    """A run directory that is always brought down at the end, whatever the test did."""
    yield str(tmp_path)
    harness("down", "--run-dir", str(tmp_path), check=False)


def test_up_then_down(run_dir):
    up = json.loads(harness("up", "--run-dir", run_dir).stdout)
    run_id = up["host_netns"].removeprefix("zth-")
    assert up["device_netns"] == f"ztd-{run_id}" and up["host_interface"] == f"zh{run_id}"
    assert (up["host_ip"], up["device_ip"]) == ("192.168.4.2", "192.168.4.1")
    assert up["bus_address"] == f"unix:path={run_dir}/system_bus_socket"
    assert set(up["pids"]) == {"dbus_daemon", "bus_recorder", "bluez_mock", "nm_mock", "device_host"}

    status = json.loads(harness("status", "--run-dir", run_dir).stdout)
    assert status["up"] and all(status["netns"].values())
    addresses = subprocess.run(["ip", "-n", up["host_netns"], "-br", "addr"], capture_output=True, text=True,
                               check=True).stdout
    assert "192.168.4.2/24" in addresses
    reach = subprocess.run(["ip", "netns", "exec", up["host_netns"], "/usr/bin/python3", "-c",
                            "import socket; socket.create_connection(('192.168.4.1', 80), 2).close()"],
                           capture_output=True, text=True)
    assert reach.returncode == 0, reach.stderr

    down = json.loads(harness("down", "--run-dir", run_dir).stdout)
    assert f"netns {up['host_netns']}" in down["removed"] and f"netns {up['device_netns']}" in down["removed"]
    assert_nothing_left(run_dir, netns.names(run_id))
    assert json.loads(harness("down", "--run-dir", run_dir).stdout)["removed"] == []


def test_down_after_up_was_killed_half_way(run_dir):
    up = subprocess.Popen(HARNESS + ["up", "--run-dir", run_dir], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    state = None
    while time.monotonic() < deadline:
        state = processes.load_state(run_dir)
        if state and state.get("netns") and "bluez_mock" in state["pids"]:
            break
        time.sleep(0.002)
    up.send_signal(signal.SIGKILL)
    up.wait()
    assert state and state.get("netns"), "up never reached the namespaces"
    removed = json.loads(harness("down", "--run-dir", run_dir).stdout)["removed"]
    assert any(item.startswith("process dbus_daemon") for item in removed)
    assert_nothing_left(run_dir, state["netns"])


def test_down_after_a_component_died(run_dir):
    up = json.loads(harness("up", "--run-dir", run_dir, "--no-netns").stdout)
    os.kill(up["pids"]["bluez_mock"], signal.SIGKILL)
    deadline = time.monotonic() + 30
    while json.loads(harness("status", "--run-dir", run_dir).stdout)["up"]:
        assert time.monotonic() < deadline, "status still reports the harness up"
        time.sleep(0.02)
    harness("down", "--run-dir", run_dir)
    assert_nothing_left(run_dir, None)


def test_up_without_the_bus_record_starts_no_recorder(run_dir):
    up = json.loads(harness("up", "--run-dir", run_dir, "--no-netns", "--no-bus-record").stdout)
    assert "bus_recorder" not in up["pids"] and {"dbus_daemon", "bluez_mock", "nm_mock"} <= set(up["pids"])
    assert json.loads(harness("status", "--run-dir", run_dir).stdout)["up"]
    assert not os.path.exists(os.path.join(run_dir, "bus.jsonl"))
    harness("down", "--run-dir", run_dir)
    assert_nothing_left(run_dir, None)


def test_failed_up_removes_what_it_started(run_dir):
    long_dir = os.path.join(run_dir, "long-" * 20)  # too long for a unix socket path: dbus-daemon cannot listen
    try:
        result = harness("up", "--run-dir", long_dir, check=False)
        assert result.returncode == 1
        assert "dbus_daemon" in json.loads(result.stdout)["error"]
        assert_nothing_left(long_dir, processes.load_state(long_dir).get("netns"))
    finally:
        harness("down", "--run-dir", long_dir, check=False)


def test_bad_scenario_starts_nothing(run_dir):
    result = harness("up", "--run-dir", run_dir, "--scenario-json",
                     json.dumps({"bluez": {"devices": [{"faults": {"link_loss_at_frames": 3}}]}}), check=False)
    assert result.returncode == 2
    assert "link_loss_at_frames" in json.loads(result.stdout)["error"]
    assert processes.load_state(run_dir) is None


def test_second_up_in_the_same_directory_replaces_the_first(run_dir):
    harness("up", "--run-dir", run_dir, "--no-netns")
    first = processes.load_state(run_dir)["pids"]
    with open(os.path.join(run_dir, "blufi-00_00_00_00_00_00.json"), "w", encoding="utf-8") as stale:
        stale.write("{}")
    harness("up", "--run-dir", run_dir, "--no-netns")
    assert not [name for name, entry in first.items() if processes.is_running(entry)]
    assert all(processes.is_running(entry) for entry in processes.load_state(run_dir)["pids"].values())
    assert not os.path.exists(os.path.join(run_dir, "blufi-00_00_00_00_00_00.json"))
    harness("down", "--run-dir", run_dir)
    assert_nothing_left(run_dir, None)


def test_device_records_outlive_the_mock(run_dir):
    """The BlueZ mock writes a device's record file a while after a change (the live record is asked for
    while it runs); stopped with SIGTERM before that, it writes the record as it ends."""
    import dbus

    address = "24:0A:C4:00:03:01"
    scenario = {"bluez": {"devices": [{"address": address, "name": "BLUFI_RECORD", "cached": True}]}}
    up = json.loads(harness("up", "--run-dir", run_dir, "--no-netns", "--scenario-json", json.dumps(scenario)).stdout)
    bus = dbus.bus.BusConnection(up["bus_address"])
    device = f"/org/bluez/hci0/dev_{address.replace(':', '_')}"
    bus.call_blocking("org.bluez", device, "org.bluez.Device1", "Connect", "", (), timeout=5)
    live = json.loads(bus.call_blocking("org.bluez", "/", "org.bluez.Mock", "GetReceived", "s", (address,)))
    bus.close()
    os.kill(up["pids"]["bluez_mock"], signal.SIGTERM)
    entry = processes.load_state(run_dir)["pids"]["bluez_mock"]
    deadline = time.monotonic() + 10
    while processes.is_running(entry) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not processes.is_running(entry)
    kept = json.loads(harness("received", "--run-dir", run_dir, "--source", "blufi").stdout)
    assert kept == [live]
    assert {"event": "connected", "detail": "hci0"} in live["ble"]["events"]
