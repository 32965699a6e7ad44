"""An ESP32 running BluFi: the BluFi service (FFFF: FF01 written by the central, FF02 notified) in
front of the harness's BluFi model (ztharness.blufi_device), the same model the BlueZ mock drives.

Faults the scenarios need: drop the link at the n-th frame, a GATT database changed since
bluetoothd cached it (a firmware update), a small MTU (through LabPeripheral).
"""

import asyncio
import struct

from bumble import gatt
from bumble.core import UUID, AdvertisingData

from ztharness.blufi_device import BlufiConfig, BlufiDevice

from lab_peripheral import NotifyingPeripheral

BLUFI_SERVICE = 0xFFFF


class BlufiPeripheral(NotifyingPeripheral):
    def __init__(self, link, address: str, name: str, blufi: dict, link_loss_at_frame: int | None = None,
                 extra_service: bool = False, max_mtu: int | None = None):
        super().__init__(link, address, name, max_mtu)
        self.link_loss_at_frame = link_loss_at_frame
        self.extra_service = extra_service
        self.model = BlufiDevice(BlufiConfig.from_dict(blufi), self)
        self.frames_this_connection = 0

    def services(self) -> list:
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
        return services

    def advertising_data(self) -> bytes:
        return bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, self.name.encode()),
            (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, struct.pack("<H", BLUFI_SERVICE)),
        ]))

    def connected(self, connection) -> None:
        self.frames_this_connection = 0

    def _written(self, connection, value: bytes) -> None:
        self.frames_this_connection += 1
        self.model.receive(bytes(value))
        if self.link_loss_at_frame and self.frames_this_connection == self.link_loss_at_frame:
            self.link_loss_at_frame = None
            self.event("link-loss", self.frames_this_connection)
            asyncio.get_running_loop().create_task(connection.disconnect())

    # DeviceLink for the BluFi model

    def notify(self, value: bytes) -> None:
        self.queue_notification("ff02", value)

    def notified_characteristic(self, key):
        return self.ff02

    def model_record(self) -> dict:
        record = self.model.record
        return {"frames": record["frames"], "connections": record["connections"], "security": record["security"],
                "sta_ssid": record["sta_ssid"], "wifi_state": record["wifi_state"],
                "errors_sent": record["errors_sent"]}
