"""A BLANK game plays the deck as its owner's copy is now: a rematch with the prize just won,
and a new table's first game with the effects entered after the table was made.

The rulebook: "when setting up your next game, instead of drawing three Rule Cards, draw two
and add your brand new creation". The winner's creation is written into the deck store after
its approval is committed (DeckStore.after_commit), so the rematch takes a fresh snapshot of
the deck, exactly as a new table would, and the rules then feature its newest creation.
"""

from __future__ import annotations

from typing import Any

from ..clock import Clock
from ..errors import ApiError
from ..table.rules import TableState
from ..table.service import Prepare
from ..table.views import Viewer
from .store import DeckStore


def fresh_blank_deck(decks: DeckStore, clock: Clock) -> Prepare:
    def fill_in(state: TableState, command: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        if command.get("type") == "table.start_game":
            return _started_with_current_deck(decks, state, command, viewer)
        # Only a rematch the rules will take: anything else is left for them to refuse, so a
        # refused command never uses up the deck's featured creation.
        if (command.get("type") != "table.rematch" or not viewer.is_host
                or state.get("status") != "ended" or command.get("game", state["game"]) != "blank"):
            return command
        raw = command.get("options")
        if raw is None:  # the same decks and table options (who turns the Rule Cards, ...)
            kept = ("deck_id", "deck_ids", "rule_cards", "multi_play") if state["game"] == "blank" else ()
            raw = {k: state["options"][k] for k in kept if k in state["options"]}
        if not isinstance(raw, dict):
            return command
        deck = decks.snapshot_for_table(raw.get("deck_ids") or raw.get("deck_id"), clock.now_ms())
        return {**command, "options": {**{k: v for k, v in raw.items() if k != "deck"}, "deck": deck}}

    return fill_in


def _started_with_current_deck(decks: DeckStore, state: TableState, command: dict[str, Any],
                               viewer: Viewer) -> dict[str, Any]:
    """A group makes the table, then enters the effects of its cards on the deck: until the game
    starts, the table plays the deck as it is now (the featured creation stays the table's). A
    deck that can no longer be read is played as the table took it."""
    if not viewer.is_host or state.get("status") != "lobby" or state.get("game") != "blank":
        return command
    options = state["options"]
    try:
        deck = decks.current_for_table(options["deck"], options.get("deck_ids") or options.get("deck_id"))
    except ApiError:
        deck = options["deck"]
    return {**command, "options": {**options, "deck": deck}}
