"""One physical BLE peripheral: its BluFi model, its single link, its faults and its record.

A device may be heard by several adapters (scenario "adapters"), as on a factory line where every
dongle hears every unit: each adapter then has its own Device1 object (bluez_device.EmulatedDevice,
a "view"), but they all share this one peripheral. Like an ESP32 running BluFi, the peripheral
advertises only while nobody is connected: a connection through one adapter silences it for the
others (no more advertisement reports). A Connect through another adapter meanwhile waits like the
kernel's LE create-connection does for a silent device: it succeeds once the device advertises
again, or fails with le-connection-abort-by-local after connect_timeout_ms (HCI_LE_CONN_TIMEOUT,
20 s in Linux). A Connect through an adapter that is discovering is slow or fails
(bluez_device.py, scenario.py connect_while_discovering_ms).

Faults count per peripheral (not per adapter): the n-th Connect, frame and notification of the
device's life, whichever adapter they go through.
"""

import json
import os
import time

import dbus
from gi.repository import GLib

from . import precise_timers
from .blufi_device import BlufiConfig, BlufiDevice
from .dbus_export import bluez_error
from .echo_device import EchoDevice
from .improv_device import SERVICE_DATA_UUID, ImprovConfig, ImprovDevice
from .protocomm_ble_device import ProtocommBleConfig, ProtocommBleDevice

DEVICE_DISCONNECT_DELAY_MS = 10
RECORD_WRITE_DELAY_MS = 250
TIMEOUT_ERROR = ("org.bluez.Error.Failed", "le-connection-abort-by-local")


def fault_hits(setting, count: int) -> bool:
    """A fault given as n or [n, …] applies to the count-th event."""
    if setting is None:
        return False
    return count in setting if isinstance(setting, list) else count == setting


