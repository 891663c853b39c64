"""A game of a league table as a finishing order, read from the table's record.

BLANKO ranks by score. BLANK and BLDNG have a winner; the others are ranked by what the table
knows of them: cards left in BLANK (its record's score is minus the cards in hand), nothing in
BLDNG, where they tie. Rank & File is played together against the deck: its result counts as
a win for every player, or for none, and is not rated (a team of all cannot be ranked).

A game counts once it has a winner: a game the host ended before anyone scored (or won) counts
for nobody, where it used to be a win for everyone. It counts from the moment it was won: a
BLANK game goes on while its winner's prize is chosen and approved, which may never happen.
The league's director may void a game or correct its result (``corrected``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from ..games.core.scores import winners as top_scores

RATED = frozenset({"blanko", "blank", "bldng"})
TEAM = frozenset({"rankfile"})
GAMES = RATED | TEAM
POINTS = frozenset({"blanko"})  # games whose scores are points won (BLANK's are cards left)
TEAM_OUTCOMES = frozenset({"won", "lost"})  # Rank & File's, decided by the deck or the team
CORRECTIONS = frozenset({"void", "correct", "restore"})


@dataclass(frozen=True)
class Result:
    """One game that counts, its seats already named by league player."""
    ended_ms: int  # when it counted: its end, or its win (BLANK's prize comes after)
    game: str
    players: tuple[str, ...]
    winners: frozenset[str]
    # Best first; players who tie share a group. None: not rated (Rank & File).
    order: tuple[tuple[str, ...], ...] | None
    scores: Mapping[str, float] = field(default_factory=dict)  # by league player

    def of(self, player: Mapping[str, str]) -> Result:
        """The result with each seat named by ``player`` (a table's player id -> league
        player): a league reads each game once by its seats (``result_of(record, str)``) and
        names them at every reading, as the roster stands then."""
        return Result(self.ended_ms, self.game, tuple(player[p] for p in self.players),
                      frozenset(player[p] for p in self.winners),
                      None if self.order is None else tuple(tuple(player[p] for p in g) for g in self.order),
                      {player[p]: v for p, v in self.scores.items()})


def result_of(record: dict[str, Any], player_of: Callable[[str], str]) -> Result | None:
    """The league's reading of one game of a table's record (``player_of`` maps its player
    ids to league players); None for a game that does not count: still undecided, won by
    nobody, or with nobody left."""
    at = record.get("won_ms", record["ended_ms"])
    if at is None or record["game"] not in GAMES:
        return None
    seated = [p["player_id"] for p in record["players"] if not p.get("removed")]
    if not seated:
        return None
    league = {pid: player_of(pid) for pid in seated}
    scores = record["scores"]
    # BLANKO's winners are the top scores of those still seated (one the host removed won nothing)
    won = top_scores({p: scores.get(p, 0) for p in seated}) if record["game"] in POINTS else record["winners"]
    winners = frozenset(league[p] for p in won if p in league)
    players = tuple(league[p] for p in seated)
    if record["game"] in TEAM:
        if record.get("result", {}).get("outcome") not in TEAM_OUTCOMES:
            return None
        return Result(at, record["game"], players, winners, None)
    if not winners:
        return None
    first = record["game"] != "blanko"  # the winner is first whatever the rest did

    def key(pid: str) -> tuple[int, float]:
        return (0 if first and league[pid] in winners else 1, -scores.get(pid, 0))

    order = tuple(tuple(league[p] for p in group)
                  for _k, group in groupby(sorted(seated, key=key), key=key))
    return Result(at, record["game"], players, winners, order,
                  {league[p]: scores[p] for p in seated if p in scores})


def corrected(record: dict[str, Any], correction: Mapping[str, Any]) -> dict[str, Any] | None:
    """The record as the league's director ruled on it (its player ids as the table's):
    ``void``: it counts for nobody (None); ``restore``: the table's own result again;
    ``correct``: BLANKO's ``scores`` (the winners follow from them), or another game's
    ``winners`` (Rank & File: all of them, or none for a loss). The table's record is left
    as it is: only the league reads it so."""
    action = correction["action"]
    if action == "void":
        return None
    if action == "restore":
        return record
    if "scores" in correction:
        scores = {**record["scores"], **correction["scores"]}
        result = record.get("result", {})
        if "top_score" in result:  # what the record's words say the winner scored
            result = {**result, "top_score": max(scores.values())}
        return {**record, "scores": scores, "winners": top_scores(scores), "result": result}
    winners = list(correction["winners"])
    return {**record, "winners": winners,
            "result": {**record.get("result", {}), "outcome": "won" if winners else "lost"}}
