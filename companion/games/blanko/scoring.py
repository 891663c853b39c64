"""Points of laid words: every letter of every formed word counts, jokers count 0."""

from __future__ import annotations

from .notation import Tile


def word_points(tiles: list[Tile], values: dict[str, int]) -> int:
    return sum(0 if t.joker else values[t.letter] for t in tiles)


def rack_deduction(tiles: list[Tile], values: dict[str, int], joker_penalty: int) -> int:
    """What the letters left on a rack cost at the end: their values, and a joker costs
    ``joker_penalty`` (10 in the rulebook)."""
    return sum(joker_penalty if t.joker else values[t.letter] for t in tiles)


def previous_turn_points(turns: list[dict], player: str, before: int) -> int:
    """The luck card "write down as many points as you had in the previous round": the points
    ``player``'s last turn before turn ``before`` scored with words. An exchange or a pass
    scored none (an exchange's cost is a deduction, not points had), nor did a refused lay."""
    for t in reversed(turns[:before]):
        if t["player"] == player:
            return t["points"] if t["kind"] == "lay" and t.get("status") != "rejected" else 0
    return 0
