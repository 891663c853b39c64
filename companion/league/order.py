"""A finished game of a league table as a finishing order, read from the table's record.

BLANKO ranks by score. BLANK and BLDNG have a winner; the others are ranked by what the table
knows of them: cards left in BLANK (its record's score is minus the cards in hand), nothing in
BLDNG, where they tie. Rank & File is played together against the deck: its result counts as
a win for every player, or for none, and is not rated (a team of all cannot be ranked).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

RATED = frozenset({"blanko", "blank", "bldng"})
TEAM = frozenset({"rankfile"})
GAMES = RATED | TEAM


@dataclass(frozen=True)
class Result:
    """One finished game, its seats already named by league player."""
    ended_ms: int
    game: str
    players: tuple[str, ...]
    winners: frozenset[str]
    # Best first; players who tie share a group. None: not rated (Rank & File).
    order: tuple[tuple[str, ...], ...] | None


def result_of(record: dict[str, Any], player_of: Callable[[str], str]) -> Result | None:
    """The league's reading of one game of a table's record (``player_of`` maps its player
    ids to league players); None for a game still being played or one with nobody left."""
    if record["ended_ms"] is None or record["game"] not in GAMES:
        return None
    seated = [p["player_id"] for p in record["players"] if not p.get("removed")]
    if not seated:
        return None
    league = {pid: player_of(pid) for pid in seated}
    winners = frozenset(league[p] for p in record["winners"] if p in league)
    players = tuple(league[p] for p in seated)
    if record["game"] in TEAM:
        return Result(record["ended_ms"], record["game"], players, winners, None)
    scores = record["scores"]
    first = record["game"] != "blanko"  # the winner is first whatever the rest did

    def key(pid: str) -> tuple[int, float]:
        return (0 if first and league[pid] in winners else 1, -scores.get(pid, 0))

    order = tuple(tuple(league[p] for p in group)
                  for _k, group in groupby(sorted(seated, key=key), key=key))
    return Result(record["ended_ms"], record["game"], players, winners, order)
