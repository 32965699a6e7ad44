"""Runs a command on a pseudo-terminal that is its controlling terminal, then hangs the terminal up or
sends a signal once the output shows a text, and reports what happened.

stderr is always the terminal; stdin is the terminal too unless --stdin-pipe keeps it an open pipe that
never gets data; stdout is the terminal unless --stdout-file names a file. --hang-up closes the terminal's
master side, as a closed terminal window or a dropped SSH session does: the kernel then sends SIGHUP to
the command, which leads the terminal's session. --signal N sends signal N instead and keeps the terminal
open, so anything the command writes to it afterwards is caught. Prints one JSON object:
{"status": exit status or -signal (null when it did not end within --timeout), "before": what the terminal
showed up to the event, "after": what it showed after (null after --hang-up)}.

Run: /usr/bin/python3 hang_up_pty.py --after TEXT (--hang-up | --signal N) [--stdout-file PATH]
     [--stdin-pipe] [--timeout S] -- COMMAND ARGS…
"""

import argparse
import fcntl
import json
import os
import select
import signal
import subprocess
import termios
import time


def read_until(master, text, deadline):
    transcript = b""
    while time.monotonic() < deadline and text.encode() not in transcript:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            transcript += chunk
    return transcript


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--after", required=True)
    parser.add_argument("--hang-up", action="store_true")
    parser.add_argument("--signal", type=int)
    parser.add_argument("--stdout-file")
    parser.add_argument("--stdin-pipe", action="store_true")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    master, slave = os.openpty()
    stdout = open(options.stdout_file, "wb") if options.stdout_file else slave
    stdin_read, stdin_write = os.pipe() if options.stdin_pipe else (slave, None)

    def become_terminal_session():
        fcntl.ioctl(2, termios.TIOCSCTTY, 0)

    child = subprocess.Popen(command, stdin=stdin_read, stdout=stdout, stderr=slave, close_fds=True,
                             start_new_session=True, preexec_fn=become_terminal_session)
    os.close(slave)
    if stdin_write is not None:
        os.close(stdin_read)
    deadline = time.monotonic() + options.timeout
    before = read_until(master, options.after, deadline)
    after = None
    if options.hang_up:
        os.close(master)
    else:
        child.send_signal(options.signal)
        after = b""
        while time.monotonic() < deadline and child.poll() is None:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    after += os.read(master, 65536)
                except OSError:
                    break
    try:
        status = child.wait(max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        status = None
    if after is not None:
        try:
            while select.select([master], [], [], 0.2)[0]:
                after += os.read(master, 65536)
        except OSError:
            pass
        os.close(master)
    if stdin_write is not None:
        os.close(stdin_write)
    print(json.dumps({"status": status, "before": before.decode("utf-8", "replace"),
                      "after": None if after is None else after.decode("utf-8", "replace")}))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    raise SystemExit(main())
