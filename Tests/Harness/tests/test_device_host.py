"""device_host as a process on 127.0.0.1: the HTTP session rules of ESP-IDF's protocomm_httpd and UDP unicast."""

import http.client
import json
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from protocomm_spec_client import SpecClient
from ztharness.protobuf_wire import decode

HARNESS = Path(__file__).resolve().parents[1]
DEVICE_ID = "240ac41a2b3c"


def free_port(kind):
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RunningHost:
    def __init__(self, tmp_path, device_host_config):
        self.http_port, self.udp_port = free_port(socket.SOCK_STREAM), free_port(socket.SOCK_DGRAM)
        config = tmp_path / "device_host.json"
        config.write_text(json.dumps({"device_host": device_host_config}))
        self.record_path = tmp_path / "records.jsonl"
        self.ready_file = tmp_path / "ready"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ztharness.device_host", "--config", str(config),
             "--record", str(self.record_path), "--http-addr", f"127.0.0.1:{self.http_port}",
             "--udp-port", str(self.udp_port), "--ready-file", str(self.ready_file)],
            cwd=HARNESS, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def wait_ready(self):
        ready, _, _ = select.select([self.process.stdout], [], [], 10)
        assert ready and self.process.stdout.readline() == "READY\n", self.process.stderr.read()
        assert self.ready_file.read_text() == "READY\n"

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=5)

    def records(self, event=None):
        entries = [json.loads(line) for line in self.record_path.read_text().splitlines()]
        return [e for e in entries if event is None or e["event"] == event]

    def stop(self):
        self.process.terminate()
        self.process.wait(5)
        self.process.stdout.close()
        self.process.stderr.close()


@pytest.fixture
def start_host(tmp_path):
    hosts = []

    def start(**protocomm):
        config = {"protocomm": {"security": 1, "pop": "abcd1234", "connecting_polls": 1,
                                "cleanup_delay_ms": 200, "scan_duration_ms": 300, **protocomm},
                  "zhiting": {"device_id": "<derived>", "token": "30313233343536373839616263646566"},
                  "random": {"session_id": "0000beef"}}
        run_dir = tmp_path / f"host{len(hosts)}"
        run_dir.mkdir()
        host = RunningHost(run_dir, config)
        hosts.append(host)
        host.wait_ready()
        return host
    yield start
    for host in hosts:
        host.stop()
    assert [host.process.returncode for host in hosts] == [0] * len(hosts)


class HttpTransport:
    """One keep-alive connection that echoes the session cookie, as esp_prov does."""

    def __init__(self, host, echo_cookie=True):
        self.connection = host.connection()
        self.echo_cookie = echo_cookie
        self.cookie = None
        self.responses = []

    def __call__(self, endpoint, body):
        headers = {"Content-type": "application/x-www-form-urlencoded", "Accept": "text/plain"}
        if self.cookie and self.echo_cookie:
            headers["Cookie"] = self.cookie
        self.connection.request("POST", "/" + endpoint, body, headers)
        response = self.connection.getresponse()
        data = response.read()
        self.responses.append(response)
        if response.getheader("Set-Cookie"):
            self.cookie = response.getheader("Set-Cookie")
        assert response.status == 200
        return data


def test_full_sec1_flow_over_one_connection_then_service_stops(start_host):
    host = start_host()
    transport = HttpTransport(host)
    version = json.loads(transport("proto-ver", b"ESP"))
    assert version == {"prov": {"ver": "v1.1", "sec_ver": 1, "sec_patch_ver": 0, "cap": ["wifi_scan"]}}
    first = transport.responses[0]
    assert first.getheader("Set-Cookie") == "session=48879"
    assert first.getheader("Content-Type") == "text/html"
    client = SpecClient(transport, 1, pop="abcd1234")
    client.handshake()
    assert all(r.getheader("Set-Cookie") is None for r in transport.responses[1:])
    client.set_config("HomeNet", "secret-pass")
    client.apply_config()
    assert [client.get_status().uint(2) for _ in range(2)] == [1, 0]
    time.sleep(0.4)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", host.http_port), timeout=2)
    [set_config] = host.records("set_config")
    assert (set_config["ssid"], set_config["passphrase"]) == ("HomeNet", "secret-pass")
    requests = host.records("http_request")
    assert requests[0]["cookie"] is None and requests[1]["cookie"] == "session=48879"
    assert requests[0]["content_type"] == "application/x-www-form-urlencoded"
    assert {r["connection"] for r in requests} == {1}
    assert host.records("service_stopped")


def test_cookie_carries_the_session_to_a_new_connection(start_host):
    host = start_host()
    first = HttpTransport(host)
    client = SpecClient(first, 1, pop="abcd1234")
    client.handshake()
    second = HttpTransport(host)
    second.cookie = first.cookie
    client.transport = second
    assert client.get_status().uint(2) == 1
    assert second.responses[0].getheader("Set-Cookie") is None
    assert host.records("http_close")[0]["reason"] == "evicted by a new connection (LRU purge)"


