"""Scenario JSON for `harness.py up`: loading, BlueZ defaults and validation.

Every key is optional; the DEFAULT_* tables below list the "bluez" keys and their defaults. The "bluez" part is completed
here (so state.json shows what the mock really runs with) and checked strictly: an unknown key is an
error, because a misspelt fault would otherwise silently test nothing. The "nm" and "device_host"
parts are handed to their own components, which apply their defaults.

Keys whose meaning the defaults do not show (all optional):
  bluez.temporary_timeout_ms   BlueZ's TemporaryTimeout: an unconnected device found by discovery is
                               removed this long after discovery stops (default 30000)
  bluez.connect_timeout_ms     how long a Connect waits for a device that is connected through another
                               adapter (so not advertising) before le-connection-abort-by-local
                               (default 20000, the kernel's LE connection timeout)
  bluez.connect_while_discovering_ms  how long a Connect through an adapter takes while any client runs a
                               discovery on that adapter (default 5000; 0 = not slowed). Linux stops the
                               scan to create the LE connection (net/bluetooth/hci_sync.c) and bluetoothd,
                               still holding the discovery for its clients, restarts it IDLE_DISCOV_TIMEOUT
                               (5 s) later (src/adapter.c); in the real-stack lab such connects took 4–15 s
                               instead of 0.4–0.7 s. A value at or above connect_timeout_ms makes the Connect
                               fail with le-connection-abort-by-local after connect_timeout_ms. The device
                               records a "connect-while-discovering" event either way.
  device.adapters              ["hci0", "hci1", …]: the one physical device is heard by each of these
                               adapters and appears as /org/bluez/<hciN>/dev_… on each, sharing one
                               BluFi model, one link, one fault count and one record (factory line:
                               every dongle hears every unit). While connected through one adapter it
                               stops advertising (as an ESP32 BluFi device does), so the others see no
                               reports and a Connect through them waits (see connect_timeout_ms); it
                               advertises again after the disconnect. Give either "adapter" or
                               "adapters"; the completed scenario has both ("adapter" = the first).
  device.address_type          "public" | "random"
  device.appears_after_ms      the device is powered on this long after a client first started discovery
                               on its adapter: silent (and unknown to bluetoothd) until then (default 0)
  device.rssi                  dBm, or {"hciN": dBm, …} with one entry per adapter in "adapters" (how
                               strongly each adapter hears the unit: the one at its fixture loudest)
  device.service_data          {"uuid": "hex"} → ServiceData
  device.p2e_flags/e2p_flags   GATT flags of FF01 / FF02 (defaults ["write"], ["read", "notify"] as on an
                               ESP32; add "write-without-response" to FF01 to allow AcquireWrite)
  device.gatt_cache            BlueZ's default Cache=always keeps GATT objects after a disconnect;
                               false removes them like Cache=no
  device.cached                the device is already known at start (no RSSI until seen again)
  device.blufi.target_ssid, target_password: the network the device can join (null = any); a station
                               SSID that differs ends the join with NO_AP_FOUND, a different password
                               with 4WAY_HANDSHAKE_TIMEOUT ("wrong-password"), so one scenario can
                               hold devices that fail with wrong credentials
  device.improv                {…} makes the device an Improv Wi-Fi device instead of BluFi (ztharness/
                               improv_device.py, ImprovConfig: requires_authorization, authorize_after_ms,
                               provisioned, advertises_service_data,
                               capabilities, target_ssid/target_password, join_delay_ms, redirect_url,
                               networks, scan_style, hostname, …); it advertises the Improv service and
                               its state and capabilities as service data 4677, kept current
  device.protocomm_ble         {…} makes the device an ESP network_provisioning device over BLE instead of
                               BluFi (ztharness/protocomm_ble_device.py, ProtocommBleConfig). It advertises
                               its name (default "PROV_" + the last three address bytes) and one 128-bit
                               service UUID; each endpoint is a read/write characteristic whose UUID is the
                               service UUID with bytes 12–13 set to its 16-bit value (prov-ctrl FF4F,
                               prov-scan FF50, prov-session FF51, prov-config FF52, proto-ver FF53, then
                               custom endpoints from FF54) and whose 0x2901 descriptor holds its name; an
                               exchange is a write then a read of the same characteristic; values longer
                               than MTU−3 go as long writes/reads (WriteValue/ReadValue "offset", at most
                               512 bytes, as BlueZ 5.66). Keys (all optional):
                                 service_uuid       default 021a9004-0382-4aea-bff4-6b3f1c5adfb4 (ESP examples)
                                 ble_stack          "nimble" (default): a request protocomm refuses fails with
                                                    Failed "Operation failed with ATT error: 0x04";
                                                    "bluedroid": the device drops the link instead and the
                                                    write fails with Failed "Operation failed"
                                 user_descriptions  false: no 0x2901 descriptors (clients use the FFxx UUIDs)
                                 custom_endpoints   ["custom-data"]; each answers "SUCCESS\0" like the example
                                 protocomm          the protocomm model (protocomm_device.py DEFAULTS: security,
                                                    pop, sec2_patch, srp_username/srp_password, networks,
                                                    target_ssid/target_passphrase, connecting_polls, …) with
                                                    proto_ver_style "netprov-v1.2" by default (auto_stop: BLE
                                                    goes off cleanup_delay_ms after "connected", link dropped);
                                                    plus network "wifi" | "thread" (caps thread_prov/thread_scan,
                                                    thread_networks, thread_dataset_outcome), firmware_version
                                                    ("1.2.4"; below 1.2.1 prov-ctrl reset fails when the firmware
                                                    already reset itself) and auto_reset_on_failure
                                 pairing            {"required": bool, "accept": bool, "auto_pair_on_access":
                                                    bool}: required = every endpoint read/write fails with
                                                    org.bluez.Error.NotPermitted "Not paired" until Device1.Pair
                                                    bonded the device (descriptors stay readable, as on NimBLE);
                                                    Pair needs an agent (the caller's or the default one, else
                                                    AuthenticationFailed), accept false refuses pairing;
                                                    RemoveDevice forgets the bond
                               Records: protocomm_ble-<ADDRESS>.json (harness.py received --source protocomm_ble):
                               every endpoint exchange (endpoint, sizes, ATT PDUs used), pairing events, and the
                               protocomm model's events (set_config with the credentials, apply, status, ctrl…).
  device.blufi.max_retry, scan_delay_ms, wifi_list [{"ssid", "rssi"}], unsolicited_reports (which of
                               "connecting", "connected", "failed" the device pushes; the ESP-IDF example
                               pushes only "connected", the default pushes all three)
"""

