"""What running a league's rounds costs (#43 items 10, 11), on SQLite in process (no HTTP
sockets: the requests go through the app's test client, so the figures are the server's work).

A season of ``--rounds`` rounds of ``--players`` players is made through the API, each round
over the one before (``over_unfinished``), and both players of every board sit down, so every
board has started by itself. Then, for a fresh round: the join that seats a board's first
player (its board looked up, nobody to start), the join that seats the second (looked up and
started), a join at a table of no league (the lookup finds nothing), ``LeagueStore.board_of``
alone, "Start all" over the round's boards, and deleting the round (its boards closed). Prints
milliseconds, the median of ``--runs``.

    python bench/league_rounds.py [--players 50] [--rounds 20] [--runs 9]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402


def ms(fn: Any) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        app = create_app({"DATABASE_URL": f"sqlite:///{d}/league.db", "CREATIONS_PER_MINUTE": 10**6,
                          "JOINS_PER_MINUTE": 10**6})
        client = app.test_client()
        made = client.post("/api/leagues", json={"name": "Bench club"}).get_json()
        auth = {"Authorization": f"Bearer {made['token']}"}
        people = [f"Player {i:02d}" for i in range(args.players)]

        def make_round() -> dict[str, Any]:
            r = client.post(f"/api/leagues/{made['id']}/rounds", headers=auth,
                            json={"present": people, "over_unfinished": True})
            assert r.status_code == 201, r.get_json()
            return r.get_json()

        def sit(code: str, name: str) -> None:
            r = client.post(f"/api/tables/{code}/players", json={"name": name})
            assert r.status_code == 201, r.get_json()

        for _ in range(args.rounds):
            for t in make_round()["tables"]:
                for name in t["players"]:
                    sit(t["code"], name)
        store = app.extensions["companion"].leagues
        first, second, board_of, plain, start, delete = [], [], [], [], [], []
        for _ in range(args.runs):
            rnd = make_round()
            boards = rnd["tables"]
            board_of.append(ms(lambda code=boards[0]["code"]: store.board_of(code)))
            first.append(ms(lambda t=boards[0]: sit(t["code"], t["players"][0])))
            second.append(ms(lambda t=boards[0]: sit(t["code"], t["players"][1])))
            other = client.post("/api/tables", json={"game": "blanko"}).get_json()["code"]
            plain.append(ms(lambda code=other: sit(code, "Somebody")))
            for t in boards[1:]:
                sit(t["code"], t["players"][0])  # one of two at every other board: they wait
            start.append(ms(lambda no=rnd["round"]: client.post(
                f"/api/leagues/{made['id']}/rounds/{no}/start", headers=auth, json={})))
            client.post(f"/api/tables/{boards[0]['code']}/commands", headers={
                "Authorization": f"Bearer {boards[0]['host_token']}"}, json={"type": "undo"})  # begun no more
            delete.append(ms(lambda no=rnd["round"]: client.delete(
                f"/api/leagues/{made['id']}/rounds/{no}", headers=auth, json={})))
        med = statistics.median
        boards_n = len(boards)
        print(f"a season of {args.rounds} rounds of {args.players} ({args.rounds * boards_n} boards, "
              f"{2 * args.rounds * boards_n} seats):")
        print(f"  LeagueStore.board_of: {med(board_of):.1f} ms")
        print(f"  join at a round's board, the first of two: {med(first):.1f} ms; the second "
              f"(and the board started): {med(second):.1f} ms; at a table of no league: {med(plain):.1f} ms")
        print(f"  Start all over {boards_n} boards (none to start, all waiting): {med(start):.1f} ms")
        print(f"  delete the round ({boards_n} boards closed): {med(delete):.1f} ms")
        app.extensions["companion"].store.engine.dispose()


if __name__ == "__main__":
    main()
