"""The real-stack lab's protocomm peripheral (Tests/RealStack/lab/protocomm_peripheral.py: the harness's
protocomm-over-BLE model behind a Bumble GATT server) against a Bumble central on one in-process link,
without the VM: endpoint names, long writes and reads, service stop, and forced link encryption with
pairing. Needs the lab venv (Tests/RealStack/setup-venv, which CI runs)."""

import os
import subprocess

import pytest

HARNESS_DIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
REPOSITORY = os.path.abspath(os.path.join(HARNESS_DIR, "..", ".."))
LAB_DIR = os.path.join(REPOSITORY, "Tests", "RealStack", "lab")


def lab_python() -> str:
    venv = subprocess.run([os.path.join(REPOSITORY, "Tests", "RealStack", "setup-venv"), "--print-path"],
                          capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    return os.path.join(venv, "bin", "python")


def test_bumble_central_provisions_the_lab_peripheral():
    python = lab_python()
    if not os.path.exists(python):
        pytest.skip("real-stack lab venv missing: run Tests/RealStack/setup-venv")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([HARNESS_DIR, os.path.join(HARNESS_DIR, "tests")])}
    result = subprocess.run([python, os.path.join(LAB_DIR, "protocomm_peripheral_check.py")], cwd=LAB_DIR,
                            capture_output=True, text=True, timeout=90, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
