#!/usr/bin/env python3
"""Asks for one URL as a slow client on a small link would, and says how much of the answer arrived.

Usage: slow_reader.py URL

Connects to the URL's loopback host and port with a 4 KiB receive buffer (set before connecting, so the
window stays small), sends a GET, waits a second before reading, then reads to the end. Prints one JSON
object: the status, the length the answer's head declared and the body's bytes that arrived. A server that
closes before its answer is written shows as fewer bytes than declared.
"""
import json
import socket
import sys
import time
import urllib.parse


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    url = urllib.parse.urlsplit(sys.argv[1])
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.settimeout(60)
    connection.connect((url.hostname, url.port))
    connection.sendall(f"GET {url.path or '/'} HTTP/1.1\r\nHost: {url.netloc}\r\n\r\n".encode())
    time.sleep(1)
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    declared = {name.lower(): value for name, value in fields.items()}.get("content-length")
    print(json.dumps({"status": int(lines[0].split()[1]), "declared": int(declared) if declared else None,
                      "received": len(body)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
