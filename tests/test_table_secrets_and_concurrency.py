"""Secrets ride only to their owner; concurrent commands are serialised; tokens expire."""

import json
import threading

import pytest

from companion.games.core import turns
from companion.games.core.events import event, event_for
from companion.games.core.game import Game
from companion.table.service import TOKEN_TTL_MS

pytestmark = pytest.mark.both_backends


class SecretCards(Game):
    """A tiny game whose deal is secret: each player is dealt a card only they may see."""

    name = "secret"
    title = "Secret"

    def __init__(self):
        super().__init__()
        self.commands = {"peek_swap": self.swap}
        self.folds = {"Dealt": self._dealt, "Swapped": self._swapped}

    def start(self, state, seats, ctx):
        cards = {p: f"card-{ctx.rng.randrange(10**9)}" for p in seats}
        return [event("Dealt", seats=seats, secrets={p: {"card": c} for p, c in cards.items()})]

    def swap(self, state, cmd, ctx):
        turns.require_turn(state["turn"], ctx.actor)
        a, b = state["turn"]["order"][:2]
        return [event("Swapped", secrets={a: {"card": state["hands"][b]}, b: {"card": state["hands"][a]}})]

    def _dealt(self, state, e):
        state.update(started=True, turn=turns.new_turn(e["seats"]),
                     hands={p: s["card"] for p, s in e["secrets"].items()})

    def _swapped(self, state, e):
        state["hands"].update({p: s["card"] for p, s in e["secrets"].items()})

    def view(self, state, viewer):
        return {"started": state["started"], "mine": state.get("hands", {}).get(viewer)}


def test_event_for_strips_other_players_secrets():
    e = event("Dealt", secrets={"a": {"card": 1}, "b": {"card": 2}}, seats=["a", "b"])
    assert event_for(e, "a") == {"type": "Dealt", "seats": ["a", "b"], "card": 1}
    assert event_for(e, None) == {"type": "Dealt", "seats": ["a", "b"]}


def test_no_phone_ever_receives_another_players_card(make_app):
    """State, history (with an undone swap) and the host's view: each phone finds only the
    cards that were ever its own, never the other's."""
    app = make_app(GAMES={"secret": SecretCards()})
    c = app.test_client()
    t = c.post("/api/tables", json={"game": "secret"}).get_json()
    code, host = t["code"], t["host_token"]
    players = [c.post(f"/api/tables/{code}/players", json={"name": n}).get_json() for n in ("A", "B")]
    auth = lambda tok: {"Authorization": f"Bearer {tok}"}  # noqa: E731
    c.post(f"/api/tables/{code}/commands", json={"type": "table.start_game"}, headers=auth(host))
    c.post(f"/api/tables/{code}/commands", json={"type": "secret.peek_swap"},
           headers=auth(players[0]["token"]))
    c.post(f"/api/tables/{code}/commands", json={"type": "undo"}, headers=auth(host))
    tables = app.extensions["companion"].tables
    log = tables.log(tables.live(code))
    cards = {s["card"] for r in log for s in r.event.get("secrets", {}).values()}
    assert len(cards) == 2
    for viewer, token in [("host", host)] + [(p["player_id"], p["token"]) for p in players]:
        seen = json.dumps([c.get(f"/api/tables/{code}/state", headers=auth(token)).get_json(),
                           c.get(f"/api/tables/{code}/history", headers=auth(token)).get_json()])
        own = {r.event["secrets"][viewer]["card"] for r in log
               if viewer in r.event.get("secrets", {})}
        assert {card for card in cards if card in seen} == own


def test_concurrent_commands_are_all_kept_in_order(live, live_tables):
    t = live_tables.create()
    tokens = [live_tables.join(t["code"], f"P{i}")["token"] for i in range(6)]
    seqs, errors = [], []

    def hammer(token):
        client = live.app.test_client()
        for _ in range(15):
            r = client.post(f"/api/tables/{t['code']}/commands", json={"type": "timer.flip"},
                            headers={"Authorization": f"Bearer {token}"})
            (seqs if r.status_code == 200 else errors).append(r.get_json().get("seq"))

    threads = [threading.Thread(target=hammer, args=(tok,)) for tok in tokens]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert sorted(seqs) == list(range(8, 8 + 90))  # 1 created + 6 joins, then 90 distinct seqs
    history = live_tables.client.get(f"/api/tables/{t['code']}/history",
                                     headers={"Authorization": f"Bearer {t['host_token']}"}).get_json()
    assert [h["seq"] for h in history["events"]] == list(range(1, 98))


def test_tokens_of_a_long_finished_table_expire(tables, clock):
    code, host, tokens, _ = tables.seated("rankfile", ["Anna", "Bela"])
    tables.ok(code, host, "table.end_game")
    assert tables.state(code, tokens["Anna"])["state"]["status"] == "ended"
    clock.advance(TOKEN_TTL_MS + 1)
    r = tables.command(code, tokens["Anna"], "undo")
    assert r.status_code == 401 and r.get_json()["error"]["code"] == "auth/expired"
