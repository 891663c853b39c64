"""A BLANK rematch plays the deck as its owner's copy is now: with the prize just won.

The rulebook: "when setting up your next game, instead of drawing three Rule Cards, draw two
and add your brand new creation". The winner's creation is written into the deck store after
its approval is committed (DeckStore.after_commit), so the rematch takes a fresh snapshot of
the deck, exactly as a new table would, and the rules then feature its newest creation.
"""

from __future__ import annotations

from typing import Any

from .clock import Clock
from .decks import DeckStore
from .table.rules import TableState
from .table.service import Prepare
from .table.views import Viewer


def fresh_blank_deck(decks: DeckStore, clock: Clock) -> Prepare:
    def fill_in(state: TableState, command: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
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
