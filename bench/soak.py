"""A club night compressed in time: does the server give back what phones take all evening?

`companion serve` (the server `make run` starts) on loopback; --tables × --phones phones, every
phone awake for a random 10–60 s, then gone (a clean close, a connection dropped without a
close frame, or silence: Wi-Fi lost, the socket never closed, pings unanswered), asleep for
1–10 s, then back with ``since`` = the last event it saw. In each table the first phone, while
awake, sends a command every --interval seconds. Prints every minute the server's threads, open
files and RSS (from /proc), the commands sent, the reconnects, and p95 command → last receipt
(every phone of the table that was ready when it was sent and is still connected); at the end,
with every phone awake again and the silent ones gone, whether any of it grew: against the
baseline (every phone connected once, nothing played yet), and RSS also against its level
after --warmup minutes of the night. The allocators keep what the night's busiest moment
needed (Python's arenas are given back only when empty), so RSS rises over the first minutes
to the level of the evening's working set; growth after that is what an evening would pile up.

    python bench/soak.py [--minutes 10] [--tables 50] [--phones 6] [--interval 2] [--port 0]
                         [--warmup 5]
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

from broadcast import ADDRESSES, Loop, Phone, cpu_seconds, post, proc_status, wait_http

AWAKE_S = (10.0, 60.0)
ASLEEP_S = (1.0, 10.0)
# What every browser's handshake offers; the server declines it (a compressor a phone).
BROWSER_OFFER = "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
MISSED_AFTER_S = 10.0  # an event not received this long after its command, by a phone still connected


@dataclass
class Sent:
    at: float
    waiting: set[Seat]


@dataclass(eq=False)
class Seat:
    """One phone's evening: its token, its address, and its websocket while it is awake."""

    table: Table
    token: str
    address: str = field(default_factory=lambda: next(ADDRESSES))
    phone: Phone | None = None
    seq: int = 0
    ready: bool = False


@dataclass(eq=False)
class Table:
    code: str
    seats: list[Seat] = field(default_factory=list)
    sent: dict[int, Sent] = field(default_factory=dict)
    mark: int = 0


