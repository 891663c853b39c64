"""Every message each phone received in a scripted BLANKO, BLANK and Rank & File game, walked
for hidden data. (BLDNG's projects have their own walk: test_bldng_secrecy.py.)

These games hold almost nothing that belongs to one player: the tiles, hands and face-down cards
stay physical. So the walk checks that no secrets envelope ever reaches a phone, that every viewer
was sent the same thing apart from who they are, and, for BLANK, that the order of the
face-down Rule Card Pile, which the server keeps, reaches nobody, and that a drawn card its
drawer entered reaches the drawer alone (not other phones, the table, history or after undo).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from companion.games.core.events import NOBODY

pytestmark = pytest.mark.both_backends


def walk(value: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every (path, value) inside a JSON value, so assertions can name where a leak was."""
    out = [(path, value)]
    if isinstance(value, dict):
        for k, v in value.items():
            out += walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += walk(v, f"{path}[{i}]")
    return out


def without_me(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_me(v) for k, v in value.items() if k != "me"}
    if isinstance(value, list):
        return [without_me(v) for v in value]
    return value


class Game:
    """A started table with a socket for every player and the host's screen."""

    def __init__(self, live, live_tables, game: str, names: list[str], **options: Any) -> None:
        self.tables = live_tables
        t = live_tables.create(game, **options)
        self.code, self.host = t["code"], t["host_token"]
        self.players = {n: live_tables.join(self.code, n) for n in names}
        self.tokens = {"host": self.host, **{n: p["token"] for n, p in self.players.items()}}
        self.sockets = {who: live.ws(self.code, token) for who, token in self.tokens.items()}
        for s in self.sockets.values():
            s.until("ready")
        self.by_id = {p["player_id"]: n for n, p in self.players.items()}
        self.host_does("table.start_game")

    def state(self, who: str = "host") -> dict[str, Any]:
        return self.tables.state(self.code, self.tokens[who])["state"]

    def current(self) -> str:
        return self.by_id[self.state()["game_state"]["current"]]

    def does(self, who: str, kind: str, **fields: Any) -> dict[str, Any]:
        return self.tables.ok(self.code, self.tokens[who], kind, **fields)

    def host_does(self, kind: str, **fields: Any) -> dict[str, Any]:
        return self.does("host", kind, **fields)

    def received(self) -> dict[str, list[Any]]:
        """Per viewer: the websocket messages (presence aside), then its state and history."""
        out = {}
        for who, sock in self.sockets.items():
            auth = {"Authorization": f"Bearer {self.tokens[who]}"}
            history = self.tables.client.get(f"/api/tables/{self.code}/history", headers=auth).get_json()
            messages = [m for m in sock.drain(0.5) if m["type"] != "presence"]
            out[who] = [*messages, self.tables.state(self.code, self.tokens[who]), history]
        return out


def blanko(g: Game) -> None:
    layer = g.current()
    g.does(layer, "blanko.lay", words=["ALMA"], placed=4)
    g.does(next(n for n in g.players if n != layer), "blanko.challenge")
    g.does(g.current(), "blanko.lay", words=["KÉS"], placed=3)
    g.does(g.current(), "blanko.pass")
    g.host_does("undo")
    g.does(g.current(), "blanko.lay", words=["ÉS"], placed=2)


def blank(g: Game) -> None:
    g.does(g.current(), "blank.reveal_rules", draw=True)
    g.host_does("blank.first_card", card={"colour": "circle", "number": 3})
    g.does(g.current(), "blank.play", cards=[{"colour": "circle", "number": 5}])
    g.drawer = g.current()
    g.does(g.drawer, "blank.draw")
    g.does(g.drawer, "blank.draw", drawn=1, card=DRAWN)  # the penalty's card, entered
    g.does(g.current(), "blank.draw", effect=True, draw=True)  # an effect's draw, the app's face
    accuser, accused = [n for n in g.players if n != g.current()][:2]
    g.does(accuser, "blank.accuse", player=g.players[accused]["player_id"], reason="missed_rule")
    g.host_does("blank.judge", upheld=False)
    g.host_does("undo")
    g.host_does("blank.discard_rule", rule=g.state()["game_state"]["rules"][0]["id"])


