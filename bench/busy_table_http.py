"""Simultaneous commands at one table over real sockets (#41 item 10): bench/busy_table.py
measures the table's turn in process; this one goes through `companion serve` as phones do.
It serves a throwaway database on a loopback port, makes a table with players, opens N
connections (from loopback addresses 127.0.x.y, at most 50 each: the server's per-address cap
is 64), sends each a whole command request but its last byte, then every last byte at once,
and prints how long each answer took from that moment: p50, p95 and max for accepted commands
and for `503 table/busy` refusals apart, the count of each status, and the server's CPU time
per command (all of them are answered by one process, in turn for its interpreter's lock).

    python bench/busy_table_http.py [--commands 2500] [--players 8]

Loopback only; bounded in connections (at most 5,000) and in time (each run gives up on the
answers after --timeout seconds, then stops the server).
"""

from __future__ import annotations

import argparse
import json
import resource
import selectors
import socket
import statistics
import tempfile
import time
from collections import Counter
from urllib.parse import urlsplit

from broadcast import cpu_seconds, post
from slow_guest import serve, source

MAX_COMMANDS = 5000
PER_ADDRESS = 50


def request(host: str, code: str, token: str) -> bytes:
    body = json.dumps({"type": "timer.start"}).encode()
    return (f"POST /api/tables/{code}/commands HTTP/1.1\r\nHost: {host}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


def answered(raw: bytes) -> tuple[str, bool]:
    """The status and error code of a whole answer (``Connection: close``), and whether it is
    whole yet."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    if not sep:
        return "", False
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), None)
    if length is not None and len(body) < length:
        return "", False
    status = head.split(b" ", 2)[1].decode()
    try:
        code = json.loads(body).get("error", {}).get("code", "")
    except ValueError:
        code = ""
    return f"{status} {code}".strip(), True


def figures(seconds: list[float]) -> dict | None:
    if not seconds:
        return None
    ordered = sorted(seconds)
    return {"n": len(ordered), "p50_s": round(statistics.median(ordered), 2),
            "p95_s": round(ordered[int(0.95 * (len(ordered) - 1))], 2), "max_s": round(ordered[-1], 2)}


def one_run(n: int, players: int, timeout_s: float) -> dict:
    with tempfile.TemporaryDirectory() as d:
        proc, url = serve(d, 30)
        try:
            host = urlsplit(url).netloc
            port = int(host.rsplit(":", 1)[1])
            t = post(url + "/api/tables", {"game": "rankfile"})
            tokens = [t["host_token"]] + [
                post(f"{url}/api/tables/{t['code']}/players", {"name": f"P{i}"})["token"]
                for i in range(players)]
            socks = []
            for i in range(n):
                s = socket.create_connection(("127.0.0.1", port), timeout=10,
                                             source_address=(source(i // PER_ADDRESS), 0))
                whole = request(host, t["code"], tokens[i % len(tokens)])
                s.sendall(whole[:-1])
                socks.append((s, whole[-1:]))
            time.sleep(0.5)  # every head read and waiting for its last byte
            cpu = cpu_seconds(proc.pid)
            sent = []
            for s, last in socks:
                s.sendall(last)
                sent.append(time.monotonic())
            answers = collect([s for s, _ in socks], sent, timeout_s)
            return {"commands": n, "last_bytes_sent_in_s": round(sent[-1] - sent[0], 3),
                    "server_cpu_ms_per_command": round((cpu_seconds(proc.pid) - cpu) * 1000 / n, 2),
                    **answers}
        finally:
            proc.terminate()
            proc.wait(30)


def collect(socks: list[socket.socket], sent: list[float], timeout_s: float) -> dict:
    """Read every answer (or give up at the deadline): figures per kind of answer."""
    sel = selectors.DefaultSelector()
    raw: dict[int, bytearray] = {}
    for i, s in enumerate(socks):
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, i)
        raw[i] = bytearray()
    took: dict[str, list[float]] = {}
    deadline = time.monotonic() + timeout_s
    while raw and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=0.5):
            i = key.data
            try:
                chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
            except OSError:
                chunk = b""
            raw[i] += chunk
            status, whole = answered(bytes(raw[i]))
            if whole or not chunk:
                kind = status if whole else "closed unanswered"
                took.setdefault(kind, []).append(time.monotonic() - sent[i])
                sel.unregister(key.fileobj)
                key.fileobj.close()  # type: ignore[union-attr]
                del raw[i]
    for i in list(raw):
        took.setdefault("no answer in time", []).append(timeout_s)
        socks[i].close()
    accepted = [s for status, seconds in took.items() if status.startswith("200") for s in seconds]
    return {"answers": dict(Counter({status: len(seconds) for status, seconds in took.items()})),
            "accepted": figures(accepted), "table_busy": figures(took.get("503 table/busy", [])),
            "other": {status: figures(seconds) for status, seconds in took.items()
                      if not status.startswith("200") and status != "503 table/busy"}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commands", type=int, nargs="+", default=[2500])
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MAX_COMMANDS + 100 if hard == resource.RLIM_INFINITY else min(hard, MAX_COMMANDS + 100)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    for n in args.commands:
        n = max(1, min(n, MAX_COMMANDS, max(soft, wanted) - 100))
        print(json.dumps(one_run(n, args.players, args.timeout)), flush=True)


if __name__ == "__main__":
    main()
