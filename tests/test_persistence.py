"""The log survives restarts and kill -9: every acknowledged event is there afterwards."""

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from companion import create_app
from companion.store import Store, make_engine
from companion.table.log import Record


def test_restart_rebuilds_the_same_state(tables, db_url, clock):
    code, host, tokens, _ids = tables.seated("rankfile", ["Anna", "Bela"])
    tables.ok(code, tokens["Anna"], "timer.start", seconds=42)
    before = tables.state(code, tokens["Bela"])
    again = create_app({"DATABASE_URL": db_url, "CLOCK": clock}).test_client()
    after = again.get(f"/api/tables/{code}/state",
                      headers={"Authorization": f"Bearer {tokens['Bela']}"}).get_json()
    assert after == before


def test_sqlite_runs_in_wal_with_full_sync(app):
    engine = app.extensions["companion"].store.engine
    with engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert c.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000


def test_appends_that_queue_up_commit_together_and_a_bad_one_fails_alone(db_url):
    store = Store(make_engine(db_url))
    codes = [f"T{i:04d}" for i in range(24)]
    for code in codes:
        store.create_table(code, "rankfile", code * 4, Record(1, 1, "host", 0, {"type": "TableCreated"}))
    store.write_lock.acquire()  # hold the writer so that every append below queues up
    failures: dict[str, Exception] = {}

    def append(code: str, seq: int) -> None:
        try:
            store.append(code, [Record(seq, seq, "host", 1, {"type": "TimerStarted", "n": seq})])
        except Exception as e:  # noqa: BLE001 - collected for the assertion
            failures[code] = e

    threads = [threading.Thread(target=append, args=(c, 1 if c == "T0007" else 2)) for c in codes]
    for t in threads:
        t.start()
    time.sleep(0.3)
    store.write_lock.release()
    for t in threads:
        t.join(10)
    assert set(failures) == {"T0007"}  # seq 1 is taken: only that append fails
    for code in codes:
        assert [r.seq for r, _ in store.records(code)] == ([1] if code == "T0007" else [1, 2])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(base: str, path: str, body=None, token=None):
    req = urllib.request.Request(base + path, method="POST" if body is not None else "GET",
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json",
                                          **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.loads(r.read())


class Server:
    def __init__(self, db: str, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", db], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "COMPANION_PUBLIC_URL": f"http://127.0.0.1:{port}"})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if _call(self.base, "/healthz") == {"ok": True}:
                    return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def test_kill_9_loses_no_acknowledged_event(tmp_path):
    """Commands keep arriving while the server is killed at a random moment, mid-request
    or not; whatever was acknowledged before the kill must be in the log after restart."""
    db, port, rng = str(tmp_path / "crash.db"), _free_port(), random.Random(7)
    server = Server(db, port)
    t = _call(server.base, "/api/tables", {"game": "rankfile"})
    code, host = t["code"], t["host_token"]
    anna = _call(server.base, f"/api/tables/{code}/players", {"name": "Anna"})
    acked = [2]
    try:
        for _round in range(4):
            stop = threading.Event()

            def play(base=server.base, stop=stop):
                while not stop.is_set():
                    kind = rng.choice(["timer.start", "timer.flip", "timer.reset"])
                    try:
                        acked.append(_call(base, f"/api/tables/{code}/commands", {"type": kind},
                                           anna["token"])["seq"])
                    # killed before, during or after the answer: that command is not acknowledged
                    except (urllib.error.URLError, OSError, http.client.HTTPException):
                        return

            player = threading.Thread(target=play)
            player.start()
            time.sleep(rng.uniform(0.05, 0.4))
            server.kill()
            stop.set()
            player.join(10)
            server = Server(db, port)
            st = _call(server.base, f"/api/tables/{code}/state", token=anna["token"])
            assert st["seq"] >= max(acked)  # an unacknowledged last command may also be there
            history = _call(server.base, f"/api/tables/{code}/history", token=host)["events"]
            assert [h["seq"] for h in history] == list(range(1, st["seq"] + 1))
            acked.append(st["seq"])
        assert len(acked) > 10
    finally:
        server.kill()
