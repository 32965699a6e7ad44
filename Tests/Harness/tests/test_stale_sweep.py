"""A killed test run leaves namespaces and processes behind; the next `up` removes those whose owning
test process has ended and leaves a live owner's alone."""

import os
import shutil
import subprocess
import sys

import pytest

HARNESS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, HARNESS_DIR)

from ztharness import netns, stale  # noqa: E402

needs_root = [
    pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root (CI runs as root)"),
    pytest.mark.skipif(shutil.which("ip") is None, reason="iproute2 is not installed"),
]


def ended_pid() -> int:
    """The PID of a process that has ended and been reaped."""
    child = subprocess.Popen(["/bin/true"])
    child.wait()
    return child.pid


def test_names_carry_their_owner_and_other_names_have_none():
    run_id = netns.new_run_id(4194304)
    names = netns.names(run_id)
    assert stale.namespace_owner(names["host_netns"]) == 4194304
    assert stale.namespace_owner(names["device_netns"]) == 4194304
    assert all(len(names[key]) <= 15 for key in ("host_interface", "device_interface"))
    for other in ["zth-a1b2c3", "ztd-123456", "zth-", "zth-12x-ab", "netns-1-ab", "zthx-1-ab", "ztd--ab"]:
        assert stale.namespace_owner(other) is None, other


def test_liveness_follows_the_process():
    assert stale.is_alive(os.getpid())
    assert not stale.is_alive(ended_pid())
    zombie = subprocess.Popen(["/bin/true"])
    try:
        os.waitid(os.P_PID, zombie.pid, os.WEXITED | os.WNOWAIT)
        assert not stale.is_alive(zombie.pid), "a zombie has ended"
    finally:
        zombie.wait()


@needs_root[0]
@needs_root[1]
def test_a_dead_owners_namespace_and_process_are_swept_and_a_live_owners_are_not():
    dead, live = ended_pid(), os.getpid()
    stale_ns = netns.names(netns.new_run_id(dead))["host_netns"]
    live_ns = netns.names(netns.new_run_id(live))["device_netns"]
    subprocess.run(["ip", "netns", "add", stale_ns], check=True)
    subprocess.run(["ip", "netns", "add", live_ns], check=True)
    inside = subprocess.Popen(["ip", "netns", "exec", stale_ns, "sleep", "60"])
    orphan = subprocess.Popen(["sleep", "60"], env={**os.environ, stale.OWNER_VARIABLE: str(dead)})
    kept = subprocess.Popen(["sleep", "60"], env={**os.environ, stale.OWNER_VARIABLE: str(live)})
    try:
        removed = stale.sweep()
        assert f"netns {stale_ns} of ended owner {dead}" in removed, removed
        assert not netns.exists(stale_ns)
        assert netns.exists(live_ns)
        assert inside.wait(timeout=10) == -9, "the process inside the stale namespace is killed"
        assert orphan.wait(timeout=10) == -9, "a process marked with an ended owner is killed"
        assert kept.poll() is None, "a live owner's process is left alone"
        assert not any(live_ns in line or str(kept.pid) in line for line in removed), removed
    finally:
        for process in (inside, orphan, kept):
            process.kill()
            process.wait()
        for namespace in (stale_ns, live_ns):
            if netns.exists(namespace):
                subprocess.run(["ip", "netns", "delete", namespace], check=False)


@needs_root[0]
@needs_root[1]
def test_a_drawn_name_another_run_holds_is_left_to_it_and_another_is_drawn(monkeypatch):
    owner = os.getpid()
    taken, free = f"{owner}-0aaa", f"{owner}-0bbb"
    draws = iter([taken, free])
    monkeypatch.setattr(netns, "new_run_id", lambda pid: next(draws))
    held = netns.names(taken)["device_netns"]
    subprocess.run(["ip", "netns", "add", held], check=True)
    topology = None
    try:
        topology = netns.reserve(owner)
        assert topology == netns.names(free)
        assert netns.exists(held), "the other run's namespace was removed"
        assert not netns.exists(netns.names(taken)["host_netns"]), "the half-made reservation was kept"
        assert netns.exists(topology["host_netns"]) and netns.exists(topology["device_netns"])
    finally:
        subprocess.run(["ip", "netns", "delete", held], check=False)
        if topology:
            netns.delete(topology)
