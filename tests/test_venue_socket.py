"""The venue's counter's socket (issue 44 item 5): the staff's screen is told, with a notice that
carries nothing, when a game starts at one of the venue's tables or anything happens at one, and
not when another table moves; the staff's token is offered as a subprotocol, never in the URL."""


import pytest
from conftest import Socket, Tables, dropped_screens_let_go, screen_socket
from conftest import told as told_of
from simple_websocket import ConnectionClosed
from werkzeug.test import EnvironBuilder

from companion.web.credentials import on_record

pytestmark = pytest.mark.both_backends
MOVED = {"type": "moved"}


def venue(client, name="Kockás Café"):
    made = client.post("/api/venues", json={"name": name, "tables": ["1", "2"]}).get_json()
    return made["id"], made["token"], {t["label"]: t["url"].split("#k=")[1] for t in made["tables"]}


def counter(server, venue_id, token) -> Socket:
    return screen_socket(server, f"/ws/venue/{venue_id}", token)


def told(ws: Socket) -> bool:
    return told_of(ws, MOVED)


def test_the_counter_is_told_of_its_tables_and_only_of_them(live, live_app):
    client = live_app.test_client()
    tables = Tables(client)
    venue_id, token, tents = venue(client)
    other_id, _other_token, other_tents = venue(client, "Other")
    ws = counter(live, venue_id, token)
    assert ws.recv() == MOVED  # at once: what changed before the socket opened is read anew
    assert not told(ws)
    elsewhere = tables.create("rankfile")
    tables.join(elsewhere["code"], "Anna")
    theirs = client.post(f"/api/venues/{other_id}/tables/1/games", json={"game": "rankfile"},
                         headers={"X-Companion-Tent": other_tents["1"]})
    assert theirs.status_code == 201
    assert not told(ws)  # another venue's tables and a table of no venue are none of its business
    made = client.post(f"/api/venues/{venue_id}/tables/2/games", json={"game": "rankfile"},
                       headers={"X-Companion-Tent": tents["2"]}).get_json()
    assert ws.recv() == MOVED  # a game started at a tent
    for name in ("Anna", "Bence"):
        client.post(f"/api/tables/{made['code']}/players", json={"name": name, "tent": tents["2"]})
        assert ws.recv() == MOVED
    tables.ok(made["code"], made["host_token"], "table.start_game")
    assert ws.recv() == MOVED
    client.post(f"/api/venues/{venue_id}/tables/2/end", json={}, headers={"Authorization": f"Bearer {token}"})
    assert ws.recv() == MOVED
    ws.send({"type": "time.ping", "t0": 7})
    assert ws.until("time.pong")["t0"] == 7
    ws.send({"type": "table.end_game"})
    assert ws.until("error")["error"]["code"] == "ws/room_listens"
    ws.close()


@pytest.mark.parametrize("which, close, code", [("token", 4403, "venue/not_staff"),
                                                ("theirs", 4403, "venue/not_staff"),
                                                ("none", 4401, "auth/missing_token"),
                                                ("venue", 4404, "venue/unknown")])
def test_a_bad_token_or_venue_is_refused_with_its_code(live, live_app, which, close, code):
    client = live_app.test_client()
    venue_id, token, _ = venue(client)
    theirs = venue(client, "Other")[1]
    venue_id = "vnosuchvenue" if which == "venue" else venue_id
    token = {"token": "wrong", "theirs": theirs, "none": ""}.get(which, token)
    ws = counter(live, venue_id, token)
    assert ws.recv()["error"]["code"] == code
    with pytest.raises(ConnectionClosed):
        ws.ws.receive(timeout=5)
    assert ws.ws.close_reason == close


def test_a_counter_that_goes_is_let_go(live, live_app):
    venue_id, token, _ = venue(live_app.test_client())
    counters = live_app.extensions["companion"].counters
    screens = [counter(live, venue_id, token) for _ in range(3)]
    for ws in screens:
        assert ws.recv() == MOVED
    assert counters.watching() == 3
    dropped_screens_let_go(screens, counters)


def test_the_staffs_token_is_one_on_record_for_the_servers_reserve(live_app):
    """The last connection slots are for tokens on record (web/credentials.py): the counter
    watches every table of a café on its busiest evening."""
    venue_id, token, tents = venue(live_app.test_client())
    asked = [(f"/api/venues/{venue_id}", {"Authorization": f"Bearer {token}"}, True),
             (f"/ws/venue/{venue_id}", {"Sec-WebSocket-Protocol": f"companion.token.{token}"}, True),
             (f"/api/venues/{venue_id}", {"Authorization": "Bearer made-up"}, False),
             (f"/api/venues/{venue_id}/tables/1", {"X-Companion-Tent": tents["1"]}, False)]
    for path, headers, known in asked:
        assert on_record(live_app, EnvironBuilder(path=path, headers=headers).get_environ()) is known, path
