"""Brings the harness's private bus and BlueZ mock up for one scenario, for the tests that talk to it."""

import contextlib
import json
import os
import subprocess

HARNESS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PYTHON = "/usr/bin/python3"


@contextlib.contextmanager
def mock_harness(run_dir: str, scenario: dict, timeout: float = 30):
    """The harness's private bus and BlueZ mock (no namespace) serving `scenario`, taken down on leaving;
    yields what `harness.py up` printed."""
    command = [PYTHON, os.path.join(HARNESS_DIR, "harness.py")]
    up = subprocess.run(command + ["up", "--run-dir", run_dir, "--no-netns", "--scenario-json", json.dumps(scenario)],
                        capture_output=True, text=True, timeout=timeout)
    assert up.returncode == 0, up.stdout + up.stderr
    try:
        yield json.loads(up.stdout)
    finally:
        subprocess.run(command + ["down", "--run-dir", run_dir], capture_output=True, timeout=30)
