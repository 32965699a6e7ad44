"""A device offering Improv Wi-Fi over BLE: the Improv service (state, error, RPC command, RPC
result, capabilities) in front of the harness's Improv model (ztharness.improv_device), the same
model the BlueZ mock drives.

It advertises as the specification asks: the service's 128-bit UUID and service data 0x4677 (state,
capabilities) in the advertisement, the name in the scan response; the service data follows the
model's state, so a central sees "authorized" or "provisioned" while scanning.
"""

import asyncio

from bumble import gatt
from bumble.core import UUID, AdvertisingData

from ztharness import improv_device
from ztharness.improv_device import ImprovConfig, ImprovDevice

from lab_peripheral import NotifyingPeripheral

IMPROV_SERVICE_DATA_16 = 0x4677
READ_NOTIFY = gatt.Characteristic.Properties.READ | gatt.Characteristic.Properties.NOTIFY


class ImprovPeripheral(NotifyingPeripheral):
    def __init__(self, link, address: str, name: str, improv: dict, max_mtu: int | None = None):
        super().__init__(link, address, name, max_mtu)
        self.model = ImprovDevice(ImprovConfig.from_dict(improv), self)
        self.values = self.model.initial_values()
        self.characteristics: dict[str, gatt.Characteristic] = {}

    def services(self) -> list:
        def readable(uuid: str, properties) -> gatt.Characteristic:
            characteristic = gatt.Characteristic(
                UUID(uuid), properties, gatt.Characteristic.READABLE,
                gatt.CharacteristicValue(read=lambda _connection: self.values.get(uuid, b"")))
            self.characteristics[uuid] = characteristic
            return characteristic

        command = gatt.Characteristic(
            UUID(improv_device.RPC_COMMAND_UUID),
            gatt.Characteristic.Properties.WRITE | gatt.Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
            gatt.Characteristic.WRITEABLE, gatt.CharacteristicValue(write=self._written))
        return [gatt.Service(UUID(improv_device.SERVICE_UUID), [
            readable(improv_device.STATE_UUID, READ_NOTIFY),
            readable(improv_device.ERROR_UUID, READ_NOTIFY),
            command,
            readable(improv_device.RPC_RESULT_UUID, READ_NOTIFY),
            readable(improv_device.CAPABILITIES_UUID, gatt.Characteristic.Properties.READ),
        ])]

    def advertising_data(self) -> bytes:
        service_data = IMPROV_SERVICE_DATA_16.to_bytes(2, "little") + self.model.service_data
        return bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
             UUID(improv_device.SERVICE_UUID).to_bytes(force_128=True)),
            (AdvertisingData.SERVICE_DATA_16_BIT_UUID, service_data),
        ]))

    def scan_response_data(self) -> bytes:
        return bytes(AdvertisingData([(AdvertisingData.COMPLETE_LOCAL_NAME, self.name.encode())]))

    def _written(self, _connection, value: bytes) -> None:
        self.model.receive(bytes(value))

    # DeviceLink for the Improv model

    def set_value(self, uuid: str, value: bytes) -> None:
        self.values[uuid] = value
        self.queue_notification(uuid, value)

    def advertisement_changed(self) -> None:
        """New service data (the state changed): advertise it while nobody is connected."""
        async def readvertise() -> None:
            if self.connection is not None:
                return
            try:
                await self.device.stop_advertising()
                await self.advertise()
            except Exception as error:
                self.event("readvertise-failed", str(error))

        asyncio.ensure_future(readvertise())

    def notified_characteristic(self, key):
        return self.characteristics.get(key)

    def model_record(self) -> dict:
        record = self.model.record
        return {"connections": record["connections"], "commands": record["commands"],
                "join_ssids": [attempt["ssid"] for attempt in record["join_attempts"]],
                "state": self.model.state, "error": self.model.error, "errors": record["errors"],
                "identify": record["identify"],
                "hostname": self.model.hostname}
