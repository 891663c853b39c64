"""A slow guest costs a buffer, not the room (#35 item 1): `companion serve` under the attack of
many loopback addresses (127.0.x.y, 64 connections each, the per-address cap) that drip request
heads, then request bodies (a complete head, `Content-Length: 60000`, a byte every 5 s), and
open again whatever the server closes. Meanwhile a seated phone asks its table's state and
opens its websocket, over and over. Prints the phone's worst wait under each attack; then the
server's memory with 20,000 connections that have not completed a request (a third kept alive
after a request, a third dripping a head, a third a body), per connection.

    python bench/slow_guest.py [--seconds 20] [--addresses 100] [--held 20000]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from broadcast import post, proc_status, wait_http
from simple_websocket import Client


class PhoneClient(Client):
    """simple-websocket's client takes only the handshake's answer from its first read: a
    snapshot that came in the same read waited in its parser for more data, and the phone saw
    nothing (about 1 connection in 15 on loopback). Take it in at once, as tests/conftest.py's
    phone does."""

    def handshake(self) -> None:
        super().handshake()
        self._handle_events()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
BODY = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 60000\r\n\r\n{")
DRIP_EVERY_S = 5.0
PER_HOLDER = 6000  # connections a child process opens and holds


def source(i: int) -> str:
    """The i-th loopback address from 127.0.1.1 on: all of 127.0.0.0/8 is this machine."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


def serve(d: str, timeout_s: float) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                             "--port", "0", "--db", f"{d}/slow.db"], cwd=d, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": ROOT, "PYTHONUNBUFFERED": "1",
                                 "COMPANION_REQUEST_TIMEOUT_S": str(timeout_s)})
    assert proc.stdout is not None
    url = next(line for line in proc.stdout if "open:" in line).split("open:")[1].strip().rstrip("/")
    wait_http(url + "/healthz")
    return proc, url


def opened(port: int, address: str, start: bytes) -> socket.socket | None:
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(address, 0))
        s.sendall(start)
        s.setblocking(False)
        return s
    except OSError:
        return None


def attack(port: int, addresses: int, start: bytes, seconds: float) -> None:
    """Hold 64 connections from each address, each sending ``start`` and then a byte every
    ``DRIP_EVERY_S``; one the server ends (a 400, a 503, a close) is opened again at once."""
    slots: list[tuple[str, socket.socket | None]] = [(source(i), None) for i in range(addresses)
                                                     for _ in range(64)]
    end, next_drip = time.monotonic() + seconds, time.monotonic() + DRIP_EVERY_S
    while time.monotonic() < end:
        drip = time.monotonic() >= next_drip
        if drip:
            next_drip += DRIP_EVERY_S
        for n, (address, s) in enumerate(slots):
            if s is not None:
                try:
                    if s.recv(4096) is not None:  # an answer or the end: the server let go
                        s.close()
                        s = None
                except BlockingIOError:
                    if drip:
                        try:
                            s.send(b"X")
                        except OSError:
                            s.close()
                            s = None
                except OSError:
                    s.close()
                    s = None
            if s is None:
                s = opened(port, address, start)
            slots[n] = (address, s)
        time.sleep(0.2)


FAILURES: dict[str, int] = {}


def timed(fn) -> tuple[bool, float]:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    try:
        fn()
        ok = True
    except Exception as e:  # noqa: BLE001 - any failure counts, and is counted by its kind
        ok = False
        FAILURES[f"{fn.__name__}: {type(e).__name__} {e}"[:120]] = FAILURES.get(type(e).__name__, 0) + 1
    return ok, (time.monotonic() - started) * 1000


