"""The record of every game played at a table, folded from its effective log.

A table's log holds one game after another: ``TableCreated`` or ``RematchStarted`` sets a
game up, ``GameStarted`` seats it and ``GameEnded`` closes it. Folding the log as the table
does, the record takes each game's players, times and result, and after every command that
moved the game on, the score each player stood at: the score sheet turn by turn.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from ..games.core import hourglass
from ..games.core.game import Game
from ..table.log import Record, effective
from ..table.rules import TableRules, TableState
from .details import details

GameRecord = dict[str, Any]
# Events of the table around a game, which are not moves in it.
TABLE_EVENTS = frozenset({"TableCreated", "PlayerJoined", "PlayerRemoved", "TableLocked", "TableUnlocked",
                          "GameStarted", "GameEnded", "RematchStarted"}) | hourglass.EVENT_TYPES
SETUPS = frozenset({"TableCreated", "RematchStarted"})
BEFORE_PLAY = frozenset({"StartingLetterEntered"})  # who begins (BLANKO): not a turn yet
COOPERATIVE = frozenset({"rankfile"})  # the table wins or loses together


def table_games(records: list[Record], rules: TableRules) -> list[GameRecord]:
    """Every game that started at the table, oldest first; the one being played is last, with
    ``ended_ms`` null and its scores so far. ``won_ms``: when its result was settled, its end
    or, for a BLANK game, the win (its prize is chosen after, and the game may never end)."""
    state: TableState = {}
    out: list[GameRecord] = []
    current: GameRecord | None = None
    for _batch, group in groupby(effective(records), key=lambda r: r.batch):
        batch = list(group)
        for r in batch:
            if r.event["type"] in SETUPS and current is not None:
                _close(current, state, rules.games[current["game"]])
                current = None
            rules.evolve(state, r.event)
            if r.event["type"] == "GameStarted":
                current = _opened(state, rules.games[state["game"]], len(out) + 1)
                out.append(current)
        if current is None:
            continue
        moves = [r.event for r in batch if r.event["type"] not in TABLE_EVENTS]
        if (moves and batch[0].event["type"] not in SETUPS | {"GameStarted"}  # not the deal
                and not all(e["type"] in BEFORE_PLAY for e in moves)):
            result = rules.games[current["game"]].result(state["game_state"])
            current["turns"].append({"n": len(current["turns"]) + 1, "ts_ms": batch[0].ts_ms,
                                     "player": _mover(moves[0], batch[0].actor),
                                     "events": [e["type"] for e in moves],
                                     "scores": dict(result["scores"])})
            current["won_ms"] = (current["won_ms"] or batch[0].ts_ms) if _won_before_the_end(result) else None
        if any(r.event["type"] == "GameEnded" for r in batch):
            current["ended_by"] = next(r.event.get("by") for r in batch if r.event["type"] == "GameEnded")
            _close(current, state, rules.games[current["game"]])
            current = None
    if current is not None:
        _close(current, state, rules.games[current["game"]])
    return out


def _opened(state: TableState, game: Game, no: int) -> GameRecord:
    return {"no": no, "game": game.name, "title": game.title, "cooperative": game.name in COOPERATIVE,
            "started_ms": state["started_ms"],
            "ended_ms": None, "won_ms": None, "duration_ms": None, "ended_by": None,
            "players": [{"player_id": pid, "name": state["players"][pid]["name"], "seat": i}
                        for i, pid in enumerate(state["seats"])],
            "winners": [], "scores": {}, "summary": "", "result": {}, "turns": [], "details": {},
            "start_player": None}


def _close(g: GameRecord, state: TableState, game: Game) -> None:
    """Fill in what the game came to: its result once ended, or the standing so far."""
    finished = state["status"] == "ended"
    result = state["result"] if finished else game.result(state["game_state"])
    ended = state["ended_ms"] if finished else None
    removed = {pid for pid, p in state["players"].items() if p["removed"]}
    for p in g["players"]:
        p["name"] = state["players"][p["player_id"]]["name"]
        p["removed"] = p["player_id"] in removed
    scored = dict(result.get("scores", {}))
    if finished:
        # A game ended before anyone scored has no winner (#43: the host's "End game" at 0 : 0
        # made both winners, in logs of before too).
        winners = [] if scored and not any(scored.values()) else list(result.get("winners", []))
    else:
        winners = _won_before_the_end(result)
    g.update(ended_ms=ended, duration_ms=ended - g["started_ms"] if ended is not None else None,
             won_ms=(g["won_ms"] or ended) if finished or winners else None,
             winners=winners, scores=scored,
             summary=result.get("summary", result.get("outcome", "")),  # older logs kept words
             result={k: v for k, v in result.items() if k not in ("scores", "winners")},  # the words' figures
             details=details(game.name, state["game_state"], finished),
             start_player=game.first_player(state["game_state"]) or (
                 g["players"][0]["player_id"] if g["players"] else None))


def _won_before_the_end(result: dict[str, Any]) -> list[str]:
    """The winners a game still on has named, by its result so far (BLANK: its winner chooses
    a prize, which the deck's owner approves, before the game ends): it is won from then."""
    return list(result["winners"]) if result.get("outcome") == "won" else []


def _mover(e: dict[str, Any], actor: str) -> str | None:
    """Whose move it was: the player an event names, else whoever sent it (None: the host)."""
    for key in ("player", "guesser", "winner"):
        if isinstance(e.get(key), str):
            return e[key]
    return None if actor == "host" else actor
