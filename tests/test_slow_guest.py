"""A slow guest costs a buffer, not the room (#35 item 1): a request is read on the loop until
it is complete, under one deadline, and only then gets a thread; a full room sheds its oldest
unfinished connection for a newcomer; the reserve takes verified tokens only; and beyond the cap
the answer is a 503 with Retry-After, never a silent close."""

from __future__ import annotations

import socket
import threading
import time

from conftest import PhoneClient
from conftest import connect_from as connect


def answer(s: socket.socket) -> bytes:
    got = b""
    try:
        while chunk := s.recv(65536):
            got += chunk
    except OSError:  # reset: no answer
        pass
    s.close()
    return got


def ask(port: int, path: str, source: str, headers: dict[str, str] | None = None) -> bytes:
    s = connect(port, source)
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
             *(f"{k}: {v}" for k, v in (headers or {}).items()), "", ""]
    s.sendall("\r\n".join(lines).encode())
    return answer(s)


BODY_DRIP = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 60000\r\n\r\n{")


def test_dripping_bodies_hold_no_thread(serve_companion):
    port = serve_companion(request_timeout_s=30)
    before = threading.active_count()
    drips = [connect(port, f"127.0.0.{2 + i % 3}") for i in range(30)]
    for s in drips:
        s.sendall(BODY_DRIP)
    time.sleep(0.5)
    assert threading.active_count() - before < 5  # a buffer each, not a thread each
    for s in drips:
        s.close()


def test_a_body_has_the_request_s_one_deadline(serve_companion):
    port = serve_companion(request_timeout_s=2)
    s = connect(port, "127.0.0.2")
    s.sendall(BODY_DRIP)
    started = time.monotonic()
    s.settimeout(0.3)
    got = b""
    while time.monotonic() - started < 8:
        try:
            s.sendall(b" ")  # a byte a while: progress, but the request is not done by its deadline
            got += s.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            break
        if got:
            break
    s.close()
    assert got.startswith(b"HTTP/1.1 400"), got
    assert time.monotonic() - started < 5


def test_a_full_room_sheds_its_oldest_unfinished_connection_for_a_seated_phone(serve_companion, live_tables):
    port = serve_companion(request_timeout_s=30, max_connections=60, reserve=10, max_per_address=10)
    t = live_tables.create()
    drips = []
    for i in range(60):  # every slot: heads that never end, from six addresses
        s = connect(port, f"127.0.0.{2 + i // 10}")
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        drips.append(s)
    time.sleep(0.3)
    for _ in range(3):
        started = time.monotonic()
        got = ask(port, f"/api/tables/{t['code']}/state", "127.0.0.20",
                  {"Authorization": f"Bearer {t['host_token']}"})
        assert got.startswith(b"HTTP/1.1 200"), got[:300]
        assert time.monotonic() - started < 2
    for s in drips:
        s.close()


def test_the_reserve_takes_only_a_token_on_record(serve_companion, live_tables):
    port = serve_companion(request_timeout_s=30, max_connections=20, reserve=5, max_per_address=100)
    t = live_tables.create()
    idle = [connect(port, "127.0.0.2") for _ in range(15)]  # the unreserved slots, held
    time.sleep(0.3)
    made_up = ask(port, f"/api/tables/{t['code']}/state", "127.0.0.3", {"Authorization": "Bearer nope"})
    assert made_up.startswith(b"HTTP/1.1 503") and b"\r\nRetry-After: " in made_up, made_up[:300]
    socket_guess = ask(port, f"/ws/{t['code']}?token=nope", "127.0.0.3",
                       {"Upgrade": "websocket", "Connection": "Upgrade"})
    assert socket_guess.startswith(b"HTTP/1.1 503"), socket_guess[:300]
    host = ask(port, f"/api/tables/{t['code']}/state", "127.0.0.3",
               {"Authorization": f"Bearer {t['host_token']}"})
    assert host.startswith(b"HTTP/1.1 200"), host[:300]
    for s in idle:
        s.close()


def test_beyond_the_cap_the_answer_is_503_with_retry_after(serve_companion, live_tables):
    port = serve_companion(request_timeout_s=30, max_connections=4, reserve=0, max_per_address=100)
    t = live_tables.create()
    url = f"ws://127.0.0.1:{port}"
    phones = [PhoneClient.open(f"{url}/ws/{t['code']}?token={t['host_token']}", f"http://127.0.0.1:{port}")
              for _ in range(4)]  # every slot runs: nothing unfinished to shed
    for ws in phones:
        assert '"snapshot"' in ws.receive(timeout=15)
    got = answer(connect(port, "127.0.0.3"))
    assert got.startswith(b"HTTP/1.1 503") and b"\r\nRetry-After: " in got, got[:300]
    for ws in phones:
        ws.close()


def test_a_kept_alive_connection_waits_on_the_loop_for_its_next_request(serve_companion):
    port = serve_companion(request_timeout_s=30)
    s = connect(port, "127.0.0.2")
    before = threading.active_count()
    for _ in range(2):
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        got = b""
        while b"\r\n\r\n" not in got or not got.rstrip().endswith(b"}"):
            chunk = s.recv(65536)
            assert chunk, got  # closed: not kept alive
            got += chunk
        assert got.startswith(b"HTTP/1.1 200"), got
        time.sleep(0.3)
        assert threading.active_count() <= before  # waiting for the next request costs no thread
    s.close()
