"""A league's season as a TSH division file (``.t``), for the standard tournament software of
Scrabble clubs (John Chew's tsh): the season's BLANKO one-on-one games that count, as the
league reads them (the organiser's rulings, renames and merges), and its byes.

TSH keeps a line per player, numbered from 1 in the order of the lines: the name, the
rating, the opponent's number in each round, a semicolon, and the player's score in each
round. A bye is opponent 0 with the spread it is given, "usually 50" in TSH's words (it counts
as a win there, as in the league). A club season is no tournament: its games are not played
in rounds everyone sits, so rounds are made by time, each game in the first round where
neither player has a game yet, a bye where its player has none; a round a player missed
before their next game is an absence. TSH has one: opponent 0 with a score of 0. Its tally
(``TSH::Division::Synch``) counts a round against opponent 0 only when its spread is not 0
(a bye above 0, a win; a forfeit below 0, a loss), so an absence is neither a win, a loss
nor a tie, and its record report lists it as "A" (absent), beside "B" and "F". Only its
``zero_byes_tie`` setting, off unless a director turns it on, makes it a tie.

Players are listed in the order of the standings, with the league's rating ×100 (TSH takes
whole numbers, none below 0). A name is written as the league shows it, a semicolon as a
comma, and a word of digits only ("Table 7", "-5") with a "#" before it: TSH reads the name up to
the rating, the first number on the line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .order import POINTS, Result

BYE_SCORE = 50
ABSENT = (0, 0)  # opponent 0, score 0: TSH's absence, not a game


def to_tsh(results: Iterable[Result], byes: Iterable[tuple[int, str]], rows: Sequence[Mapping[str, Any]],
           names: Mapping[str, str]) -> str:
    """The ``.t`` file of ``results`` (the league's games that count) and ``byes`` ((when,
    player)), its players in the order of ``rows`` (the standings); ``names``: every
    player's name ('' for a seat whose history was deleted)."""
    games = [r for r in results if r.game in POINTS and len(r.players) == 2]
    events = sorted([(r.ended_ms, r.players, r) for r in games] + [(ms, (p,), None) for ms, p in byes],
                    key=lambda e: e[0])
    rating = {row["player"]: row["rating"] for row in rows}
    playing = {p for _ms, players, _r in events for p in players}
    order = [row["player"] for row in rows if row["player"] in playing]
    order += sorted(playing - set(order))  # a seat whose history was deleted has no row
    entries: dict[str, list[tuple[int, int]]] = {p: [] for p in order}
    number = {p: i + 1 for i, p in enumerate(order)}
    for _ms, players, r in events:
        at = max(len(entries[p]) for p in players)
        for p in players:
            entries[p] += [ABSENT] * (at - len(entries[p]))
        if r is None:
            entries[players[0]].append((0, BYE_SCORE))
            continue
        a, b = players
        entries[a].append((number[b], round(r.scores.get(a, 0))))
        entries[b].append((number[a], round(r.scores.get(b, 0))))
    lines = []
    for p in order:
        opponents = " ".join(str(o) for o, _s in entries[p])
        scores = " ".join(str(s) for _o, s in entries[p])
        lines.append(f"{tsh_name(names.get(p, ''))} {max(0, round(rating.get(p, 0) * 100))} "
                     f"{opponents}; {scores}\n")
    return "".join(lines)


def tsh_name(name: str) -> str:
    """A name as a TSH line holds it (see the module's docstring)."""
    words = (name or "Anonymous").replace(";", ",").split()
    return " ".join("#" + w if w.lstrip("+-").isdigit() else w for w in words)
