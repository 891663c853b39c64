"""Whose turn it is: seats in order, a direction, and skips. Shared by every turn-based game."""

from __future__ import annotations

from typing import Any

from .errors import RuleViolation

Turn = dict[str, Any]


def new_turn(seats: list[str], first: int = 0, direction: int = 1) -> Turn:
    return {"order": list(seats), "index": first % len(seats), "direction": direction}


def current(turn: Turn) -> str:
    return turn["order"][turn["index"]]


def advance(turn: Turn, steps: int = 1) -> None:
    turn["index"] = (turn["index"] + steps * turn["direction"]) % len(turn["order"])


def reverse(turn: Turn) -> None:
    turn["direction"] = -turn["direction"]


def drop(turn: Turn, player: str) -> None:
    """Remove a seat; the turn stays with whoever was to play (or passes on if it was them)."""
    order = turn["order"]
    if player not in order or len(order) == 1:
        return
    i = order.index(player)
    was_current = i == turn["index"]
    order.pop(i)
    if i < turn["index"] or (was_current and turn["direction"] < 0):
        turn["index"] -= 1
    turn["index"] %= len(order)


def require_turn(turn: Turn, actor: str | None) -> str:
    who = current(turn)
    if actor != who:
        raise RuleViolation("table/not_your_turn", "it is not your turn", "conflict")
    return who