class Night:
    def __init__(self, port: int, pid: int, tables: list[Table], rng: random.Random) -> None:
        self.port, self.pid, self.tables, self.rng = port, pid, tables, rng
        self.loop = Loop()
        self.seat_of: dict[Phone, Seat] = {}
        self.vanished: list[tuple[float, Phone]] = []  # silent sockets, closed by us much later
        self.latencies: list[float] = []
        self.commands = self.reconnects = self.refused = self.missed = 0
        self.kinds = {"clean": 0, "dropped": 0, "silent": 0}

    # -- phones ---------------------------------------------------------------------------
    def wake(self, seat: Seat) -> None:
        path = f"/ws/{seat.table.code}?token={seat.token}" + (f"&since={seat.seq}" if seat.seq else "")
        try:
            phone = Phone(self.port, path, self.on_text, BROWSER_OFFER, seat.address)
        except (OSError, RuntimeError):
            self.refused += 1
            return
        seat.phone, seat.ready = phone, False
        self.seat_of[phone] = seat
        self.loop.add(phone)
        phone.readable = self._reader(phone)  # type: ignore[method-assign]

    def _reader(self, phone: Phone):  # type: ignore[no-untyped-def]
        """The phone's own reading, noticing a connection the server ended."""
        read = Phone.readable

        def readable(now: float) -> None:
            try:
                read(phone, now)
            except OSError:
                pass
            if phone.closed:
                self.forget(phone)
        return readable

    def sleep(self, seat: Seat, now: float) -> None:
        phone = seat.phone
        if phone is None:
            return
        kind = self.rng.choice(("clean", "dropped", "silent"))
        self.kinds[kind] += 1
        self.forget(phone)
        if kind == "clean":
            phone.close()
        elif kind == "dropped":
            phone.sock.close()
        else:  # kept open and unread until well after the server's ping timeout
            self.vanished.append((now + 60, phone))

    def forget(self, phone: Phone) -> None:
        seat = self.seat_of.pop(phone, None)
        if seat is None:
            return
        try:
            self.loop.sel.unregister(phone.sock)
        except (KeyError, ValueError):
            pass
        seat.phone, seat.ready = None, False
        for sent in seat.table.sent.values():
            sent.waiting.discard(seat)

    def on_text(self, phone: Phone, text: str, now: float) -> None:
        seat = self.seat_of.get(phone)
        if seat is None:
            return
        msg = json.loads(text)
        seat.seq = max(seat.seq, msg.get("seq") or 0)
        if msg["type"] == "ready":
            seat.ready = True
        elif msg["type"] == "event" and msg["event"]["type"] == "TimerStarted":
            sent = seat.table.sent.get(msg["event"]["duration_ms"] // 1000)
            if sent is not None and seat in sent.waiting:
                sent.waiting.discard(seat)
                if not sent.waiting:
                    self.latencies.append((now - sent.at) * 1000)

    # -- the evening ----------------------------------------------------------------------
    def command(self, table: Table, now: float) -> None:
        sender = table.seats[0]
        if sender.phone is None or not sender.ready:
            return
        table.mark = table.mark % 600 + 1
        table.sent[table.mark] = Sent(time.perf_counter(), {s for s in table.seats if s.ready})
        sender.phone.send(json.dumps({"type": "timer.start", "seconds": table.mark}))
        self.commands += 1

    def expire(self, now: float) -> None:
        for table in self.tables:
            for mark in [m for m, s in table.sent.items() if now - s.at > MISSED_AFTER_S]:
                self.missed += len(table.sent.pop(mark).waiting)
        while self.vanished and self.vanished[0][0] <= now:
            self.vanished.pop(0)[1].sock.close()

    def run(self, seconds: float, interval: float, report) -> None:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        plan: list[tuple[float, int, str, object]] = []
        n = 0
        for table in self.tables:
            heapq.heappush(plan, (start + self.rng.uniform(0, interval), n := n + 1, "command", table))
            for seat in table.seats:
                heapq.heappush(plan, (start + self.rng.uniform(*AWAKE_S), n := n + 1, "sleep", seat))
        heapq.heappush(plan, (start + 60, n := n + 1, "report", None))
        end = start + seconds

        def tick(now: float) -> float:
            nonlocal n
            while plan and plan[0][0] <= now:
                _, _, what, subject = heapq.heappop(plan)
                if what == "command":
                    self.command(subject, now)  # type: ignore[arg-type]
                    heapq.heappush(plan, (now + interval, n := n + 1, what, subject))
                elif what == "sleep":
                    self.sleep(subject, now)  # type: ignore[arg-type]
                    heapq.heappush(plan, (now + self.rng.uniform(*ASLEEP_S), n := n + 1, "wake", subject))
                elif what == "wake":
                    self.wake(subject)  # type: ignore[arg-type]
                    self.reconnects += 1
                    heapq.heappush(plan, (now + self.rng.uniform(*AWAKE_S), n := n + 1, "sleep", subject))
                else:
                    report(self)
                    heapq.heappush(plan, (now + 60, n := n + 1, what, subject))
                self.expire(now)
            return plan[0][0] if plan else now + 0.05

        self.loop.run(lambda: False, end, tick)
        report(self)  # the last, partial minute

    def all_awake(self) -> None:
        """Everyone back, the silent sockets closed; wait until every phone is ready."""
        for _, phone in self.vanished:
            phone.sock.close()
        self.vanished.clear()
        for table in self.tables:
            for seat in table.seats:
                if seat.phone is None:
                    self.wake(seat)
            self.loop.pump()
        seats = [s for t in self.tables for s in t.seats]
        self.loop.run(lambda: all(s.ready for s in seats), time.perf_counter() + 60)


def figures(pid: int) -> dict[str, float]:
    return {"threads": proc_status(pid, "Threads"), "fds": len(os.listdir(f"/proc/{pid}/fd")),
            "rss_mb": proc_status(pid, "VmRSS") / 1024, "cpu_s": cpu_seconds(pid)}


def settle(night: Night, seconds: float) -> dict[str, float]:
    night.loop.run(lambda: False, time.perf_counter() + seconds)  # pings answered meanwhile
    return figures(night.pid)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--phones", type=int, default=6)
    ap.add_argument("--interval", type=float, default=2.0, help="seconds between a table's commands")
    ap.add_argument("--port", type=int, default=0, help="the server's port (0: any free one)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--warmup", type=int, default=5, help="minutes after which RSS is compared again")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as d:
        env = {**os.environ, "COMPANION_JOINS_PER_MINUTE": "100000",
               "COMPANION_CREATIONS_PER_MINUTE": "100000"}
        env.pop("COMPANION_PUBLIC_URL", None)
        proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                                 "--port", str(args.port), "--db", f"{d}/soak.db"], cwd=d, env=env,
                                text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            url = next(line for line in proc.stdout if "open:" in line).split("open:")[1].strip().rstrip("/")
            wait_http(url + "/healthz")
            port = int(url.rsplit(":", 1)[1])
            tables = []
            for _ in range(args.tables):
                t = post(url + "/api/tables", {"game": "rankfile"})
                table = Table(t["code"])
                table.seats = [Seat(table, post(f"{url}/api/tables/{t['code']}/players",
                                                {"name": f"P{i}"})["token"]) for i in range(args.phones)]
                tables.append(table)
            night = Night(port, proc.pid, tables, rng)
            night.all_awake()
            base = settle(night, 3)
            print(f"soak: {args.tables} tables × {args.phones} phones for {args.minutes:g} min, awake "
                  f"{AWAKE_S[0]:g}–{AWAKE_S[1]:g} s, asleep {ASLEEP_S[0]:g}–{ASLEEP_S[1]:g} s, a command per "
                  f"table every {args.interval:g} s; `companion serve` pid {proc.pid}; load average "
                  f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            print(f"baseline, every phone connected: threads {base['threads']:.0f}, fds {base['fds']:.0f}, "
                  f"RSS {base['rss_mb']:.1f} MB")
            print(f"{'min':>4} {'threads':>8} {'fds':>6} {'RSS MB':>7} {'open':>5} {'commands':>9} "
                  f"{'reconnects':>11} {'p95 ms':>7} {'missed':>7} {'cpu %':>6}")
            last = {"at": time.perf_counter(), "cpu_s": base["cpu_s"], "n": 0, "minute": 0}
            rss: list[float] = []  # at the end of each minute

            def report(night: Night) -> None:
                f, now = figures(proc.pid), time.perf_counter()
                window = night.latencies[last["n"]:]
                p95 = statistics.quantiles(window, n=100, method="inclusive")[94] if len(window) > 1 else 0.0
                cpu = (f["cpu_s"] - last["cpu_s"]) / (now - last["at"]) * 100
                last.update(at=now, cpu_s=f["cpu_s"], n=len(night.latencies), minute=last["minute"] + 1)
                rss.append(f["rss_mb"])
                connected = len(night.seat_of) + len(night.vanished)
                print(f"{last['minute']:4d} {f['threads']:8.0f} {f['fds']:6.0f} {f['rss_mb']:7.1f} "
                      f"{connected:5d} {night.commands:9d} {night.reconnects:11d} {p95:7.2f} "
                      f"{night.missed:7d} {cpu:6.1f}", flush=True)

            night.run(args.minutes * 60, args.interval, report)
            night.all_awake()
            end = settle(night, 5)
            q = statistics.quantiles(night.latencies, n=100, method="inclusive")
            print(f"commands {night.commands}, received by every ready phone {len(night.latencies)}, "
                  f"missed receipts {night.missed}; reconnects {night.reconnects} (refused {night.refused}); "
                  f"sleeps: {night.kinds['clean']} clean, {night.kinds['dropped']} dropped, "
                  f"{night.kinds['silent']} silent")
            print(f"command → last receipt: p50 {q[49]:.2f} ms, p95 {q[94]:.2f} ms, p99 {q[98]:.2f} ms")
            grew = []
            for key, allowed in (("threads", base["threads"] + 10), ("fds", base["fds"] + 10),
                                 ("rss_mb", base["rss_mb"] * 1.10)):
                ok = end[key] <= allowed
                grew += [] if ok else [key]
                print(f"{key:8} start {base[key]:8.1f}  end {end[key]:8.1f}  allowed ≤ {allowed:8.1f}  "
                      f"{'ok' if ok else 'GREW'}")
            if len(rss) > args.warmup:
                warm, since = rss[args.warmup - 1], max(rss[args.warmup:])
                ok = max(end["rss_mb"], since) <= warm * 1.10
                grew += [] if ok else ["rss_mb after warm-up"]
                print(f"rss_mb   after minute {args.warmup} {warm:.1f}, highest since {since:.1f}, end "
                      f"{end['rss_mb']:.1f}  allowed ≤ {warm * 1.10:8.1f}  {'ok' if ok else 'GREW'}")
            print(("nothing grew" if not grew else f"grew: {', '.join(grew)}")
                  + f"; load average {os.getloadavg()[0]:.1f} at the end")
        finally:
            proc.kill()
            proc.wait()
            proc.stdout.close()


if __name__ == "__main__":
    main()
