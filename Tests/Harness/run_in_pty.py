"""Runs a command on a pseudo-terminal of a given size, as a user's terminal would, and reports what it drew.

Both stdout and stderr of the command are the terminal. After the output first contains --resize-after,
the terminal is resized to --resize-cols (the kernel sends SIGWINCH). Prints one JSON object:
{"status": exit status or -signal, "transcript": everything written, "resized_at": offset or null}.

Run: /usr/bin/python3 run_in_pty.py --cols 100 [--resize-after TEXT --resize-cols 40] -- COMMAND ARGS…
"""

import argparse
import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import termios
import time


def set_size(fd: int, cols: int, rows: int = 24) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--resize-after")
    parser.add_argument("--resize-cols", type=int)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    master, slave = os.openpty()
    set_size(slave, options.cols)
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, close_fds=True,
                             start_new_session=True)
    os.close(slave)
    transcript = b""
    resized_at = None
    deadline = time.monotonic() + options.timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                break
            if not chunk:
                break
            transcript += chunk
            if (resized_at is None and options.resize_after
                    and options.resize_after.encode() in transcript):
                resized_at = len(transcript.decode("utf-8", "replace"))
                set_size(master, options.resize_cols)
        elif child.poll() is not None:
            break
    else:
        child.kill()
    status = child.wait()
    os.close(master)
    json.dump({"status": status, "transcript": transcript.decode("utf-8", "replace"), "resized_at": resized_at},
              sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