import copy
import dataclasses
import json

from .blufi_device import BlufiConfig
from .echo_device import SERVICE_UUID as ECHO_SERVICE_UUID
from .improv_device import SERVICE_UUID as IMPROV_SERVICE_UUID
from .improv_device import ImprovConfig
from .protocomm_ble_device import ProtocommBleConfig, default_name

DEFAULT_ADAPTER = {"name": "hci0", "address": "00:AA:BB:CC:DD:00", "powered": True, "stop_discovery_rejected_first_n": 0}

DEFAULT_FAULTS = {
    "connect_fail_first_n": 0,
    "connect_error": "org.bluez.Error.Failed:le-connection-abort-by-local",
    "in_progress_first_n": 0,
    "link_loss_at_frame": None,
    "drop_notification": None,
    "corrupt_notification": None,
}

DEFAULT_DEVICE = {
    "adapter": "hci0",
    "adapters": None,
    "address": "24:0A:C4:12:34:56",
    "address_type": "public",
    "name": "BLUFI_DEVICE",
    "rssi": -52,
    "uuids": ["0000ffff-0000-1000-8000-00805f9b34fb"],
    "manufacturer": {"741": "0102"},
    "service_data": {},
    "mtu": 185,
    "advertise_delay_ms": 200,
    "appears_after_ms": 0,
    "resolve_delay_ms": 100,
    "objects_after_resolved_ms": 0,
    "write_latency_ms": 0,
    "handles_before_answering": False,
    "works_during_latency": False,
    "p2e_flags": ["write"],
    "e2p_flags": ["read", "notify"],
    "gatt_cache": True,
    "cached": False,
    "blufi": {},
    "improv": None,
    "protocomm_ble": None,
    "echo": None,
    "faults": {},
}

DEFAULT_BLUEZ = {"adapters": [DEFAULT_ADAPTER], "devices": [{}], "temporary_timeout_ms": 30000,
                 "connect_timeout_ms": 20000, "connect_while_discovering_ms": 5000}

SECTIONS = ("bluez", "nm", "device_host")


class ScenarioError(ValueError):
    """The scenario cannot be run as written."""


def _complete(given: dict, defaults: dict, where: str) -> dict:
    unknown = set(given) - set(defaults)
    if unknown:
        raise ScenarioError(f"{where}: unknown keys {sorted(unknown)}")
    merged = copy.deepcopy(defaults)
    merged.update(copy.deepcopy(given))
    return merged


