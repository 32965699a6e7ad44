#!/usr/bin/env python3
"""Independent check of the harness's protocomm-over-BLE device with Espressif's esp_prov client code.

Run with the venv of make-esp-prov-venv, on the harness's private system bus:
  DBUS_SYSTEM_BUS_ADDRESS=unix:path=RUN/system_bus_socket .build/esp-prov-venv/bin/python \
      esp_prov_check.py --name PROV_123456 [--sec-ver 2 --sec2-username U] --ssid S --passphrase-env VAR …
Follows esp_prov's BLE sequence (network_provisioning/tool/esp_prov/esp_prov.py, main) with Espressif's
own modules for every byte on the air (esp_prov's transport, security and prov modules as
esp-rainmaker-cli ships them, rmaker_tools.common): Transport_BLE over bleak (scan by name, endpoint lookup by
0x2901 user descriptions, write then read), proto-ver capabilities, the security 0/1/2 session
(sec_patch_ver read from proto-ver for security 2), optional custom data, a Wi-Fi scan read four
entries at a time, SetConfig, ApplyConfig and GetStatus polling. With --wrong-passphrase-env the
first attempt uses that passphrase, must fail, and is followed by a prov-ctrl reset and a retry.
Polls every 0.2 s where esp_prov sleeps 5 s. Prints a JSON summary on stdout; exits 0 when
everything matches, 1 with the reason on stderr. Secrets come from environment variables.
"""

import argparse
import asyncio
import json
import os
import sys

import rmaker_tools

# esp_prov's protobuf modules live beside its prov package; put them first so no other "proto" wins.
sys.path.insert(0, os.path.join(os.path.dirname(rmaker_tools.__file__), "rmaker_prov"))

from rmaker_tools.common import prov, security, transport  # noqa: E402
from rmaker_tools.common.utils.convenience import str_to_bytes  # noqa: E402

# esp_prov.py get_transport(): only for old firmware; current firmware is found by its 0x2901 names.
SERVICE_UUID = "021a9004-0382-4aea-bff4-6b3f1c5adfb4"
NU_LOOKUP = {"prov-session": "ff51", "prov-config": "ff52", "proto-ver": "ff53"}
BLE_SCAN_READ = 4
POLL_S = 0.2
MAX_POLLS = 100


class CheckFailed(Exception):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def secret(variable: str | None) -> str:
    return os.environ[variable] if variable else ""


async def establish_session(tp, sec) -> None:
    response = None
    while True:
        request = sec.security_session(response)
        if request is None:
            return
        response = await tp.send_data("prov-session", request)
        expect(response is not None, "no answer during the session handshake")


async def scan(tp, sec) -> list[dict]:
    prov.scan_start_response(sec, await tp.send_data("prov-scan", prov.scan_start_request(sec, blocking=True,
                                                                                          group_channels=0)))
    status = prov.scan_status_response(sec, await tp.send_data("prov-scan", prov.scan_status_request(sec)))
    networks, index, remaining = [], 0, status["count"]
    while remaining:
        count = min(remaining, BLE_SCAN_READ)
        response = await tp.send_data("prov-scan", prov.scan_result_request(sec, index, count))
        networks += prov.scan_result_response(sec, response)
        remaining -= count
        index += count
    return networks


async def provision(tp, sec, ssid: str, passphrase: str) -> str:
    expect(prov.config_set_config_response(
        sec, await tp.send_data("prov-config", prov.config_set_config_request(sec, ssid, passphrase))) == 0,
        "SetConfig refused")
    expect(prov.config_apply_config_response(
        sec, await tp.send_data("prov-config", prov.config_apply_config_request(sec))) == 0, "ApplyConfig refused")
    for _ in range(MAX_POLLS):
        await asyncio.sleep(POLL_S)
        state = prov.config_get_status_response(
            sec, await tp.send_data("prov-config", prov.config_get_status_request(sec)))
        if state != "connecting":
            return state
    raise CheckFailed("device still connecting after every poll")


async def check(options) -> dict:
    summary = {}
    tp = transport.Transport_BLE(service_uuid=SERVICE_UUID, nu_lookup=dict(NU_LOOKUP))
    await tp.connect(devname=options.name)
    try:
        info = json.loads(await tp.send_data("proto-ver", "---"))
        capabilities = info["prov"]["cap"]
        summary["proto_ver"] = info
        sec_ver = options.sec_ver if options.sec_ver is not None else int("no_sec" not in capabilities)
        if sec_ver == 0:
            sec = security.Security0(options.verbose)
        elif sec_ver == 1:
            pop = "" if "no_pop" in capabilities else secret(options.pop_env)
            sec = security.Security1(pop, options.verbose)
        else:
            patch = info["prov"].get("sec_patch_ver", 0)
            sec = security.Security2(patch, options.sec2_username, secret(options.sec2_password_env), options.verbose)
        summary["sec_ver"] = sec_ver
        await establish_session(tp, sec)
        if options.custom_data:
            answer = sec.decrypt_data(str_to_bytes(
                await tp.send_data("custom-data", sec.encrypt_data(options.custom_data.encode()).decode("latin-1"))))
            summary["custom_data_answer"] = answer.decode("latin-1")
        if options.scan:
            expect("wifi_scan" in capabilities, f"no wifi_scan capability in {capabilities}")
            summary["networks"] = [network["ssid"] for network in await scan(tp, sec)]
        if options.wrong_passphrase_env:
            first = await provision(tp, sec, options.ssid, secret(options.wrong_passphrase_env))
            expect(first == "failed", f"wrong passphrase gave {first!r}")
            # esp_prov's ctrl_reset_response raises RuntimeError('CtrlReset failed') on a refusal.
            prov.ctrl_reset_response(sec, await tp.send_data("prov-ctrl", prov.ctrl_reset_request(sec)))
            summary["reset"] = "accepted"
        summary["result"] = await provision(tp, sec, options.ssid, secret(options.passphrase_env))
        expect(summary["result"] == "connected", f"provisioning ended {summary['result']!r}")
    finally:
        await tp.disconnect()
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", required=True, help="the device's advertised name")
    parser.add_argument("--sec-ver", type=int, choices=(0, 1, 2))
    parser.add_argument("--pop-env")
    parser.add_argument("--sec2-username", default="wifiprov")
    parser.add_argument("--sec2-password-env")
    parser.add_argument("--ssid", required=True)
    parser.add_argument("--passphrase-env", required=True)
    parser.add_argument("--wrong-passphrase-env")
    parser.add_argument("--custom-data")
    parser.add_argument("--scan", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    options = parser.parse_args()
    try:
        summary = asyncio.run(asyncio.wait_for(check(options), 60))
    except Exception as error:  # noqa: BLE001 - every failure of the other implementation is a finding
        print(f"esp_prov check FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(json.dumps(summary))
    print("esp_prov check passed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
