"""The Improv device model against bytes worked out from https://www.improv-wifi.com/ble/, and the
model in the BlueZ mock against an implementation that is not ours: Home Assistant's
py-improv-ble-client (venv from make-improv-client-venv) over bleak."""

import json
import os
import shutil
import subprocess
import sys

import pytest

HARNESS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, HARNESS_DIR)

from mock_harness import mock_harness  # noqa: E402
from ztharness import improv_device as improv  # noqa: E402

PYTHON = "/usr/bin/python3"
REPOSITORY = os.path.abspath(os.path.join(HARNESS_DIR, "..", ".."))
CLIENT_VENV_PYTHON = os.path.join(REPOSITORY, ".build", "improv-client-venv", "bin", "python")
SPEC_EXAMPLE = bytes.fromhex("011e0c4d79576972656c6573734150106d7973656375726570617373776f7264c0")


class FakeLink:
    """Collects characteristic values; timers run when the test fires them."""

    def __init__(self):
        self.values: list[tuple[str, bytes]] = []
        self.timers = []
        self.advertisements = 0

    def set_value(self, uuid: str, value: bytes) -> None:
        self.values.append((uuid, value))

    def advertisement_changed(self) -> None:
        self.advertisements += 1

    def schedule(self, _delay_ms: int, callback) -> None:
        self.timers.append(callback)

    def fire(self) -> None:
        timers, self.timers = self.timers, []
        for timer in timers:
            timer()

    def on(self, uuid: str) -> list[bytes]:
        return [value for u, value in self.values if u == uuid]


def device(**config) -> tuple[improv.ImprovDevice, FakeLink]:
    link = FakeLink()
    return improv.ImprovDevice(improv.ImprovConfig.from_dict(config), link), link


def write_in_pieces(model: improv.ImprovDevice, data: bytes) -> None:
    for start in range(0, len(data), 20):
        model.receive(data[start:start + 20])


def test_frame_builder_gives_the_specification_example():
    assert improv.frame(1, [b"MyWirelessAP", b"mysecurepassword"]) == SPEC_EXAMPLE
    assert improv.frame(2, []) == bytes.fromhex("020002")
    assert improv.frame(5, [b"my-device"]) == bytes.fromhex("050a096d792d6465766963659b")


def test_specification_example_in_two_writes_joins():
    model, link = device(target_ssid="MyWirelessAP", target_password="mysecurepassword",
                         redirect_url="http://improv-device.local/")
    write_in_pieces(model, SPEC_EXAMPLE)
    assert link.on(improv.STATE_UUID) == [b"\x03"]
    link.fire()
    assert link.on(improv.STATE_UUID) == [b"\x03", b"\x04"]
    assert link.on(improv.RPC_RESULT_UUID) == [bytes.fromhex("011c1b687474703a2f2f696d70726f762d6465766963652e6c6f63616c2f32")]
    assert model.service_data == bytes([4, 15, 0, 0, 0, 0])


def test_wrong_password_is_unable_to_connect_and_stays_authorized():
    model, link = device()
    write_in_pieces(model, improv.frame(1, [b"HomeNet", b"not the password"]))
    link.fire()
    assert link.on(improv.ERROR_UUID) == [b"\x03"]
    assert link.on(improv.STATE_UUID) == [b"\x03", b"\x02"]


def test_every_corrupted_checksum_is_an_invalid_packet():
    for wrong in range(256):
        if wrong == 0x9B:
            continue
        model, link = device()
        model.receive(bytes.fromhex("050a096d792d646576696365") + bytes([wrong]))
        assert link.on(improv.ERROR_UUID) == [b"\x01"]


def test_authorization_required_until_the_button():
    model, link = device(requires_authorization=True, authorize_after_ms=100)
    write_in_pieces(model, improv.frame(1, [b"HomeNet", b"correct horse"]))
    assert link.on(improv.ERROR_UUID) == [b"\x04"]
    model.ble_connected(185)
    link.fire()
    assert link.on(improv.STATE_UUID) == [b"\x02"]
    write_in_pieces(model, improv.frame(2, []))
    assert model.record["identify"] == 1
    assert link.on(improv.ERROR_UUID) == [b"\x04", b"\x00"]


