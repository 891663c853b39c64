"""Another game at the same table: the rematch, as the table's pure rules decide and fold it.

A finished table starts its next game with the same seats and tokens, so no phone rescans
and every phone simply receives the new game's state. ``RematchStarted`` resets the table's
game as ``TableCreated`` first set it; the games before it stay in the log, which is where
the evening's record is read from (companion/record/).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..games.core import hourglass
from ..games.core.context import Context
from ..games.core.errors import require
from ..games.core.events import Event, event
from ..games.core.game import Game

TableState = dict[str, Any]


def decide(state: TableState, command: dict[str, Any], ctx: Context, games: Mapping[str, Game],
           evolved: Callable[[TableState, list[Event]], TableState]) -> list[Event]:
    """``table.rematch {game?, options?, seats?}``: the same game with the same options
    unless told otherwise, seated as the game before (or as ``seats`` gives them)."""
    ctx.require_host("start a rematch")
    require(state["status"] == "ended", "table/not_over", "a rematch starts once this game is over",
            "conflict")
    name = command.get("game", state["game"])
    game = games.get(name) if isinstance(name, str) else None
    require(game is not None, "table/unknown_game", f"game must be one of {', '.join(sorted(games))}")
    assert game is not None
    raw = command.get("options")
    if raw is None:
        raw = state["options"] if name == state["game"] else {}
    require(isinstance(raw, dict), "table/bad_options", "options must be an object")
    options = game.options(raw)
    seats = _seats(state, command.get("seats"))
    require(game.min_players <= len(seats) <= game.max_players, "table/player_count",
            f"{game.title} is for {game.min_players}–{game.max_players} players "
            f"({len(seats)} at the table)", "conflict")
    reset = event("RematchStarted", game=game.name, options=options, ts_ms=ctx.now_ms)
    fresh = evolved(state, [reset])  # the new game starts from its own initial state
    return [reset, event("GameStarted", seats=seats, ts_ms=ctx.now_ms),
            *game.start(fresh["game_state"], seats, ctx)]


def _seats(state: TableState, order: Any) -> list[str]:
    """The last game's seats less anyone the host removed, or the host's new order of them."""
    seated = [p for p in state["seats"] if not state["players"][p]["removed"]]
    if order is None:
        return seated
    require(isinstance(order, list) and sorted(map(str, order)) == sorted(seated),
            "table/bad_seats", "seats must list every player of the last game once")
    return [str(p) for p in order]


def evolve(state: TableState, e: Event, games: Mapping[str, Game]) -> None:
    """The table's game becomes a new one, in the lobby until its GameStarted follows."""
    state.update(game=e["game"], options=e["options"], status="lobby", started_ms=None,
                 ended_ms=None, result=None, game_state=games[e["game"]].initial(e["options"]),
                 timer=hourglass.new_glass(state["timer"]["duration_ms"]),
                 game_no=state.get("game_no", 1) + 1)
