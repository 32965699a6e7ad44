"""The benchmark's own arithmetic: minimal BluFi frame counts, the poll-gap reading, "flat", the lab's steps."""

import os
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ztbench import batch_bench, blufi_frames, lab_bench, softap_bench, stats  # noqa: E402
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
