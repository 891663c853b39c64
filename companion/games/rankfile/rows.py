"""The rows on the table and what public information says about their hidden cards.

The app never knows a hidden card. What it knows: each row is in ascending order, no number
exists more than four times, which numbers were wrongly guessed where, and (with the Joker
expansion) that one row holds a joker somewhere. :func:`possible_values` turns that into the
exact set of numbers each hidden position can still be, which both the consistency checks and
the public helper use.
"""

from __future__ import annotations

from functools import cache
from typing import Any

COPIES = 4
JOKER = "J"
# "wrong": numbers wrongly guessed there; "ruled_out": numbers it cannot be because its owner
# said, after a right guess, that none of their face-down cards shows that number.
Slot = dict[str, Any]  # {"value": int | "J" | None, "wrong": [int], "ruled_out": [int]}


def new_row(length: int) -> list[Slot]:
    return [new_slot() for _ in range(length)]


def new_slot() -> Slot:
    return {"value": None, "wrong": [], "ruled_out": []}


def excluded(slot: Slot) -> frozenset[int]:
    """The numbers public information says a face-down card is not."""
    return frozenset(slot["wrong"]) | frozenset(slot.get("ruled_out", ()))


def revealed_counts(rows: dict[str, list[Slot]]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for row in rows.values():
        for s in row:
            if isinstance(s["value"], int):
                counts[s["value"]] = counts.get(s["value"], 0) + 1
    return counts


def possible_values(row: list[Slot], numbers: range, counts: dict[int, int],
                    joker_hidden: bool = False) -> list[list[int | str]]:
    """For every position, the values it can still be (empty for revealed positions).

    A hidden position can be ``n`` when some completion of the whole row with ``n`` there is
    ascending, uses no number more often than the copies not yet revealed elsewhere, avoids the
    numbers public information excludes at each position (:func:`excluded`), and places the
    row's joker (if it still hides one) on exactly one hidden position. When no completion
    exists at all, every position is empty."""
    values = tuple(s["value"] for s in row)
    wrong = tuple(excluded(s) for s in row)
    avail = tuple(COPIES - counts.get(n, 0) for n in numbers)
    lo = numbers.start

    @cache
    def completes(i: int, last: int, run: int, joker_left: bool) -> bool:
        """Positions i.. can be filled after value ``last`` used ``run`` times hidden."""
        if i == len(values):
            return not joker_left
        v = values[i]
        if v == JOKER:
            return completes(i + 1, last, run, joker_left)
        if isinstance(v, int):
            return v >= last and completes(i + 1, v, run if v == last else 0, joker_left)
        return any(completes(*nxt) for nxt in steps(i, last, run, joker_left))

    def steps(i: int, last: int, run: int, joker_left: bool) -> list[tuple[int, int, int, bool]]:
        out = []
        if joker_left:
            out.append((i + 1, last, run, False))
        for n in numbers:
            if n < last or n in wrong[i]:
                continue
            used = run + 1 if n == last else 1
            if used <= avail[n - lo]:
                out.append((i + 1, n, used, joker_left))
        return out

    result: list[set[int | str]] = [set() for _ in values]
    frontier = {(0, lo, 0, joker_hidden)}
    for i in range(len(values)):
        nxt_frontier: set[tuple[int, int, int, bool]] = set()
        for state in frontier:
            _, last, run, joker_left = state
            v = values[i]
            if v == JOKER:
                nxt_frontier.add((i + 1, last, run, joker_left))
            elif isinstance(v, int):
                if v >= last:
                    nxt_frontier.add((i + 1, v, run if v == last else 0, joker_left))
            else:
                for step in steps(i, last, run, joker_left):
                    if completes(*step):
                        result[i].add(JOKER if step[3] != joker_left else step[1])
                        nxt_frontier.add(step)
        frontier = nxt_frontier
    return [sorted(r, key=lambda x: (isinstance(x, str), x)) for r in result]  # type: ignore[arg-type]
