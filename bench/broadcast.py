"""Time from a command to the last phone's receipt, over real websockets on loopback.

N tables × M phones connect to a Table Companion server and to two minimal Flask-SocketIO
servers doing the same broadcast (bench/socketio_peer.py): the fair peer commits each command to
SQLite (WAL, synchronous=FULL) before it relays, as Table Companion does; the other only relays.
In each table one phone sends a command every --interval seconds; every phone of the table must
receive it. Prints p50/p95/p99 of command → last receipt, the server's threads per connection
and its CPU per command, for all three from one run. Table Companion also builds each phone's
own view before sending. ``--sweep 300,600,1000`` repeats it for that many phones in all (tables
of --phones each) at the same total rate of commands (--rate), to show how p95 and CPU per
command grow with the room.

The phones are one selector loop over plain sockets, not a thread each, so the
client's own CPU stays small next to the servers' on a shared 2-core machine. Each phone
connects from its own loopback address (127.1.0.1, 127.1.0.2, …), as each phone at a table
has its own: the server holds at most 64 connections per address. Tables send on a
fixed schedule, each at its own phase of the interval (tables at a café do not coordinate);
``--burst`` makes them all send in the same instant, the worst case.

    python bench/broadcast.py [--tables 50] [--phones 6] [--rounds 20] [--server gunicorn]
    python bench/broadcast.py --sweep 300,600,1000 [--rate 250] [--port 18100]

``--workers 1 2 4`` measures throughput instead: commands/s and their latency through 1, 2 and
4 server processes on one PostgreSQL (a throwaway cluster, fsync on), with phones dealt over
the processes, beside one process on SQLite.

    python bench/broadcast.py --workers 1 2 4 [--tables 50] [--phones 6] [--rounds 20]
"""

from __future__ import annotations

import argparse
import base64
import itertools
import json
import os
import random
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str) -> None:
    for _ in range(400):
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


def proc_status(pid: int, key: str) -> int:
    return int(next(line.split()[1] for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                    if line.startswith(key + ":")))


