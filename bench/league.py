"""How long does a league's standings take, folded from its tables' logs on every request?

Builds BLANKO tables of four players through the project's own rules (bench/record.py's
``table_log``), then times what ``GET /api/leagues/{id}`` runs: every table's record, each
finished game read as a finishing order with its seats linked, and the ratings and standings.
Also times a Swiss pairing of a big club night where most pairs have met. Prints milliseconds
(median of a few runs); the database reads come on top.

    python bench/league.py [--tables 100] [--turns 40] [--players 40]
"""

from __future__ import annotations

import argparse
import random
from itertools import combinations

from record import WORDS, table_log, timed

from companion.games.blanko.words import WordSet
from companion.games.registry import build_games
from companion.league.order import result_of
from companion.league.pairings import pair
from companion.league.players import Roster
from companion.league.ratings import standings
from companion.record.games import table_games
from companion.table.rules import TableRules


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--players", type=int, default=40, help="present at the club night paired")
    args = ap.parse_args()
    rules = TableRules(build_games(WordSet(w.lower() for w in WORDS)))
    rng = random.Random(1)
    logs = [table_log(rules, f"T{i:04d}", args.turns, rng) for i in range(args.tables)]

    def league() -> None:
        roster, results = Roster(), []
        for log in logs:
            for r in log:
                if r.event["type"] == "PlayerJoined":
                    roster.see(r.event["name"])
        for log in logs:
            for g in table_games(log, rules):
                names = {p["player_id"]: p["name"] for p in g["players"]}
                r = result_of(g, lambda pid, names=names: roster.seat(names[pid]))
                if r is not None:
                    results.append(r)
        standings(results, [], {p: roster.name_of(p) for r in results for p in r.players})

    events = sum(len(log) for log in logs)
    print(f"standings of a league of {args.tables} tables ({events} events): {timed(league, 3):.0f} ms")
    players = [f"p{i}" for i in range(args.players)]
    met = {frozenset(p) for p in combinations(players, 2) if rng.random() < 0.8}
    print(f"Swiss pairing of {args.players} players, 80% of pairs met: "
          f"{timed(lambda: pair(players, met, {})):.1f} ms")


if __name__ == "__main__":
    main()
