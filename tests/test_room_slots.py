"""One address cannot take the room (#30 items 1, 2 and 9): a request head has a deadline in
all, one address has a cap, the last slots are kept for seated phones and the host, a head cut
short by FIN is not run, and a body shorter than its length is a clear 400."""

from __future__ import annotations

import json
import logging
import socket
import time
import urllib.request

import pytest
from conftest import PhoneClient, Tables, closed
from conftest import connect_from as connect
from simple_websocket import ConnectionClosed
from simple_websocket import ConnectionError as HandshakeRefused

from companion import create_app


def get(port: int, path: str, source: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    s = connect(port, source)
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
             *(f"{k}: {v}" for k, v in (headers or {}).items()), "", ""]
    s.sendall("\r\n".join(lines).encode())
    answer = b""
    while chunk := s.recv(65536):
        answer += chunk
    s.close()
    return (int(answer.split(b" ", 2)[1]) if answer else 0), answer


def test_a_dripping_address_is_capped_and_cut_off_while_others_get_in(serve_companion):
    port = serve_companion(request_timeout_s=2, max_connections=100, max_per_address=10, reserve=0)
    drips = []
    for _ in range(30):  # three times its cap; the rest are closed at once
        try:
            drips.append(connect(port, "127.0.0.2"))
        except OSError:
            pass
    started = time.monotonic()
    cut: set[socket.socket] = set()
    while time.monotonic() - started < 6 and len(cut) < len(drips):
        for s in drips:
            if s in cut:
                continue
            try:
                s.sendall(b"X")  # a byte a while: each read makes progress
            except OSError:
                cut.add(s)
        assert get(port, "/healthz", "127.0.0.3")[0] == 200  # someone else is served meanwhile
        time.sleep(0.3)
    assert len(cut) == len(drips)  # every one cut off, by the cap at once or by the deadline
    assert time.monotonic() - started < 6
    for s in drips:
        s.close()


def test_the_reserve_is_kept_for_credentials(serve_companion, live_tables):
    port = serve_companion(request_timeout_s=30, max_connections=20, reserve=5, max_per_address=100)
    t = live_tables.create()
    idle = [connect(port, "127.0.0.2") for _ in range(15)]  # the unreserved slots, held
    time.sleep(0.3)
    status, _ = get(port, "/healthz", "127.0.0.3")
    assert status == 503  # no credentials: the reserve is not for it
    status, body = get(port, f"/api/tables/{t['code']}/state", "127.0.0.3",
                       {"Authorization": f"Bearer {t['host_token']}"})
    assert status == 200, body  # the host gets in
    for s in idle:
        s.close()


def test_the_reserve_lets_in_a_league_organiser_and_not_a_made_up_token(serve_companion, live_app):
    """The room's screen is the one the whole room watches: its organiser's token, found on
    record by its hash as a host's is, gets a reserved slot, for the room's socket and its
    reads; a made-up token at the same address does not."""
    port = serve_companion(request_timeout_s=30, max_connections=20, reserve=5, max_per_address=100)
    made = live_app.test_client().post("/api/leagues", json={"name": "Thursday club"}).get_json()
    idle = [connect(port, "127.0.0.2") for _ in range(15)]  # the unreserved slots, held
    time.sleep(0.3)
    room = f"/api/leagues/{made['id']}/room"
    assert get(port, room, "127.0.0.3", {"Authorization": "Bearer made-up"})[0] == 503
    status, body = get(port, room, "127.0.0.3", {"Authorization": f"Bearer {made['token']}"})
    assert status == 200, body
    url = f"ws://127.0.0.1:{port}/ws/league/{made['id']}"

    def room_socket(token: str) -> PhoneClient:
        return PhoneClient(url, subprotocols=["companion", f"companion.token.{token}"],
                           headers={"Origin": f"http://127.0.0.1:{port}"})

    with pytest.raises(HandshakeRefused) as refused:
        room_socket("made-up")
    assert refused.value.status_code == 503
    ws = room_socket(made["token"])
    assert json.loads(ws.receive(timeout=10)) == {"type": "room.changed"}
    ws.close()
    for s in idle:
        s.close()


def test_a_head_cut_short_by_the_client_is_not_run(serve_companion):
    port = serve_companion(request_timeout_s=5)
    s = connect(port, "127.0.0.2")
    s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")
    s.shutdown(socket.SHUT_WR)  # FIN before the blank line
    assert s.recv(65536) == b""  # no answer: nothing was run
    s.close()


def test_a_body_shorter_than_its_length_is_a_clear_400(serve_companion, caplog, capfd):
    port = serve_companion(request_timeout_s=1)
    s = connect(port, "127.0.0.2")
    s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: 100\r\n\r\n{\"ga")  # kept alive: the server waits for the rest
    with caplog.at_level(logging.ERROR):
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    s.close()
    assert answer.startswith(b"HTTP/1.1 400") and b"http/bad_request" in answer
    time.sleep(0.5)  # whatever the connection's thread says after the answer
    said = capfd.readouterr()
    assert "Traceback" not in caplog.text + said.out + said.err


def test_healthz_still_answers_through_urllib(serve_companion):
    port = serve_companion()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
        assert r.status == 200


def test_behind_a_proxy_websockets_are_capped_per_forwarded_address(db_url, serve_app):
    app = create_app({"DATABASE_URL": db_url, "TESTING": True, "TRUSTED_PROXY_HOPS": 1, "WS_PER_ADDRESS": 3})
    try:
        live = serve_app(app)
        t = Tables(app.test_client()).create()
        url = live.url.replace("http", "ws") + f"/ws/{t['code']}?token={t['host_token']}"

        def phone(forwarded: str) -> PhoneClient:
            return PhoneClient(url, headers={"Origin": live.url, "X-Forwarded-For": forwarded})

        held = [phone("10.0.0.66") for _ in range(3)]
        for ws in held:
            assert '"snapshot"' in ws.receive(timeout=5)
        extra = phone("10.0.0.66")
        with pytest.raises(ConnectionClosed):
            while extra.receive(timeout=5) is not None:
                pass
        assert extra.close_reason == 1013
        other = phone("10.0.0.7")  # another phone behind the same proxy
        assert '"snapshot"' in other.receive(timeout=5)
        for ws in [*held, other]:
            ws.close()
    finally:
        closed(app)