def test_scan_per_network_ends_with_an_empty_result_and_single_has_one():
    model, link = device()
    model.receive(improv.frame(4, []))
    results = link.on(improv.RPC_RESULT_UUID)
    assert results == [improv.frame(4, [b"HomeNet", b"-48", b"WPA2"]), improv.frame(4, [b"Guest", b"-71", b"NO"]),
                       bytes.fromhex("040004")]
    model, link = device(scan_style="single")
    model.receive(improv.frame(4, []))
    assert link.on(improv.RPC_RESULT_UUID) == [improv.frame(4, [b"HomeNet", b"-48", b"WPA2", b"Guest", b"-71", b"NO"])]


def test_hostname_rules():
    model, link = device()
    model.receive(improv.frame(5, [b"bad_name"]))
    assert link.on(improv.ERROR_UUID) == [b"\x05"]
    model.receive(improv.frame(5, [b"hall-light"]))
    assert link.on(improv.RPC_RESULT_UUID) == [improv.frame(5, [b"hall-light"])]
    model, link = device(capabilities=["identify"])
    model.receive(improv.frame(5, []))
    assert link.on(improv.ERROR_UUID) == [b"\x02"]


def test_py_improv_ble_client_builds_the_same_frames():
    if not os.path.exists(CLIENT_VENV_PYTHON):
        pytest.skip("py-improv-ble-client venv missing: run Tests/Harness/make-improv-client-venv")
    script = ("from improv_ble_client import protocol as p; print(p.WiFiSettingsCmd(b'MyWirelessAP', "
              "b'mysecurepassword').as_bytes().hex(), p.HostnameCmd(b'my-device').as_bytes().hex(), "
              "p.IdentifyCmd().as_bytes().hex())")
    out = subprocess.run([CLIENT_VENV_PYTHON, "-c", script], capture_output=True, text=True, timeout=30, check=True)
    assert out.stdout.split() == [SPEC_EXAMPLE.hex(), "050a096d792d6465766963659b", "020002"]


needs_mock = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("dbus-daemon") is None,
                                reason="BlueZ mock tests need root and dbus-daemon (CI has both)")
JOINS, REFUSES = "AA:BB:CC:00:17:01", "AA:BB:CC:00:17:02"


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    run_dir = str(tmp_path_factory.mktemp("improv-mock"))
    fast = {"advertise_delay_ms": 50, "resolve_delay_ms": 50}
    scenario = {"bluez": {"devices": [
        {"address": JOINS, **fast, "improv": {"redirect_url": "http://joins.local/setup"}},
        {"address": REFUSES, **fast, "improv": {"target_password": "another password"}},
    ]}}
    with mock_harness(run_dir, scenario) as up:
        yield {"run_dir": run_dir, **up}


def run_client_check(harness, address: str, *expectation: str) -> subprocess.CompletedProcess:
    if not os.path.exists(CLIENT_VENV_PYTHON):
        pytest.skip("py-improv-ble-client venv missing: run Tests/Harness/make-improv-client-venv")
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": harness["bus_address"], "CHECK_PASSWORD": "correct horse"}
    return subprocess.run([CLIENT_VENV_PYTHON, os.path.join(HARNESS_DIR, "improv_client_check.py"), "--device",
                           address, "--ssid", "HomeNet", "--password-env", "CHECK_PASSWORD", *expectation],
                          capture_output=True, text=True, timeout=90, env=env)


def received(harness, address: str) -> dict:
    out = subprocess.run([PYTHON, os.path.join(HARNESS_DIR, "harness.py"), "received", "--run-dir",
                          harness["run_dir"], "--source", "improv"], capture_output=True, text=True, timeout=30)
    return next(r for r in json.loads(out.stdout) if r["address"] == address)


@needs_mock
def test_py_improv_ble_client_provisions_the_harness_device(harness):
    result = run_client_check(harness, JOINS, "--expect-url", "http://joins.local/setup")
    assert result.returncode == 0, result.stderr
    record = received(harness, JOINS)
    assert record["join_attempts"] == [{"ssid": "HomeNet", "password": "correct horse"}]
    assert record["identify"] == 1 and record["state"] == improv.PROVISIONED


@needs_mock
def test_py_improv_ble_client_sees_unable_to_connect(harness):
    result = run_client_check(harness, REFUSES, "--expect-error", "UNABLE_TO_CONNECT")
    assert result.returncode == 0, result.stderr
    assert received(harness, REFUSES)["state"] == improv.AUTHORIZED
