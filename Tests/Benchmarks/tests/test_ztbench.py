"""The benchmark's own arithmetic: minimal BluFi frame counts, the poll-gap reading, "flat", the lab's steps."""

import os
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ztbench import batch_bench, batch_timeline, blufi_frames, lab_bench, softap_bench, stats  # noqa: E402
from ztbench.harness_run import Harness, ToolRun  # noqa: E402


def test_frame_capacity_follows_mtu_and_the_one_byte_length():
    assert blufi_frames.frame_capacity(23, checksum=False) == 16
    assert blufi_frames.frame_capacity(23, checksum=True) == 14
    assert blufi_frames.frame_capacity(185, checksum=True) == 176
    assert blufi_frames.frame_capacity(517, checksum=False) == 251


def test_minimum_frames_at_the_fragment_boundaries():
    # MTU 23 with checksum: 14 bytes fit one frame; fragments carry 12, the last piece up to 14.
    assert [blufi_frames.minimum_frames(n, 23, True) for n in (0, 14, 15, 26, 27, 38, 39)] == [1, 1, 2, 2, 3, 3, 4]
    # A V1 DH parameter block (263 bytes) at MTU 185 with checksum: 174 + 176 ≥ 263 → 2 frames.
    assert blufi_frames.minimum_frames(263, 185, True) == 2


def test_minimum_frames_agrees_with_the_android_fragmenter_rule():
    """The Android/ztprov rule: pieces of C − 2 with a prefix while more than C remain, then the rest."""
    for mtu in (23, 64, 185, 247, 517):
        for checksum in (False, True):
            capacity = blufi_frames.frame_capacity(mtu, checksum)
            for length in range(0, 700):
                pieces, remaining = 1, length
                while remaining > capacity:
                    remaining -= capacity - 2
                    pieces += 1
                assert blufi_frames.minimum_frames(length, mtu, checksum) == pieces, (mtu, checksum, length)


def test_minimum_for_recorded_messages_reads_length_and_checksum_bit():
    messages = [{"data": "00" * 20, "fc": 0x02}, {"data": "00" * 20, "fc": 0x00}, {"data": "", "fc": 0x01}]
    assert blufi_frames.minimum_for_messages(messages, 23) == 2 + 2 + 1


def test_poll_gaps_measure_last_connecting_to_connected():
    records = [{"source": "protocomm", "event": "get_status", "time": t, "sta_state": s}
               for t, s in ((10.0, 1), (10.5, 1), (11.02, 0), (20.0, 1), (20.6, 0))]
    records.insert(2, {"source": "protocomm", "event": "apply_config", "time": 10.6})
    assert [round(g, 2) for g in softap_bench.poll_gaps(records)] == [0.52, 0.6]


def test_notice_delay_runs_from_the_first_connected_answer_to_the_event():
    records = [{"source": "protocomm", "event": "get_status", "time": t, "sta_state": s}
               for t, s in ((1000.1, 1), (1000.2, 0), (1000.3, 0))]
    run = ToolRun(status=0, wall_s=1.0, cpu_s=0.1, max_rss_kib=1, events=[(0.7, {"event": "device-connected"})],
                  stderr="", started_at=999.5)
    assert round(softap_bench.notice_delay(records, run), 3) == 0.0
    late = ToolRun(status=0, wall_s=1.0, cpu_s=0.1, max_rss_kib=1, events=[(0.75, {"event": "device-connected"})],
                   stderr="", started_at=999.5)
    assert round(softap_bench.notice_delay(records, late), 3) == 0.05
    assert softap_bench.notice_delay(records[:1], late) is None


def test_flat_allows_noise_but_not_growth():
    assert stats.is_flat([100, 130, 104], 0.05)
    assert not stats.is_flat([100, 101, 120], 0.05)
    assert stats.is_flat([12, 12], 0)
    assert not stats.is_flat([12, 13], 0)
    assert stats.median([3, None, 1, 2]) == 2


