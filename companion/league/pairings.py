"""Swiss pairings for a round of one-on-one games.

The players present are placed by wins, then spread, then their standing (rating; newcomers
after everyone rated, in the organiser's order). Players of equal wins form a **score group**,
and a round pairs within groups, top against top in each (1–2, 3–4, …), as a club's Swiss does:
#43's first evening, paired by rating, sent three pairs across groups where one was needed.

Of all the ways to pair the round, the one chosen has, in this order of importance:

1. the fewest rematches (none when a pairing without one exists);
2. the least crossing of score groups: a pair costs the square of the number of groups between
   its players' (0 within a group, 1 for a floater meeting the next group down, 4 for two
   groups down), so a group of odd size, or one whose players have all met, floats its lowest
   player down to the next group's top, and a leader meets a player one win behind before
   one two wins behind (two floats of one group cost 2, one of two groups 4);
3. then the top remaining player meets the nearest player below who keeps the rest best.

It is found by a search from the top that drops a branch as soon as it cannot beat the best
pairing found so far: each score group left with an odd number needs a pair across, each player
costs at least the square of the distance to the nearest group holding someone they have not
met, and a player with nobody left to meet needs a rematch. It stops at ``SEARCH_LIMIT`` steps
with the best it has found, so a round of 50 takes under 200 ms (bench/league.py): in a
season's first rounds the best is proven in a few dozen steps; late in a long one, when most
have met and the groups are many, it is the best found in time (and should no pairing without
a rematch be found in time, one with the fewest found follows).

With an odd number present, the lowest-placed player who has not had a bye sits out with one
(it counts as a win); a bye goes to someone who already had one only when all have, and passes
up to the next-lowest when it would leave only pairings with a rematch.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

# Search steps for a round (a step tries one opponent, some 20-60 µs for 50 players): a bound
# on any round's time, and enough to prove the best pairing of most club nights.
SEARCH_LIMIT = 2500
Cost = tuple[int, int]  # (rematches, groups crossed squared)
NONE_FOUND: Cost = (1 << 30, 0)


@dataclass(frozen=True)
class Round:
    pairs: tuple[tuple[str, str], ...]
    bye: str | None


def pair(ranked: Sequence[str], met: Collection[frozenset[str]], byes: Mapping[str, int],
         wins: Mapping[str, float] | None = None, spread: Mapping[str, float] | None = None) -> Round:
    """The next round for ``ranked`` (present players, best standing first); ``met``: the
    pairs who played or were paired before; ``byes``: how many byes each player had;
    ``wins`` and ``spread``: each player's so far (missing: 0)."""
    wins, spread = wins or {}, spread or {}
    standing = {p: i for i, p in enumerate(dict.fromkeys(ranked))}
    players = sorted(standing, key=lambda p: (-wins.get(p, 0), -spread.get(p, 0), standing[p]))
    levels = sorted({wins.get(p, 0) for p in players}, reverse=True)
    group = {p: levels.index(wins.get(p, 0)) for p in players}
    candidates: list[str | None] = [None]
    if len(players) % 2:
        fewest = min(byes.get(p, 0) for p in players)
        candidates = [p for p in reversed(players) if byes.get(p, 0) == fewest]
    search = _Search(players, group, met)
    budget = [SEARCH_LIMIT]  # shared by every search of the round: its time is bounded
    for bye in candidates:
        found = search.run(bye, False, budget)
        if found is not None:
            return Round(tuple(found), bye)
    bye = candidates[0]
    budget[0] = max(budget[0], len(players))  # at least the first branch: with rematches, a pairing
    found = search.run(bye, True, budget)
    assert found is not None
    return Round(tuple(found), bye)


class _Search:
    """Branch and bound over pairings of ``players`` (in placing order) but the bye, each
    player a bit of an int: the sets of those left, met and in each group are masks."""

    def __init__(self, players: list[str], group: Mapping[str, int], met: Collection[frozenset[str]]) -> None:
        self.players = players
        n = len(players)
        self.group = [group[p] for p in players]
        self.unmet = [sum(1 << j for j in range(n)
                          if j != i and frozenset((players[i], players[j])) not in met) for i in range(n)]
        groups = max(self.group, default=0) + 1
        self.members = [sum(1 << i for i in range(n) if self.group[i] == g) for g in range(groups)]
        # near[i][d]: the players within d groups of i's
        self.near = [[sum(self.members[h] for h in range(max(0, g - d), min(groups, g + d + 1)))
                      for d in range(groups)] for g in self.group]

    def run(self, bye: str | None, rematches: bool, budget: list[int]) -> list[tuple[str, str]] | None:
        """The best pairing of all but ``bye`` found within ``budget``; None: none without a
        rematch (or none found in time), when ``rematches`` are not allowed."""
        self.rematches, self.budget = rematches, budget
        self.best: Cost = NONE_FOUND
        self.best_pairs: list[tuple[int, int]] | None = None
        ids = [i for i, p in enumerate(self.players) if p != bye]
        self._extend(sum(1 << i for i in ids), ids, (0, 0), [])
        if self.best_pairs is None:
            return None
        return [(self.players[i], self.players[j]) for i, j in self.best_pairs]

    def _bound(self, left: int, ids: list[int], cost: Cost) -> Cost | None:
        """The least any pairing of ``left`` (``ids``, as bits) can add to ``cost``; None: none
        can be made without a rematch, and rematches are not allowed."""
        stuck = apart = 0  # players with nobody left to meet; the squares of their nearest
        for i in ids:
            free = self.unmet[i] & left
            if not free:
                if not self.rematches:
                    return None
                stuck += 1
                continue
            near, d = self.near[i], 0
            while not free & near[d]:
                d += 1
            apart += d * d
        odd = [g for g, m in enumerate(self.members) if (m & left).bit_count() % 2]
        # Each pair across groups mends the parity of two, at best of neighbours (a pair g
        # groups apart costs g² ≥ g); each pair costs at least the mean of its two's nearest.
        crossed = sum(odd[k + 1] - odd[k] for k in range(0, len(odd), 2))
        return cost[0] + (stuck + 1) // 2, cost[1] + max(crossed, (apart + 1) // 2)

    def _extend(self, left: int, ids: list[int], cost: Cost, pairs: list[tuple[int, int]]) -> None:
        if not ids:
            if cost < self.best:
                self.best, self.best_pairs = cost, list(pairs)
            return
        bound = self._bound(left, ids, cost)
        if bound is None or bound >= self.best:
            return
        top, others = ids[0], ids[1:]
        fresh = self.unmet[top]
        # Nearest first; rematches only after every fresh opponent, and only if allowed.
        order = [j for j in others if fresh >> j & 1]
        if self.rematches:
            order += [j for j in others if not fresh >> j & 1]
        for j in order:
            self.budget[0] -= 1
            if self.budget[0] < 0:
                return
            gap = abs(self.group[top] - self.group[j])
            pairs.append((top, j))
            self._extend(left & ~(1 << top | 1 << j), [k for k in others if k != j],
                         (cost[0] + (not fresh >> j & 1), cost[1] + gap * gap), pairs)
            pairs.pop()
            if self.best <= bound:  # as good as can be: nothing further can beat it
                return
