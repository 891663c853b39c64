"""How long does a league take, folded from its tables' logs on every request?

Builds BLANKO tables of four players through the project's own rules (bench/record.py's
``table_log``), then times what ``GET /api/leagues/{id}`` runs: every table's record, each
finished game read as a finishing order with its seats linked, and the ratings and standings.
Also times Swiss pairings of a big club night (#43: to stay under 200 ms for 50 people): most
pairs met, in score groups of 0 to 4 wins; and every round of a season of ``--rounds``, results
drawn by skill with upsets, the slowest round. Then a club's whole season through the HTTP
API on a database (#43: each under 200 ms): ``--people`` players and ``--games`` one-on-one
BLANKO games in rounds of everyone, each at a table of its own, and a round still being
played; timed are the standings (``GET /api/leagues/{id}``), the room's screen's answer
(``/room``) and the next round's pairings (``POST /pairings``), each with the league read
from the database and folded as a request does. Prints milliseconds (median of a few runs).

    python bench/league.py [--tables 100] [--turns 40] [--players 50] [--rounds 12]
                           [--people 50] [--games 2000] [--lays 6]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import tempfile
import time
from itertools import combinations
from pathlib import Path

from record import WORDS, table_log, timed

from companion import create_app
from companion.clock import FakeClock
from companion.games.blanko.words import WordSet
from companion.games.registry import build_games
from companion.league.order import result_of
from companion.league.pairings import pair
from companion.league.players import Roster
from companion.league.ratings import standings
from companion.record.games import table_games
from companion.table.log import Record
from companion.table.rules import TableRules
from companion.table.service import hash_token

WEEK_MS = 7 * 24 * 3600 * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--players", type=int, default=50, help="present at the club night paired")
    ap.add_argument("--rounds", type=int, default=12, help="rounds of the season paired")
    ap.add_argument("--people", type=int, default=50, help="players of the season through the API")
    ap.add_argument("--games", type=int, default=2000, help="one-on-one games of that season")
    ap.add_argument("--lays", type=int, default=6, help="lays of each of its games")
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
    with tempfile.TemporaryDirectory() as folder:
        club_season(rules, Path(folder), args.people, args.games, args.lays, rng)


def club_season(rules: TableRules, folder: Path, people: int, games: int, lays: int,
                rng: random.Random) -> None:
    """A season of ``games`` one-on-one games among ``people``, in weekly rounds of everyone
    (a bye for the odd one out), written to a database as its tables would have logged it,
    the last round still on; then the standings, the room and the next pairings timed."""
    clock = FakeClock()
    app = create_app({"DATABASE_URL": f"sqlite:///{folder / 'season.db'}", "CLOCK": clock, "TESTING": True})
    s = app.extensions["companion"]
    client = app.test_client()
    made = client.post("/api/leagues", json={"name": "Season", "games": ["blanko"]}).get_json()
    names = [f"Player {i:02d}" for i in range(people)]
    per_round = people // 2
    rounds = -(-games // per_round) + 1  # and one more still being played
    played = 0
    t = time.perf_counter()
    for no in range(1, rounds + 1):
        start_ms = no * WEEK_MS
        order = rng.sample(names, len(names))
        pairs = [(order[i], order[i + 1]) for i in range(0, 2 * per_round, 2)][:games - played or per_round]
        codes = []
        for board, (a, b) in enumerate(pairs):
            code = f"S{no:03d}{board:02d}"
            log = table_log(rules, code, lays, rng, (a, b), start_ms + board * 60_000, end=no < rounds)
            s.store.create_table(code, "blanko", hash_token(code), log[0])
            state = rules.fold(log)
            s.store.append(code, log[1:], table_update={"status": state["status"],
                                                        "ended_ms": state["ended_ms"]})
            codes.append(code)
        bye = order[-1] if len(order) % 2 else None
        s.leagues.add_round(made["id"], no, start_ms, [("name:" + a, "name:" + b) for a, b in pairs],
                            None if bye is None else "name:" + bye, codes)
        played += len(pairs) if no < rounds else 0
    clock.advance(rounds * WEEK_MS + WEEK_MS)
    print(f"a season of {people} people and {played} games (and {per_round} on) written in "
          f"{time.perf_counter() - t:.0f} s; load average {os.getloadavg()[0]:.1f} "
          f"(the CPU times below count this process alone)")
    auth = {"Authorization": f"Bearer {made['token']}"}
    lid = made["id"]

    requests = {"standings, GET /api/leagues/ID": lambda: client.get(f"/api/leagues/{lid}"),
                "the room's screen, GET /api/leagues/ID/room": lambda: client.get(f"/api/leagues/{lid}/room",
                                                                                   headers=auth),
                "next round's pairings, POST /api/leagues/ID/pairings": lambda: client.post(
                    f"/api/leagues/{lid}/pairings", json={"present": names}, headers=auth)}
    t, rss = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert client.get(f"/api/leagues/{lid}").status_code == 200
    print(f"  the first read in a process (every table's log read and folded, every game rated): "
          f"{(time.perf_counter() - t) * 1000:.0f} ms, the process's peak memory "
          f"+{(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024:.0f} MB")
    for what, request in requests.items():
        assert request().status_code == 200
        cpu = time.process_time()
        print(f"  {what}: {timed(request, 5):.0f} ms (CPU {(time.process_time() - cpu) * 200:.0f} ms)")
    print(f"    of which the league read from the database: {timed(lambda: s.leagues.read(lid), 5):.0f} ms")
    last, moves = f"S{rounds:03d}00", []
    for seq in range(10_000, 10_005):  # the host locks a table still on, five times
        s.store.append(last, [Record(seq, seq, "host", (rounds + 1) * WEEK_MS, {"type": "TableLocked"})])
        moves.append(timed(requests["standings, GET /api/leagues/ID"], 1))
    print(f"  standings after a move at one table: {sorted(moves)[2]:.0f} ms")


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
