"""The mock's precise timers on a real GLib main loop: order, removal, never early, and a failing callback
that does not stop the others."""

import time

from gi.repository import GLib

from ztharness import precise_timers


def run_until(loop: GLib.MainLoop, limit_s: float = 5.0) -> None:
    guard = GLib.timeout_add(int(limit_s * 1000), loop.quit)
    loop.run()
    GLib.source_remove(guard)


def test_timers_run_in_due_order_and_never_before_due():
    loop = GLib.MainLoop()
    fired: list[tuple[str, float, float]] = []
    started = time.monotonic()

    def fire(name: str, delay_ms: float) -> None:
        fired.append((name, delay_ms, (time.monotonic() - started) * 1000))
        if len(fired) == 4:
            loop.quit()

    for name, delay_ms in [("c", 12.5), ("a", 2.25), ("d", 20.0), ("b", 7.0)]:
        precise_timers.timeout_add(delay_ms, fire, name, delay_ms)
    run_until(loop)
    assert [name for name, _, _ in fired] == ["a", "b", "c", "d"]
    assert all(at >= delay_ms for _, delay_ms, at in fired)


def test_a_removed_timer_does_not_run_and_the_next_one_still_does():
    loop = GLib.MainLoop()
    fired: list[str] = []
    first = precise_timers.timeout_add(3, fired.append, "removed")
    precise_timers.timeout_add(6, fired.append, "kept")
    precise_timers.timeout_add(9, loop.quit)
    precise_timers.remove(first)
    precise_timers.remove(first)
    run_until(loop)
    assert fired == ["kept"]


def test_a_timer_added_by_a_callback_and_one_already_due_both_run():
    loop = GLib.MainLoop()
    fired: list[str] = []

    def chain() -> None:
        fired.append("first")
        precise_timers.timeout_add(0, fired.append, "added")
        precise_timers.timeout_add(4, loop.quit)

    precise_timers.timeout_add(1, chain)
    run_until(loop)
    assert fired == ["first", "added"]


def test_a_failing_callback_leaves_the_others_running(capsys):
    loop = GLib.MainLoop()
    fired: list[str] = []

    def fail() -> None:
        raise RuntimeError("device model bug")

    precise_timers.timeout_add(1, fail)
    precise_timers.timeout_add(1, fired.append, "after")
    precise_timers.timeout_add(5, loop.quit)
    run_until(loop)
    assert fired == ["after"]
    assert "device model bug" in capsys.readouterr().err


def test_a_timer_armed_ahead_of_its_due_time_still_waits_for_it():
    """The timerfd expires before the due time so an idle process is awake for it: the callback must still
    not run before its due microsecond, whatever the wake-up took."""
    loop = GLib.MainLoop()
    early: list[int] = []
    count = 40

    def fire(due_ns: int, last: bool) -> None:
        now = time.monotonic_ns()
        if now < due_ns:
            early.append(due_ns - now)
        if last:
            loop.quit()

    for n in range(count):
        delay_ms = 1 + n * 0.75
        due_ns = time.monotonic_ns() + int(delay_ms * 1_000_000)
        precise_timers.timeout_add(delay_ms, fire, due_ns, n == count - 1)
    run_until(loop)
    assert early == []
