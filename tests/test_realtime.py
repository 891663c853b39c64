"""The websocket over a real server on loopback: catch-up, live events, errors, limits."""

import json
import socket

import pytest
from simple_websocket import ConnectionClosed
from simple_websocket import ConnectionError as HandshakeRefused

pytestmark = pytest.mark.both_backends


@pytest.fixture
def table(live_tables):
    t = live_tables.create()
    anna = live_tables.join(t["code"], "Anna")
    bela = live_tables.join(t["code"], "Bela")
    return t, anna, bela


def test_snapshot_then_live_events(live, live_tables, table):
    t, anna, bela = table
    a, b = live.ws(t["code"], anna["token"]), live.ws(t["code"], bela["token"])
    snap = a.recv()
    assert snap["type"] == "snapshot" and snap["seq"] == 3
    assert snap["state"]["me"]["player_id"] == anna["player_id"]
    assert a.recv()["type"] == "ready"
    b.until("ready")
    b.send({"type": "timer.start", "seconds": 10, "cid": "x1"})
    ev = a.until("event")
    assert ev["seq"] == 4 and ev["event"]["type"] == "TimerStarted"
    assert ev["state"]["timer"]["running"] is True
    assert b.until("ack") == {"type": "ack", "cid": "x1", "seq": 4}
    a.close(), b.close()


def test_since_sends_exactly_the_missed_events(live, live_tables, table):
    t, anna, _ = table
    for _ in range(3):
        live_tables.ok(t["code"], t["host_token"], "timer.start")
    a = live.ws(t["code"], anna["token"], since=3)
    got = [a.recv() for _ in range(4)]
    assert [m["type"] for m in got] == ["event", "event", "event", "ready"]
    assert [m["seq"] for m in got[:3]] == [4, 5, 6]
    assert "state" in got[2] and "state" not in got[0]
    a.close()
    up_to_date = live.ws(t["code"], anna["token"], since=6)
    assert up_to_date.recv() == {"type": "ready", "seq": 6}
    up_to_date.close()


@pytest.mark.parametrize("since", [999, -5, None])
def test_since_unknown_gets_a_snapshot(live, table, since):
    t, anna, _ = table
    a = live.ws(t["code"], anna["token"], since=since)
    assert a.recv()["type"] == "snapshot"
    a.close()


@pytest.mark.parametrize("frame, code", [
    ("{nope", "ws/bad_json"),
    ("[1,2]", "ws/bad_frame"),
    ('{"no": "type"}', "ws/bad_frame"),
    (b"\x00\x01binary", "ws/binary"),
    ('{"type": "rankfile.guess"}', "table/not_started"),
    ('{"type": "table.lock"}', "table/host_only"),
    ('{"type": "unknown.thing"}', "table/unknown_command"),
])
def test_bad_frames_get_error_frames_and_the_socket_lives_on(live, table, frame, code):
    t, anna, _ = table
    a = live.ws(t["code"], anna["token"])
    a.until("ready")
    a.send(frame)
    err = a.until("error")
    assert err["error"]["code"] == code and err["error"]["message"]
    a.send({"type": "time.ping", "t0": 123})
    pong = a.until("time.pong")
    assert pong["t0"] == 123 and isinstance(pong["server_ms"], int)
    a.close()


def test_oversized_frame_closes_with_1009(live, table):
    t, anna, _ = table
    a = live.ws(t["code"], anna["token"])
    a.until("ready")
    a.send(json.dumps({"type": "timer.start", "pad": "x" * 70_000}))
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(5):
            a.ws.receive(timeout=2)
    assert closed.value.reason == 1009


def test_spoofed_origin_is_refused(live, table):
    t, anna, _ = table
    with pytest.raises(HandshakeRefused) as refused:
        live.ws(t["code"], anna["token"], origin="http://evil.example")
    assert refused.value.status_code == 403
    with pytest.raises(HandshakeRefused):  # another host name is another origin
        live.ws(t["code"], anna["token"], origin=live.url.replace("127.0.0.1", "localhost"))



def test_bad_token_or_code_gets_an_error_frame(live, table):
    t, _, _ = table
    url = live.url.replace("http", "ws")
    for path, code in ((f"/ws/{t['code']}?token=wrong", "auth/bad_token"),
                       ("/ws/NOPE7?token=x", "table/unknown")):
        ws = live.client(url + path)
        assert json.loads(ws.receive(timeout=3))["error"]["code"] == code
        with pytest.raises(ConnectionClosed):
            ws.receive(timeout=3)


def test_flooding_phone_is_limited_and_others_unaffected(live, table):
    t, anna, bela = table
    a, b = live.ws(t["code"], anna["token"]), live.ws(t["code"], bela["token"])
    a.until("ready"), b.until("ready")
    for i in range(50):
        a.send({"type": "time.ping", "t0": i})
    got = a.drain(0.5)
    assert any(m["type"] == "error" and m["error"]["code"] == "rate/limited" for m in got)
    b.send({"type": "time.ping", "t0": 1})
    assert b.until("time.pong")["t0"] == 1
    for i in range(100):  # keeps on flooding: closed as a policy violation
        try:
            a.send({"type": "time.ping", "t0": i})
        except (ConnectionClosed, OSError):
            break
    with pytest.raises(ConnectionClosed):
        while a.ws.receive(timeout=3) is not None:
            pass
    assert a.ws.close_reason == 1008
    b.send({"type": "time.ping", "t0": 2})
    assert b.until("time.pong")["t0"] == 2


def test_presence_and_join_are_live(live, live_tables, table):
    t, anna, _ = table
    host = live.ws(t["code"], t["host_token"])
    snap = host.recv()
    assert snap["state"]["me"]["is_host"] is True
    a = live.ws(t["code"], anna["token"])
    presence = host.until("presence")
    assert anna["player_id"] in presence["online"] or "host" in presence["online"]
    live_tables.join(t["code"], "Cili")
    joined = host.until("event")
    assert joined["event"]["type"] == "PlayerJoined" and joined["event"]["name"] == "Cili"
    assert "token" not in json.dumps(joined)
    a.close(), host.close()


def test_removed_player_is_disconnected(live, live_tables, table):
    t, anna, bela = table
    b = live.ws(t["code"], bela["token"])
    b.until("ready")
    live_tables.ok(t["code"], t["host_token"], "table.remove_player", player_id=bela["player_id"])
    err = b.until("error")
    assert err["error"]["code"] == "auth/removed"


def test_a_browser_offering_compression_gets_plain_frames(live, table):
    """Every browser offers permessage-deflate; accepted, it would hold a zlib compressor of
    about 100 KB for each phone for as long as it is connected (docs/performance.md)."""
    t, anna, _ = table
    host, port = live.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall((f"GET /ws/{t['code']}?token={anna['token']} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                   f"Origin: {live.url}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                   "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
                  .encode())
        data = b""
        while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < 2:
            chunk = s.recv(65536)
            assert chunk, f"the server closed the connection: {data!r}"
            data += chunk
        head, _, frames = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101")
    assert b"sec-websocket-extensions" not in head.lower()
    assert frames[0] == 0x81  # FIN, no RSV1 (not compressed), text
