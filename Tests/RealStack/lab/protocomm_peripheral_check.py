#!/usr/bin/env python3
"""The lab's protocomm peripheral checked without the VM: a Bumble central on the same in-process link.

Run with the lab venv (Tests/RealStack/setup-venv) and PYTHONPATH=Tests/Harness:Tests/Harness/tests.
The central finds the endpoints by their 0x2901 names, runs a security 1 session and a Wi-Fi
provisioning with protocomm_spec_client over write-then-read exchanges at the default MTU 23
(long writes and reads through Bumble's ATT client and server), sees the service stop after
"connected"; then, on a device that forces link encryption, gets ATT "insufficient encryption"
before pairing and provisions after a Just Works pairing. Exits 0 when all holds, 1 with the reason.
"""

import asyncio
import sys

from bumble import att, hci
from bumble.controller import Controller
from bumble.device import Device, Peer

from protocomm_spec_client import SpecClient

from bumble_link import LabLink
from protocomm_peripheral import ProtocommPeripheral

CENTRAL, OPEN, LOCKED = "F0:F1:F2:F3:F4:F5", "24:0A:C4:00:16:B1", "24:0A:C4:00:16:B2"
PROTOCOMM = {"security": 1, "pop": "abcd1234", "target_passphrase": "correct horse", "connecting_polls": 0,
             "cleanup_delay_ms": 100}


class CheckFailed(Exception):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


async def endpoints(peer: Peer) -> dict:
    """Endpoint name → characteristic proxy, from the user descriptions."""
    await peer.discover_services()
    found = {}
    for service in peer.services:
        for characteristic in await service.discover_characteristics():
            for descriptor in await characteristic.discover_descriptors():
                if descriptor.type.to_hex_str() == "2901":
                    found[bytes(await descriptor.read_value()).decode()] = characteristic
    return found


def sync_transport(loop, characteristics: dict):
    """SpecClient is synchronous; each exchange runs on the event loop from a worker thread."""
    def exchange(endpoint: str, body: bytes) -> bytes:
        async def write_then_read() -> bytes:
            await characteristics[endpoint].write_value(body, with_response=True)
            return bytes(await characteristics[endpoint].read_value())
        return asyncio.run_coroutine_threadsafe(write_then_read(), loop).result(10)
    return exchange


async def provision(peripheral: ProtocommPeripheral, connection) -> None:
    peer = Peer(connection)
    characteristics = await endpoints(peer)
    expect(set(characteristics) >= {"proto-ver", "prov-session", "prov-config", "prov-scan", "prov-ctrl"},
           f"endpoints by name: {sorted(characteristics)}")
    loop = asyncio.get_running_loop()
    client = SpecClient(sync_transport(loop, characteristics), 1, pop="abcd1234")

    def session_and_config() -> int:
        client.handshake()
        expect(client.set_config("HomeNet", "correct horse").message(13).uint(1) == 0, "SetConfig refused")
        expect(client.apply_config().message(15).uint(1) == 0, "ApplyConfig refused")
        return client.get_status().uint(2)

    expect(await asyncio.to_thread(session_and_config) == 0, "station not connected")
    command0 = peripheral.model.record["exchanges"][0]
    expect(command0["endpoint"] == "prov-session" and command0["written"] == 41, f"first exchange {command0}")


async def connect(central: Device, address: str):
    target = hci.Address(address, hci.Address.PUBLIC_DEVICE_ADDRESS)
    return await asyncio.wait_for(central.connect(target, own_address_type=hci.OwnAddressType.PUBLIC), 10)


async def check() -> None:
    link = LabLink()
    open_device = ProtocommPeripheral(link, OPEN, "PROV_0016B1", {"protocomm": PROTOCOMM})
    locked = ProtocommPeripheral(link, LOCKED, "PROV_0016B2",
                                 {"protocomm": PROTOCOMM, "pairing": {"required": True}})
    controller = Controller("central", link=link, public_address=CENTRAL)
    central = Device.with_hci("central", hci.Address(CENTRAL), controller, controller)
    await central.power_on()
    for peripheral in (open_device, locked):
        await peripheral.start()

    connection = await connect(central, OPEN)
    await provision(open_device, connection)
    for _ in range(100):
        if open_device.stopped and open_device.connection is None:
            break
        await asyncio.sleep(0.05)
    expect(open_device.stopped and open_device.connection is None, "service did not stop after connected")

    connection = await connect(central, LOCKED)
    peer = Peer(connection)
    characteristics = await endpoints(peer)
    try:
        await characteristics["proto-ver"].write_value(b"ESP", with_response=True)
        raise CheckFailed("unencrypted write to proto-ver was accepted")
    except att.ATT_Error as error:
        expect(error.error_code == att.ATT_INSUFFICIENT_ENCRYPTION_ERROR, f"ATT error {error.error_code:#04x}")
    await asyncio.wait_for(connection.pair(), 10)
    expect(any(e["event"] == "paired" for e in locked.events), f"no pairing recorded: {locked.events}")
    await provision(locked, connection)


def main() -> int:
    try:
        asyncio.run(asyncio.wait_for(check(), 60))
    except Exception as error:  # noqa: BLE001 - every failure is a finding
        print(f"protocomm peripheral check FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print("protocomm peripheral check passed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