def _device(given: dict, index: int, adapters: set[str]) -> dict:
    where = f"bluez.devices[{index}]"
    device = _complete(given, DEFAULT_DEVICE, where)
    device["faults"] = _complete(device["faults"], DEFAULT_FAULTS, f"{where}.faults")
    try:
        device["blufi"] = dataclasses.asdict(BlufiConfig.from_dict(device["blufi"]))
    except (TypeError, ValueError) as error:
        raise ScenarioError(f"{where}.blufi: {error}") from error
    device["blufi"]["version"] = list(device["blufi"]["version"])
    if device["improv"] is not None:
        try:
            device["improv"] = dataclasses.asdict(ImprovConfig.from_dict(device["improv"]))
        except (TypeError, ValueError) as error:
            raise ScenarioError(f"{where}.improv: {error}") from error
        if "uuids" not in given:
            device["uuids"] = [IMPROV_SERVICE_UUID]
        if "name" not in given:
            device["name"] = "Improv Device"
        if "manufacturer" not in given:
            device["manufacturer"] = {}
    if device["protocomm_ble"] is not None:
        if device["improv"] is not None:
            raise ScenarioError(f"{where}: a device is either improv or protocomm_ble")
        try:
            device["protocomm_ble"] = dataclasses.asdict(ProtocommBleConfig.from_dict(device["protocomm_ble"]))
        except (TypeError, ValueError) as error:
            raise ScenarioError(f"{where}.protocomm_ble: {error}") from error
        if "uuids" not in given:
            device["uuids"] = [device["protocomm_ble"]["service_uuid"]]
        if "name" not in given:
            device["name"] = default_name(device["address"])
        if "manufacturer" not in given:
            device["manufacturer"] = {}
    if device["echo"] is not None:
        if device["improv"] is not None or device["protocomm_ble"] is not None:
            raise ScenarioError(f"{where}: a device speaks one protocol")
        if "uuids" not in given:
            device["uuids"] = [ECHO_SERVICE_UUID]
        if "name" not in given:
            device["name"] = "Echo Device"
        if "manufacturer" not in given:
            device["manufacturer"] = {}
    device["adapters"] = _adapters_of(given, device, where, adapters)
    device["adapter"] = device["adapters"][0]
    if ":" not in device["faults"]["connect_error"]:
        raise ScenarioError(f"{where}.faults.connect_error must be 'dbus.error.Name:message'")
    if not 23 <= device["mtu"] <= 517:
        raise ScenarioError(f"{where}.mtu must be within 23…517")
    if isinstance(device["rssi"], dict) and set(device["rssi"]) != set(device["adapters"]):
        raise ScenarioError(f"{where}.rssi must give one value per adapter in adapters")
    return device


def _adapters_of(given: dict, device: dict, where: str, known: set[str]) -> list[str]:
    chosen = device["adapters"] if given.get("adapters") is not None else [device["adapter"]]
    if not isinstance(chosen, list) or not chosen or len(set(chosen)) != len(chosen):
        raise ScenarioError(f"{where}.adapters must be a non-empty list of distinct adapter names")
    if "adapter" in given and given["adapter"] != chosen[0]:
        raise ScenarioError(f"{where}: give either adapter or adapters")
    for name in chosen:
        if name not in known:
            raise ScenarioError(f"{where}: adapter {name!r} is not in bluez.adapters")
    return list(chosen)


def bluez_with_defaults(given: dict | None) -> dict:
    """The complete "bluez" section: adapters and devices with every key filled in."""
    bluez = _complete(given or {}, DEFAULT_BLUEZ, "bluez")
    bluez["adapters"] = [_complete(a, DEFAULT_ADAPTER, f"bluez.adapters[{i}]")
                         for i, a in enumerate(bluez["adapters"])]
    names = [adapter["name"] for adapter in bluez["adapters"]]
    if len(set(names)) != len(names):
        raise ScenarioError("bluez.adapters: duplicate adapter names")
    bluez["devices"] = [_device(d, i, set(names)) for i, d in enumerate(bluez["devices"])]
    return bluez


def load(text: str | None) -> dict:
    """Parses scenario JSON (None = all defaults) and completes the bluez section."""
    try:
        scenario = json.loads(text) if text else {}
    except json.JSONDecodeError as error:
        raise ScenarioError(f"scenario is not valid JSON: {error}") from error
    if not isinstance(scenario, dict):
        raise ScenarioError("scenario must be a JSON object")
    unknown = set(scenario) - set(SECTIONS)
    if unknown:
        raise ScenarioError(f"unknown scenario sections {sorted(unknown)}")
    scenario["bluez"] = bluez_with_defaults(scenario.get("bluez"))
    scenario.setdefault("nm", {})
    scenario.setdefault("device_host", {})
    return scenario
