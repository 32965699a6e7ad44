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

from bumble import att, gatt
from bumble.core import UUID, AdvertisingData
from bumble.pairing import PairingConfig, PairingDelegate

from ztharness.protocomm_ble_device import ProtocommBleConfig, ProtocommBleDevice

from lab_peripheral import LabPeripheral

USER_DESCRIPTION = UUID.from_16_bits(0x2901)


class _JustWorks(PairingDelegate):
    """A device without input or output; `accept` false refuses every pairing request."""

    def __init__(self, accept: bool):
        super().__init__(io_capability=PairingDelegate.NO_OUTPUT_NO_INPUT)
        self._accept = accept

    async def accept(self) -> bool:
        return self._accept


class ProtocommPeripheral(LabPeripheral):
    """One ESP32 running network_provisioning over BLE: one link at a time, advertising while free."""

    def __init__(self, link, address: str, name: str, config: dict):
        super().__init__(link, address, name)
        self.model = ProtocommBleDevice(ProtocommBleConfig.from_dict(config), self)
        self.pairing = self.model.config.pairing_config
        self.stopped = False
        self.device.pairing_config_factory = lambda _connection: PairingConfig(
            sc=True, mitm=self.pairing.mitm, bonding=self.pairing.bonding, delegate=_JustWorks(self.pairing.accept))

    def services(self) -> list:
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
        return [gatt.Service(UUID(self.model.config.service_uuid), characteristics)]

    def advertising_data(self) -> bytes:
        service = uuid.UUID(self.model.config.service_uuid).bytes[::-1]
        return bytes(AdvertisingData([(AdvertisingData.FLAGS, bytes([0x06])),
                                      (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, service)]))

    def scan_response_data(self) -> bytes:
        return bytes(AdvertisingData([(AdvertisingData.COMPLETE_LOCAL_NAME, self.name.encode())]))

    def connected(self, connection) -> None:
        connection.on("pairing", lambda keys: self.event("paired", {"bonded": self.pairing.bonding}))
        connection.on("pairing_failure", lambda reason: self.event("pairing-failed", int(reason)))

    def disconnected(self) -> None:
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

    def model_record(self) -> dict:
        return {"stopped": self.stopped, **self.model.record}
