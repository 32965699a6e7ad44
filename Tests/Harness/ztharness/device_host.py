"""The emulated device's network services: protocomm over HTTP and the Zhiting UDP service.

Run (inside the device namespace, by harness.py):
  /usr/bin/python3 -m ztharness.device_host --config FILE --record FILE
      [--http-addr 192.168.4.1:80] [--udp-port 54321] [--ready-file FILE]

--config is JSON: either the scenario's "device_host" object or a whole scenario holding one:
  {"protocomm": {...ProtocommDevice keys...}, "zhiting": {...ZhitingDevice keys...},
   "http": {"max_open_sockets": 1, "max_header_len": 1024},
   "random": {"<purpose>": "<hex>", ...}}        (pins random values, for tests)
A Zhiting "device_id" that is absent or "<derived>" becomes protocomm.ap_bssid without colons
(the app's rule for the SoftAP path); a "token" starting with "<" means random.

One thread, one selector. The HTTP side behaves exactly as ESP-IDF's esp_http_server and
protocomm_httpd.c do: POST only (405 and close otherwise), 404 "Nothing matches the given URI"
and close for unknown endpoints, bodies of 1..4096 bytes, keep-alive, the cookie/socket session
rules of its `common_post_handler`, at most `max_open_sockets` connections with the least recently
used one evicted, and any protocomm failure answered by closing the socket without a response. After the first
"connected" status the HTTP service stops (listener and connections closed) like the real
provisioning manager. UDP binds 0.0.0.0:<udp-port> and answers unicast to the sender.

Every record (HTTP events, protocomm and Zhiting model records) is appended to --record as one
JSON object per line with a "time" member; the first ("listening") names the ports and the Zhiting
device id and token actually in use. The ready file is written and READY printed once both
sockets listen.
"""

import argparse
import heapq
import itertools
import json
import os
import selectors
import signal
import socket
import sys
import time

from .protocomm_device import ProtocommDevice
from .protocomm_security import ProtocommFailure
from .zhiting_device import ZhitingDevice

MAX_BODY = 4096
COOKIE_BUFFER = 20  # protocomm_httpd reads the Cookie value into 20 bytes incl. the NUL
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
           431: "Request Header Fields Too Large"}
ERROR_BODIES = {400: "Bad request syntax", 404: "Nothing matches the given URI",
                405: "Request method for this URI is not handled by server",
                431: "Header fields are too long"}


def load_config(path):
    with open(path, encoding="utf-8") as handle:
        config = json.load(handle)
    return config.get("device_host", config)


def pinned_random(values):
    def random_bytes(purpose, length):
        if purpose in values:
            return bytes.fromhex(values[purpose])[:length]
        return os.urandom(length)
    return random_bytes


def zhiting_config(config):
    zhiting = dict(config.get("zhiting", {}))
    if zhiting.get("device_id") in (None, "<derived>"):
        bssid = config.get("protocomm", {}).get("ap_bssid", "24:0a:c4:1a:2b:3c")
        zhiting["device_id"] = bssid.replace(":", "").lower()
    if str(zhiting.get("token", "")).startswith("<"):
        zhiting["token"] = None
    return zhiting


class Recorder:
    def __init__(self, path):
        self.handle = open(path, "a", encoding="utf-8", buffering=1)

    def __call__(self, entry):
        self.handle.write(json.dumps({"time": round(time.time(), 3), **entry}) + "\n")


class HttpConnection:
    def __init__(self, sock, number):
        self.sock = sock
        self.number = number
        self.buffer = bytearray()
        self.waiting_reply = False
        self.last_used = time.monotonic()


