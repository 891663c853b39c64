"""What `companion serve` relies on: the LAN address, the self-signed certificate, the banner,
and a server that closes half-sent requests and keeps serving everyone else."""

import ipaddress
import json
import select
import socket
import ssl
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import PhoneClient
from cryptography import x509

from companion.lan import qr
from companion.lan.netinfo import lan_address
from companion.lan.tls import self_signed
from companion.serving.server import Server


def test_lan_address_is_an_address():
    ipaddress.ip_address(lan_address())


def test_self_signed_certificate_is_made_once_and_names_the_host(tmp_path):
    cert, key = self_signed(str(tmp_path), "192.0.2.7")
    first = Path(cert).read_bytes()
    assert self_signed(str(tmp_path), "192.0.2.7") == (cert, key)
    assert Path(cert).read_bytes() == first  # kept, so phones accept it only once
    names = x509.load_pem_x509_certificate(first).extensions.get_extension_for_class(
        x509.SubjectAlternativeName).value
    assert ipaddress.ip_address("192.0.2.7") in names.get_values_for_type(x509.IPAddress)
    assert (tmp_path / "tls-key.pem").stat().st_mode & 0o077 == 0


def test_ascii_qr_is_printable():
    art = qr.ascii_art("http://192.0.2.7:8000/")
    assert len(art.splitlines()) > 12 and "█" in art  # two modules per character row


@pytest.fixture
def served(live_app):
    server = Server("127.0.0.1", 0, live_app, request_timeout_s=1.0, max_connections=40)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def healthz(port: int) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
        assert r.status == 200
    return time.monotonic() - started


def test_half_sent_requests_are_closed_after_the_timeout_and_others_are_served(served):
    port = served.server_address[1]
    stalled = []
    for i in range(30):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" if i % 2 else b"POST /api/tables HTTP/1.1\r\n"
                  b"Host: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ga")
        stalled.append(s)
    assert healthz(port) < 5  # generous: the machine is shared
    started = time.monotonic()
    for s in stalled:
        s.settimeout(5)
        while s.recv(4096):  # whatever the server says, then the end of the connection
            pass
        s.close()
    assert time.monotonic() - started < 8  # 1 s each, side by side; the machine is shared


def test_a_full_room_sheds_its_oldest_idle_connections_and_the_server_goes_on(live_app):
    server = Server("127.0.0.1", 0, live_app, request_timeout_s=30, max_connections=40)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(45)]
    closed: set[socket.socket] = set()
    deadline = time.monotonic() + 10
    while len(closed) < 5 and time.monotonic() < deadline:
        readable, _, _ = select.select([s for s in idle if s not in closed], [], [], 0.2)
        closed.update(s for s in readable if s.recv(1) == b"")
    assert len(closed) == 5
    assert select.select([s for s in idle if s not in closed], [], [], 0.3)[0] == []  # the rest wait
    for s in idle:
        s.close()
    time.sleep(0.2)
    assert healthz(port) < 5
    server.shutdown()
    server.server_close()


def test_a_tls_client_that_says_nothing_does_not_hold_up_the_others(live_app, tmp_path):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*self_signed(str(tmp_path), "127.0.0.1"))
    server = Server("127.0.0.1", 0, live_app, ssl_context=context, request_timeout_s=1.0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        silent = socket.create_connection(("127.0.0.1", port))  # connects, never says hello
        client = ssl.create_default_context()
        client.check_hostname, client.verify_mode = False, ssl.CERT_NONE
        with urllib.request.urlopen(f"https://127.0.0.1:{port}/api/config", timeout=5,
                                    context=client) as r:
            assert r.status == 200 and json.loads(r.read())["secure"] is True
        silent.settimeout(5)
        assert silent.recv(1) == b""  # and it is let go after the timeout
        silent.close()
    finally:
        server.shutdown()
        server.server_close()


def test_a_websocket_is_logged_as_the_101_it_was(served, live_tables, caplog):
    t = live_tables.create()
    url = f"ws://127.0.0.1:{served.server_address[1]}"
    with caplog.at_level("INFO", logger="companion.http"):
        # the snapshot may come in the handshake's read, which simple-websocket's own client misses
        ws = PhoneClient.open(f"{url}/ws/{t['code']}?token={t['host_token']}", url.replace("ws", "http"))
        assert json.loads(ws.receive(timeout=15))["type"] == "snapshot"
        ws.close()
        deadline = time.monotonic() + 15
        while f"/ws/{t['code']} HTTP/1.1\"" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.05)
    assert f'"GET /ws/{t["code"]} HTTP/1.1" 101' in caplog.text, caplog.text


