"""How long does acknowledging a command wait for the disk? WAL+FULL against WAL+NORMAL.

Appends single-event commands to a fresh SQLite log through the project's own Store, as
TableService does, and prints p50/p95/p99 per mode from one run, side by side.

    python bench/commit.py [--commands 2000] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from companion.storage.store import Store, make_engine
from companion.table.log import Record
from companion.table.rules import created


def run(path: Path, synchronous: str, commands: int) -> list[float]:
    store = Store(make_engine(f"sqlite:///{path}", synchronous=synchronous))
    first = Record(1, 1, "host", 0, created("BENCH", "rankfile", {}, 0))
    store.create_table("BENCH", "rankfile", "h" * 64, first)
    times = []
    for seq in range(2, commands + 2):
        e = {"type": "TimerFlipped", "running": True, "left_ms": 1, "ends_at_ms": 2}
        r = Record(seq, seq, "p1", seq, e)
        t = time.perf_counter()
        store.append("BENCH", [r], command_id=f"c{seq}")
        times.append((time.perf_counter() - t) * 1000)
    store.engine.dispose()
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--commands", type=int, default=2000)
    ap.add_argument("--dir", default=None, help="where the database goes (the disk you will serve from)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        print(f"commit: {args.commands} single-event commands per mode, SQLite WAL, in {d}")
        print(f"{'synchronous':12} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'commands/s':>11}")
        for mode in ("FULL", "NORMAL"):
            t = run(Path(d) / f"{mode}.db", mode, args.commands)
            q = statistics.quantiles(t, n=100, method="inclusive")
            print(f"{mode:12} {q[49]:8.3f} {q[94]:8.3f} {q[98]:8.3f} {1000 / statistics.mean(t):11.0f}")
    print("FULL is what the server uses: a commit survives power loss, not only a crash.")


if __name__ == "__main__":
    main()