def cpu_seconds(pid: int) -> float:
    """User + system time of a process and all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loopback_addresses() -> Iterator[str]:
    """A source address per phone: all of 127.0.0.0/8 is this machine's (Linux answers on
    it without configuration), so 64,000 phones can each have their own before one repeats.
    From 127.0.0.1 alone the server refuses the 65th (its cap per address)."""
    for n in itertools.count():
        yield f"127.1.{n // 250 % 256}.{1 + n % 250}"


ADDRESSES = loopback_addresses()
READY = "ready"


def arrival(text: str) -> str | None:
    """READY, the mark (duration) of a TimerStarted event, or None; found without parsing
    the whole message (the state in it is most of its bytes, and the phones share the
    servers' 2 cores)."""
    if text.startswith('{"type":"ready"'):
        return READY
    i = text.find('"event":{"type":"TimerStarted"')
    if i < 0:
        return None
    j = text.find('"duration_ms":', i) + len('"duration_ms":')
    k = j
    while text[k].isdigit():
        k += 1
    return text[j:k]


class Phone:
    """One websocket client; ``on_text(phone, text, now)`` sees each message.

    The framing is done here rather than by a websocket library: the phones share the 2 cores
    with the servers they measure, and a library's parsing of every message cost the bench a
    third of a core at 800 commands/s. Server frames are unmasked (RFC 6455); ours are masked.
    """

    def __init__(self, port: int, path: str, on_text: Callable[[Phone, str, float], None],
                 offer: str = "", source: str | None = None) -> None:
        """``source``: the phone's loopback address (default: the next of ADDRESSES)."""
        self.sock = socket.create_connection(("127.0.0.1", port),
                                             source_address=(source or next(ADDRESSES), 0))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.on_text = on_text
        self.ready = False
        self.closed = False  # the server sent its close frame, or ended the connection
        self.arrivals: dict[str, float] = {}
        self._parts: list[bytes] = []
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           f"Sec-WebSocket-Version: 13\r\n{offer}\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("handshake refused: connection closed")
            head += chunk
        head, _, rest = head.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"handshake refused: {head.splitlines()[0]!r}")
        if b"sec-websocket-extensions" in head.lower():  # frames this framing cannot read
            raise RuntimeError(f"the server accepted an extension: {head!r}")
        self._buf = bytearray(rest)
        self.sock.setblocking(False)

    def _frame(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        if n < 126:
            size = bytes([0x80 | n])
        elif n < 65536:
            size = bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            size = bytes([0x80 | 127]) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        masked = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big")
        self.sock.sendall(bytes([0x80 | opcode]) + size + mask + masked)

    def send(self, text: str) -> None:
        self._frame(0x1, text.encode())

    def note(self, text: str, now: float) -> str | None:
        """A Table Companion message: "ready" makes the phone ready; a command's mark is
        recorded with when it came, and returned."""
        mark = arrival(text)
        if mark == READY:
            self.ready = True
            return None
        if mark is not None:
            self.arrivals[mark] = now
        return mark

    def close(self, code: int = 1000) -> None:
        """A clean close: the close frame, then the socket."""
        try:
            self._frame(0x8, code.to_bytes(2, "big"))
        except OSError:
            pass
        self.sock.close()

    def readable(self, now: float) -> None:
        """``now``: when the loop saw the socket readable, so phones read later in the same
        batch are not charged for the client's own parsing of the ones before them."""
        try:
            data = self.sock.recv(262144)
        except BlockingIOError:
            return
        if not data:
            self.closed = True
            return
        buf = self._buf
        buf += data
        while len(buf) >= 2:
            n, at = buf[1] & 0x7F, 2
            if n == 126:
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                break
            fin, opcode, payload = buf[0] & 0x80, buf[0] & 0x0F, bytes(buf[at:at + n])
            del buf[:at + n]
            if opcode in (0x0, 0x1):
                self._parts.append(payload)
                if fin:
                    text, self._parts = b"".join(self._parts).decode(), []
                    self.on_text(self, text, now)
            elif opcode == 0x9:
                self._frame(0xA, payload)
            elif opcode == 0x8:
                self.closed = True


class Loop:
    """Every phone on one selector; runs until a condition holds or a deadline passes."""

    def __init__(self) -> None:
        self.sel = selectors.DefaultSelector()

    def add(self, phone: Phone) -> Phone:
        self.sel.register(phone.sock, selectors.EVENT_READ, phone)
        return phone

    def pump(self) -> None:
        """Read what has arrived, without waiting: phones connected early in a long set-up
        must answer the server's pings, or it rightly takes them for gone."""
        seen = time.perf_counter()
        for key, _ in self.sel.select(0):
            key.data.readable(seen)

    def run(self, until: Callable[[], bool], deadline: float,
            tick: Callable[[float], float] | None = None) -> None:
        """``tick(now)`` does what is due and returns when it next needs to run."""
        while not until() and time.perf_counter() < deadline:
            now = time.perf_counter()
            wake = tick(now) if tick else deadline
            ready = self.sel.select(max(0.0, min(wake, deadline) - time.perf_counter()))
            seen = time.perf_counter()
            for key, _ in ready:
                key.data.readable(seen)


@dataclass
class Table:
    phones: list[Phone]  # the first one sends
    command: Callable[[str], str]  # the frame of the command carrying a mark
    phase: float
    sent: dict[str, float] = field(default_factory=dict)


def mark_of(round_: int) -> str:
    return str((round_ + 1) * 1000)


def drive(loop: Loop, tables: list[Table], args: argparse.Namespace) -> list[float]:
    """Open loop: table t sends round r at start + phase_t + r × interval, whatever the
    answers to earlier rounds; latency is the last phone's receipt minus the send."""
    start = time.perf_counter() + 0.2
    plan = sorted((start + t.phase + r * args.interval, i, r)
                  for i, t in enumerate(tables) for r in range(args.rounds))
    pos = 0

    def tick(now: float) -> float:
        nonlocal pos
        while pos < len(plan) and plan[pos][0] <= now:
            _, i, r = plan[pos]
            t = tables[i]
            t.sent[mark_of(r)] = time.perf_counter()
            t.phones[0].send(t.command(mark_of(r)))
            pos += 1
        return plan[pos][0] if pos < len(plan) else now + 0.05

    def done() -> bool:
        return pos == len(plan) and all(
            all(m in p.arrivals for p in t.phones) for t in tables for m in t.sent)

    loop.run(done, start + args.rounds * args.interval + 15, tick)
    return [(max(p.arrivals[m] for p in t.phones) - t0) * 1000
            for t in tables for m, t0 in t.sent.items() if all(m in p.arrivals for p in t.phones)]


def phases(args: argparse.Namespace) -> list[float]:
    rng = random.Random(8)
    return [0.0 if args.burst else rng.uniform(0, args.interval) for _ in range(args.tables)]


def serving_pid(proc: subprocess.Popen) -> int:
    """The process that serves: gunicorn's one worker, or the server itself."""
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    return int(children[0]) if children else proc.pid


def measure(pid: int, loop: Loop, tables: list[Table], base_threads: int,
            args: argparse.Namespace) -> dict:
    """Once every phone is ready: threads per phone, then the run with the server's CPU."""
    everyone = [p for t in tables for p in t.phones]
    loop.run(lambda: all(p.ready for p in everyone), time.perf_counter() + 30)
    per_conn = (proc_status(pid, "Threads") - base_threads) / (args.tables * args.phones)
    cpu0 = cpu_seconds(pid)
    res = drive(loop, tables, args)
    cpu_ms = (cpu_seconds(pid) - cpu0) * 1000 / (args.tables * args.rounds)
    return {"latencies": res, "threads": per_conn, "cpu_ms": cpu_ms,
            "rss_mb": proc_status(pid, "VmRSS") / 1024}


def port_for(args: argparse.Namespace, offset: int) -> int:
    """Each server's port: --port, --port + 1, --port + 2, or any free one."""
    return args.port + offset if args.port else free_port()


def companion_server(port: int, server: str) -> list[str]:
    if server == "gunicorn":
        return [sys.executable, "-m", "gunicorn", "-w", "1", "--threads", "512", "-b",
                f"127.0.0.1:{port}", "wsgi:app"]
    return [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port)]


