"""Drives ztprov's secret prompt through a pseudo-terminal and presses Ctrl-C at it.

Usage: prompt_interrupt.py TYPED ZTPROV ARG...  Types TYPED at the first prompt (without Enter), then
Ctrl-C. Prints one JSON object: the exit status, whether echo was off while the prompt waited and on
again after the exit, how long the exit took after Ctrl-C, and everything the terminal showed.
"""

import json
import os
import pty
import sys
import termios
import time

from pty_output import read_until


def main():
    pid, master = pty.fork()
    if pid == 0:
        os.execv(sys.argv[2], sys.argv[2:])
    typed = sys.argv[1].encode()
    shown = read_until(master, b": ", 20)
    time.sleep(0.3)
    echo_while_prompting = bool(termios.tcgetattr(master)[3] & termios.ECHO)
    os.write(master, typed)
    time.sleep(0.3)
    pressed = time.monotonic()
    os.write(master, b"\x03")
    shown += read_until(master, b"\0never", 5)
    _, status = os.waitpid(pid, 0)
    answered_in = time.monotonic() - pressed
    echo_after = bool(termios.tcgetattr(master)[3] & termios.ECHO)
    print(json.dumps({
        "exit": os.waitstatus_to_exitcode(status),
        "echo_while_prompting": echo_while_prompting,
        "echo_after": echo_after,
        "answered_in": answered_in,
        "shown": shown.decode("utf-8", "replace"),
    }))


main()
