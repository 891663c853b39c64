"""Every close the server starts reaches the phone as a close frame and then the end of the
connection, nothing else: the bytes are read off the socket as a browser's network stack reads
them. After a websocket, the WSGI server once wrote an HTTP response onto the upgraded socket
("HTTP/1.1 200 OK"), which Chromium reports as "Invalid frame header" and turns into 1006."""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Callable
from typing import Any

import pytest

from companion.loops.reactor import going_away

CONTROL = {8, 9, 10}


class RawPhone:
    """A websocket client at the level of bytes: each frame the server sends is checked to be
    one (FIN and opcode, no reserved bits, unmasked), and the server's close is answered with
    the phone's own, as browsers do, before the rest of the stream is read to its end."""

    def __init__(self, url: str, code: str, token: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=15)
        self.sock.sendall((f"GET /ws/{code} HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: {url}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                           f"Sec-WebSocket-Protocol: companion, companion.token.{token}\r\n\r\n").encode())
        self.data = b""
        while b"\r\n\r\n" not in self.data:
            self._more()
        head, _, self.data = self.data.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head

    def _more(self) -> bytes:
        chunk = self.sock.recv(65536)
        self.data += chunk
        return chunk

    def frame(self) -> tuple[int, bytes]:
        """The next frame's opcode and payload."""
        while (parsed := self._parse()) is None:
            assert self._more(), f"the connection ended inside a frame: {self.data[:80]!r}"
        opcode, payload, size = parsed
        self.data = self.data[size:]
        return opcode, payload

    def _parse(self) -> tuple[int, bytes, int] | None:
        if len(self.data) < 2:
            return None
        first, second = self.data[0], self.data[1]
        assert first & 0x70 == 0 and first & 0x0F in {0, 1, 2} | CONTROL, \
            f"not a websocket frame: {self.data[:80]!r}"
        assert not second & 0x80, "a server's frames are not masked"
        length, at = second & 0x7F, 2
        if length >= 126:
            at = 4 if length == 126 else 10
            if len(self.data) < at:
                return None
            length = int.from_bytes(self.data[2:at], "big")
        if first & 0x0F in CONTROL:
            assert first & 0x80 and length <= 125, "a control frame is whole and short"
        if len(self.data) < at + length:
            return None
        return first & 0x0F, self.data[at:at + length], at + length

    def messages_until_closed(self, answer: bool = True) -> tuple[list[dict[str, Any]], int]:
        """The messages before the server's close frame and its code; the phone answers the
        close (unless ``answer`` is false), and the stream must then end with nothing more."""
        messages = []
        while (frame := self.frame())[0] != 8:
            if frame[0] == 1:
                messages.append(json.loads(frame[1]))
        payload = frame[1]
        assert len(payload) >= 2, "a close frame from the server names its code"
        payload[2:].decode()  # its reason is UTF-8
        if answer:
            mask = os.urandom(4)
            self.sock.sendall(bytes([0x88, 0x80 | len(payload)]) + mask
                              + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        while self._more():
            pass
        assert self.data == b"", f"bytes after the close frame: {self.data[:120]!r}"
        return messages, int.from_bytes(payload[:2], "big")

    def send_text(self, text: str) -> None:
        data, mask = text.encode(), os.urandom(4)
        length = bytes([0x80 | len(data)]) if len(data) < 126 else \
            bytes([0x80 | 126]) + len(data).to_bytes(2, "big") if len(data) < 65536 else \
            bytes([0x80 | 127]) + len(data).to_bytes(8, "big")
        self.sock.sendall(b"\x81" + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def ready(self) -> None:
        """Caught up, and read by the reactor (which starts reading after the catch-up): a
        ``time.pong`` answers a ping it read."""
        self.send_text(json.dumps({"type": "time.ping", "t0": 1}))
        while (frame := self.frame())[0] != 1 or json.loads(frame[1])["type"] != "time.pong":
            pass

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def seated(live_tables):
    t = live_tables.create("blanko")
    anna = live_tables.join(t["code"], "Anna")
    bela = live_tables.join(t["code"], "Béla")
    live_tables.ok(t["code"], t["host_token"], "table.start_game")
    return t, anna, bela


def phone(live, t, who) -> RawPhone:
    p = RawPhone(live.url, t["code"], who["token"])
    p.ready()
    return p


def handed_over(live, live_tables, t, anna, bela):
    old = phone(live, t, bela)
    r = live_tables.client.post(f"/api/tables/{t['code']}/players/{bela['player_id']}/handover",
                                headers={"Authorization": f"Bearer {t['host_token']}"})
    assert r.status_code == 201
    return old, "auth/handed_over", 4403


def removed(live, live_tables, t, anna, bela):
    old = phone(live, t, bela)
    live_tables.ok(t["code"], t["host_token"], "table.remove_player", player_id=bela["player_id"])
    return old, "auth/removed", 4403


def token_revoked(live, live_tables, t, anna, bela):
    handed_over(live, live_tables, t, anna, bela)[0].close()
    return RawPhone(live.url, t["code"], bela["token"]), "auth/handed_over", 4401


def unknown_token(live, live_tables, t, anna, bela):
    return RawPhone(live.url, t["code"], "not-a-token"), "auth/bad_token", 4401


def unknown_table(live, live_tables, t, anna, bela):
    return RawPhone(live.url, "NOPE7", anna["token"]), "table/unknown", 4404


def frame_too_big(live, live_tables, t, anna, bela):
    p = phone(live, t, anna)
    p.send_text(json.dumps({"type": "timer.start", "pad": "x" * 70_000}))
    return p, None, 1009


def flooding(live, live_tables, t, anna, bela):
    p = phone(live, t, anna)
    for i in range(100):
        p.send_text(json.dumps({"type": "time.ping", "t0": i}))
    return p, "rate/limited", 1008


def going_away_(live, live_tables, t, anna, bela):
    p = phone(live, t, anna)
    going_away()
    return p, None, 1001


CLOSES: list[Callable[..., tuple[RawPhone, str | None, int]]] = [
    handed_over, removed, token_revoked, unknown_token, unknown_table, frame_too_big, flooding, going_away_]


@pytest.mark.parametrize("close", CLOSES, ids=[c.__name__.rstrip("_") for c in CLOSES])
def test_a_close_the_server_starts_is_a_close_frame_and_nothing_after(live, live_tables, seated, close):
    p, error, code = close(live, live_tables, *seated)
    try:
        messages, got = p.messages_until_closed()
    finally:
        p.close()
    assert got == code
    if error is not None:
        assert error in [m["error"]["code"] for m in messages if m["type"] == "error"]


def test_a_close_the_phone_does_not_answer_still_ends_clean(live, live_tables, seated):
    """A phone that never answers the close frame (asleep, gone) is let go after a grace."""
    p = handed_over(live, live_tables, *seated)[0]
    started = time.monotonic()
    try:
        assert p.messages_until_closed(answer=False)[1] == 4403
    finally:
        p.close()
    assert time.monotonic() - started < 10


def test_too_many_sockets_from_one_address_is_a_close_frame(make_app, serve_app):
    app = make_app(WS_PER_ADDRESS=1)
    live = serve_app(app)
    client = app.test_client()
    t = client.post("/api/tables", json={"game": "rankfile", "options": {}}).get_json()
    first = RawPhone(live.url, t["code"], t["host_token"])
    first.ready()
    second = RawPhone(live.url, t["code"], t["host_token"])
    try:
        assert second.messages_until_closed()[1] == 1013
    finally:
        first.close(), second.close()


def test_a_phone_that_misses_its_pongs_gets_a_close_frame(make_app, serve_app):
    app = make_app(WS_PING_INTERVAL_S=0.3, WS_PING_TIMEOUT_S=0.3)
    live = serve_app(app)
    t = app.test_client().post("/api/tables", json={"game": "rankfile", "options": {}}).get_json()
    p = RawPhone(live.url, t["code"], t["host_token"])
    try:
        assert p.messages_until_closed()[1] == 1008  # pings are read, never answered
    finally:
        p.close()