def test_socket_binding_without_cookie_and_new_session_on_new_socket(start_host):
    host = start_host()
    first = HttpTransport(host, echo_cookie=False)
    client = SpecClient(first, 1, pop="abcd1234")
    client.handshake()
    assert client.get_status().uint(2) == 1
    second = HttpTransport(host, echo_cookie=False)
    second("proto-ver", b"ESP")
    assert second.responses[0].getheader("Set-Cookie") == "session=48879"
    client.transport = second
    with pytest.raises(http.client.RemoteDisconnected):
        client.get_status()
    assert [r["new_session"] for r in host.records("http_request")] == [True, False, False, True, False]


def test_non_matching_cookie_starts_a_new_session_on_the_same_connection(start_host):
    host = start_host()
    transport = HttpTransport(host)
    client = SpecClient(transport, 1, pop="abcd1234")
    client.handshake()
    transport.cookie = "session=1"
    transport("proto-ver", b"ESP")
    assert transport.responses[-1].getheader("Set-Cookie") == "session=48879"
    with pytest.raises(http.client.RemoteDisconnected):
        client.get_status()


def test_wrong_pop_closes_without_response(start_host):
    host = start_host()
    client = SpecClient(HttpTransport(host), 1, pop="not-the-pop")
    client.sec1_command0()
    with pytest.raises(http.client.RemoteDisconnected):
        client.sec1_command1()
    assert "key mismatch" in host.records("http_close")[-1]["reason"]


def raw_exchange(host, request, half_close=False):
    """Sends raw bytes and reads until the server closes (or, with half_close, until it answers
    our end-of-stream: the server keeps connections alive, ignoring "Connection: close")."""
    with socket.create_connection(("127.0.0.1", host.http_port), timeout=5) as sock:
        sock.sendall(request)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            data = sock.recv(4096)
            if not data:
                return b"".join(chunks)
            chunks.append(data)


def test_http_errors_and_body_limits_close_the_socket(start_host):
    host = start_host(ctrl_endpoint=False)
    not_found = raw_exchange(host, b"POST /prov-ctrl HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc")
    assert not_found.startswith(b"HTTP/1.1 404 Not Found\r\n")
    assert not_found.endswith(b"\r\n\r\nNothing matches the given URI")
    assert raw_exchange(host, b"GET /proto-ver HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.1 405 ")
    assert raw_exchange(host, b"POST /proto-ver HTTP/1.1\r\nContent-Length: 0\r\n\r\n") == b""
    too_big = b"POST /prov-config HTTP/1.1\r\nContent-Length: 4097\r\n\r\n" + b"x" * 4097
    assert raw_exchange(host, too_big) == b""
    long_header = b"POST /proto-ver HTTP/1.1\r\nX-Pad: " + b"p" * 1100 + b"\r\nContent-Length: 1\r\n\r\nx"
    assert raw_exchange(host, long_header).startswith(b"HTTP/1.1 431 ")
    ok = raw_exchange(host, b"POST /proto-ver HTTP/1.1\r\nContent-Length: 1\r\n\r\nx", half_close=True)
    assert ok.startswith(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ")


def test_blocking_scan_reply_is_delayed(start_host):
    host = start_host(security=0)
    transport = HttpTransport(host)
    SpecClient(transport, 0).handshake()
    started = time.monotonic()
    reply = transport("prov-scan", bytes.fromhex("5206080118052078"))
    assert time.monotonic() - started >= 0.28
    assert decode(reply).uint(1) == 1


def test_zhiting_udp_answers_unicast_to_the_sender(start_host):
    host = start_host()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.settimeout(5)
        udp.bind(("127.0.0.1", 0))
        udp.sendto(bytes.fromhex("21310020" + "ff" * 28), ("127.0.0.1", host.udp_port))
        reply, source = udp.recvfrom(2048)
        assert source == ("127.0.0.1", host.udp_port)
        assert reply[6:12].hex() == DEVICE_ID
        assert json.loads(reply[32:]) == {"model": "zt-plug-v1"}
        key = b"K" * 16
        udp.sendto(bytes.fromhex("21310020fffe" + DEVICE_ID + "00000000") + key, ("127.0.0.1", host.udp_port))
        token_reply, _ = udp.recvfrom(2048)
        assert len(token_reply) == 64
    [listening] = host.records("listening")
    assert (listening["zhiting_device_id"], listening["zhiting_token"]) == (DEVICE_ID, "3031323334353637"
                                                                             "3839616263646566")
    events = [(r["event"], r.get("key")) for r in host.records() if r["source"] == "zhiting"]
    assert events == [("hello", None), ("token_request", "K" * 16)]
