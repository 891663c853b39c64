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
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

from ..table.collation import collation_key
from .order import POINTS, Result

# Games more than this far apart are on different evenings (a club night is a few hours).
EVENING_GAP_MS = 6 * 3600 * 1000
Row = dict[str, Any]


def _model() -> PlackettLuce:
    return PlackettLuce()


def standings(results: Iterable[Result], byes: Iterable[str],
              names: Mapping[str, str]) -> tuple[list[Row], list[Row]]:
    """(standings best first, the rating chart: every player's rating at the end of each
    evening, or after each game while there has been one evening, from their first game on).
    ``results`` must be in the order the games ended; ``names`` gives every player's name."""
    model = _model()
    fresh = model.rating()
    rated: dict[str, Any] = {}
    games, wins, spread = Counter[str](), Counter[str](), Counter[str]()
    evenings: list[Row] = []
    first_evening: list[Row] = []  # after each game, while there has been one evening
    last_ms: int | None = None
    for r in results:
        if last_ms is None or r.ended_ms - last_ms > EVENING_GAP_MS:
            evenings.append({"evening": len(evenings) + 1, "from_ms": r.ended_ms, "ratings": {}})
        last_ms = r.ended_ms
        games.update(r.players)
        share = Fraction(1, len(r.winners)) if r.order is not None else Fraction(1)
        for p in r.winners:
            wins[p] += share
        if r.game in POINTS and len(r.players) == 2:
            a, b = r.players
            spread[a] += r.scores.get(a, 0) - r.scores.get(b, 0)
            spread[b] += r.scores.get(b, 0) - r.scores.get(a, 0)
        if r.order is not None and len(r.players) > 1:
            teams = [[rated.setdefault(p, model.rating(name=p))] for group in r.order for p in group]
            ranks = [float(i) for i, group in enumerate(r.order) for _p in group]
            for [after] in model.rate(teams, ranks=ranks):
                rated[after.name] = after
        evenings[-1]["ratings"] = {p: _ordinal(rated.get(p, fresh)) for p in games}
        if len(evenings) == 1:
            first_evening.append({**evenings[0], "from_ms": r.ended_ms})
    bye_counts = Counter(byes)
    games.update(bye_counts)
    wins.update(bye_counts)
    rows = []
    for p in games:
        if not names[p]:
            continue  # a seat whose history was deleted: it still counted for its opponents
        r = rated.get(p, fresh)
        rows.append({"player": p, "name": names[p], "games": games[p], "wins": _number(wins[p]),
                     "spread": spread[p], "byes": bye_counts[p], "rating": _ordinal(r),
                     "mu": round(r.mu, 3), "sigma": round(r.sigma, 3)})
    rows.sort(key=lambda row: (-row["rating"], -row["wins"], -row["spread"], row["games"],
                               collation_key(row["name"])))
    for i, row in enumerate(rows):
        row["rank"] = i + 1
    return rows, (first_evening if len(evenings) == 1 else evenings)


def _number(n: Fraction | int) -> int | float:
    """A count of wins as the standings show it: whole, or a share of a tie (0.5, 1.333)."""
    n = Fraction(n)
    return n.numerator if n.denominator == 1 else round(float(n), 3)


def _ordinal(rating: Any) -> float:
    return round(rating.ordinal(), 3)
