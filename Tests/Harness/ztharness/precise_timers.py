"""One-shot timers for the emulated devices' modeled delays, started on the microsecond they fall due.

GLib's timeouts wake the main loop on whole milliseconds (the loop rounds poll's timeout up) and wait their
turn behind the messages and idle callbacks already queued, so each modeled delay ran 0.3 to 0.7 ms long
and a unit's thirteen ATT writes and its join carried several milliseconds the model does not have. These
timers share one timerfd on CLOCK_MONOTONIC, which the same main loop watches at high priority: a device's
clock does not wait for the rest of the emulation. The timerfd is armed a little before the earliest due
time and the loop waits out the rest on the clock: an idle process on this virtual machine wakes 0.15 to
0.25 ms after its timer expires, which would add that to every modeled delay.

The callbacks run on the main loop's thread, like GLib's; their return value is ignored (one shot each).
"""

import ctypes
import heapq
import itertools
import os
import time
import traceback

from gi.repository import GLib

_CLOCK_MONOTONIC = 1
_TFD_TIMER_ABSTIME = 1
_NS_PER_S = 1_000_000_000
# How long before a due time the timerfd expires: more than an idle process's wake-up here, so the loop is
# awake on the due microsecond; at most this long is spent waiting on the clock per expiry.
_WAKE_AHEAD_NS = 400_000


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("it_interval", _Timespec), ("it_value", _Timespec)]


class _Wheel:
    """The pending timers of this process, due times in time.monotonic_ns() (CLOCK_MONOTONIC)."""

    def __init__(self) -> None:
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._fd = self._libc.timerfd_create(_CLOCK_MONOTONIC, os.O_NONBLOCK | os.O_CLOEXEC)
        if self._fd < 0:
            error = ctypes.get_errno()
            raise OSError(error, f"timerfd_create: {os.strerror(error)}")
        self._heap: list[tuple[int, int, object, tuple]] = []
        self._pending: set[int] = set()
        self._handles = itertools.count(1)
        self._armed_for = 0
        GLib.unix_fd_add_full(GLib.PRIORITY_HIGH, self._fd, GLib.IOCondition.IN, self._expired)

    def add(self, delay_ms: float, callback, args: tuple) -> int:
        due = time.monotonic_ns() + max(0, round(delay_ms * 1_000_000))
        handle = next(self._handles)
        heapq.heappush(self._heap, (due, handle, callback, args))
        self._pending.add(handle)
        self._arm()
        return handle

    def remove(self, handle: int) -> None:
        self._pending.discard(handle)

    def _arm(self) -> None:
        while self._heap and self._heap[0][1] not in self._pending:
            heapq.heappop(self._heap)
        due = max(1, self._heap[0][0] - _WAKE_AHEAD_NS) if self._heap else 0
        if due == self._armed_for:
            return
        spec = _Itimerspec()
        spec.it_value.tv_sec, spec.it_value.tv_nsec = divmod(due, _NS_PER_S)
        if self._libc.timerfd_settime(self._fd, _TFD_TIMER_ABSTIME, ctypes.byref(spec), None) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"timerfd_settime: {os.strerror(error)}")
        self._armed_for = due

    def _expired(self, _fd, _condition) -> bool:
        try:
            os.read(self._fd, 8)
        except BlockingIOError:
            pass
        self._armed_for = 0
        while self._heap and self._heap[0][0] <= time.monotonic_ns() + _WAKE_AHEAD_NS:
            due, handle, callback, args = heapq.heappop(self._heap)
            if handle not in self._pending:
                continue
            self._pending.discard(handle)
            while time.monotonic_ns() < due:
                pass
            try:
                callback(*args)
            except Exception:  # noqa: BLE001 (as GLib does: report and keep the loop running)
                traceback.print_exc()
        self._arm()
        return True


_wheel: _Wheel | None = None


def timeout_add(delay_ms: float, callback, *args) -> int:
    """Runs `callback(*args)` once, `delay_ms` (fractions allowed) from now; returns a handle for remove()."""
    global _wheel  # noqa: PLW0603 (one wheel per process, made on first use)
    if _wheel is None:
        _wheel = _Wheel()
    return _wheel.add(delay_ms, callback, args)


def remove(handle: int) -> None:
    """Forgets a timer that has not run yet; a handle that already ran or was removed is ignored."""
    if _wheel is not None:
        _wheel.remove(handle)
