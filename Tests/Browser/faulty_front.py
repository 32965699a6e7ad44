#!/usr/bin/env python3
"""Stands between a browser and `ztprov report --serve` on loopback and spoils some of its answers.

Usage: faulty_front.py UPSTREAM_URL FAULTS

Forwards every GET to UPSTREAM_URL (the server's own address) and answers with what the server said, but
for the answers FAULTS names: a comma-separated list of PATH#N=FAULT, where N counts the requests for PATH
from 1 and FAULT is `cut` (the head and half the body, then the connection closes: the length the head
declares never arrives) or `503` (an error status and a short text). Prints its own URL on one line once it
listens, then serves until killed. Loopback only; one thread a request, since the page holds one open.
"""
import http.server
import sys
import threading
import urllib.error
import urllib.request

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def parse_faults(text: str) -> dict[tuple[str, int], str]:
    faults = {}
    for item in filter(None, text.split(",")):
        target, fault = item.split("=", 1)
        path, number = target.rsplit("#", 1)
        if fault not in ("cut", "503"):
            raise SystemExit(f"unknown fault {fault!r}")
        faults[(path, int(number))] = fault
    return faults


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    upstream, faults = sys.argv[1].rstrip("/"), parse_faults(sys.argv[2])
    counts: dict[str, int] = {}
    lock = threading.Lock()

    class Front(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            with lock:
                counts[path] = counts.get(path, 0) + 1
                fault = faults.get((path, counts[path]))
            if fault == "503":
                self.answer(503, "text/plain", b"Spoiled.\n")
                return
            try:
                with OPENER.open(upstream + self.path, timeout=120) as response:
                    status, kind, body = response.status, response.headers["Content-Type"], response.read()
            except urllib.error.HTTPError as error:
                status, kind, body = error.code, error.headers["Content-Type"], error.read()
            self.answer(status, kind, body, cut=fault == "cut")

        def answer(self, status: int, kind: str, body: bytes, cut: bool = False):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body[: len(body) // 2] if cut else body)
            self.close_connection = True

        def log_message(self, format, *args):
            print(f"{self.path}: {format % args}", file=sys.stderr, flush=True)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Front)
    server.daemon_threads = True
    print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
