"""Ratings and standings from the league's games that count, oldest first.

Each rated game updates its players by OpenSkill's Plackett–Luce model from the finishing
order (a tie shares a rank, and a game everyone tied is rated too: a tie). A player's
``rating`` is the model's ordinal, mu − 3σ: the skill the league is fairly sure of, so one
lucky game against strangers does not top the table. A first place shared by k players is
1/k of a win each, as Scrabble clubs count a tie (Rank & File's team win is a whole win for
each: they did not share a place, they won together). The ``spread`` is the points a player
scored minus those scored against them in BLANKO's one-on-one games, the tie-break of every
Scrabble club. Standings are ordered by rating, then wins, then spread, then fewer games, then
name in Hungarian alphabetical order (table/collation.py). A bye counts as a game and a win but
moves no rating: nobody was beaten. A player without a name (their history was deleted) has no
row, though their games still moved their opponents' ratings.

The rating chart has a point per evening, each player's rating at its end; while the league has
had only one evening, a point per game instead, so a club sees its first night's lines (with a
point per evening, a line needs two evenings: the chart used to appear only from the second).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

from ..table.collation import collation_key
from .order import POINTS, Result

# Games more than this far apart are on different evenings (a club night is a few hours).
EVENING_GAP_MS = 6 * 3600 * 1000
# A fold is kept every this many games (Folds): a ruling or a merge re-rates from the one before.
CHECKPOINT = 250
Row = dict[str, Any]
MODEL = PlackettLuce()
FRESH = MODEL.rating()


class Fold:
    """The ratings, counts and chart after a league's games so far, oldest first, carried on
    game by game: rating a game is most of a league's cost (some 0.3 ms each, a season of
    2,000 games 0.6 s), so a league read again goes on from an earlier fold (``Folds``)."""

    def __init__(self) -> None:
        self.results: list[Result] = []
        self.rated: dict[str, Any] = {}
        self.games, self.wins, self.spread = Counter[str](), Counter[str](), Counter[str]()
        self.evenings: list[Row] = []  # the last one's ratings are filled in when it closes
        self.first_evening: list[Row] = []  # a point after each game, while there has been one evening
        self.last_ms: int | None = None

    def copy(self) -> Fold:
        out = Fold()
        out.results, out.rated = list(self.results), dict(self.rated)
        out.games, out.wins, out.spread = self.games.copy(), self.wins.copy(), self.spread.copy()
        out.evenings = [*self.evenings[:-1], *({**e} for e in self.evenings[-1:])]
        out.first_evening = list(self.first_evening)
        out.last_ms = self.last_ms
        return out

    def add(self, r: Result) -> None:
        if self.last_ms is None or r.ended_ms - self.last_ms > EVENING_GAP_MS:
            self._close_evening()
            self.evenings.append({"evening": len(self.evenings) + 1, "from_ms": r.ended_ms, "ratings": {}})
        self.last_ms = r.ended_ms
        self.results.append(r)
        self.games.update(r.players)
        share = Fraction(1, len(r.winners)) if r.order is not None else Fraction(1)
        for p in r.winners:
            self.wins[p] += share
        if r.game in POINTS and len(r.players) == 2:
            a, b = r.players
            self.spread[a] += r.scores.get(a, 0) - r.scores.get(b, 0)
            self.spread[b] += r.scores.get(b, 0) - r.scores.get(a, 0)
        if r.order is not None and len(r.players) > 1:
            teams = [[self.rated[p] if p in self.rated else MODEL.rating(name=p)]
                     for group in r.order for p in group]
            ranks = [float(i) for i, group in enumerate(r.order) for _p in group]
            for [after] in MODEL.rate(teams, ranks=ranks):
                self.rated[after.name] = after
        if len(self.evenings) == 1:
            self.first_evening.append({"evening": 1, "from_ms": r.ended_ms, "ratings": self._ratings()})

    def _ratings(self) -> dict[str, float]:
        return {p: _ordinal(self.rated.get(p, FRESH)) for p in self.games}

    def _close_evening(self) -> None:
        if self.evenings:
            self.evenings[-1]["ratings"] = self._ratings()

    def chart(self) -> list[Row]:
        """Each evening's ratings at its end, the evening still on as they stand; while there
        has been one evening, the ratings after each of its games (a line of one point per
        evening needed a second evening to be drawn)."""
        if len(self.evenings) == 1:
            return self.first_evening
        return [*self.evenings[:-1], *({**e, "ratings": self._ratings()} for e in self.evenings[-1:])]


class Folds:
    """Folds along one league's games: one every ``CHECKPOINT`` games and the latest. A league
    read again is rated from the latest fold whose games it still begins with: the games added
    since, or, after a ruling on a game or a merge (which changes the games from there on),
    from the checkpoint before it. Not thread-safe: its keeper locks it."""

    def __init__(self) -> None:
        self._folds = [Fold()]

    def of(self, results: Sequence[Result]) -> Fold:
        latest = self._folds[-1].results
        same = next((i for i, (a, b) in enumerate(zip(latest, results, strict=False)) if a != b),
                    min(len(latest), len(results)))
        kept = [f for f in self._folds if len(f.results) <= same]
        fold = kept[-1].copy()
        for r in results[len(fold.results):]:
            fold.add(r)
            if len(fold.results) % CHECKPOINT == 0:
                kept.append(fold.copy())
        self._folds = kept if len(kept[-1].results) == len(fold.results) else [*kept, fold]
        return self._folds[-1]


def standings(results: Iterable[Result], byes: Iterable[str],
              names: Mapping[str, str]) -> tuple[list[Row], list[Row]]:
    """(standings best first, the rating chart: every player's rating at the end of each
    evening, or after each game while there has been one evening, from their first game on).
    ``results`` must be in the order the games ended; ``names`` gives every player's name."""
    fold = Fold()
    for r in results:
        fold.add(r)
    return standings_of(fold, byes, names)


def standings_of(fold: Fold, byes: Iterable[str], names: Mapping[str, str]) -> tuple[list[Row], list[Row]]:
    """``standings`` from a fold of the games (which it leaves as it is) and the byes."""
    bye_counts = Counter(byes)
    games, wins = fold.games + bye_counts, fold.wins + bye_counts
    rows = []
    for p in games:
        if not names[p]:
            continue  # a seat whose history was deleted: it still counted for its opponents
        r = fold.rated.get(p, FRESH)
        rows.append({"player": p, "name": names[p], "games": games[p], "wins": _number(wins[p]),
                     "spread": fold.spread[p], "byes": bye_counts[p], "rating": _ordinal(r),
                     "mu": round(r.mu, 3), "sigma": round(r.sigma, 3)})
    rows.sort(key=lambda row: (-row["rating"], -row["wins"], -row["spread"], row["games"],
                               collation_key(row["name"])))
    for i, row in enumerate(rows):
        row["rank"] = i + 1
    return rows, fold.chart()


def _number(n: Fraction | int) -> int | float:
    """A count of wins as the standings show it: whole, or a share of a tie (0.5, 1.333)."""
    n = Fraction(n)
    return n.numerator if n.denominator == 1 else round(float(n), 3)


def _ordinal(rating: Any) -> float:
    return round(rating.ordinal(), 3)
