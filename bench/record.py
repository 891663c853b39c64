"""How long do the record and stats take, folded from the log on every request?

Builds BLANKO tables through the project's own rules (4 players, N lays each) in memory, then
times ``table_games`` for one long table and ``stats.compute`` over many tables, as the
record and stats endpoints run them. Prints milliseconds per call (median of a few runs).

    python bench/record.py [--tables 100] [--turns 80]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.games.blanko.words import WordSet
from companion.games.core import turns
from companion.games.core.context import Context
from companion.games.registry import build_games
from companion.record.games import table_games
from companion.record.stats import TableGames, compute
from companion.table.log import Record
from companion.table.rules import TableRules, created

WORDS = ["ALMA", "KÉS", "RIGÓ", "LESŐ", "BARÁT"]


def table_log(rules: TableRules, code: str, lays: int, rng: random.Random,
              names: tuple[str, ...] = ("Player 0", "Player 1", "Player 2", "Player 3"),
              start_ms: int = 0, end: bool = True) -> list[Record]:
    """A BLANKO game of ``names`` with ``lays`` lays, then (``end``) the host's end, as the
    service would log it, a second a command from ``start_ms``."""
    records: list[Record] = []

    def add(events: list[dict], actor: str) -> None:
        first = len(records) + 1
        records.extend(Record(first + i, first, actor, start_ms + first * 1000, e)
                       for i, e in enumerate(events))

    options = rules.games["blanko"].options({"draw_start": False})
    add([created(code, "blanko", options, start_ms)], "host")
    state = rules.fold(records)
    for i, name in enumerate(names):
        pid = f"p{i}"
        add([rules.join(state, pid, name, start_ms + i)], pid)
        state = rules.fold(records)
    for kind in ["table.start_game"] + ["lay"] * lays + ["table.end_game"] * end:
        actor = turns.current(state["game_state"]["turn"]) if kind == "lay" else None
        command = ({"type": "blanko.lay", "words": [rng.choice(WORDS)], "placed": 1} if kind == "lay"
                   else {"type": kind})
        ctx = Context(actor, actor is None, start_ms + len(records) * 1000, rng)
        events, after = rules.decide(state, records, command, ctx)
        add(events, actor or "host")
        state = after if after is not None else rules.fold(records)
    return records


def timed(fn, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--turns", type=int, default=80, help="lays per game (a full bag lasts about 100)")
    args = ap.parse_args()
    rules = TableRules(build_games(WordSet(w.lower() for w in WORDS)))
    rng = random.Random(1)
    logs = [table_log(rules, f"T{i:04d}", args.turns, rng) for i in range(args.tables)]
    events = sum(len(log) for log in logs)
    one = timed(lambda: table_games(logs[0], rules))
    print(f"record of one table ({len(logs[0])} events, {args.turns} lays): {one:.1f} ms")

    def everything() -> None:
        compute([TableGames(f"T{i:04d}", table_games(log, rules), {}) for i, log in enumerate(logs)], None)

    print(f"stats over {args.tables} tables ({events} events): {timed(everything, 3):.0f} ms")


if __name__ == "__main__":
    main()
