"""How long does a league's standings take, folded from its tables' logs on every request?

Builds BLANKO tables of four players through the project's own rules (bench/record.py's
``table_log``), then times what ``GET /api/leagues/{id}`` runs: every table's record, each
finished game read as a finishing order with its seats linked, and the ratings and standings.
Also times Swiss pairings of a big club night (#43: to stay under 200 ms for 50 people): most
pairs met, in score groups of 0 to 4 wins; and every round of a season of ``--rounds``, results
drawn by skill with upsets, the slowest round. Prints milliseconds (median of a few runs); the
database reads come on top.

    python bench/league.py [--tables 100] [--turns 40] [--players 50] [--rounds 12]
"""

from __future__ import annotations

import argparse
import random
import time
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
    ap.add_argument("--players", type=int, default=50, help="present at the club night paired")
    ap.add_argument("--rounds", type=int, default=12, help="rounds of the season paired")
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
    wins = {p: rng.randint(0, 4) for p in players}
    print(f"Swiss pairing of {args.players} players, 80% of pairs met: "
          f"{timed(lambda: pair(players, met, {})):.1f} ms; in score groups of 0-4 wins: "
          f"{timed(lambda: pair(players, met, {}, wins)):.1f} ms")
    print(f"Swiss pairing of {args.players} players over {args.rounds} rounds, the slowest round: "
          f"{max(season(players, args.rounds, rng)):.1f} ms")


def season(players: list[str], rounds: int, rng: random.Random) -> list[float]:
    """Each round's pairing time (ms) of a season where the more skilled win, but not always."""
    skill = {p: rng.random() for p in players}
    wins = dict.fromkeys(players, 0)
    met: set[frozenset[str]] = set()
    byes: dict[str, int] = {}
    times = []
    for _ in range(rounds):
        ranked = sorted(players, key=lambda p: -skill[p])
        t = time.perf_counter()
        made = pair(ranked, met, byes, wins)
        times.append((time.perf_counter() - t) * 1000)
        for a, b in made.pairs:
            met.add(frozenset((a, b)))
            wins[a if (skill[a] > skill[b]) != (rng.random() < 0.3) else b] += 1
        if made.bye:
            byes[made.bye] = byes.get(made.bye, 0) + 1
            wins[made.bye] += 1
    return times

if __name__ == "__main__":
    main()