class EmulatedPeripheral:
    def __init__(self, config: dict, record_dir: str | None, connect_timeout_ms: int,
                 connect_while_discovering_ms: int = 0):
        self.config = config
        self.faults = config["faults"]
        self.address = config["address"].upper()
        self.mtu = config["mtu"]
        self.connect_timeout_ms = connect_timeout_ms
        self.connect_while_discovering_ms = connect_while_discovering_ms
        self.views: list = []
        self.holder = None
        self._last_adapter = config["adapters"][0]
        self._waiting: list[tuple] = []
        self.source = ("improv" if config["improv"] is not None
                       else "protocomm_ble" if config["protocomm_ble"] is not None
                       else "echo" if config.get("echo") is not None else "blufi")
        self.stopped = False
        self._record_path = os.path.join(record_dir, f"{self.source}-{self.address.replace(':', '_')}.json") \
            if record_dir else None
        self._record_timer = None
        self._suppress_notifications = False
        self._frames_this_connection = 0
        self._link_loss_done = False
        self._notification_count = 0
        # Notifications the device sent while a write it is handling is not answered yet (works_during_latency),
        # and when that answer is due (time.monotonic()).
        self._held_notifications: list[bytes] | None = None
        self._answer_due = 0.0
        self.ble = {"connect_calls": 0, "events": [], "writes": 0, "notifications_dropped": [],
                    "notifications_corrupted": [], "dropped_unsubscribed": 0}
        # The protocol model behind the GATT service: Improv when the scenario asks for it, else BluFi.
        self.improv = ImprovDevice(ImprovConfig.from_dict(config["improv"]), self) if self.source == "improv" else None
        self.protocomm_ble = ProtocommBleDevice(ProtocommBleConfig.from_dict(config["protocomm_ble"]), self) \
            if self.source == "protocomm_ble" else None
        self.echo = EchoDevice(config["echo"], self) if self.source == "echo" else None
        self.model = self.improv or self.protocomm_ble or self.echo \
            or BlufiDevice(BlufiConfig.from_dict(config["blufi"]), self)
        self.values = self.improv.initial_values() if self.improv else {}

    @property
    def advertising(self) -> bool:
        return self.holder is None and not self.stopped

    def service_data(self) -> dict:
        """The advertised ServiceData as {uuid: hex}; an Improv device adds its live state and capabilities."""
        data = dict(self.config["service_data"])
        if self.improv is not None and self.improv.config.advertises_service_data:
            data[SERVICE_DATA_UUID] = self.improv.service_data.hex()
        return data

    # Connection ----------------------------------------------------------------------------------

    def check_connect_faults(self) -> None:
        """Counts a Connect call and raises the scripted refusal, if this attempt has one."""
        self.ble["connect_calls"] += 1
        attempt = self.ble["connect_calls"]
        in_progress = self.faults["in_progress_first_n"]
        if attempt <= in_progress:
            self.event("connect-refused", "InProgress")
            raise bluez_error("InProgress", "In Progress")
        if attempt <= in_progress + self.faults["connect_fail_first_n"]:
            name, message = self.faults["connect_error"].split(":", 1)
            self.event("connect-refused", name)
            raise dbus.exceptions.DBusException(message, name=name)

    def wait_for_advertising(self, view, call) -> None:
        """A Connect through `view` while another adapter holds the link: wait, or time out."""
        entry = [view, call, None]

        def give_up() -> bool:
            self._waiting.remove(entry)
            self.event("connect-timeout", view.adapter.name)
            call.fail(dbus.exceptions.DBusException(TIMEOUT_ERROR[1], name=TIMEOUT_ERROR[0]))
            return False

        entry[2] = GLib.timeout_add(self.connect_timeout_ms, give_up)
        self._waiting.append(entry)

    def attached(self, view) -> None:
        """`view`'s adapter now holds the link (its Connected signal is already out)."""
        self._frames_this_connection = 0
        self._last_adapter = view.adapter.name
        self.model.ble_connected(self.mtu)
        self.event("connected", view.adapter.name)

    def detached(self, reason: str) -> None:
        """The link is gone: the model resets and the device advertises again."""
        self.model.ble_disconnected()
        self.event("disconnected", reason)
        if self._waiting:
            GLib.idle_add(self._serve_waiting)

    def _serve_waiting(self) -> bool:
        while self._waiting and self.holder is None:
            view, call, timer = self._waiting.pop(0)
            GLib.source_remove(timer)
            if view.adapter.powered and view.exported:
                view.link_up()
                call.reply()
            else:
                call.fail(bluez_error("NotReady", "Resource Not Ready"))
        return False

    # Frames from the central ---------------------------------------------------------------------

    def frame_arrived(self, view, value: bytes) -> None:
        self.ble["writes"] += 1
        self._frames_this_connection += 1
        loss_at = self.faults["link_loss_at_frame"]
        if loss_at and not self._link_loss_done and self._frames_this_connection == loss_at:
            self._link_loss_done = True
            self._suppress_notifications = True
            self.model.receive(value)
            self._suppress_notifications = False
            view.link_down("link-loss")
        else:
            self.model.receive(value)
        self.save_record()

    def protocomm_write(self, endpoint: str, value: bytes, pdus: int):
        """A write to a protocomm endpoint: the Reply, None (ignored) or the ATT error code."""
        self.ble["writes"] += 1
        outcome = self.protocomm_ble.write(endpoint, value, pdus)
        if outcome is not None and not isinstance(outcome, int) and outcome.stop_service_after_ms is not None:
            GLib.timeout_add(outcome.delay_ms + outcome.stop_service_after_ms, self._stop_service)
        self.save_record()
        return outcome

    def _stop_service(self) -> bool:
        """network_prov_mgr_done(): protocomm_ble_stop ends the link and the advertising for good."""
        self.stopped = True
        self.event("service-stopped", None)
        if self.holder is not None:
            self.holder.link_down("device")
        return False

    # DeviceLink for the BluFi model ---------------------------------------------------------------

    def hold_notifications(self, answer_in_ms: int) -> None:
        """Keeps what the device notifies from now until release_notifications(), and starts its timers (a
        join, its own disconnect) from the answer, due in answer_in_ms: the device's work moves inside the
        write's latency, its modeled timeline stays as when it works after the answer."""
        if self._held_notifications is None:
            self._held_notifications = []
        self._answer_due = time.monotonic() + answer_in_ms / 1000

    def release_notifications(self) -> None:
        """Sends the held notifications in order, once the write is answered."""
        held, self._held_notifications = self._held_notifications or [], None
        self._answer_due = 0.0
        for value in held:
            self.notify(value)

    def discard_notifications(self) -> None:
        """The link dropped before the write was answered: what the device held is lost with it."""
        self._held_notifications = None
        self._answer_due = 0.0

    def _from_the_answer(self, delay_ms: int) -> float:
        """A timer's delay counted from the answer of the write the device is handling, if one is pending."""
        waiting = self._answer_due - time.monotonic()
        return delay_ms + (waiting * 1000 if self._held_notifications is not None and waiting > 0 else 0)

    def notify(self, value: bytes) -> None:
        if self._held_notifications is not None:
            self._held_notifications.append(value)
            return
        holder = self.holder
        if holder is None or self._suppress_notifications or holder.notify_characteristic is None:
            return
        self._notification_count += 1
        count = self._notification_count
        if fault_hits(self.faults["drop_notification"], count):
            self.ble["notifications_dropped"].append({"index": count, "value": value.hex()})
            return
        if fault_hits(self.faults["corrupt_notification"], count):
            value = value[:-1] + bytes([value[-1] ^ 0xFF])
            self.ble["notifications_corrupted"].append({"index": count, "value": value.hex()})
        if not holder.notify_characteristic.notify(value):
            self.ble["dropped_unsubscribed"] += 1
        self.save_record()

    def set_value(self, uuid: str, value: bytes) -> None:
        """Improv and echo: a characteristic's new value, kept for reads and notified to a subscribed central."""
        self.values[uuid] = value
        holder = self.holder
        if holder is None or self._suppress_notifications:
            return
        self._notification_count += 1
        if not holder.characteristic_changed(uuid, value):
            self.ble["dropped_unsubscribed"] += 1
        self.save_record()

    def advertisement_changed(self) -> None:
        for view in self.views:
            view.service_data_changed()

    def disconnect(self) -> None:
        holder = self.holder
        if holder is None:
            return
        generation = holder.generation

        def terminate() -> bool:
            if self.holder is holder and generation == holder.generation:
                holder.link_down("device")
            return False

        precise_timers.timeout_add(self._from_the_answer(DEVICE_DISCONNECT_DELAY_MS), terminate)

    def schedule(self, delay_ms: int, callback) -> None:
        def fire() -> bool:
            callback()
            self.save_record()
            return False

        precise_timers.timeout_add(self._from_the_answer(delay_ms), fire)

    # Records -------------------------------------------------------------------------------------

    def received(self) -> dict:
        adapter = self.holder.adapter.name if self.holder else self._last_adapter
        return {"source": self.source, "address": self.address, "adapter": adapter,
                "adapters": [view.adapter.name for view in self.views], "name": self.config["name"],
                "ble": self.ble, **self.model.record}

    def event(self, kind: str, detail) -> None:
        self.ble["events"].append({"event": kind, "detail": detail})
        self.save_record()

    def save_record(self) -> None:
        """Writes the record file a while after a change, with whatever changed meanwhile.

        While the mock runs, `harness.py received` asks it for the record (GetReceived), so the file is only
        what is left once the mock is gone: `flush_record` writes it at exit. Writing it after every burst
        of activity cost the one process that serves every device a file creation and rename per ATT write.
        """
        if self._record_path is None or self._record_timer is not None:
            return
        self._record_timer = GLib.timeout_add(RECORD_WRITE_DELAY_MS, self._record_due)

    def _record_due(self) -> bool:
        self._record_timer = None
        self._write_record()
        return False

    def flush_record(self) -> None:
        """Writes the record file now if a change is not in it yet."""
        if self._record_timer is not None:
            GLib.source_remove(self._record_timer)
            self._record_timer = None
            self._write_record()

    def _write_record(self) -> None:
        """Compact JSON: with `indent`, Python's json leaves its C encoder for the pure-Python one."""
        temporary = self._record_path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(self.received(), handle)
        os.replace(temporary, self._record_path)
