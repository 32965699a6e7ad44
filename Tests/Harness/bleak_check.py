#!/usr/bin/python3
"""Independent validation of the BlueZ mock with bleak (Debian's python3-bleak), a real BlueZ client.

Scans with a service-UUID filter, connects, reads the ATT MTU through an acquired socket, enables
notifications on FF02, writes a BluFi GET_VERSION frame to FF01 and checks the VERSION reply.
Exits 0 when everything matches, 1 (with the reason on stderr) otherwise.

  DBUS_SYSTEM_BUS_ADDRESS=unix:path=RUN/system_bus_socket /usr/bin/python3 bleak_check.py \
      [--device 24:0A:C4:12:34:56] [--adapter hci0] [--version 1.3] [--mtu 185]
"""

import argparse
import asyncio
import sys
import time

from bleak import BleakClient, BleakScanner
from bleak.exc import BleakDBusError

BLUFI_SERVICE = "0000ffff-0000-1000-8000-00805f9b34fb"
BLUFI_WRITE = "0000ff01-0000-1000-8000-00805f9b34fb"
BLUFI_NOTIFY = "0000ff02-0000-1000-8000-00805f9b34fb"
GET_VERSION_FRAME = bytes.fromhex("1c000000")
TIMEOUT_S = 5.0


class CheckFailed(Exception):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


async def start_notify_when_released(client: BleakClient, callback) -> None:
    """The AcquireNotify socket closed by _acquire_mtu is released asynchronously, as in BlueZ."""
    deadline = time.monotonic() + 1.0
    while True:
        try:
            await client.start_notify(BLUFI_NOTIFY, callback)
            return
        except BleakDBusError as error:
            if "Notify acquired" not in str(error) or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.02)


async def check(options) -> None:
    began = time.monotonic()
    device = await BleakScanner.find_device_by_address(
        options.device, timeout=TIMEOUT_S, service_uuids=[BLUFI_SERVICE], adapter=options.adapter)
    expect(device is not None, f"{options.device} not found with a service-UUID filter")
    print(f"found {device.address} {device.name!r} after {time.monotonic() - began:.2f} s", file=sys.stderr)

    async with BleakClient(device, adapter=options.adapter, timeout=TIMEOUT_S) as client:
        service = client.services.get_service(BLUFI_SERVICE)
        expect(service is not None, "BluFi service FFFF missing after connect")
        write_char = service.get_characteristic(BLUFI_WRITE)
        notify_char = service.get_characteristic(BLUFI_NOTIFY)
        expect(write_char is not None and "write" in write_char.properties, "FF01 missing or not writable")
        expect(notify_char is not None and "notify" in notify_char.properties, "FF02 missing or not notifying")
        expect(write_char.max_write_without_response_size == options.mtu - 3,
               f"MTU property gives {write_char.max_write_without_response_size + 3}, expected {options.mtu}")
        await client._backend._acquire_mtu()  # AcquireNotify on FF02: a real fd crosses the bus
        expect(client.mtu_size == options.mtu, f"acquired MTU {client.mtu_size}, expected {options.mtu}")

        frames: asyncio.Queue = asyncio.Queue()
        await start_notify_when_released(client, lambda _char, data: frames.put_nowait(bytes(data)))
        await client.write_gatt_char(BLUFI_WRITE, GET_VERSION_FRAME, response=True)
        reply = await asyncio.wait_for(frames.get(), TIMEOUT_S)
        major, minor = (int(part) for part in options.version.split("."))
        expected = bytes([0x41, 0x04, 0x00, 0x02, major, minor])
        expect(reply == expected, f"VERSION reply {reply.hex()}, expected {expected.hex()}")
        expect(await client.read_gatt_char(BLUFI_NOTIFY) == b"\x00", "FF02 read is not the single byte 00")
        await client.stop_notify(BLUFI_NOTIFY)
    print(f"bleak check passed in {time.monotonic() - began:.2f} s", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="24:0A:C4:12:34:56")
    parser.add_argument("--adapter", default="hci0")
    parser.add_argument("--version", default="1.3")
    parser.add_argument("--mtu", type=int, default=185)
    options = parser.parse_args()
    try:
        asyncio.run(asyncio.wait_for(check(options), 4 * TIMEOUT_S))
    except (CheckFailed, BleakDBusError, asyncio.TimeoutError, OSError) as error:
        print(f"bleak check FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
