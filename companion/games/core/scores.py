"""A score sheet: one line per scoring entry, kept apart by kind, totalled per player.

Games write what happened (a turn's points, a bonus, an end-of-game deduction) and read
totals; the history of lines is also what the table's score chart is drawn from.
"""

from __future__ import annotations

from typing import Any

Sheet = dict[str, Any]


def new_sheet(players: list[str]) -> Sheet:
    return {"lines": [], "players": list(players)}


def add(sheet: Sheet, player: str, points: int, kind: str, ref: Any = None, **info: Any) -> None:
    sheet["lines"].append({"player": player, "points": points, "kind": kind, "ref": ref, **info})


def void(sheet: Sheet, kind: str, ref: Any) -> None:
    """Zero the lines of one entry (a turn that was challenged away); the line stays, so the
    sheet still shows what was claimed."""
    for line in sheet["lines"]:
        if line["kind"] == kind and line["ref"] == ref:
            line["voided"] = line.get("voided", line["points"])
            line["points"] = 0


def restore(sheet: Sheet, kind: str, ref: Any) -> None:
    for line in sheet["lines"]:
        if line["kind"] == kind and line["ref"] == ref and "voided" in line:
            line["points"] = line.pop("voided")


def set_points(sheet: Sheet, kind: str, ref: Any, points: int) -> None:
    """Give one entry its points again (a turn reinstated after being refused)."""
    for line in sheet["lines"]:
        if line["kind"] == kind and line["ref"] == ref:
            line.pop("voided", None)
            line["points"] = points


def totals(sheet: Sheet, kinds: tuple[str, ...] | None = None) -> dict[str, int]:
    out = {p: 0 for p in sheet["players"]}
    for line in sheet["lines"]:
        if kinds is None or line["kind"] in kinds:
            out[line["player"]] += line["points"]
    return out


def leaders(scores: dict[str, int]) -> list[str]:
    if not scores:
        return []
    best = max(scores.values())
    return [p for p, s in scores.items() if s == best]


def winners(scores: dict[str, int]) -> list[str]:
    """The top scores, once anyone has scored: a game ended before anyone scored (the host's
    "End game" at 0 : 0) has no winner, where the top score shared by all made everyone one."""
    return leaders(scores) if any(scores.values()) else []