def test_lab_steps_are_gaps_between_stamped_events_and_the_floor_comes_from_the_guest():
    def run(name, status, seconds, stamps):
        lines = [{"event": "connecting"}, {"event": "connected"}, {"event": "session-ready"},
                 {"event": "wifi-connected"}, {"event": "result", "frames_written": 12, "mtu": 517}]
        return {"name": name, "status": status, "seconds": seconds, "stdout_line_seconds": stamps,
                "stdout": "\n".join(__import__("json").dumps(line) for line in lines) + "\n"}

    document = {"timings": {"bench_device_floor": {"ble": {"advertising_interval_ms": 100, "join_delay_ms": 300},
                                                   "softap": {"connecting_polls": 2}}},
                "scenarios": [run("bench-ble-1", 0, 3.0, [1.0, 1.5, 2.0, 2.6, 2.9]),
                              run("bench-ble-2", 0, 5.0, [2.0, 2.5, 3.5, 4.0, 4.9]),
                              run("bench-ble-3", 5, 9.0, [1.0])]}
    ble = lab_bench.summary(document, "bench-ble-", lab_bench.BLE_STEPS)
    assert (ble["runs"], ble["ok"], ble["wall_s"]) == (3, 2, 4.0)
    assert ble["steps"]["start-up + scan"] == 1.5
    assert abs(ble["steps"]["version + key exchange"] - 0.75) < 1e-9
    assert abs(ble["steps"]["disconnect + exit"] - 0.7) < 1e-9
    assert ble["failures"] == ["bench-ble-3: 5 "]
    assert [r["frames_written"] for r in ble["results"]] == [12, 12]
    assert lab_bench.step_times({"stdout": "not json\n", "stdout_line_seconds": [0.1], "seconds": 1.0},
                                lab_bench.BLE_STEPS)["start-up + scan"] is None


def test_batch_floor_is_the_busiest_adapters_share_after_one_advertisement():
    per_device_ms = 13 * batch_bench.LATENCY_MS + batch_bench.JOIN_MS + batch_bench.RESOLVE_MS
    assert batch_bench.floor_s(24, 1, 13) * 1000 == pytest.approx(24 * per_device_ms + batch_bench.ADVERTISE_MS)
    assert batch_bench.floor_s(24, 4, 13) * 1000 == pytest.approx(6 * per_device_ms + batch_bench.ADVERTISE_MS)
    assert batch_bench.floor_s(25, 4, 13) == batch_bench.floor_s(28, 4, 13), "the busiest adapter takes 7"


def test_batch_reads_a_process_cpu_time_that_grows_with_its_work():
    before = batch_bench.process_cpu_s(os.getpid())
    spin_until = time.process_time() + 0.05
    while time.process_time() < spin_until:
        pass
    assert batch_bench.process_cpu_s(os.getpid()) - before >= 0.03


def test_a_harness_without_the_bus_record_can_still_read_one():
    """The flag once shadowed the bus_record method, and the ble benchmark crashed reading the record."""
    harness = Harness({}, bus_record=False)
    try:
        assert callable(harness.bus_record) and "--no-bus-record" not in str(harness.bus_record)
    finally:
        os.rmdir(harness.run_dir)


def test_lane_spans_run_from_each_lanes_first_start_to_its_last_record():
    events = [(0.1, {"event": "batch-started", "elapsed_ms": 70}),
              (0.2, {"event": "attempt-started", "elapsed_ms": 100, "lane": "hci0"}),
              (0.3, {"event": "attempt-started", "elapsed_ms": 101, "lane": "hci1"}),
              (0.8, {"event": "attempt-recorded", "elapsed_ms": 620, "lane": "hci0"}),
              (0.8, {"event": "attempt-started", "elapsed_ms": 621, "lane": "hci0"}),
              (1.3, {"event": "attempt-recorded", "elapsed_ms": 1140, "lane": "hci0"}),
              (1.3, {"event": "attempt-recorded", "elapsed_ms": 640, "lane": "hci1"})]
    assert batch_bench.lane_spans(events) == {"hci0": (0.1, 1.14, 2), "hci1": (0.101, 0.64, 1)}


def test_the_unit_floor_is_one_units_share_of_the_adapter_floor():
    writes = 13
    assert batch_bench.unit_floor_s(writes) == pytest.approx(0.515)
    assert batch_bench.floor_s(24, 4, writes) == pytest.approx(6 * batch_bench.unit_floor_s(writes) + 0.020)


