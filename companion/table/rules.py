"""The table's own rules: joining, seating, locking, starting and ending, undo, and the
hourglass, with every other command handed to the table's game. Pure, like the games."""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any

from ..games.core import hourglass
from ..games.core.context import Context
from ..games.core.errors import RuleViolation, require
from ..games.core.events import Event, event
from ..games.core.game import Game
from . import rematch
from .log import Record, effective, last_undoable_batch
from .names import shown, skeleton

MAX_NAME = 24
MAX_PLAYERS = 10
TableState = dict[str, Any]


def created(code: str, game: str, options: dict[str, Any], now_ms: int) -> Event:
    return event("TableCreated", code=code, game=game, options=options, ts_ms=now_ms)


def clean_name(raw: Any) -> str:
    """A player's name as shown to everyone: trimmed, single-spaced, printable, bounded."""
    if not isinstance(raw, str):
        raise RuleViolation("table/bad_name", "the name must be text")
    name = shown(raw)
    require(name, "table/bad_name", "type a name")
    require(len(name) <= MAX_NAME, "table/bad_name", f"a name has at most {MAX_NAME} characters")
    return name


class TableRules:
    """Decides and folds table-level events, delegating the rest to ``games[state['game']]``."""

    def __init__(self, games: Mapping[str, Game]) -> None:
        self.games = games

    # -- folding -------------------------------------------------------------------------
    def fold(self, records: list[Record]) -> TableState:
        state: TableState = {}
        for r in effective(records):
            self.evolve(state, r.event)
        return state

    def evolve(self, state: TableState, e: Event) -> None:
        t = e["type"]
        if t == "TableCreated":
            game = self.games[e["game"]]
            state.update(code=e["code"], game=e["game"], options=e["options"], status="lobby",
                         locked=False, players={}, seats=[], created_ms=e["ts_ms"],
                         started_ms=None, ended_ms=None, result=None,
                         timer=hourglass.new_glass(), game_state=game.initial(e["options"]))
        elif t == "PlayerJoined":
            state["players"][e["player_id"]] = {"id": e["player_id"], "name": e["name"],
                                                "removed": False}
        elif t == "PlayerRemoved":
            state["players"][e["player_id"]]["removed"] = True
            if state["status"] == "playing":
                self.games[state["game"]].player_removed(state["game_state"], e["player_id"])
        elif t == "TableLocked":
            state["locked"] = True
        elif t == "TableUnlocked":
            state["locked"] = False
        elif t == "OptionsRefreshed":  # before the game starts: its game is set up anew
            state.update(options=e["options"], game_state=self.games[state["game"]].initial(e["options"]))
        elif t == "GameStarted":
            state.update(status="playing", seats=e["seats"], started_ms=e["ts_ms"])
        elif t == "GameEnded":
            state.update(status="ended", ended_ms=e["ts_ms"], result=e["result"])
        elif t == "RematchStarted":
            rematch.evolve(state, e, self.games)
        elif t in hourglass.EVENT_TYPES:
            hourglass.evolve(state["timer"], e)
        else:
            self.games[state["game"]].evolve(state["game_state"], e)

    # -- deciding ------------------------------------------------------------------------
    def join(self, state: TableState, player_id: str, raw_name: Any, now_ms: int,
             person: str | None = None) -> Event:
        """``person``: the player identity the phone's browser keeps (hashed), which only the
        player's own views carry; the record recognises the player across tables by it."""
        name = clean_name(raw_name)
        require(not state["locked"], "table/locked", "the table is locked: ask the host", "conflict")
        require(state["status"] != "ended", "table/ended", "this game has ended", "conflict")
        active = [p for p in state["players"].values() if not p["removed"]]
        require(len(active) < MAX_PLAYERS, "table/full", "the table is full", "conflict")
        require(all(skeleton(p["name"]) != skeleton(name) for p in active),
                "table/name_taken", f"someone at this table is already called {name}", "conflict")
        return event("PlayerJoined", player_id=player_id, name=name, ts_ms=now_ms,
                     secrets={player_id: {"person": person}} if person else None)

    def decide(self, state: TableState, records: list[Record], command: dict[str, Any],
               ctx: Context) -> tuple[list[Event], TableState | None]:
        """Events for ``command`` and the state they lead to, folded onto a copy (``state``
        stays as it is until they are stored), with the end of the game added when it comes,
        the hourglass set back when the turn passes after its sand ran out (time was up for the
        turn that ended), and put away once the game is decided (every phone's sand stops).
        An undo's next state is None: it is folded anew from the log without the undone."""
        events = self._decide(state, records, command, ctx)
        if command["type"] == "undo":
            return events, None
        after = self.evolved(state, events)
        if state["status"] == "playing" and after["status"] == "playing" and after["game_state"].get("over"):
            game = self.games[state["game"]]
            ended = event("GameEnded", ts_ms=ctx.now_ms, result=game.result(after["game_state"]), by="rules")
            events.append(ended)
            self.evolve(after, ended)
        game = self.games[after["game"]]
        playing = after["status"] == "playing"
        if after["status"] == "ended" or (playing and game.decided(after["game_state"])):
            glass = hourglass.stop(after["timer"], ctx.now_ms)
        elif (playing and state["status"] == "playing" and state["game"] == after["game"]
                and game.turn_of(state["game_state"]) != game.turn_of(after["game_state"])):
            glass = hourglass.turn_passed(after["timer"], ctx.now_ms)
        else:
            glass = []
        for e in glass:
            events.append(e)
            self.evolve(after, e)
        return events, after

    def evolved(self, state: TableState, events: list[Event]) -> TableState:
        """A copy of ``state`` with ``events`` folded in. States are plain data, for which a
        pickle round trip copies several times faster than ``copy.deepcopy``."""
        after: TableState = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        for e in events:
            self.evolve(after, e)
        return after

    def _decide(self, state: TableState, records: list[Record], command: dict[str, Any],
                ctx: Context) -> list[Event]:
        kind = command.get("type")
        if not isinstance(kind, str) or not kind:
            raise RuleViolation("table/missing_field", "a command needs a 'type'")
        game = self.games[state["game"]]
        if kind == "undo":
            return [self._undo(records, ctx)]
        if kind.startswith("timer."):
            return hourglass.decide(state["timer"], command, ctx)
        if kind.startswith("table."):
            return self._table_command(state, kind.removeprefix("table."), command, ctx, game)
        if kind.startswith(game.name + "."):
            if state["status"] == "ended":
                raise RuleViolation("table/ended", "this game has ended", "conflict")
            return game.decide(state["game_state"], command, ctx)
        raise RuleViolation("table/unknown_command", f"unknown command '{kind}'")

    def _undo(self, records: list[Record], ctx: Context) -> Event:
        target = last_undoable_batch(records)
        require(target is not None, "table/nothing_to_undo", "there is nothing to undo", "conflict")
        batch, actor = target  # type: ignore[misc]
        if not ctx.is_host and actor != ctx.actor:
            raise RuleViolation("table/undo_not_yours",
                                "only the host can undo someone else's move", "forbidden")
        return event("CommandUndone", batch=batch, by=actor if not ctx.is_host else "host")

    def _table_command(self, state: TableState, verb: str, command: dict[str, Any],
                       ctx: Context, game: Game) -> list[Event]:
        if verb == "lock":
            ctx.require_host("lock the table")
            return [event("TableLocked")]
        if verb == "unlock":
            ctx.require_host("unlock the table")
            return [event("TableUnlocked")]
        if verb == "remove_player":
            ctx.require_host("remove a player")
            pid = command.get("player_id")
            player = state["players"].get(pid) if isinstance(pid, str) else None
            require(player and not player["removed"], "table/unknown_player", "no such player")
            return [event("PlayerRemoved", player_id=pid)]
        if verb == "start_game":
            ctx.require_host("start the game")
            require(state["status"] == "lobby", "table/already_started", "the game has started",
                    "conflict")
            seats = self._seats(state, command)
            require(game.min_players <= len(seats) <= game.max_players, "table/player_count",
                    f"{game.title} is for {game.min_players}–{game.max_players} players "
                    f"({len(seats)} joined)", "conflict")
            # ``options``: the table's options as they are now (a BLANK deck its owner has
            # entered effects on since), filled in by the service (TableService.prepare)
            raw = command.get("options", state["options"])
            require(isinstance(raw, dict), "table/bad_options", "options must be an object")
            fresh = [] if raw == state["options"] else [event("OptionsRefreshed", options=game.options(raw))]
            game_state = self.evolved(state, fresh)["game_state"] if fresh else state["game_state"]
            return [*fresh, event("GameStarted", seats=seats, ts_ms=ctx.now_ms),
                    *game.start(game_state, seats, ctx)]
        if verb == "rematch":
            return rematch.decide(state, command, ctx, self.games, self.evolved)
        if verb in ("end_game", "close"):
            ctx.require_host("end the game")
            require(state["status"] != "ended", "table/ended", "the game has already ended",
                    "conflict")
            # close: a table nobody came to, ended by a league's organiser, never a game on.
            require(verb == "end_game" or state["status"] == "lobby", "table/already_started",
                    "the game has started", "conflict")
            return [event("GameEnded", ts_ms=ctx.now_ms, result=game.result(state["game_state"]),
                          by="host")]
        raise RuleViolation("table/unknown_command", f"unknown command 'table.{verb}'")

    @staticmethod
    def _seats(state: TableState, command: dict[str, Any]) -> list[str]:
        """The seating order: as the host gave it, or the order of joining."""
        active = [pid for pid, p in state["players"].items() if not p["removed"]]
        order = command.get("seats")
        if order is None:
            return active
        require(isinstance(order, list) and sorted(map(str, order)) == sorted(active),
                "table/bad_seats", "seats must list every player at the table once")
        return [str(p) for p in order]
