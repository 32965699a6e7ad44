"""Connect through an adapter that is discovering: slow as with the real kernel and bluetoothd, or failing
after the connection timeout; a stopped discovery connects at once."""

import json
import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mock_harness import mock_harness  # noqa: E402
from test_bluez_mock import (ADAPTER, DEVICE, Client, device_path,  # noqa: E402
                             expect_error, pytestmark)

__all__ = ["pytestmark"]

UNITS = ["24:0A:C4:20:00:01", "24:0A:C4:20:00:02", "24:0A:C4:20:00:03"]
SLOW_MS, TIMEOUT_MS = 600, 1500


def scenario(connect_while_discovering_ms: int) -> dict:
    return {"bluez": {
        "connect_timeout_ms": TIMEOUT_MS, "connect_while_discovering_ms": connect_while_discovering_ms,
        "adapters": [{"name": "hci0", "address": "00:AA:BB:CC:DF:00"}, {"name": "hci1", "address": "00:AA:BB:CC:DF:01"}],
        "devices": [{"adapters": ["hci0", "hci1"], "address": address, "name": f"ZT_{n}", "advertise_delay_ms": 20,
                     "resolve_delay_ms": 20} for n, address in enumerate(UNITS)]}}


@pytest.fixture
def harness(request, tmp_path):
    with mock_harness(str(tmp_path), scenario(request.param), timeout=60) as up:
        client = Client(up["bus_address"])
        yield client
        client.close()


def discover(client: Client, adapter: str) -> None:
    client.call(f"/org/bluez/{adapter}", ADAPTER, "StartDiscovery")
    client.wait_for(lambda: all(device_path(u, adapter) in client.objects() for u in UNITS), what="every unit")


def timed_connect(client: Client, address: str, adapter: str) -> float:
    began = time.monotonic()
    client.call(device_path(address, adapter), DEVICE, "Connect", timeout=10)
    return time.monotonic() - began


def events(client: Client, address: str) -> list:
    return json.loads(client.call("/", "org.bluez.Mock", "GetReceived", "s", (address,)))["ble"]["events"]


@pytest.mark.parametrize("harness", [SLOW_MS], indirect=True)
def test_connect_is_slow_only_while_its_own_adapter_discovers(harness):
    client = harness
    discover(client, "hci0")
    discover(client, "hci1")
    assert timed_connect(client, UNITS[0], "hci0") >= SLOW_MS / 1000 * 0.9
    assert [e for e in events(client, UNITS[0]) if e["event"] == "connect-while-discovering"] == [
        {"event": "connect-while-discovering", "detail": "hci0"}]
    client.call(device_path(UNITS[0], "hci0"), DEVICE, "Disconnect")

    client.call("/org/bluez/hci0", ADAPTER, "StopDiscovery")
    assert timed_connect(client, UNITS[1], "hci0") < SLOW_MS / 1000 * 0.9, "hci1 still discovering does not matter"
    assert not [e for e in events(client, UNITS[1]) if e["event"] == "connect-while-discovering"]
    client.call(device_path(UNITS[1], "hci0"), DEVICE, "Disconnect")


@pytest.mark.parametrize("harness", [SLOW_MS], indirect=True)
def test_disconnect_cancels_a_connect_pending_behind_discovery(harness):
    client = harness
    discover(client, "hci0")
    outcome = []
    client.bus.get_object("org.bluez", device_path(UNITS[2], "hci0")).Connect(
        dbus_interface=DEVICE, reply_handler=lambda: outcome.append("ok"),
        error_handler=lambda e: outcome.append(e.get_dbus_message()))
    client.pump(0.1)
    expect_error("org.bluez.Error.InProgress", client.call, device_path(UNITS[2], "hci0"), DEVICE, "Connect")
    client.call(device_path(UNITS[2], "hci0"), DEVICE, "Disconnect")
    client.wait_for(lambda: outcome, what="the pending connect to end")
    assert outcome == ["le-connection-abort-by-local"]
    client.pump(SLOW_MS / 1000 + 0.2)
    assert not client.get(device_path(UNITS[2], "hci0"), DEVICE, "Connected"), "a cancelled connect stays down"


@pytest.mark.parametrize("harness", [TIMEOUT_MS], indirect=True)
def test_connect_while_discovering_fails_when_it_is_not_shorter_than_the_timeout(harness):
    client = harness
    discover(client, "hci0")
    began = time.monotonic()
    message = expect_error("org.bluez.Error.Failed", client.call, device_path(UNITS[0], "hci0"), DEVICE, "Connect",
                           timeout=10)
    assert message == "le-connection-abort-by-local"
    assert time.monotonic() - began >= TIMEOUT_MS / 1000 * 0.9
    assert not client.get(device_path(UNITS[0], "hci0"), DEVICE, "Connected")
    assert [e["event"] for e in events(client, UNITS[0])][-2:] == ["connect-while-discovering", "connect-timeout"]
