"""The lab's Bluetooth: hci_vhci controllers the kernel owns, and BluFi peripherals on one radio link.

Every controller is a Bumble `Controller` on one `LabLink`. Kernel-facing ones sit behind
/dev/vhci (each open is one more hciN for bluetoothd); each peripheral has its own controller and
a Bumble `Device` whose GATT server carries the BluFi service (FFFF: FF01 written by the central,
FF02 notified) and feeds the harness's BluFi model (ztharness.blufi_device), the same model the
BlueZ mock drives. Faults the scenarios need: drop the link at the n-th frame, change the GATT
database between connections.
"""

import asyncio
import struct

from bumble import gatt, hci
from bumble.core import UUID, AdvertisingData
from bumble.device import Device
from bumble.transport.vhci import open_vhci_transport

from ztharness.blufi_device import BlufiConfig, BlufiDevice

from bumble_link import KernelFacingController, LabLink
from protocomm_peripheral import ProtocommPeripheral

BLUFI_SERVICE = 0xFFFF
ADVERTISING_INTERVAL_MS = 100


class BlufiPeripheral:
    """One ESP32 running BluFi: advertises while nobody is connected, one link at a time."""

    def __init__(self, link, address: str, name: str, blufi: dict, link_loss_at_frame: int | None = None,
                 extra_service: bool = False):
        self.address = address
        self.name = name
        self.link_loss_at_frame = link_loss_at_frame
        self.extra_service = extra_service
        self.controller = KernelFacingController(f"peripheral-{address}", link=link,
                                                 public_address=address)
        self.device = Device.with_hci(name, hci.Address(address), self.controller, self.controller)
        self.model = BlufiDevice(BlufiConfig.from_dict(blufi), self)
        self.connection = None
        self.frames_this_connection = 0
        self.events: list[dict] = []
        self.mtus: list[int] = []
        self._outgoing: asyncio.Queue = asyncio.Queue()
        self._sender = None
        self._build_gatt()

    def _build_gatt(self) -> None:
        self.ff01 = gatt.Characteristic(
            UUID.from_16_bits(0xFF01),
            gatt.Characteristic.Properties.WRITE | gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
            gatt.Characteristic.WRITEABLE, gatt.CharacteristicValue(write=self._written))
        self.ff02 = gatt.Characteristic(
            UUID.from_16_bits(0xFF02),
            gatt.Characteristic.Properties.READ | gatt.Characteristic.Properties.NOTIFY,
            gatt.Characteristic.READABLE, b"")
        services = [gatt.Service(UUID.from_16_bits(BLUFI_SERVICE), [self.ff01, self.ff02])]
        if self.extra_service:
            # What a firmware update may add in front of nothing else: a new service at new handles.
            services.insert(0, gatt.Service(UUID.from_16_bits(0x180A), [gatt.Characteristic(
                UUID.from_16_bits(0x2A29), gatt.Characteristic.Properties.READ,
                gatt.Characteristic.READABLE, b"Zhiting")]))
        self.device.add_services(services)

    async def start(self) -> None:
        self.device.on("connection", self._connected)
        await self.device.power_on()
        self._sender = asyncio.get_running_loop().create_task(self._send_notifications())
        await self._advertise()

    async def _advertise(self) -> None:
        data = bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, self.name.encode()),
            (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, struct.pack("<H", BLUFI_SERVICE)),
        ]))
        await self.device.start_advertising(
            own_address_type=hci.OwnAddressType.PUBLIC, advertising_data=data, auto_restart=True,
            advertising_interval_min=ADVERTISING_INTERVAL_MS, advertising_interval_max=ADVERTISING_INTERVAL_MS)

    async def stop(self) -> None:
        if self.connection is not None:
            try:
                await self.connection.disconnect()
            except Exception as error:  # the link may already be gone
                self.event("stop-disconnect-failed", str(error))
        try:
            await self.device.stop_advertising()
        except Exception as error:
            self.event("stop-advertising-failed", str(error))
        if self._sender:
            self._sender.cancel()
        self.controller.link.remove_controller(self.controller)

    def event(self, kind: str, detail) -> None:
        self.events.append({"event": kind, "detail": detail})

    def _connected(self, connection) -> None:
        self.connection = connection
        self.frames_this_connection = 0
        self.model.ble_connected(connection.att_mtu)
        self.event("connected", str(connection.peer_address))
        connection.on("connection_att_mtu_update", lambda: self._mtu_changed(connection))
        connection.on("disconnection", lambda reason: self._disconnected(connection, reason))

    def _mtu_changed(self, connection) -> None:
        self.mtus.append(connection.att_mtu)
        self.model.mtu = connection.att_mtu

    def _disconnected(self, connection, reason) -> None:
        if self.connection is connection:
            self.connection = None
        self.model.ble_disconnected()
        self.event("disconnected", int(reason))

    def _written(self, connection, value: bytes) -> None:
        self.frames_this_connection += 1
        self.model.receive(bytes(value))
        if self.link_loss_at_frame and self.frames_this_connection == self.link_loss_at_frame:
            self.link_loss_at_frame = None
            self.event("link-loss", self.frames_this_connection)
            asyncio.get_running_loop().create_task(connection.disconnect())

    # DeviceLink for the BluFi model

    def notify(self, value: bytes) -> None:
        self._outgoing.put_nowait(value)

    def disconnect(self) -> None:
        connection = self.connection
        if connection is not None:
            asyncio.get_running_loop().call_later(0.01, lambda: asyncio.ensure_future(connection.disconnect()))

    def schedule(self, delay_ms: int, callback) -> None:
        asyncio.get_running_loop().call_later(delay_ms / 1000, callback)

    async def _send_notifications(self) -> None:
        while True:
            value = await self._outgoing.get()
            if self.connection is None:
                continue
            try:
                await self.device.notify_subscribers(self.ff02, value)
            except Exception as error:
                self.event("notify-failed", str(error))

    def record(self) -> dict:
        return {"address": self.address, "name": self.name, "events": self.events, "mtus": self.mtus,
                "frames": self.model.record["frames"], "connections": self.model.record["connections"],
                "security": self.model.record["security"], "sta_ssid": self.model.record["sta_ssid"],
                "wifi_state": self.model.record["wifi_state"], "errors_sent": self.model.record["errors_sent"],
                "connected_now": self.connection is not None}


