"""Swiss pairings for a round of one-on-one games.

The players present are taken in standings order (best first). Similar standings meet: each
unpaired player, from the top, meets the next one below who has not played them yet. If
that leaves someone with no possible opponent, the search backs up and tries the next one.
Only when no pairing at all avoids a rematch are rematches allowed: then each, from the top,
meets the nearest player below they have not played, or else the nearest.
With an odd number present, the lowest-placed player who has not had a bye sits out with one
(it counts as a win); a bye goes to someone who already had one only when all have.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

# Backtracking steps before giving up on avoiding every rematch (a club is a few dozen people).
SEARCH_LIMIT = 200_000


@dataclass(frozen=True)
class Round:
    pairs: tuple[tuple[str, str], ...]
    bye: str | None


def pair(ranked: Sequence[str], met: Collection[frozenset[str]], byes: Mapping[str, int]) -> Round:
    """The next round for ``ranked`` (present players, best first); ``met``: the pairs who
    played or were paired before; ``byes``: how many byes each player had."""
    players = list(dict.fromkeys(ranked))
    candidates: list[str | None] = [None]
    if len(players) % 2:
        fewest = min(byes.get(p, 0) for p in players)
        candidates = [p for p in reversed(players) if byes.get(p, 0) == fewest]
    for bye in candidates:
        rest = [p for p in players if p != bye]
        found = _search(rest, met, [SEARCH_LIMIT])
        if found is not None:
            return Round(tuple(found), bye)
    bye = candidates[0]
    return Round(tuple(_fewest_rematches([p for p in players if p != bye], met)), bye)


def _fewest_rematches(rest: list[str], met: Collection[frozenset[str]]) -> list[tuple[str, str]]:
    """When every pairing has a rematch: from the top, each meets the nearest player below
    they have not played, or else the nearest (no search: it is already a second best)."""
    pairs = []
    while rest:
        top, others = rest[0], rest[1:]
        opponent = next((o for o in others if frozenset((top, o)) not in met), others[0])
        pairs.append((top, opponent))
        rest = [p for p in others if p != opponent]
    return pairs


def _search(rest: list[str], met: Collection[frozenset[str]],
            budget: list[int]) -> list[tuple[str, str]] | None:
    """Pairs for ``rest`` with no rematch, the top player meeting the nearest possible."""
    if not rest:
        return []
    top, others = rest[0], rest[1:]
    for i, opponent in enumerate(others):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((top, opponent)) in met:
            continue
        tail = _search(others[:i] + others[i + 1:], met, budget)
        if tail is not None:
            return [(top, opponent), *tail]
    return None
