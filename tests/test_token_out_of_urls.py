"""A phone's token stays out of the websocket's URL, so out of every proxy's access log: the page
offers it as a websocket subprotocol (``Sec-WebSocket-Protocol``), and the server answers with
the plain ``companion`` protocol, never echoing the token. Pages from before keep ``?token=``."""

import json

import pytest
from conftest import DaemonThread, PhoneClient
from simple_websocket import ConnectionClosed


def open_with_protocols(live, code: str, token: str) -> PhoneClient:
    return PhoneClient(live.url.replace("http", "ws") + f"/ws/{code}",
                       subprotocols=["companion", f"companion.token.{token}"],
                       headers={"Origin": live.url}, thread_class=DaemonThread)


def test_the_token_as_a_subprotocol_opens_the_seat(live, live_tables):
    t = live_tables.create()
    anna = live_tables.join(t["code"], "Anna")
    ws = open_with_protocols(live, t["code"], anna["token"])
    assert ws.subprotocol == "companion"  # the token itself is never sent back
    frames = []
    while (m := json.loads(ws.receive(timeout=5)))["type"] != "ready":
        frames.append(m)
    assert frames[0]["type"] == "snapshot" and frames[0]["state"]["me"]["player_id"] == anna["player_id"]
    ws.send(json.dumps({"type": "timer.start", "cid": "c1"}))
    while (m := json.loads(ws.receive(timeout=5)))["type"] != "ack":
        pass
    assert m["cid"] == "c1"
    ws.close()


def test_a_wrong_token_as_a_subprotocol_is_refused_like_in_the_url(live, live_tables):
    t = live_tables.create()
    ws = open_with_protocols(live, t["code"], "wrong")
    assert json.loads(ws.receive(timeout=5))["error"]["code"] == "auth/bad_token"
    with pytest.raises(ConnectionClosed):
        ws.receive(timeout=3)


def test_an_old_page_with_the_token_in_the_url_still_connects(live, live_tables):
    t = live_tables.create()
    assert live.ws(t["code"], t["host_token"]).until("ready")["seq"] == 1
