#!/usr/bin/env python3
"""Holds connections to a server without finishing a request, and says whether and when the server closed them.

Usage: idle_client.py URL COUNT

Opens COUNT connections to the URL's loopback host and port: the first sends nothing, the others the
start of a request head that never ends (one header line a second). Then asks the URL with a whole GET on
a fresh connection while those are held, and waits up to 60 s for the server to close each held one.
Prints one JSON object: the whole GET's status (or its error), and for each held connection the seconds
until the server closed it, or null when it was still open at the end.
"""
import json
import selectors
import socket
import sys
import time
import urllib.parse
import urllib.request

WAIT = 60


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    url, count = urllib.parse.urlsplit(sys.argv[1]), int(sys.argv[2])
    began = time.monotonic()
    held = []
    for index in range(count):
        connection = socket.create_connection((url.hostname, url.port), timeout=10)
        connection.setblocking(False)
        if index > 0:
            connection.send(f"GET {url.path or '/'} HTTP/1.1\r\nHost: {url.netloc}\r\n".encode())
        held.append(connection)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(sys.argv[1], timeout=30) as response:
            whole = response.status
    except Exception as error:  # the point is to report it
        whole = f"{type(error).__name__}: {error}"
    closed_after: list[float | None] = [None] * count
    watch = selectors.DefaultSelector()
    for index, connection in enumerate(held):
        watch.register(connection, selectors.EVENT_READ, index)
    next_line = time.monotonic() + 1
    while watch.get_map() and time.monotonic() - began < WAIT:
        for key, _ in watch.select(timeout=0.2):
            try:
                data = key.fileobj.recv(65536)
            except ConnectionResetError:
                data = b""
            if not data:
                closed_after[key.data] = round(time.monotonic() - began, 1)
                watch.unregister(key.fileobj)
        if time.monotonic() >= next_line:
            next_line += 1
            for key in list(watch.get_map().values()):
                if key.data > 0:
                    try:
                        key.fileobj.send(b"X-Still-Here: 1\r\n")
                    except OSError:
                        pass
    print(json.dumps({"whole": whole, "closed_after": closed_after}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