def _answers(s: socket.socket) -> bytes:
    """Everything the server says until it ends the connection."""
    s.settimeout(15)
    got = b""
    while chunk := s.recv(65536):
        got += chunk
    return got


def _head(length: int, *extra: str) -> bytes:
    lines = ["POST /api/tables HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
             f"Content-Length: {length}", "Connection: close", *extra, "", ""]
    return "\r\n".join(lines).encode()


def test_a_client_that_asks_before_sending_its_body_is_told_to_go_on_once(served):
    """``Expect: 100-continue`` (curl's for a body over 1 MiB, and some libraries' for any): the
    server reads a body before the request has a thread, so the reader says go on; it waited for
    a body the client would not send, and Werkzeug then sent two 100s after the answer."""
    body = json.dumps({"game": "blanko"}).encode()
    s = socket.create_connection(("127.0.0.1", served.server_address[1]))
    s.sendall(_head(len(body), "Expect: 100-continue"))
    s.settimeout(15)
    first = s.recv(4096)
    assert first.startswith(b"HTTP/1.1 100 Continue\r\n\r\n"), first
    s.sendall(body)
    rest = (first + _answers(s)).removeprefix(b"HTTP/1.1 100 Continue\r\n\r\n")
    s.close()
    assert rest.startswith(b"HTTP/1.1 201") and b"100 Continue" not in rest, rest


def test_a_body_over_the_limit_is_refused_before_the_client_sends_it(served):
    """A client that asks first is told 413 and never invited to send megabytes the server will
    not read (closing on them unread is a reset, which took the 413 away from curl 4 times in 10)."""
    s = socket.create_connection(("127.0.0.1", served.server_address[1]))
    s.sendall(_head(3_000_000, "Expect: 100-continue"))
    said = _answers(s)
    s.close()
    assert said.startswith(b"HTTP/1.1 413") and b"100 Continue" not in said, said


def test_requests_beyond_those_running_are_told_busy_at_once_and_websockets_do_not_count():
    """A flood is shed by the loop (#41 item 10): with ``max_in_flight`` requests running, the
    next is answered 503 server/busy at once, and served again as soon as one is done."""
    release = threading.Event()
    running = threading.Semaphore(0)

    def slow_app(environ, start_response):
        if environ["PATH_INFO"] == "/slow":
            running.release()
            release.wait(15)
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
        return [b"ok"]

    server = Server("127.0.0.1", 0, slow_app, max_in_flight=2)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]

    def ask(path: str) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", port), timeout=15)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        return s

    try:
        slow = [ask("/slow"), ask("/slow")]
        assert running.acquire(timeout=10) and running.acquire(timeout=10)
        started = time.monotonic()
        said = _answers(ask("/fast"))
        assert said.startswith(b"HTTP/1.1 503") and b"server/busy" in said and b"Retry-After: 1" in said
        assert time.monotonic() - started < 5
        release.set()
        assert all(_answers(s).endswith(b"ok") for s in slow)
        assert _answers(ask("/fast")).endswith(b"ok")
    finally:
        release.set()
        server.shutdown()
        server.server_close()


def test_a_websocket_request_is_told_apart_from_a_plain_one():
    from companion.loops.incoming import Incoming

    def read(head: bytes):
        return Incoming(1024).feed(b"GET /ws/X HTTP/1.1\r\nHost: x\r\n" + head + b"\r\n")

    assert read(b"Connection: Upgrade\r\nUpgrade: WebSocket\r\n").websocket
    assert not read(b"").websocket


def test_a_client_that_reads_its_answer_slowly_keeps_no_place_among_those_running():
    """The place is given back once the answer's head is out: writing the rest is paced by the
    client, and 64 slow readers would otherwise have told everyone else to try again."""
    def big_app(environ, start_response):
        size = 8_000_000 if environ["PATH_INFO"] == "/big" else 2
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(size))])
        return [b"x" * size]

    server = Server("127.0.0.1", 0, big_app, max_in_flight=1)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        slow = socket.create_connection(("127.0.0.1", port), timeout=15)
        slow.sendall(b"GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert slow.recv(12) == b"HTTP/1.1 200"  # and then it reads no more: the write waits
        time.sleep(0.3)
        quick = socket.create_connection(("127.0.0.1", port), timeout=15)
        quick.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert _answers(quick).endswith(b"xx")
        quick.close()
        slow.close()
    finally:
        server.shutdown()
        server.server_close()
