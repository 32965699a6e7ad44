"""An ESP network_provisioning device over BLE as a Bumble peripheral, for the lab's real BlueZ.

The same device model the BlueZ mock serves (ztharness.protocomm_ble_device around
ztharness.protocomm_device), here behind a real GATT server on the lab's radio link, so real
bluetoothd does the ATT work the mock only imitates: long writes (Prepare/Execute Write, reassembled
by Bumble's server), long reads (Read Blob), the MTU exchange, and SMP pairing when the device forces
link encryption (endpoint characteristics then need an encrypted link, as with
CONFIG_NETWORK_PROV_BLE_FORCE_ENCRYPTION; the 0x2901 descriptors stay readable).
The advertisement carries the flags and the one 128-bit service UUID, the scan response the name,
as protocomm's NimBLE transport does.
"""

import asyncio
import uuid

from bumble import att, gatt, hci
from bumble.core import UUID, AdvertisingData
from bumble.device import Device
from bumble.pairing import PairingConfig, PairingDelegate

from ztharness.protocomm_ble_device import ProtocommBleConfig, ProtocommBleDevice

from bumble_link import KernelFacingController

ADVERTISING_INTERVAL_MS = 100
USER_DESCRIPTION = UUID.from_16_bits(0x2901)


class _JustWorks(PairingDelegate):
    """A device without input or output; `accept` false refuses every pairing request."""

    def __init__(self, accept: bool):
        super().__init__(io_capability=PairingDelegate.NO_OUTPUT_NO_INPUT)
        self._accept = accept

    async def accept(self) -> bool:
        return self._accept


class ProtocommPeripheral:
    """One ESP32 running network_provisioning over BLE: one link at a time, advertising while free."""

    def __init__(self, link, address: str, name: str, config: dict):
        self.address = address
        self.name = name
        self.controller = KernelFacingController(f"peripheral-{address}", link=link, public_address=address)
        self.device = Device.with_hci(name, hci.Address(address), self.controller, self.controller)
        self.model = ProtocommBleDevice(ProtocommBleConfig.from_dict(config), self)
        self.pairing = self.model.config.pairing_config
        self.connection = None
        self.stopped = False
        self.events: list[dict] = []
        self.mtus: list[int] = []
        self._build_gatt()
        self.device.pairing_config_factory = lambda _connection: PairingConfig(
            sc=True, mitm=self.pairing.mitm, bonding=self.pairing.bonding, delegate=_JustWorks(self.pairing.accept))

    def _build_gatt(self) -> None:
        permissions = gatt.Characteristic.READABLE | gatt.Characteristic.WRITEABLE
        if self.pairing.required:
            permissions |= gatt.Characteristic.READ_REQUIRES_ENCRYPTION | gatt.Characteristic.WRITE_REQUIRES_ENCRYPTION
        characteristics = []
        for name, _ in self.model.endpoints:
            descriptors = [gatt.Descriptor(USER_DESCRIPTION, gatt.Descriptor.READABLE, name.encode())] \
                if self.model.config.user_descriptions else []
            characteristics.append(gatt.Characteristic(
                UUID(self.model.uuid_of(name)),
                gatt.Characteristic.Properties.READ | gatt.Characteristic.Properties.WRITE, permissions,
                gatt.CharacteristicValue(read=lambda _connection, name=name: self.model.read(name),
                                         write=lambda connection, value, name=name: self._written(
                                             connection, name, value)),
                descriptors))
        self.device.add_services([gatt.Service(UUID(self.model.config.service_uuid), characteristics)])

    async def start(self) -> None:
        self.device.on("connection", self._connected)
        await self.device.power_on()
        await self._advertise()

    async def _advertise(self) -> None:
        service = uuid.UUID(self.model.config.service_uuid).bytes[::-1]
        data = bytes(AdvertisingData([(AdvertisingData.FLAGS, bytes([0x06])),
                                      (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, service)]))
        response = bytes(AdvertisingData([(AdvertisingData.COMPLETE_LOCAL_NAME, self.name.encode())]))
        await self.device.start_advertising(
            own_address_type=hci.OwnAddressType.PUBLIC, advertising_data=data, scan_response_data=response,
            auto_restart=True, advertising_interval_min=ADVERTISING_INTERVAL_MS,
            advertising_interval_max=ADVERTISING_INTERVAL_MS)

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
        self.controller.link.remove_controller(self.controller)

    def event(self, kind: str, detail) -> None:
        self.events.append({"event": kind, "detail": detail})

    def _connected(self, connection) -> None:
        self.connection = connection
        self.model.ble_connected(connection.att_mtu)
        self.event("connected", str(connection.peer_address))
        connection.on("connection_att_mtu_update", lambda: self.mtus.append(connection.att_mtu))
        connection.on("pairing", lambda keys: self.event("paired", {"bonded": self.pairing.bonding}))
        connection.on("pairing_failure", lambda reason: self.event("pairing-failed", int(reason)))
        connection.on("disconnection", lambda reason: self._disconnected(connection, reason))

    def _disconnected(self, connection, reason) -> None:
        if self.connection is connection:
            self.connection = None
        self.model.ble_disconnected()
        self.event("disconnected", int(reason))
        if self.stopped:
            # Bumble restarts advertising after every disconnection; a stopped service does not.
            asyncio.get_running_loop().call_later(0.05, lambda: asyncio.ensure_future(self.device.stop_advertising()))

    async def _written(self, connection, name: str, value: bytes) -> None:
        """protocomm handles the whole (reassembled) value before the write is answered."""
        outcome = self.model.write(name, bytes(value), None)
        if isinstance(outcome, int):
            if self.model.config.ble_stack == "bluedroid":
                self.event("refused-request-link-closed", name)
                await connection.disconnect()
                return
            raise att.ATT_Error(error_code=outcome)
        if outcome is None:
            return
        if outcome.delay_ms:
            await asyncio.sleep(outcome.delay_ms / 1000)
        if outcome.stop_service_after_ms is not None:
            asyncio.get_running_loop().call_later(outcome.stop_service_after_ms / 1000,
                                                  lambda: asyncio.ensure_future(self._stop_service()))

    async def _stop_service(self) -> None:
        """network_prov_mgr_done(): BLE goes off, the link with it, and nothing advertises any more."""
        self.stopped = True
        self.event("service-stopped", None)
        if self.connection is not None:
            await self.connection.disconnect()
        else:
            await self.device.stop_advertising()

    def record(self) -> dict:
        return {"address": self.address, "name": self.name, "events": self.events, "mtus": self.mtus,
                "stopped": self.stopped, "connected_now": self.connection is not None, **self.model.record}
