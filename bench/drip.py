"""The connection slots under a drip: one address (127.0.0.2) opens thousands of connections
and sends one header byte every 4 s on each; more addresses (127.0.0.3…) do the same to fill
the unreserved slots. Meanwhile a new address asks /healthz and the host reads its table with
its token, once a second. Prints how many connections the dripping address held, how long the
server let each live, and what the others got. Loopback only; stops by itself.

    python bench/drip.py [--seconds 60] [--connections 3000] [--addresses 70]
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from broadcast import post, wait_http

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def open_many(port: int, source: str, count: int, keep_alive) -> list[socket.socket]:
    """Connections from ``source`` that start a request head; ``keep_alive`` drips on the ones
    already open between batches (opening thousands takes longer than the server's 10 s)."""
    held = []
    for i in range(count):
        if i % 100 == 0:
            keep_alive()
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0))
            s.setblocking(False)
            s.send(b"GET /healthz HTTP/1.1\r\n")
            held.append(s)
        except OSError:
            break
    return held


def timed(url: str, headers: dict[str, str] | None = None) -> tuple[int, float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as r:
            status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    except OSError:
        status = 0
    return status, (time.monotonic() - started) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--connections", type=int, default=3000, help="the dripping address's attempts")
    ap.add_argument("--addresses", type=int, default=0, help="more dripping addresses, 64 connections each")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                                 "--port", "0", "--db", f"{d}/drip.db"], cwd=d, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                env={**os.environ, "PYTHONPATH": ROOT, "PYTHONUNBUFFERED": "1"})
        try:
            url = next(line for line in proc.stdout if "open:" in line).split("open:")[1].strip().rstrip("/")
            wait_http(url + "/healthz")
            port = int(url.rsplit(":", 1)[1])
            host = post(url + "/api/tables", {"game": "rankfile"})
            sel = selectors.DefaultSelector()
            opened: dict[socket.socket, float] = {}
            lifetimes: list[float] = []

            last_drip = [time.monotonic()]

            def drip(every_s: float = 4.0) -> None:
                if time.monotonic() - last_drip[0] < every_s:
                    return
                last_drip[0] = time.monotonic()
                for s in list(opened):
                    try:
                        s.send(b"X")
                    except OSError:
                        pass

            def add(conns: list[socket.socket]) -> None:
                for s in conns:
                    opened[s] = time.monotonic()
                    sel.register(s, selectors.EVENT_READ)

            others = []
            for i in range(args.addresses):
                add(batch := open_many(port, f"127.0.0.{3 + i}", 64, drip))
                others += batch
            attacker = open_many(port, "127.0.0.2", args.connections, drip)
            add(attacker)
            health, reads = [], []
            end = time.monotonic() + args.seconds
            peak_attacker = 0
            while time.monotonic() < end:
                for key, _ in sel.select(timeout=0.1):
                    s = key.fileobj
                    try:
                        gone = s.recv(4096) == b""
                    except BlockingIOError:
                        gone = False
                    except OSError:
                        gone = True
                    if gone:
                        lifetimes.append(time.monotonic() - opened.pop(s))
                        sel.unregister(s)
                        s.close()
                now = time.monotonic()
                drip()
                peak_attacker = max(peak_attacker, sum(1 for s in attacker if s in opened))
                if len(health) < (now - (end - args.seconds)):
                    health.append(timed(url + "/healthz", {}))
                    reads.append(timed(f"{url}/api/tables/{host['code']}/state",
                                       {"Authorization": f"Bearer {host['host_token']}"}))
            for s in list(opened):
                s.close()

            def summary(samples: list[tuple[int, float]]) -> dict:
                ok = [ms for status, ms in samples if status == 200]
                return {"asked": len(samples), "ok": len(ok),
                        "p50_ms": round(statistics.median(ok), 1) if ok else None,
                        "max_ms": round(max(ok), 1) if ok else None}

            print(json.dumps({
                "dripping_address": {"attempted": args.connections, "accepted": len(attacker),
                                     "held_at_most": peak_attacker},
                "other_dripping_addresses": {"addresses": args.addresses, "accepted": len(others)},
                "connection_lifetime_s": {
                    "median": round(statistics.median(lifetimes), 1) if lifetimes else None,
                    "max": round(max(lifetimes), 1) if lifetimes else None},
                "healthz_from_a_new_address": summary(health),
                "host_reads_its_table": summary(reads),
            }, indent=2))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