MONITOR = """signal time=100.000100 sender=org.freedesktop.DBus -> destination=:1.7 serial=2 path=/org/freedesktop/DBus; interface=org.freedesktop.DBus; member=NameAcquired
   string ":1.7"
method call time=100.010000 sender=:1.7 -> destination=org.bluez serial=20 path=/org/bluez/hci0; interface=org.bluez.Adapter1; member=StartDiscovery
method return time=100.011000 sender=:1.3 -> destination=:1.7 serial=90 reply_serial=20
method call time=100.020000 sender=:1.7 -> destination=org.bluez serial=21 path=/org/bluez/hci0/dev_24_0A_C4_B1_00_00; interface=org.bluez.Device1; member=Connect
method return time=100.021000 sender=:1.3 -> destination=:1.7 serial=91 reply_serial=21
signal time=100.042000 sender=:1.3 -> destination=(null destination) serial=92 path=/org/bluez/hci0/dev_24_0A_C4_B1_00_00; interface=org.freedesktop.DBus.Properties; member=PropertiesChanged
   string "org.bluez.Device1"
   array [
      dict entry(
         string "ServicesResolved"
         variant             boolean true
      )
   ]
   array [
   ]
method call time=100.043000 sender=:1.7 -> destination=org.bluez serial=22 path=/org/bluez/hci0/dev_24_0A_C4_B1_00_00/service0028/char0029; interface=org.bluez.GattCharacteristic1; member=WriteValue
method return time=100.058500 sender=:1.3 -> destination=:1.7 serial=93 reply_serial=22
"""


def test_monitor_text_is_read_with_broadcast_signals_and_what_they_changed():
    messages = batch_timeline.parse_monitor(MONITOR)
    assert [m["type"] for m in messages] == ["signal", "call", "return", "call", "return", "signal", "call", "return"]
    assert messages[5]["destination"] == "(null destination)"
    assert messages[5]["changed"] == {"ServicesResolved": True}
    assert batch_timeline.lanes_of(messages) == {"hci0": ":1.7"}


def test_a_cycle_is_cut_into_pieces_that_add_up_to_it():
    messages = batch_timeline.parse_monitor(MONITOR)
    cut = batch_timeline.pieces(messages, ":1.7", 100.015, 100.080, 100.070)
    labels = [(kind, label) for _, _, kind, label in cut]
    assert labels == [("ztprov", "after attempt-started"), ("round trip", "Connect"), ("device", "ServicesResolved"),
                      ("ztprov", "after ServicesResolved"), ("round trip", "WriteValue"),
                      ("ztprov", "last message → attempt-recorded (record)"),
                      ("ztprov", "attempt-recorded → next attempt-started (pick, claim)")]
    assert sum(duration for _, duration, _, _ in cut) == pytest.approx(0.065)
    assert [round(d * 1000, 1) for _, d, _, _ in cut] == [5.0, 1.0, 21.0, 1.0, 15.5, 11.5, 10.0]


def test_strace_lines_give_syncs_and_event_writes():
    text = ('12 1795948822.953806 write(1, "{\\"event\\":\\"attempt-started\\",\\"elapsed_ms\\":418,\\"lane\\":\\"hci0\\","'
            '..., 100) = 100 <0.000010>\n'
            '12 1795948822.960000 fdatasync(5) = 0 <0.004200>\n'
            '13 1795948822.970000 write(13, "\\1", 1) = 1 <0.000013>\n')
    syncs, writes = batch_timeline.parse_strace(text)
    assert syncs == [{"time": 1795948822.96, "call": "fdatasync", "duration": 0.0042}]
    assert writes == [(1795948822.953806, {"event": "attempt-started", "lane": "hci0"})]


def test_strace_lines_another_thread_interrupted_still_count():
    text = ('7 1795950626.887058 write(1, "{\\"event\\":\\"attempt-recorded\\",\\"lane\\":\\"hci1\\",\\"d"..., 400 '
            '<unfinished ...>\n'
            '8 1795950626.890000 <... fdatasync resumed>) = 0 <0.003000>\n')
    syncs, writes = batch_timeline.parse_strace(text)
    assert writes == [(1795950626.887058, {"event": "attempt-recorded", "lane": "hci1"})]
    assert syncs == [{"time": 1795950626.89, "call": "fdatasync", "duration": 0.003}]
