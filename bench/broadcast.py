"""Time from a command to the last phone's receipt, over real websockets on loopback.

N tables × M phones connect to a Table Companion server (`companion serve`, Werkzeug threads)
and to a minimal Flask-SocketIO server doing the same broadcast (bench/socketio_peer.py). In
each table one phone sends a command every --interval seconds; every phone of the table must
receive it. Prints p50/p95/p99 of command → last receipt, and the server's threads per
connection, for both from one run. Table Companion also commits each command to SQLite
(WAL, synchronous=FULL) and builds each phone's own view before sending; the peer only relays.

    python bench/broadcast.py [--tables 50] [--phones 6] [--rounds 10]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from simple_websocket import Client

from companion.hub import DaemonThread

HERE = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str) -> None:
    for _ in range(200):
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not come up")


def post(url: str, body: dict, token: str | None = None) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json",
                                          **({"Authorization": f"Bearer {token}"} if token else {})})
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def threads_of(pid: int) -> int:
    return int(next(line.split()[1] for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                    if line.startswith("Threads:")))


class Phone:
    """A websocket client that records when each marked message arrives."""

    def __init__(self, url: str, socketio: bool = False) -> None:
        self.ws = Client.connect(url, thread_class=DaemonThread)
        self.socketio = socketio
        self.arrivals: dict[str, float] = {}
        self.ready = threading.Event()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        while True:
            try:
                data = self.ws.receive()
            except Exception:  # noqa: BLE001 - the run is over
                return
            now = time.perf_counter()
            if self.socketio:
                if data == "2":
                    self.ws.send("3")  # Engine.IO ping/pong
                    continue
                if data.startswith("42"):
                    name, payload = json.loads(data[2:])
                    if name == "joined":
                        self.ready.set()
                    elif name == "event":
                        self.arrivals[payload["mark"]] = now
                continue
            msg = json.loads(data)
            if msg["type"] == "ready":
                self.ready.set()
            elif msg["type"] == "event" and msg["event"].get("type") == "TimerStarted":
                self.arrivals[str(msg["event"]["duration_ms"])] = now


def run_table(phones: list[Phone], send, rounds: int, interval: float, out: list[float]) -> None:
    for r in range(rounds):
        mark = str((r + 1) * 1000)
        t0 = time.perf_counter()
        send(r, mark)
        deadline = t0 + 10
        while time.perf_counter() < deadline and not all(mark in p.arrivals for p in phones):
            time.sleep(0.0005)
        if all(mark in p.arrivals for p in phones):
            out.append((max(p.arrivals[mark] for p in phones) - t0) * 1000)
        time.sleep(interval)


def run_all(tables: list[tuple[list[Phone], object]], args: argparse.Namespace) -> list[float]:
    """Every table's rounds at once, each table on its own thread; ``send(round, mark)``."""
    results: list[float] = []
    workers = [threading.Thread(target=run_table, args=(phones, send, args.rounds, args.interval, results))
               for phones, send in tables]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return results


def bench_companion(args: argparse.Namespace) -> tuple[list[float], float]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as d:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                                 "--port", str(port), "--db", f"{d}/bench.db"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                # every phone joins from this one address: lift the join limit
                                env={**os.environ, "COMPANION_PUBLIC_URL": base,
                                     "COMPANION_JOINS_PER_MINUTE": "100000"})
        try:
            wait_http(base + "/healthz")
            base_threads = threads_of(proc.pid)
            tables = []
            for _ in range(args.tables):
                t = post(base + "/api/tables", {"game": "rankfile"})
                toks = []
                for i in range(args.phones):
                    toks.append(post(f"{base}/api/tables/{t['code']}/players", {"name": f"P{i}"})["token"])
                phones = [Phone(f"ws://127.0.0.1:{port}/ws/{t['code']}?token={tok}") for tok in toks]
                for p in phones:
                    p.ready.wait(10)
                tables.append(phones)
            per_conn = (threads_of(proc.pid) - base_threads) / (args.tables * args.phones)
            sends = [(ph, lambda r, mark, ph=ph: ph[0].ws.send(json.dumps(
                {"type": "timer.start", "seconds": int(mark) // 1000}))) for ph in tables]
            return run_all(sends, args), per_conn
        finally:
            proc.kill()
            proc.wait()


def bench_socketio(args: argparse.Namespace) -> tuple[list[float], float]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(HERE / "socketio_peer.py"), str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_http(f"http://127.0.0.1:{port}/socket.io/?EIO=4&transport=polling")
        base_threads = threads_of(proc.pid)
        tables = []
        for t in range(args.tables):
            phones = []
            for _ in range(args.phones):
                p = Phone(f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", socketio=True)
                p.ws.send("40")
                time.sleep(0.01)
                p.ws.send("42" + json.dumps(["join", {"table": f"t{t}"}]))
                phones.append(p)
            for p in phones:
                p.ready.wait(10)
            tables.append((f"t{t}", phones))
        per_conn = (threads_of(proc.pid) - base_threads) / (args.tables * args.phones)
        sends = [(ph, lambda r, mark, ph=ph, name=name: ph[0].ws.send(
            "42" + json.dumps(["cmd", {"table": name, "mark": mark}]))) for name, ph in tables]
        return run_all(sends, args), per_conn
    finally:
        proc.kill()
        proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--phones", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--interval", type=float, default=0.2)
    args = ap.parse_args()
    print(f"broadcast: {args.tables} tables × {args.phones} phones, {args.rounds} commands per table, "
          f"one every {args.interval}s per table")
    print(f"{'server':18} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'received':>9} {'threads/conn':>13}")
    rows = {}
    for name, fn in (("Table Companion", bench_companion), ("Flask-SocketIO", bench_socketio)):
        res, per_conn = fn(args)
        q = statistics.quantiles(res, n=100, method="inclusive")
        rows[name] = q
        print(f"{name:18} {q[49]:8.2f} {q[94]:8.2f} {q[98]:8.2f} {len(res):9d} {per_conn:13.2f}")
    a, b = rows["Table Companion"], rows["Flask-SocketIO"]
    print(f"{'ratio':18} {a[49] / b[49]:7.2f}× {a[94] / b[94]:7.2f}× {a[98] / b[98]:7.2f}×"
          "  (Companion / Flask-SocketIO)")


if __name__ == "__main__":
    main()