class BleWorld:
    """The kernel's controllers and the peripherals currently on the air."""

    def __init__(self):
        self.link = LabLink()
        self.controllers: list = []
        self.transports: list = []
        self.peripherals: dict[str, BlufiPeripheral | ProtocommPeripheral] = {}

    async def add_kernel_controller(self, address: str) -> None:
        transport = await open_vhci_transport("/dev/vhci")
        controller = KernelFacingController(f"kernel-{address}", host_source=transport.source,
                                            host_sink=transport.sink, link=self.link,
                                            public_address=address)
        self.transports.append(transport)
        self.controllers.append(controller)

    async def add_peripheral(self, address: str, name: str, blufi: dict, **faults) -> BlufiPeripheral:
        peripheral = BlufiPeripheral(self.link, address, name, blufi, **faults)
        await peripheral.start()
        self.peripherals[address] = peripheral
        return peripheral

    async def add_protocomm_peripheral(self, address: str, name: str, config: dict) -> ProtocommPeripheral:
        """An ESP network_provisioning device over BLE (protocomm_peripheral.py, the scenario's
        "protocomm_ble" object) on the same link."""
        peripheral = ProtocommPeripheral(self.link, address, name, config)
        await peripheral.start()
        self.peripherals[address] = peripheral
        return peripheral

    async def remove_peripheral(self, address: str) -> None:
        peripheral = self.peripherals.pop(address, None)
        if peripheral is not None:
            await peripheral.stop()
