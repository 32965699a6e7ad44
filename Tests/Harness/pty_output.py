"""Reading what a command drew on a pseudo-terminal, for the scripts that drive ztprov through one."""

import os
import select
import time


def read_until(fd: int, wanted: bytes | None, limit: float) -> bytes:
    """What the terminal showed until it showed `wanted` (None: until the command closed it), at most `limit` s."""
    seen = b""
    end = time.monotonic() + limit
    while (wanted is None or wanted not in seen) and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: every writer closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    return seen
