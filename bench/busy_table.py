"""Simultaneous commands at one table (#35 item 7): N commands are sent at once to one table,
each on a thread of its own, in process (no HTTP: what is measured is the wait for the table
and the database, not the sockets). Prints, for each N, what they were answered (200, 503
table/busy, 503 server/busy) and how long the slowest answer took; the promise is "within a
second" (plus the CPU the answers take on a loaded box).

    python bench/busy_table.py [--commands 1000 2000 2500]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402


def one_run(n: int) -> dict:
    with tempfile.TemporaryDirectory() as d:
        app = create_app({"DATABASE_URL": f"sqlite:///{d}/busy.db"})
        t = app.test_client().post("/api/tables", json={"game": "rankfile"}).get_json()
        auth = {"Authorization": f"Bearer {t['host_token']}"}
        app.test_client().get(f"/api/tables/{t['code']}/state", headers=auth)
        engine = app.extensions["companion"].store.engine
        answers: list[tuple[int, str, float]] = []
        go = threading.Event()

        went: list[float] = []

        def command() -> None:
            client = app.test_client()
            go.wait()
            r = client.post(f"/api/tables/{t['code']}/commands", json={"type": "timer.start"}, headers=auth)
            answers.append((r.status_code, (r.get_json() or {}).get("error", {}).get("code", "-"),
                            time.monotonic() - went[0]))

        threads = [threading.Thread(target=command) for _ in range(n)]
        for th in threads:
            th.start()
        # From the moment all may go, as a phone's wait starts when it sends: timed from each
        # thread's own start, the wait for the interpreter's lock before it was left out (the
        # bench said about a second where the same commands over sockets took 5 to 9).
        went.append(time.monotonic())
        go.set()
        for th in threads:
            th.join()
        busy = [s for status, _, s in answers if status == 503]
        engine.dispose()
        return {"commands": n, "answers": dict(Counter(f"{s} {c}" for s, c, _ in answers)),
                "slowest_answer_s": round(max(s for _, _, s in answers), 2),
                "slowest_503_s": round(max(busy), 2) if busy else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commands", type=int, nargs="+", default=[1000, 2000, 2500])
    for n in ap.parse_args().commands:
        print(json.dumps(one_run(n)), flush=True)


if __name__ == "__main__":
    main()