def bench_companion(args: argparse.Namespace) -> dict:
    port = port_for(args, 0)
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        proc = subprocess.Popen(companion_server(port, args.server), cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                # every phone joins from this one address: lift the join limit
                                env={**os.environ, "COMPANION_PUBLIC_URL": base,
                                     "COMPANION_DATABASE_URL": f"sqlite:///{d}/bench.db",
                                     "COMPANION_JOINS_PER_MINUTE": "100000",
                                     "COMPANION_CREATIONS_PER_MINUTE": "100000"})
        try:
            wait_http(base + "/healthz")
            pid = serving_pid(proc)
            base_threads = proc_status(pid, "Threads")
            loop = Loop()

            on_text = Phone.note

            tables = []
            for phase in phases(args):
                t = post(base + "/api/tables", {"game": "rankfile"})
                toks = [post(f"{base}/api/tables/{t['code']}/players", {"name": f"P{i}"})["token"]
                        for i in range(args.phones)]
                phones = [loop.add(Phone(port, f"/ws/{t['code']}?token={tok}", on_text)) for tok in toks]
                loop.pump()
                tables.append(Table(phones, lambda mark: json.dumps(
                    {"type": "timer.start", "seconds": int(mark) // 1000}), phase))
            return measure(pid, loop, tables, base_threads, args)
        finally:
            proc.kill()
            proc.wait()


def bench_socketio(args: argparse.Namespace, durable: bool) -> dict:
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        return _bench_socketio(args, port_for(args, 1 + durable), [f"{d}/peer.db"] if durable else [])


def _bench_socketio(args: argparse.Namespace, port: int, db: list[str]) -> dict:
    proc = subprocess.Popen([sys.executable, str(HERE / "socketio_peer.py"), str(port), *db],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_http(f"http://127.0.0.1:{port}/socket.io/?EIO=4&transport=polling")
        pid = serving_pid(proc)
        base_threads = proc_status(pid, "Threads")
        loop = Loop()
        room: dict[Phone, str] = {}

        def on_text(phone: Phone, text: str, now: float) -> None:
            if text == "2":
                phone.send("3")  # Engine.IO ping → pong
            elif text.startswith("0"):
                phone.send("40")  # Engine.IO open → Socket.IO connect
            elif text.startswith("40"):
                phone.send("42" + json.dumps(["join", {"table": room[phone]}]))
            elif text.startswith("42"):
                name, payload = json.loads(text[2:])
                if name == "joined":
                    phone.ready = True
                elif name == "event":
                    phone.arrivals[payload["mark"]] = now

        tables = []
        for n, phase in enumerate(phases(args)):
            phones = []
            for _ in range(args.phones):
                p = loop.add(Phone(port, "/socket.io/?EIO=4&transport=websocket", on_text))
                room[p] = f"t{n}"
                phones.append(p)
            loop.pump()
            tables.append(Table(phones, lambda mark, name=f"t{n}": "42" + json.dumps(
                ["cmd", {"table": name, "mark": mark}]), phase))
        return measure(pid, loop, tables, base_threads, args)
    finally:
        proc.kill()
        proc.wait()


# -- several server processes (--workers) ---------------------------------------------------
def process_tree(pid: int) -> list[int]:
    """A process and its descendants (PostgreSQL's backends under its postmaster)."""
    kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [pid] + [q for k in kids for q in process_tree(int(k))]


def tree_cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        for q in process_tree(pid):
            try:
                total += cpu_seconds(q)
            except (FileNotFoundError, ProcessLookupError):
                pass  # a backend that ended meanwhile
    return total


def bench_processes(args: argparse.Namespace, workers: int, db_url: str, route: str,
                    db_pid: int | None = None) -> dict:
    """``workers`` server processes on one database. ``route="spread"``: phones dealt
    round-robin over them, as a plain load balancer does (a table's phones sit on different
    processes, and each command reaches most of them through the fan-out); ``"table"``: all
    of a table's phones on one process, as a balancer that hashes the table code in the URL
    does (the fan-out then has nothing to carry). Closed loop: each table sends its next
    command as soon as every one of its phones received the last; commands/s over the run,
    and where the CPU went: the servers, the database, the bench's own phones. The first
    ``args.warmup`` commands of each table are not measured: they are where each process
    opens its database connections and runs its code paths for the first time, which in a
    short run is most of what a second process adds."""
    ports = [free_port() for _ in range(workers)]
    env = {**os.environ, "COMPANION_DATABASE_URL": db_url, "COMPANION_JOINS_PER_MINUTE": "100000",
           "COMPANION_CREATIONS_PER_MINUTE": "100000"}
    procs = [subprocess.Popen(companion_server(port, "gunicorn"), cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL,
                              env={**env, "COMPANION_PUBLIC_URL": f"http://127.0.0.1:{port}"})
             for port in ports]
    try:
        for port in ports:
            wait_http(f"http://127.0.0.1:{port}/healthz")
        loop, tables = Loop(), []
        where: dict[Phone, Table] = {}
        goal = 0  # the rounds each table has sent once it stops

        def send_next(t: Table) -> None:
            """From the table's phones in turn: one phone alone would be held to the server's
            limit on frames a second (20, bursts of 40), which a closed loop passes."""
            mark = mark_of(len(t.sent))
            t.sent[mark] = time.perf_counter()
            t.phones[len(t.sent) % len(t.phones)].send(t.command(mark))

        def on_text(phone: Phone, text: str, now: float) -> None:
            mark = phone.note(text, now)
            if mark is not None:
                t = where[phone]
                if len(t.sent) < goal and all(mark in p.arrivals for p in t.phones):
                    send_next(t)

        n = 0
        for _ in range(args.tables):
            base = f"http://127.0.0.1:{ports[n % workers]}"
            t = post(base + "/api/tables", {"game": "rankfile"})
            phones = []
            for i in range(args.phones):
                port = ports[(n + i) % workers] if route == "spread" else ports[n % workers]
                tok = post(f"http://127.0.0.1:{port}/api/tables/{t['code']}/players",
                           {"name": f"P{i}"})["token"]
                phones.append(loop.add(Phone(port, f"/ws/{t['code']}?token={tok}", on_text)))
            n += 1
            tables.append(Table(phones, lambda mark: json.dumps(
                {"type": "timer.start", "seconds": int(mark) // 1000}), 0.0))
            where.update({p: tables[-1] for p in phones})
        everyone = [p for t in tables for p in t.phones]
        loop.run(lambda: all(p.ready for p in everyone), time.perf_counter() + 60)

        def play(rounds: int) -> float:
            """Each table sends ``rounds`` more commands, one after another; returns the start."""
            nonlocal goal
            goal, start = goal + rounds, time.perf_counter()
            if rounds:
                for t in tables:
                    send_next(t)
                loop.run(lambda: all(len(t.sent) == goal and all(m in p.arrivals for p in t.phones)
                                     for t in tables for m in t.sent), start + 120)
            return start

        play(args.warmup)
        warm = {id(t): set(t.sent) for t in tables}
        pids = [serving_pid(p) for p in procs]
        db = [db_pid] if db_pid else []
        cpu0, db0, mine0 = tree_cpu(pids), tree_cpu(db), time.process_time()
        start = play(args.rounds)
        measured = [(t, m, t0) for t in tables for m, t0 in t.sent.items() if m not in warm[id(t)]]
        elapsed = max(p.arrivals[m] for t, m, _ in measured for p in t.phones if m in p.arrivals) - start
        latencies = [(max(p.arrivals[m] for p in t.phones) - t0) * 1000
                     for t, m, t0 in measured if all(m in p.arrivals for p in t.phones)]
        per_cmd = 1000 / max(1, len(latencies))
        return {"latencies": latencies, "per_s": len(latencies) / elapsed,
                "cpu_ms": (tree_cpu(pids) - cpu0) * per_cmd, "db_ms": (tree_cpu(db) - db0) * per_cmd,
                "client_ms": (time.process_time() - mine0) * per_cmd}
    finally:
        for p in procs:
            p.kill()
            p.wait()


def bench_workers(args: argparse.Namespace) -> None:
    from companion.storage.pgcluster import PostgresCluster

    print(f"processes: {args.tables} tables × {args.phones} phones, {args.rounds} commands per table, "
          "each sent once the last reached every phone of its table; gunicorn -w 1 --threads 512 "
          f"per process; {os.cpu_count()} cores for servers, database and phones together")
    print(f"{'server':34} {'commands/s':>10} {'p50 ms':>8} {'p95 ms':>8} {'received':>9}"
          f" {'server':>7} {'db':>6} {'phones':>7}  cpu ms/cmd  {'cores allow':>11}")
    runs: list[tuple[str, Callable[[], dict]]] = []
    gains: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        sqlite = f"sqlite:///{d}/bench.db"
        runs.append(("SQLite, 1 process", lambda: bench_processes(args, 1, sqlite, "table")))
        cluster = PostgresCluster(durable=True)
        try:
            db_pid = int((cluster.data / "postmaster.pid").read_text().split()[0])
            for route in args.route:
                for n in args.workers:
                    name = f"PostgreSQL, {n} process" + "es" * (n > 1) + (f", {route}" if n > 1 else "")
                    runs.append((name,
                                 lambda n=n, route=route: bench_processes(
                                     args, n, cluster.new_database(), route, db_pid)))
            one = None
            for i in range(args.repeat):
                if i:
                    print()
                for name, run in runs if i == 0 else runs[1:]:
                    r = run()
                    q = statistics.quantiles(r["latencies"], n=100, method="inclusive")
                    one = r["per_s"] if name == "PostgreSQL, 1 process" else one
                    gain = ""
                    if one and not name.startswith("SQLite"):
                        gains.setdefault(name, []).append(r["per_s"] / one)
                        gain = f"  {r['per_s'] / one:4.2f}× one"
                    # What the machine's cores could do at this CPU per command, all of them
                    # busy: the ceiling that more processes on this machine cannot pass.
                    ceiling = os.cpu_count() * 1000 / (r["cpu_ms"] + r["db_ms"] + r["client_ms"])
                    print(f"{name:34} {r['per_s']:10.0f} {q[49]:8.2f} {q[94]:8.2f}"
                          f" {len(r['latencies']):9d} {r['cpu_ms']:7.2f} {r['db_ms']:6.2f}"
                          f" {r['client_ms']:7.2f}  {ceiling:21.0f}{gain}", flush=True)
            if args.repeat > 1:  # the machine's speed moves between runs: a ratio is taken within one
                print(f"\nover {args.repeat} rounds, each ratio against the 1 process just before it:")
                for name, g in gains.items():
                    if not name.endswith(", 1 process"):
                        print(f"{name:34} median {statistics.median(g):4.2f}× one"
                              f"  (min {min(g):4.2f}×, max {max(g):4.2f}×)")
        finally:
            cluster.remove()


SERVERS: list[tuple[str, Callable[[argparse.Namespace], dict]]] = [
    ("Table Companion", bench_companion),
    ("SocketIO+commit", lambda args: bench_socketio(args, durable=True)),
    ("SocketIO relay", lambda args: bench_socketio(args, durable=False)),
]


def run_point(args: argparse.Namespace) -> dict[str, list[float]]:
    print(f"{'server':18} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'received':>9} {'threads/conn':>13}"
          f" {'cpu ms/cmd':>11} {'RSS MB':>7}")
    rows = {}
    for name, fn in (SERVERS[int(i) - 1] for i in args.only):
        r = fn(args)
        q = statistics.quantiles(r["latencies"], n=100, method="inclusive")
        rows[name] = q
        print(f"{name:18} {q[49]:8.2f} {q[94]:8.2f} {q[98]:8.2f} {len(r['latencies']):9d}"
              f" {r['threads']:13.2f} {r['cpu_ms']:11.2f} {r['rss_mb']:7.1f}", flush=True)
    a = rows.get("Table Companion")
    for peer in [p for p in ("SocketIO+commit", "SocketIO relay") if a and p in rows]:
        b = rows[peer]
        print(f"{'ratio':18} {a[49] / b[49]:7.2f}× {a[94] / b[94]:7.2f}× {a[98] / b[98]:7.2f}×"
              f"  (Companion / {peer})")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--phones", type=int, default=6, help="phones per table")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--interval", type=float, default=0.2)
    ap.add_argument("--sweep", help="totals of phones to run one after another, e.g. 300,600,1000")
    ap.add_argument("--rate", type=float, default=250.0,
                    help="with --sweep: commands a second over all tables (sets each table's interval)")
    ap.add_argument("--port", type=int, default=0,
                    help="first of three ports for the servers (default: any free ones)")
    ap.add_argument("--dir", help="where the databases go (default: the temp dir)")
    ap.add_argument("--burst", action="store_true", help="every table sends at the same instant")
    ap.add_argument("--only", help="the servers to run, by number: 1 Table Companion, 2 SocketIO+commit, "
                    "3 SocketIO relay (default 123)", default="123")
    ap.add_argument("--server", choices=("werkzeug", "gunicorn"), default="werkzeug",
                    help="how Table Companion is served: `companion serve` or gunicorn with threads")
    ap.add_argument("--route", nargs="+", choices=("spread", "table"), default=["spread", "table"],
                    help="with --workers: phones dealt round-robin over the processes, or by table")
    ap.add_argument("--warmup", type=int, default=5,
                    help="with --workers: commands per table sent before the measured ones")
    ap.add_argument("--repeat", type=int, default=1,
                    help="with --workers: run the PostgreSQL servers this many times, in turn, and "
                         "print the median of each ratio")
    ap.add_argument("--workers", type=int, nargs="+", metavar="N",
                    help="instead: commands/s through N server processes on PostgreSQL, for each N "
                         "given (e.g. 1 2 4), beside one process on SQLite")
    args = ap.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket per phone, here and in
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the servers, which inherit it
    if args.workers:
        bench_workers(args)
        return
    points = [args]
    if args.sweep:
        points = []
        for total in (int(n) for n in args.sweep.split(",")):
            tables = max(1, total // args.phones)
            points.append(argparse.Namespace(**{**vars(args), "tables": tables,
                                                "interval": tables / args.rate}))
    summary = []
    for p in points:
        print(f"\nbroadcast: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
              f"{p.tables} tables × {p.phones} phones = {p.tables * p.phones}, "
              f"{p.rounds} commands per table, one every {p.interval:.3g} s per table "
              f"({p.tables / p.interval:.0f}/s), {'all at once' if p.burst else 'phases spread'}; "
              f"Table Companion on {p.server}")
        summary.append((p, run_point(p)))
    if len(summary) > 1 and args.only == "123":
        print(f"\n{'phones':>7} {'Companion p95':>14} {'+commit p95':>12} {'relay p95':>10} "
              f"{'vs +commit':>11} {'vs relay':>9}")
        for p, rows in summary:
            a, b, c = (rows[n][94] for n, _ in SERVERS)
            print(f"{p.tables * p.phones:7d} {a:14.2f} {b:12.2f} {c:10.2f} {a / b:10.2f}× {a / c:8.2f}×")


if __name__ == "__main__":
    main()
