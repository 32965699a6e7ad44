"""The mock's own timeline: when each GLib timer and idle callback was due, when it ran, and for how long.

With ZTHARNESS_TIMELINE=FILE in its environment a mock appends one JSON line per callback of its main loop:
{"t": wall-clock start, "kind": "timeout"|"idle", "name": the callback, "due_ms": the delay asked for,
"late_ms": how much later than due it started, "run_ms": how long it ran}. A modeled delay (an ATT write's
latency, the Wi-Fi join, service resolution) is a timer (ztharness/precise_timers.py), so its line says how
far the mock's own scheduling stretched it; idle callbacks are how the mock sends its signals, so their
lateness is the mock's share of a signal's delay. Without the variable nothing changes.
"""

import json
import os
import time

from gi.repository import GLib

from . import precise_timers

VARIABLE = "ZTHARNESS_TIMELINE"


def install() -> None:
    """Wraps GLib.timeout_add, GLib.idle_add and the precise timers for this process when the variable names a
    file."""
    path = os.environ.get(VARIABLE)
    if not path:
        return
    out = open(path, "a", encoding="utf-8")  # noqa: SIM115 (open for the process lifetime)
    timeout_add, idle_add, precise_timeout_add = GLib.timeout_add, GLib.idle_add, precise_timers.timeout_add

    def traced(kind: str, due_ms: float, callback, args):
        asked = time.monotonic()
        name = getattr(callback, "__qualname__", repr(callback))

        def run(*_ignored):
            began = time.monotonic()
            wall = time.time()
            result = callback(*args)
            out.write(json.dumps({"t": round(wall, 6), "kind": kind, "name": name, "due_ms": due_ms,
                                  "late_ms": round((began - asked) * 1000 - due_ms, 3),
                                  "run_ms": round((time.monotonic() - began) * 1000, 3)}) + "\n")
            out.flush()
            return result

        return run

    def traced_timeout_add(interval, callback, *args, **kwargs):
        return timeout_add(interval, traced("timeout", interval, callback, args), **kwargs)

    def traced_idle_add(callback, *args, **kwargs):
        return idle_add(traced("idle", 0, callback, args), **kwargs)

    def traced_precise_timeout_add(delay_ms, callback, *args):
        return precise_timeout_add(delay_ms, traced("timeout", delay_ms, callback, args))

    GLib.timeout_add = traced_timeout_add
    GLib.idle_add = traced_idle_add
    precise_timers.timeout_add = traced_precise_timeout_add