DRAWN = {"colour": "diamond", "number": 6}


def drawn_faces(value: Any, source: str | None = None) -> list[Any]:
    """The drawn cards' faces a phone was given: in its own view and in its copy of the events;
    with ``source``, only those entered by a player ("entered") or dealt by the app ("drawn")."""
    out = []
    for _path, v in walk(value):
        if isinstance(v, dict) and v.get("type") == "DrawnCardEntered" and "card" in v:
            out += [v["card"]] if source in (None, v["source"]) else []
        elif isinstance(v, dict) and v.get("my_drawn"):
            out += [d["card"] for d in v["my_drawn"] if source in (None, d["source"])]
    return out


def without_drawn_faces(value: Any) -> Any:
    if isinstance(value, dict):
        strip = {"to_enter", "my_drawn"} | ({"card"} if value.get("type") == "DrawnCardEntered" else set())
        return {k: without_drawn_faces(v) for k, v in value.items() if k not in strip}
    if isinstance(value, list):
        return [without_drawn_faces(v) for v in value]
    return value


def rankfile(g: Game) -> None:
    for _ in range(2):
        me = g.current()
        other = next(n for n in g.players if n != me)
        g.does(me, "rankfile.guess", player=g.players[other]["player_id"], position=0, number=9,
               correct=False)
    me = g.current()
    other = next(n for n in g.players if n != me)
    g.does(me, "rankfile.guess", player=g.players[other]["player_id"], position=0, number=2, correct=True,
           own_position=0)
    g.host_does("undo")


SCRIPTS: dict[str, tuple[Callable[[Game], None], list[str]]] = {
    "blanko": (blanko, ["Anna", "Bela", "Cili"]),
    "blank": (blank, ["Anna", "Bela", "Cili"]),
    "rankfile": (rankfile, ["Anna", "Bela", "Cili", "Dani"]),
}


@pytest.mark.parametrize("game", list(SCRIPTS))
def test_no_phone_receives_hidden_data(live, live_tables, game):
    script, names = SCRIPTS[game]
    options: dict[str, Any] = {}
    if game == "blank":
        deck = live_tables.client.post("/api/decks", json={"name": "Walk"}).get_json()
        options["deck_id"] = deck["id"]
    elif game == "blanko":
        options["draw_start"] = False
    g = Game(live, live_tables, game, names, **options)
    script(g)

    received = g.received()
    for who, items in received.items():
        assert len(items) >= 8, who  # the script's events did arrive
        for path, _value in walk(items):
            assert not path.endswith((".secrets", f".{NOBODY}")), (who, path)
    # Nothing else in these games belongs to one player: every phone got what the table got.
    public = without_drawn_faces(without_me(received["host"]))
    for who in names:
        assert without_drawn_faces(without_me(received[who])) == public, who

    if game == "blank":  # a drawn card's face reached its drawer, and nobody else
        tables = live.app.extensions["companion"].tables
        records = tables.log(tables.live(g.code))
        effect_drawer = g.by_id[next(r.event for r in records if r.event["type"] == "CardDrawn")["player"]]
        for who, items in received.items():
            # The face entered reached its drawer alone (the app may deal the same face to the
            # effect's drawer: that one is told apart by its source).
            entered = json.dumps(drawn_faces(items, "entered"))
            assert (json.dumps(DRAWN)[1:-1] in entered) == (who == g.drawer), who
            assert bool(drawn_faces(items)) == (who in (g.drawer, effect_drawer)), who

    if game == "blank":
        tables = live.app.extensions["companion"].tables
        records = tables.log(tables.live(g.code))
        pile = next(r.event for r in records if r.event["type"] == "RulesRevealed")["secrets"][NOBODY]["pile"]
        assert len(pile) >= 2
        order = json.dumps(pile, separators=(",", ":"))[1:-1]  # the ids in their hidden order
        assert order not in json.dumps(received, separators=(",", ":"))
        for _path, value in walk(received):
            assert not (isinstance(value, dict) and "pile" in value)
