"""A toy BLE protocol no product speaks: one characteristic that reads back what was last written to it.

It exists to prove that a provisioning protocol plugs into ztprov by writing one flow and registering
it: the tests register an echo flow (Tests/CLITests/EchoProtocol) that writes a phrase and reads it
back. Scenario: device.echo {} (no settings).
"""

SERVICE_UUID = "ec40ec40-0000-4000-8000-00000000ec40"
CHARACTERISTIC_UUID = "ec40ec40-0001-4000-8000-00000000ec40"


class EchoDevice:
    def __init__(self, _config: dict, link):
        self.link = link
        self.record = {"connections": 0, "echoed": []}

    def ble_connected(self, _mtu: int) -> None:
        self.record["connections"] += 1

    def ble_disconnected(self) -> None:
        pass

    def receive(self, value: bytes) -> None:
        self.record["echoed"].append(value.hex())
        self.link.set_value(CHARACTERISTIC_UUID, value)
