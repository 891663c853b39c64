"""The room's socket (issue 36): the organiser's screen is told, with a notice that carries
nothing, when anything happens at a table of its league, and not when another table moves."""

import json

import pytest
from conftest import Socket, Tables, dropped_screens_let_go, screen_socket
from conftest import told as told_of
from simple_websocket import ConnectionClosed
from simple_websocket import ConnectionError as HandshakeRefused

pytestmark = pytest.mark.both_backends
NOTICE = {"type": "room.changed"}


def league(client, name="Thursday club"):
    made = client.post("/api/leagues", json={"name": name}).get_json()
    return made["id"], made["token"]


def room(server, league_id, token, origin=None) -> Socket:
    return screen_socket(server, f"/ws/league/{league_id}", token, origin)


def told(ws: Socket) -> bool:
    return told_of(ws, NOTICE)


def test_the_room_is_told_of_its_tables_and_only_of_them(live, live_app):
    client = live_app.test_client()
    tables = Tables(client)
    league_id, token = league(client)
    ours = tables.create("blanko", league=league_id, draw_start=False)
    theirs = tables.create("blanko", draw_start=False)
    anna = tables.join(ours["code"], "Anna")
    ws = room(live, league_id, token)
    assert ws.recv() == NOTICE  # at once: what changed before the socket opened is read anew
    assert not told(ws)  # and then nothing while nothing happens
    tables.join(theirs["code"], "Bela")
    tables.ok(theirs["code"], theirs["host_token"], "timer.start", seconds=60)
    assert not told(ws)  # another table's moves are none of this room's business
    tables.join(ours["code"], "Bela")
    assert ws.recv() == NOTICE
    tables.ok(ours["code"], ours["host_token"], "table.start_game")
    assert ws.recv() == NOTICE
    tables.ok(ours["code"], anna["token"], "timer.start", seconds=60)
    assert ws.recv() == NOTICE
    tables.ok(ours["code"], anna["token"], "undo")
    assert ws.recv() == NOTICE
    ws.send({"type": "time.ping", "t0": 7})
    pong = ws.until("time.pong")
    assert pong["t0"] == 7 and isinstance(pong["server_ms"], int)
    ws.send({"type": "timer.start"})
    err = ws.until("error")
    assert err["error"]["code"] == "ws/room_listens" and err["error"]["message"]
    ws.close()


def test_a_table_or_round_added_to_the_league_is_told(live, live_app):
    client = live_app.test_client()
    league_id, token = league(client)
    ws = room(live, league_id, token)
    assert ws.recv() == NOTICE
    Tables(client).create("blanko", league=league_id)  # a host's table, counting for the league
    assert ws.recv() == NOTICE
    r = client.post(f"/api/leagues/{league_id}/rounds", headers={"Authorization": f"Bearer {token}"},
                    json={"present": ["Anna", "Bela"], "options": {"draw_start": False}})
    assert r.status_code == 201, r.get_json()
    assert ws.recv() == NOTICE
    Tables(client).join(r.get_json()["tables"][0]["code"], "Anna")  # the round's table, learnt
    assert ws.recv() == NOTICE
    ws.close()


@pytest.mark.parametrize("which, close, code", [("token", 4401, "auth/bad_token"),
                                                ("theirs", 4401, "auth/bad_token"),
                                                ("none", 4401, "auth/bad_token"),
                                                ("league", 4404, "league/unknown")])
def test_a_bad_token_or_league_is_refused_with_its_code(live, live_app, which, close, code):
    client = live_app.test_client()
    league_id, token = league(client)
    theirs = league(client, "Friday club")[1]  # another league's organiser's token
    league_id = "lnosuchleague" if which == "league" else league_id
    token = {"token": "wrong", "theirs": theirs, "none": ""}.get(which, token)
    ws = room(live, league_id, token)
    assert ws.recv()["error"]["code"] == code
    with pytest.raises(ConnectionClosed):
        ws.ws.receive(timeout=5)
    assert ws.ws.close_reason == close


def test_a_room_socket_from_another_site_is_refused(live, live_app):
    league_id, token = league(live_app.test_client())
    with pytest.raises(HandshakeRefused) as refused:
        room(live, league_id, token, origin="http://evil.example")
    assert refused.value.status_code == 403


def test_an_oversized_frame_closes_the_room_socket_with_1009(live, live_app):
    league_id, token = league(live_app.test_client())
    ws = room(live, league_id, token)
    assert ws.recv() == NOTICE
    ws.send(json.dumps({"type": "time.ping", "pad": "x" * 70_000}))
    with pytest.raises(ConnectionClosed):
        for _ in range(5):
            ws.ws.receive(timeout=2)
    assert ws.ws.close_reason == 1009


def test_a_room_screen_that_goes_is_let_go(live, live_app):
    """Closed or dropped, a room's socket leaves no registration behind (tests/test_churn.py
    counts the threads and files of `companion serve`)."""
    league_id, token = league(live_app.test_client())
    rooms = live_app.extensions["companion"].rooms
    screens = [room(live, league_id, token) for _ in range(4)]
    for ws in screens:
        assert ws.recv() == NOTICE
    assert rooms.watching() == 4
    dropped_screens_let_go(screens, rooms)
