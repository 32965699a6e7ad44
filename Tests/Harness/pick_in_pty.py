"""Runs a command on a pseudo-terminal (stdin, stdout and stderr) and types keys once its output shows a text.

Usage: pick_in_pty.py WAIT_FOR KEYS COMMAND ARG...  Waits until the output contains WAIT_FOR, types KEYS
(Python escapes, e.g. "\\x1b[B\\r" for down and Enter, "\\x03" for Ctrl-C), then reads to the end. Prints one
JSON object: the exit status, whether the text appeared, whether the terminal was back in line mode with echo
after the exit, and everything the terminal showed.
"""

import codecs
import fcntl
import json
import os
import pty
import struct
import sys
import termios

from pty_output import read_until


def main():
    wanted = sys.argv[1].encode()
    keys = codecs.decode(sys.argv[2], "unicode_escape").encode("latin-1")
    pid, master = pty.fork()
    if pid == 0:
        os.execv(sys.argv[3], sys.argv[3:])
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    shown = read_until(master, wanted, 60)
    appeared = wanted in shown
    if appeared:
        os.write(master, keys)
    shown += read_until(master, None, 90)
    _, status = os.waitpid(pid, 0)
    modes = termios.tcgetattr(master)[3]
    print(json.dumps({
        "status": os.waitstatus_to_exitcode(status),
        "appeared": appeared,
        "line_mode_after": bool(modes & termios.ICANON) and bool(modes & termios.ECHO),
        "transcript": shown.decode("utf-8", "replace"),
    }))


main()
