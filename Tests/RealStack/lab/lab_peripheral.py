"""One LE peripheral of the lab: a Bumble controller of its own on the lab's link and a Bumble
`Device` with a GATT server, serving one of the harness's device models.

Subclasses name the GATT service, the advertisement and the model; this base keeps the link
bookkeeping every model needs (one connection at a time, advertising again after it, the MTU the
stacks settled on, what happened, in order) and the faults scenarios ask for.
"""

import asyncio

from bumble import hci
from bumble.device import Device

from bumble_link import KernelFacingController

ADVERTISING_INTERVAL_MS = 100


class LabPeripheral:
    def __init__(self, link, address: str, name: str, max_mtu: int | None = None):
        self.address = address
        self.name = name
        self.controller = KernelFacingController(f"peripheral-{address}", link=link, public_address=address)
        self.device = Device.with_hci(name, hci.Address(address), self.controller, self.controller)
        if max_mtu is not None:
            # What a firmware with a small ATT buffer answers to the central's MTU exchange.
            self.device.gatt_server.max_mtu = max_mtu
        self.connection = None
        self.events: list[dict] = []
        self.mtus: list[int] = []
        self.model = None

    # What a subclass provides

    def services(self) -> list:
        raise NotImplementedError

    def advertising_data(self) -> bytes:
        raise NotImplementedError

    def scan_response_data(self) -> bytes | None:
        return None

    def model_record(self) -> dict:
        return {}

    # The link

    async def start(self) -> None:
        self.device.add_services(self.services())
        self.device.on("connection", self._connected)
        await self.device.power_on()
        await self.advertise()

    async def advertise(self) -> None:
        await self.device.start_advertising(
            own_address_type=hci.OwnAddressType.PUBLIC, advertising_data=self.advertising_data(),
            scan_response_data=self.scan_response_data(), auto_restart=True,
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
        self.controller.link.remove_controller(self.controller)

    def event(self, kind: str, detail) -> None:
        self.events.append({"event": kind, "detail": detail})

    def _connected(self, connection) -> None:
        self.connection = connection
        self.model.ble_connected(connection.att_mtu)
        self.event("connected", str(connection.peer_address))
        connection.on("connection_att_mtu_update", lambda: self._mtu_changed(connection))
        connection.on("disconnection", lambda reason: self._disconnected(connection, reason))
        self.connected(connection)

    def connected(self, connection) -> None:
        """A subclass's own bookkeeping for a new connection."""

    def disconnected(self) -> None:
        """A subclass's own bookkeeping after a disconnection."""

    def _mtu_changed(self, connection) -> None:
        self.mtus.append(connection.att_mtu)
        if hasattr(self.model, "mtu"):
            self.model.mtu = connection.att_mtu

    def _disconnected(self, connection, reason) -> None:
        if self.connection is connection:
            self.connection = None
        self.model.ble_disconnected()
        self.event("disconnected", int(reason))
        self.disconnected()

    # DeviceLink for the models

    def disconnect(self) -> None:
        connection = self.connection
        if connection is not None:
            asyncio.get_running_loop().call_later(0.01, lambda: asyncio.ensure_future(connection.disconnect()))

    def schedule(self, delay_ms: int, callback) -> None:
        asyncio.get_running_loop().call_later(delay_ms / 1000, callback)

    def record(self) -> dict:
        return {"address": self.address, "name": self.name, "events": self.events, "mtus": self.mtus,
                "connected_now": self.connection is not None, **self.model_record()}


class NotifyingPeripheral(LabPeripheral):
    """A peripheral whose model notifies from synchronous code: each value waits in a queue and one task
    sends them in order to the subscribers while a central is connected."""

    def __init__(self, link, address: str, name: str, max_mtu: int | None = None):
        super().__init__(link, address, name, max_mtu)
        self._outgoing: asyncio.Queue = asyncio.Queue()
        self._sender = None

    def notified_characteristic(self, key):
        """The characteristic that `queue_notification(key, ...)` notifies, or None while it does not exist."""
        raise NotImplementedError

    def queue_notification(self, key, value: bytes) -> None:
        self._outgoing.put_nowait((key, value))

    async def start(self) -> None:
        await super().start()
        self._sender = asyncio.get_running_loop().create_task(self._send_notifications())

    async def stop(self) -> None:
        await super().stop()
        if self._sender:
            self._sender.cancel()

    async def _send_notifications(self) -> None:
        while True:
            key, value = await self._outgoing.get()
            characteristic = self.notified_characteristic(key)
            if self.connection is None or characteristic is None:
                continue
            try:
                await self.device.notify_subscribers(characteristic, value)
            except Exception as error:
                self.event("notify-failed", str(error))