class DeviceHost:
    def __init__(self, config, record, http_addr, udp_port):
        random_bytes = pinned_random(config.get("random", {}))
        self.record = record
        self.protocomm = ProtocommDevice(config.get("protocomm"), random_bytes, record)
        self.zhiting = ZhitingDevice(zhiting_config(config), random_bytes, record)
        http = config.get("http", {})
        self.max_open_sockets = http.get("max_open_sockets", 1)
        self.max_header_len = http.get("max_header_len", 1024)
        self.selector = selectors.DefaultSelector()
        self.timers = []
        self.timer_order = itertools.count()
        self.connections = {}
        self.connection_numbers = itertools.count(1)
        self.cookie_session_id = None
        self.sock_session_id = None
        self.listener = self._listen(http_addr)
        self.udp = self._bind_udp(udp_port)

    # --- sockets ------------------------------------------------------------------------

    def _listen(self, http_addr):
        host, port = http_addr.rsplit(":", 1)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, int(port)))
        listener.listen(8)
        listener.setblocking(False)
        self.selector.register(listener, selectors.EVENT_READ, self._accept)
        return listener

    def _bind_udp(self, port):
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        udp.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        udp.bind(("0.0.0.0", port))
        udp.setblocking(False)
        self.selector.register(udp, selectors.EVENT_READ, self._datagram)
        return udp

    def addresses(self):
        return self.listener.getsockname(), self.udp.getsockname()

    def _datagram(self, udp):
        data, sender = udp.recvfrom(65535)
        for reply in self.zhiting.handle(data, sender):
            udp.sendto(reply, sender)

    def _accept(self, listener):
        sock, peer = listener.accept()
        sock.setblocking(False)
        if len(self.connections) >= self.max_open_sockets:
            oldest = min(self.connections.values(), key=lambda c: c.last_used)
            self._close(oldest, "evicted by a new connection (LRU purge)")
        connection = HttpConnection(sock, next(self.connection_numbers))
        self.connections[sock] = connection
        self.selector.register(sock, selectors.EVENT_READ, self._readable)
        self.record({"source": "protocomm", "event": "http_connect", "connection": connection.number,
                     "peer": f"{peer[0]}:{peer[1]}"})

    def _close(self, connection, reason):
        if connection.sock not in self.connections:
            return
        self.record({"source": "protocomm", "event": "http_close", "connection": connection.number,
                     "reason": reason})
        del self.connections[connection.sock]
        self.selector.unregister(connection.sock)
        connection.sock.close()
        if self.sock_session_id == connection.number:
            self.sock_session_id = None

    def _readable(self, sock):
        connection = self.connections[sock]
        try:
            data = sock.recv(65536)
        except ConnectionError:
            data = b""
        if not data:
            self._close(connection, "closed by client")
            return
        connection.buffer += data
        connection.last_used = time.monotonic()
        self._process(connection)

    # --- HTTP ---------------------------------------------------------------------------

    def _process(self, connection):
        while not connection.waiting_reply and connection.sock in self.connections:
            end = connection.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(connection.buffer) > self.max_header_len:
                    self._error(connection, 431)
                return
            if end > self.max_header_len:
                self._error(connection, 431)
                return
            head = bytes(connection.buffer[:end]).decode("latin-1")
            request = self._parse_head(head)
            if request is None:
                self._error(connection, 400)
                return
            length = request["content_length"]
            if length is not None and 0 < length <= MAX_BODY and len(connection.buffer) < end + 4 + length:
                return
            body_length = length if length and 0 < length <= MAX_BODY else 0
            body = bytes(connection.buffer[end + 4:end + 4 + body_length])
            del connection.buffer[:end + 4 + body_length]
            self._serve(connection, request, body)

    @staticmethod
    def _parse_head(head):
        lines = head.split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            return None
        headers = []
        for line in lines[1:]:
            name, separator, value = line.partition(":")
            if not separator:
                return None
            headers.append((name.strip().lower(), value.strip()))
        first = {}
        for name, value in headers:
            first.setdefault(name, value)
        try:
            length = int(first["content-length"]) if "content-length" in first else None
        except ValueError:
            return None
        return {"method": parts[0], "path": parts[1].split("?", 1)[0], "headers": first,
                "content_length": length}

    def _serve(self, connection, request, body):
        endpoint = request["path"].lstrip("/")
        headers = request["headers"]
        entry = {"source": "protocomm", "event": "http_request", "connection": connection.number,
                 "method": request["method"], "path": request["path"], "cookie": headers.get("cookie"),
                 "content_type": headers.get("content-type"), "accept": headers.get("accept"),
                 "content_length": request["content_length"], "body_hex": body.hex()}
        if not request["path"].startswith("/") or endpoint not in self.protocomm.endpoints():
            self.record(entry)
            self._error(connection, 404)
            return
        if request["method"] != "POST":
            self.record(entry)
            self._error(connection, 405)
            return
        new_session = not self._same_session(connection, headers.get("cookie"))
        if new_session:
            self.cookie_session_id = self.protocomm.open_session()
            self.sock_session_id = connection.number
        self.record({**entry, "new_session": new_session, "session_id": self.cookie_session_id})
        length = request["content_length"] or 0
        if not 0 < length <= MAX_BODY:
            self._close(connection, f"body length {length} outside 1..{MAX_BODY}: handler failed")
            return
        try:
            reply = self.protocomm.handle(endpoint, body)
        except ProtocommFailure as failure:
            self._close(connection, f"protocomm failure: {failure}")
            return
        extra = f"Set-Cookie: session={self.cookie_session_id}\r\n" if new_session else ""
        response = self._response(200, reply.body, extra)
        if reply.delay_ms:
            connection.waiting_reply = True
            self._after(reply.delay_ms, lambda: self._send_deferred(connection, response))
        else:
            self._send(connection, response)
        if reply.stop_service_after_ms is not None:
            self._after(reply.stop_service_after_ms, self._stop_http_service)

    def _same_session(self, connection, cookie):
        """protocomm_httpd's rule: a readable cookie decides alone; otherwise the socket does."""
        if cookie is not None and len(cookie) < COOKIE_BUFFER:
            if self.cookie_session_id is not None and cookie == f"session={self.cookie_session_id}":
                self.sock_session_id = None
                return True
            return False
        return self.sock_session_id is not None and connection.number == self.sock_session_id

    @staticmethod
    def _response(status, body, extra_headers=""):
        return (f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: text/html\r\n"
                f"Content-Length: {len(body)}\r\n{extra_headers}\r\n").encode() + body

    def _send(self, connection, data):
        try:
            connection.sock.setblocking(True)
            connection.sock.sendall(data)
            connection.sock.setblocking(False)
        except OSError as error:
            self._close(connection, f"send failed: {error}")

    def _send_deferred(self, connection, data):
        if connection.sock not in self.connections:
            return
        connection.waiting_reply = False
        self._send(connection, data)
        self._process(connection)

    def _error(self, connection, status):
        self._send(connection, self._response(status, ERROR_BODIES[status].encode()))
        self._close(connection, f"HTTP {status}")

    def _stop_http_service(self):
        if self.listener is None:
            return
        self.record({"source": "protocomm", "event": "service_stopped"})
        for connection in list(self.connections.values()):
            self._close(connection, "provisioning service stopped")
        self.selector.unregister(self.listener)
        self.listener.close()
        self.listener = None

    # --- loop -----------------------------------------------------------------------------

    def _after(self, delay_ms, action):
        heapq.heappush(self.timers, (time.monotonic() + delay_ms / 1000, next(self.timer_order), action))

    def run_once(self, timeout=0.5):
        if self.timers:
            timeout = min(timeout, max(0.0, self.timers[0][0] - time.monotonic()))
        for key, _events in self.selector.select(timeout):
            key.data(key.fileobj)
        while self.timers and self.timers[0][0] <= time.monotonic():
            heapq.heappop(self.timers)[2]()

    def close(self):
        for connection in list(self.connections.values()):
            self._close(connection, "device host exiting")
        for sock in (self.listener, self.udp):
            if sock is not None:
                sock.close()
        self.selector.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--config", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--http-addr", default="192.168.4.1:80")
    parser.add_argument("--udp-port", type=int, default=54321)
    parser.add_argument("--ready-file")
    args = parser.parse_args(argv)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    host = DeviceHost(load_config(args.config), Recorder(args.record), args.http_addr, args.udp_port)
    (http_host, http_port), (_, udp_port) = host.addresses()
    host.record({"source": "device_host", "event": "listening", "http": f"{http_host}:{http_port}",
                 "udp": udp_port, "zhiting_device_id": host.zhiting.device_id.hex(),
                 "zhiting_token": host.zhiting.token.hex()})
    if args.ready_file:
        # Written aside and renamed, so a watcher never sees the file half-written.
        with open(args.ready_file + ".tmp", "w", encoding="utf-8") as ready:
            ready.write("READY\n")
        os.replace(args.ready_file + ".tmp", args.ready_file)
    print("READY", flush=True)
    try:
        while True:
            host.run_once()
    except KeyboardInterrupt:
        pass
    finally:
        host.close()


if __name__ == "__main__":
    main()
