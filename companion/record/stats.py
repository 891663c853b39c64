"""Stats across the games a viewer may see: per player, per game, and head to head.

Summed from game records (records.games) each time they are asked for. A player is one
person across tables when their browser's identity says so, else one name; the viewer's own
seats are also found by their name when they choose to be recognised by it. Persons stay
opaque: the answer names players by a key of its own (``k1``, ``k2``…).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ..table.collation import collation_key
from .charts import wins_per_player
from .games import GameRecord

ME = "me"


@dataclass(frozen=True)
class TableGames:
    code: str
    games: list[GameRecord]
    persons: dict[str, str]  # player id -> person, for those who joined with an identity


def compute(tables: list[TableGames], me: str | None, my_name: str | None = None,
            by_name: bool = False) -> dict[str, Any]:
    finished = [(t, g) for t in tables for g in t.games if g["ended_ms"] is not None]
    finished.sort(key=lambda tg: tg[1]["started_ms"])
    wanted = my_name.casefold() if by_name and my_name else None
    keys: dict[str, str] = {}
    names: dict[str, str] = {}

    def key_of(t: TableGames, p: dict[str, Any]) -> str:
        person = t.persons.get(p["player_id"])
        if (me and person == me) or (wanted and p["name"].casefold() == wanted):
            raw = ME
        else:
            raw = person or "name:" + p["name"].casefold()
        if raw not in keys:
            keys[raw] = ME if raw == ME else f"k{len(keys) + 1}"
        names[keys[raw]] = p["name"] or names.get(keys[raw], "")  # the latest name they used
        return keys[raw]

    players: dict[str, dict[str, Any]] = {}
    per_game: dict[str, dict[str, Any]] = {}
    pairs: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: {"games": 0, "a_wins": 0, "b_wins": 0})
    for t, g in finished:
        seat_keys = {p["player_id"]: key_of(t, p) for p in g["players"]}
        game = per_game.setdefault(g["game"], {"game": g["game"], "title": g["title"], "plays": 0,
                                               "duration_ms": 0, "best": None, "best_word": None})
        game["plays"] += 1
        game["duration_ms"] += g["duration_ms"] or 0
        for pid, k in seat_keys.items():
            me_ = players.setdefault(k, _new_player(k))
            line = me_["by_game"].setdefault(g["game"], _new_line(g["game"], g["title"]))
            won = pid in g["winners"]
            for acc in (me_, line):
                acc["games"] += 1
                acc["wins"] += won
                if pid in g["scores"]:
                    _score(acc, g["scores"][pid])
            if pid in g["scores"] and (game["best"] is None or g["scores"][pid] > game["best"]["score"]):
                game["best"] = {"player": k, "score": g["scores"][pid]}
        for w in g["details"].get("words", []) if g["game"] == "blanko" else []:
            if w["status"] == "rejected" or w["player"] not in seat_keys:
                continue
            k = seat_keys[w["player"]]
            word = {"word": w["word"], "points": w["points"], "player": k, "table": t.code,
                    "game_no": g["no"]}
            for holder in (players[k], game):
                if holder["best_word"] is None or w["points"] > holder["best_word"]["points"]:
                    holder["best_word"] = word
        if g["cooperative"]:
            continue  # the team wins or loses together: nobody beats anybody
        ks = sorted(set(seat_keys.values()))
        winners = {seat_keys[w] for w in g["winners"] if w in seat_keys}
        for i, a in enumerate(ks):
            for b in ks[i + 1:]:
                pair = pairs[(a, b)]
                pair["games"] += 1
                pair["a_wins"] += a in winners and b not in winners
                pair["b_wins"] += b in winners and a not in winners
    for p in players.values():
        p["name"] = names[p["key"]]
        _average(p)
        for line in p["by_game"].values():
            _average(line)
        p["by_game"] = sorted(p["by_game"].values(), key=lambda x: -x["games"])
    ranked = sorted(players.values(), key=lambda p: (-p["wins"], -p["games"], collation_key(p["name"])))
    return {"tables": len(tables), "games_played": len(finished), "me": ME if ME in players else None,
            "players": ranked,
            "games": sorted(per_game.values(), key=lambda x: -x["plays"]),
            "head_to_head": [{"a": a, "b": b, **v} for (a, b), v in sorted(pairs.items())],
            "charts": {"wins": wins_per_player([(p["name"], p["wins"], p["games"]) for p in ranked])
                       if ranked else None}}


def _new_player(key: str) -> dict[str, Any]:
    return {"key": key, "name": "", "games": 0, "wins": 0, "scored": 0, "total": 0, "best": None,
            "average": None, "best_word": None, "by_game": {}}


def _new_line(game: str, title: str) -> dict[str, Any]:
    return {"game": game, "title": title, "games": 0, "wins": 0, "scored": 0, "total": 0, "best": None,
            "average": None}


def _score(acc: dict[str, Any], score: int) -> None:
    acc["scored"] += 1
    acc["total"] += score
    acc["best"] = score if acc["best"] is None else max(acc["best"], score)


def _average(acc: dict[str, Any]) -> None:
    acc["average"] = round(acc["total"] / acc["scored"], 1) if acc["scored"] else None
    del acc["total"]
