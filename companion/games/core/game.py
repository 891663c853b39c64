"""The shape every game has, and a base class that routes commands and events by name.

Like boardgame.io's game objects: a game is data plus move functions. The table layer owns
seating, the log, undo and transport; a game only says which commands it takes, what events
they produce, how those fold into its state, and what each viewer may see of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from . import turns
from .context import Context
from .errors import RuleViolation
from .events import Event

State = dict[str, Any]
Decider = Callable[[State, dict[str, Any], Context], list[Event]]
Folder = Callable[[State, Event], None]


class Game:
    """Subclasses fill ``commands`` (verb -> decide function) and ``folds`` (event type ->
    fold function). Folds mutate the state they are given: the table layer folds into a
    private copy and only publishes it once the events are safely stored."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 10

    def __init__(self) -> None:
        self.commands: dict[str, Decider] = {}
        self.folds: dict[str, Folder] = {}

    def options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Validated table options with defaults filled in; override to accept any."""
        if raw:
            raise RuleViolation("table/bad_options", f"{self.title} takes no options")
        return {}

    def initial(self, options: dict[str, Any]) -> State:
        return {"options": options, "started": False, "over": False}

    def start(self, state: State, seats: list[str], ctx: Context) -> list[Event]:
        raise NotImplementedError

    def decide(self, state: State, command: dict[str, Any], ctx: Context) -> list[Event]:
        verb = command["type"].split(".", 1)[1]
        handler = self.commands.get(verb)
        if handler is None:
            raise RuleViolation(
                "table/unknown_command", f"{self.title} has no command '{command['type']}'"
            )
        if not state.get("started") and verb not in self.pre_start_commands():
            raise RuleViolation("table/not_started", "the game has not started yet", "conflict")
        if state.get("over"):
            raise RuleViolation("table/game_over", "the game is over", "conflict")
        return handler(state, command, ctx)

    def pre_start_commands(self) -> frozenset[str]:
        """Commands a player may send in the lobby (e.g. entering a private card)."""
        return frozenset()

    def evolve(self, state: State, e: Event) -> None:
        fold = self.folds.get(e["type"])
        if fold is None:
            raise KeyError(f"{self.name} cannot fold {e['type']}")
        fold(state, e)

    def decided(self, state: State) -> bool:
        """Whether play is over, so the shared hourglass is put away: at the end, or earlier
        where a game has a phase after the last turn (BLANKO's final tally)."""
        return bool(state.get("over"))

    def turn_of(self, state: State) -> str | None:
        """Whose turn it is (None: nobody's), for the table's rules to see a turn pass."""
        return turns.current(state["turn"]) if state.get("turn") else None

    def player_removed(self, state: State, player: str) -> None:
        """The host removed a player mid-game: by default their seat leaves the turn order."""
        if "turn" in state:
            turns.drop(state["turn"], player)

    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def first_player(self, state: State) -> str | None:
        """Who began, when the game chose it (a starting draw); None: the first seat began."""
        return None

    def result(self, state: State) -> dict[str, Any]:
        """Scores so far and, once ``state['over']``, the winners: ``{"scores": {pid: int},
        "winners": [pid], "outcome": str, ...}``: an outcome code and figures, never words (the
        pages word them from the catalogue). Used for the table's history of finished games."""
        return {"scores": {}, "winners": [], "outcome": "unfinished"}
