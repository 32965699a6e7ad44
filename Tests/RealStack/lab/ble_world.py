"""The lab's Bluetooth: hci_vhci controllers the kernel owns, and peripherals on one radio link.

Every controller is a Bumble `Controller` on one `LabLink`. Kernel-facing ones sit behind
/dev/vhci (each open is one more hciN for bluetoothd); each peripheral (lab_peripheral) has its own
controller and a Bumble `Device` serving one of the harness's device models: BluFi
(blufi_peripheral) or Improv (improv_peripheral).
"""

from bumble.transport.vhci import open_vhci_transport

from blufi_peripheral import BlufiPeripheral
from bumble_link import KernelFacingController, LabLink
from improv_peripheral import ImprovPeripheral
from lab_peripheral import LabPeripheral
from protocomm_peripheral import ProtocommPeripheral


class BleWorld:
    """The kernel's controllers and the peripherals currently on the air."""

    def __init__(self):
        self.link = LabLink()
        self.controllers: list = []
        self.transports: list = []
        self.peripherals: dict[str, LabPeripheral] = {}

    async def add_kernel_controller(self, address: str) -> None:
        transport = await open_vhci_transport("/dev/vhci")
        controller = KernelFacingController(f"kernel-{address}", host_source=transport.source,
                                            host_sink=transport.sink, link=self.link,
                                            public_address=address)
        self.transports.append(transport)
        self.controllers.append(controller)

    async def add_peripheral(self, address: str, name: str, blufi: dict, **faults) -> BlufiPeripheral:
        return await self._start(BlufiPeripheral(self.link, address, name, blufi, **faults))

    async def add_improv(self, address: str, name: str, improv: dict, **options) -> ImprovPeripheral:
        return await self._start(ImprovPeripheral(self.link, address, name, improv, **options))

    async def add_protocomm_peripheral(self, address: str, name: str, config: dict) -> ProtocommPeripheral:
        """An ESP network_provisioning device over BLE (protocomm_peripheral.py, the scenario's
        "protocomm_ble" object) on the same link."""
        return await self._start(ProtocommPeripheral(self.link, address, name, config))

    async def _start(self, peripheral):
        await peripheral.start()
        self.peripherals[peripheral.address] = peripheral
        return peripheral

    async def remove_peripheral(self, address: str) -> None:
        peripheral = self.peripherals.pop(address, None)
        if peripheral is not None:
            await peripheral.stop()