def seated_phone(url: str, table: dict, seconds: float) -> dict:
    """The host's phone: its state, then its websocket to the snapshot, twice a second."""
    code, token = table["code"], table["host_token"]
    ws_url = url.replace("http", "ws") + f"/ws/{code}?token={token}"

    def state() -> None:
        req = urllib.request.Request(f"{url}/api/tables/{code}/state",
                                     headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 200

    def websocket() -> None:
        ws = PhoneClient(ws_url, headers={"Origin": url})
        try:
            assert '"snapshot"' in (ws.receive(timeout=10) or "")
        finally:
            ws.close()

    tries: dict[str, list[tuple[bool, float]]] = {"state": [], "websocket": []}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        tries["state"].append(timed(state))
        tries["websocket"].append(timed(websocket))
        time.sleep(0.5)
    return {what: {"tries": len(t), "ok": sum(ok for ok, _ in t),
                   "ok_within_2s": sum(ok and ms < 2000 for ok, ms in t),
                   "p50_ms": round(statistics.median(ms for _, ms in t), 1),
                   "worst_ms": round(max(ms for _, ms in t), 1)} for what, t in tries.items()}


def under_attack(url: str, addresses: int, seconds: float) -> dict:
    port = int(url.rsplit(":", 1)[1])
    table = post(url + "/api/tables", {"game": "rankfile"})
    figures = {}
    for name, start in (("head_drip", HEAD), ("body_drip", BODY)):
        attacker = multiprocessing.Process(target=attack, args=(port, addresses, start, seconds + 8))
        attacker.start()
        time.sleep(5)  # every slot opened
        figures[name] = seated_phone(url, table, seconds)
        attacker.join()
    return {"addresses": addresses, "connections": addresses * 64, **figures}


def answered(s: socket.socket) -> None:
    """Read one whole answer (head and Content-Length's body) and no more."""
    s.setblocking(True)
    got = b""
    while b"\r\n\r\n" not in got or len(got.split(b"\r\n\r\n", 1)[1]) < int(
            got.lower().split(b"content-length:", 1)[1].split(b"\r\n", 1)[0]):
        chunk = s.recv(65536)
        if not chunk:
            return
        got += chunk


def hold(port: int, first: int, count: int, ready, stop) -> None:  # type: ignore[no-untyped-def]
    """In a child process (each has its own open-files limit): open connections ``first`` to
    ``first + count`` and hold them until told to stop."""
    held = []
    for i in range(first, first + count):
        kind = i % 3
        s = opened(port, source(i // 64), (HEAD, BODY, HEAD + b"\r\n")[kind])
        if s is None:
            continue
        if kind == 2:  # a whole request, answered; the connection stays open for the next
            answered(s)
        held.append(s)
    ready.set()
    stop.wait()


def held_memory(url: str, pid: int, count: int) -> dict:
    """RSS of the server before and after ``count`` connections that have not completed a request."""
    port = int(url.rsplit(":", 1)[1])
    for _ in range(20):  # warm: the app's first requests build what it keeps
        urllib.request.urlopen(url + "/healthz", timeout=10).read()
    time.sleep(1)
    before_kb, fds_before = proc_status(pid, "VmRSS"), len(os.listdir(f"/proc/{pid}/fd"))
    stop, holders = multiprocessing.Event(), []
    for first in range(0, count, PER_HOLDER):
        ready = multiprocessing.Event()
        holders.append((ready, multiprocessing.Process(
            target=hold, args=(port, first, min(PER_HOLDER, count - first), ready, stop))))
        holders[-1][1].start()
    for ready, _ in holders:
        ready.wait()
    time.sleep(2)
    after_kb, fds_after = proc_status(pid, "VmRSS"), len(os.listdir(f"/proc/{pid}/fd"))
    stop.set()
    for _, holder in holders:
        holder.join()
    server_held = fds_after - fds_before
    return {"asked": count, "held_by_server": server_held,
            "server_open_files_limit": proc_limit(pid),
            "rss_before_mb": round(before_kb / 1024, 1), "rss_after_mb": round(after_kb / 1024, 1),
            "bytes_per_connection": round((after_kb - before_kb) * 1024 / max(1, server_held))}


def proc_limit(pid: int) -> int:
    line = next(x for x in open(f"/proc/{pid}/limits") if x.startswith("Max open files"))
    return int(line.split()[3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=20, help="each attack's length")
    ap.add_argument("--addresses", type=int, default=100, help="attacking addresses, 64 connections each")
    ap.add_argument("--held", type=int, default=20000, help="connections held for the memory figure")
    args = ap.parse_args()
    # Every connection is a file, here and in the server (which raises its own soft limit to
    # the hard one, and caps its connections at three quarters of it).
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as d:
        proc, url = serve(d, timeout_s=10)
        try:
            attacked = under_attack(url, args.addresses, args.seconds)
        finally:
            proc.kill()
            proc.wait()
    memory = {}
    with tempfile.TemporaryDirectory() as d:
        if not args.held:
            return print(json.dumps({"seated_phone_under_attack": attacked, "phone_failures": FAILURES}))
        proc, url = serve(d, timeout_s=600)  # nothing expires while they are opened and counted
        try:
            memory = held_memory(url, proc.pid, args.held)
        finally:
            proc.kill()
            proc.wait()
    print(json.dumps({"seated_phone_under_attack": attacked, "phone_failures": FAILURES,
                      "held_connections": memory}, indent=1))


if __name__ == "__main__":
    main()
