#!/usr/bin/env python3
"""Independent check of the harness's Improv device with Home Assistant's py-improv-ble-client.

Run with the venv of make-improv-client-venv, on the harness's private system bus:
  DBUS_SYSTEM_BUS_ADDRESS=unix:path=RUN/system_bus_socket .build/improv-client-venv/bin/python \
      improv_client_check.py --device AA:BB:… --ssid S --password-env VAR [--expect-url U | --expect-error E]
Scans with bleak, checks the advertised service data with the library's parser and device filter,
asks whether authorization is needed, identifies, reads device info, then provisions. Exits 0 when
everything matches, 1 with the reason on stderr.
"""

import argparse
import asyncio
import os
import sys

from bleak import BleakScanner
from improv_ble_client import SERVICE_DATA_UUID, SERVICE_UUID, ImprovBLEClient, ImprovServiceData, device_filter
from improv_ble_client.errors import ProvisioningFailed
from improv_ble_client.models import DisconnectReason

TIMEOUT_S = 10.0


class CheckFailed(Exception):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


async def find(address: str):
    found = asyncio.get_running_loop().create_future()

    def seen(device, advertisement) -> None:
        if device.address.upper() == address.upper() and SERVICE_DATA_UUID in advertisement.service_data \
                and not found.done():
            found.set_result((device, advertisement))

    async with BleakScanner(seen, service_uuids=[SERVICE_UUID]):
        return await asyncio.wait_for(found, TIMEOUT_S)


async def check(options) -> None:
    device, advertisement = await find(options.device)
    service_data = ImprovServiceData.from_bytes(advertisement.service_data[SERVICE_DATA_UUID])
    expect(device_filter(advertisement), "py-improv-ble-client's device_filter rejects the advertisement")
    print(f"found {device.address}: state {service_data.state.name}, {service_data.capabilities!r}", file=sys.stderr)
    client = ImprovBLEClient(device, advertisement)
    try:
        expect(not await client.need_authorization(), "device needs authorization")
        await client.identify()
        info = await client.get_device_info()
        print(f"device info: {info}", file=sys.stderr)
        networks = await client.scan_wifi()
        print(f"networks: {networks}", file=sys.stderr)
        hostname = await client.set_hostname(options.hostname)
        expect(hostname == options.hostname, f"hostname {hostname!r}, expected {options.hostname!r}")
        password = os.environ[options.password_env]
        try:
            url = await asyncio.wait_for(client.provision(options.ssid, password, None), TIMEOUT_S)
        except ProvisioningFailed as failure:
            expect(options.expect_error == failure.error.name,
                   f"provisioning failed with {failure.error.name}, expected {options.expect_error or 'success'}")
            return
        expect(options.expect_error is None, f"provisioned, expected {options.expect_error}")
        expect(url == options.expect_url, f"redirect URL {url!r}, expected {options.expect_url!r}")
    finally:
        # The library has no public disconnect (it drops the link on its own timer); end it now so the
        # next check finds the device advertising.
        await client._execute_disconnect(DisconnectReason.UNEXPECTED)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", required=True)
    parser.add_argument("--ssid", required=True)
    parser.add_argument("--password-env", required=True)
    parser.add_argument("--hostname", default="checked-by-ha")
    parser.add_argument("--expect-url")
    parser.add_argument("--expect-error")
    options = parser.parse_args()
    try:
        asyncio.run(asyncio.wait_for(check(options), 6 * TIMEOUT_S))
    except Exception as error:  # noqa: BLE001 - every failure of the other implementation is a finding
        print(f"improv client check FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print("improv client check passed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
