"""Ratings and standings from the league's finished games, oldest first.

Each rated game updates its players by OpenSkill's Plackett–Luce model from the finishing
order (a tie shares a rank). A player's ``rating`` is the model's ordinal, mu − 3σ: the skill
the league is fairly sure of, so one lucky game against strangers does not top the table.
Standings are ordered by rating, then wins, then fewer games, then name in Hungarian
alphabetical order (table/collation.py). A bye counts as a game and a win but moves no rating:
nobody was beaten. A player without a name (their history was deleted) has no row, though
their games still moved their opponents' ratings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from openskill.models import PlackettLuce

from ..table.collation import collation_key
from .order import Result

# Games more than this far apart are on different evenings (a club night is a few hours).
EVENING_GAP_MS = 6 * 3600 * 1000
Row = dict[str, Any]


def _model() -> PlackettLuce:
    return PlackettLuce()


def standings(results: Iterable[Result], byes: Iterable[str],
              names: Mapping[str, str]) -> tuple[list[Row], list[Row]]:
    """(standings best first, the rating chart: one point per evening and rated player).
    ``results`` must be in the order the games ended; ``names`` gives every player's name."""
    model = _model()
    rated: dict[str, Any] = {}
    games, wins = Counter[str](), Counter[str]()
    evenings: list[Row] = []
    last_ms: int | None = None
    for r in results:
        if last_ms is None or r.ended_ms - last_ms > EVENING_GAP_MS:
            evenings.append({"evening": len(evenings) + 1, "from_ms": r.ended_ms, "ratings": {}})
        last_ms = r.ended_ms
        games.update(r.players)
        wins.update(r.winners)
        if r.order is not None and len(r.order) > 1:  # an all-tied game tells nothing
            teams = [[rated.setdefault(p, model.rating(name=p))] for group in r.order for p in group]
            ranks = [float(i) for i, group in enumerate(r.order) for _p in group]
            for [after] in model.rate(teams, ranks=ranks):
                rated[after.name] = after
        evenings[-1]["ratings"] = {p: _ordinal(rating) for p, rating in rated.items()}
    bye_counts = Counter(byes)
    games.update(bye_counts)
    wins.update(bye_counts)
    fresh = model.rating()
    rows = []
    for p in games:
        if not names[p]:
            continue  # a seat whose history was deleted: it still counted for its opponents
        r = rated.get(p, fresh)
        rows.append({"player": p, "name": names[p], "games": games[p], "wins": wins[p],
                     "byes": bye_counts[p], "rating": _ordinal(r),
                     "mu": round(r.mu, 3), "sigma": round(r.sigma, 3)})
    rows.sort(key=lambda row: (-row["rating"], -row["wins"], row["games"], collation_key(row["name"])))
    for i, row in enumerate(rows):
        row["rank"] = i + 1
    return rows, evenings


def _ordinal(rating: Any) -> float:
    return round(rating.ordinal(), 3)
