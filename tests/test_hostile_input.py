"""What an outsider sends on purpose: JSON nested a thousand deep, lone surrogates, huge
numbers, options of the wrong shape, look-alike origins. Every one gets a clear 4xx or error
frame, never a 500, and a websocket goes on hearing the game afterwards."""

from __future__ import annotations

import json

import pytest
from simple_websocket import ConnectionError as HandshakeRefused

DEEP = "[" * 1000 + "]" * 1000
LONE = '"\\ud800"'


def post_raw(client, path: str, data: str, token: str | None = None):
    return client.post(path, data=data.encode(), content_type="application/json",
                       headers={"Authorization": f"Bearer {token}"} if token else {})


@pytest.fixture
def seated(tables):
    t = tables.create()
    anna = tables.join(t["code"], "Anna")
    deck = tables.client.post("/api/decks", json={"name": "Ours"}).get_json()
    return t, anna, deck


def endpoints(t, anna, deck):
    code = t["code"]
    return [("/api/tables", None), (f"/api/tables/{code}/players", None),
            (f"/api/tables/{code}/commands", anna["token"]), ("/api/decks", None),
            ("/api/decks/import", None), (f"/api/decks/{deck['id']}/rules", deck["owner_token"]),
            ("/api/blanko/evaluate", None)]


HOSTILE_BODIES = [
    (DEEP, "nested"),
    ('{"type": "timer.start", "x": ' + DEEP + "}", "nested"),
    ('{"type": "timer.start", "cid": ' + LONE + "}", "surrogate"),
    ('{"type": ' + LONE + "}", "surrogate"),
    ('{"game": "rankfile", "name": ' + LONE + ', "words": [' + LONE + "]}", "surrogate"),
    ('{"name": "Ours\\udfff", "game": "blank"}', "surrogate"),
    ('{' + LONE + ': 1}', "surrogate"),
    ('{"type": "timer.start", "seconds": 1e400}', "numbers"),
    ('{"type": "timer.start", "seconds": ' + "9" * 5000 + "}", "numbers"),
    ('{"type": "timer.start", "seconds": 123456789012345678901234567890}', "numbers"),
    ('{"type": "timer.start", "seconds": NaN}', "NaN"),
]


def test_every_json_endpoint_refuses_what_it_cannot_take_with_a_400(tables, seated):
    for data, why in HOSTILE_BODIES:  # one app for all: building one is the slow part
        for path, token in endpoints(*seated):
            r = post_raw(tables.client, path, data, token)
            assert r.status_code == 400, (path, r.status_code, r.get_data(as_text=True)[:200])
            error = r.get_json()["error"]
            assert error["code"] == "http/bad_json" and why in error["message"], (path, error)


def test_a_lone_surrogate_in_a_name_is_refused_and_the_table_goes_on(tables, seated):
    t, anna, _ = seated
    r = post_raw(tables.client, f"/api/tables/{t['code']}/players", '{"name": "Bela\\ud83d"}')
    assert r.status_code == 400
    assert tables.client.get(f"/api/tables/{t['code']}").get_json()["players"] == ["Anna"]
    assert tables.join(t["code"], "Bela 😀")["player_id"]  # a whole pair is a real character


def test_options_of_the_wrong_shape_are_a_clear_4xx(client):
    for options in ({"variant": {}}, {"variant": []}, {"variant": 5}, {"helper": {}}, {"variant": None}):
        r = client.post("/api/tables", json={"game": "rankfile", "options": options})
        assert 400 <= r.status_code < 500, (options, r.get_json())
        assert set(r.get_json()["error"]) == {"code", "message"}


def test_blanko_letter_counts_have_an_upper_bound(client):
    r = client.post("/api/tables", json={"game": "blanko", "options": {"letter_counts": {"A": 30_000_000}}})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "blanko/bad_letter_counts"


@pytest.fixture
def table(live_tables):
    t = live_tables.create()
    anna = live_tables.join(t["code"], "Anna")
    return t, anna


def test_a_hostile_frame_gets_an_error_frame_and_the_phone_hears_the_game_after(live, live_tables, table):
    t, anna = table
    a = live.ws(t["code"], anna["token"])
    a.until("ready")
    for frame in (DEEP, '{"type": "timer.start", "cid": ' + LONE + "}", '{"type": ' + LONE + "}",
                  '{"type": "timer.start", "seconds": 1e400}',
                  '{"type": "timer.start", "seconds": ' + "9" * 5000 + "}"):
        a.send(frame)
        err = a.until("error")
        assert err["error"]["code"] == "ws/bad_json", err
        live_tables.ok(t["code"], t["host_token"], "timer.start", seconds=5)
        assert a.until("event")["event"]["type"] == "TimerStarted"  # not deaf
    a.close()


def test_look_alike_origins_are_refused_with_403(live, table):
    t, anna = table
    for origin in ("{url}.evil.example", "http://127.0.0.1:abc", "http://[::1", "http://127.0.0.1:99999",
                   "{url}@evil.example"):
        with pytest.raises(HandshakeRefused) as refused:
            live.ws(t["code"], anna["token"], origin=origin.format(url=live.url))
        assert refused.value.status_code == 403, origin


def test_json_in_a_frame_and_in_a_body_is_read_the_same(tables, seated):
    from companion.web import payload

    assert payload.loads('{"a": [1, 2.5, "x", {"b": null}]}') == {"a": [1, 2.5, "x", {"b": None}]}
    assert payload.loads(json.dumps({"name": "Bela 😀"}, ensure_ascii=True)) == {"name": "Bela 😀"}
    with pytest.raises(payload.BadJson):
        payload.loads("[" * (payload.MAX_DEPTH + 1) + "]" * (payload.MAX_DEPTH + 1))
    payload.loads("[" * payload.MAX_DEPTH + "]" * payload.MAX_DEPTH)


def test_a_message_that_cannot_be_sent_closes_the_connection_instead_of_leaving_it_deaf():
    from companion.realtime.hub import Connection
    from companion.table.views import Viewer

    class Link:
        closed: int | None = None

        def send(self, data: str) -> None:
            data.encode("utf-8")  # what the websocket does; a lone surrogate cannot be encoded

        def close(self, reason: int | None = None, message: str | None = None) -> None:
            self.closed = reason

    conn = Connection(Link(), "TABLE", Viewer(None, True))
    assert conn.send({"type": "ack", "cid": "\ud800"}) is False
    assert conn.ws.closed == 1011 and not conn.alive
