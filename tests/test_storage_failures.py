"""A database that cannot be written (a full disk, a read-only file): commands are refused at
once with what failed, /healthz says so, nothing acknowledged is lost, and no log line carries
the rows that were being written (#30 items 3 and 4)."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time

import pytest
from sqlalchemy import event

from companion.storage import store as store_module
from companion.storage.health import FAILED_WRITE_MEMORY_S


def _reconnect_with(app, pragma: str):
    """Every new connection of the app's engine runs ``pragma``; the old ones are let go."""
    engine = app.extensions["companion"].store.engine

    def on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.execute(pragma)

    event.listen(engine, "connect", on_connect)
    engine.dispose()
    return lambda: (event.remove(engine, "connect", on_connect), engine.dispose())


def _fill_until_refused(tables, code: str, token: str) -> tuple[int, dict]:
    """Commands until one is refused; the last seq acknowledged and the refusal."""
    acked = 0
    for _ in range(400):
        r = tables.command(code, token, "timer.start", seconds=60)
        if r.status_code != 200:
            return acked, r.get_json()
        acked = r.get_json()["seq"]
    raise AssertionError("the database never filled")


def test_a_full_disk_is_named_refused_at_once_and_loses_nothing(app, client, tables):
    host = tables.create("rankfile")
    code, token = host["code"], host["host_token"]
    engine = app.extensions["companion"].store.engine
    with engine.connect() as c:
        pages = c.exec_driver_sql("PRAGMA page_count").scalar_one()
    undo = _reconnect_with(app, f"PRAGMA max_page_count = {pages}")
    acked, refusal = _fill_until_refused(tables, code, token)
    assert refusal["error"]["code"] == "server/storage_full"
    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.get_json()["error"]["code"] == "server/storage_full"

    undo()  # space is back
    assert tables.state(code, token)["seq"] == acked  # every acknowledged command is there
    r = tables.command(code, token, "timer.pause")
    assert r.status_code == 200, r.get_json()
    assert client.get("/healthz").get_json() == {"ok": True}


def test_a_read_only_database_is_named_in_health_and_commands(app, client, tables):
    host = tables.create("rankfile")
    undo = _reconnect_with(app, "PRAGMA query_only = 1")
    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.get_json()["error"]["code"] == "server/read_only"
    r = tables.command(host["code"], host["host_token"], "timer.start", seconds=60)
    assert r.status_code == 503
    assert r.get_json()["error"]["code"] == "server/read_only"
    undo()
    assert tables.command(host["code"], host["host_token"], "timer.start", seconds=60).status_code == 200
    assert client.get("/healthz").get_json() == {"ok": True}


def test_a_failed_write_logs_no_secret(app, tables, caplog):
    """A BLDNG project is in its event's secrets: it must not reach the log when the write
    fails, nor the token hash of a join."""
    code, host, tokens, _ids = tables.seated("bldng", ["Anna", "Bela"])
    project = {"type": "ordered", "elements": [["circle", "blue"]] * 8}
    undo = _reconnect_with(app, "PRAGMA query_only = 1")
    with caplog.at_level(logging.DEBUG):
        r = tables.command(code, tokens["Anna"], "bldng.set_project", project=project)
        joined = tables.client.post(f"/api/tables/{code}/players", json={"name": "Csaba"})
    undo()
    assert (r.status_code, joined.status_code) == (503, 503), (r.get_json(), joined.get_json())
    assert caplog.records, "the failed writes were logged"
    logged = caplog.text
    assert "server/read_only" in logged
    assert "circle" not in logged and tokens["Anna"] not in logged


def test_a_failed_statement_carries_no_parameters(app):
    """What SQLAlchemy puts in an error's message (and so in any log line or traceback that
    shows it) leaves the written values out."""
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    engine = app.extensions["companion"].store.engine
    with pytest.raises(IntegrityError) as failed, engine.begin() as conn:
        conn.execute(text("INSERT INTO tables (code, game, host_token_hash, created_ms) "
                          "VALUES (:c, 'x', :h, 0)"),
                     [{"c": "SAME", "h": "secret-hash-1"}, {"c": "SAME", "h": "secret-hash-2"}])
    assert "secret-hash" not in str(failed.value)


@pytest.mark.parametrize("seconds", [FAILED_WRITE_MEMORY_S])
def test_health_forgets_a_failure_once_writes_work_again(app, client, tables, seconds, monkeypatch):
    """A failure is remembered for a while (a load balancer sends no new phones), not for ever."""
    from companion.storage import health as store_health

    store = app.extensions["companion"].store
    store.health.failed(store_health.storage_full())
    assert client.get("/healthz").status_code == 503
    now = store_health.time.monotonic()
    monkeypatch.setattr(store_health.time, "monotonic", lambda: now + seconds + 1)
    assert client.get("/healthz").get_json() == {"ok": True}


def test_the_sqlite_file_and_its_wal_are_the_owners_only(app, tables, tmp_path):
    tables.create("rankfile")
    files = [p for p in tmp_path.iterdir() if p.name.startswith("companion.db")]
    assert {p.name for p in files} >= {"companion.db", "companion.db-wal"}
    for p in files:
        assert p.stat().st_mode & 0o077 == 0, p.name


def test_health_probes_a_lost_database_once_a_second_one_probe_at_a_time(app, client, monkeypatch):
    """After a lost connection /healthz asks the database itself (tests/test_readiness.py), but
    a load balancer asking from many places at once costs one probe a second, not one each."""
    from sqlalchemy.exc import OperationalError

    from companion.storage import health as store_health
    from companion.storage.store import StoreUnavailable

    health = app.extensions["companion"].store.health
    probes = []

    def unanswered(wait_s):
        probes.append(wait_s)
        time.sleep(0.2)
        raise OperationalError("SELECT txid_current()", {}, Exception("connection refused"))

    now = store_health.time.monotonic()
    monkeypatch.setattr(store_health.time, "monotonic", lambda: now)
    monkeypatch.setattr(health, "_probe", unanswered)
    health.failed(StoreUnavailable())
    asked = [threading.Thread(target=client.get, args=("/healthz",)) for _ in range(8)]
    for th in asked:
        th.start()
    for th in asked:
        th.join()
    assert len(probes) == 1 and 0 < probes[0] <= 1
    assert client.get("/healthz").get_json()["error"]["code"] == "server/unavailable"
    assert len(probes) == 1
    monkeypatch.setattr(store_health.time, "monotonic", lambda: now + 1.1)
    monkeypatch.setattr(health, "_probe", lambda wait_s: probes.append(wait_s))  # it answers
    assert client.get("/healthz").get_json() == {"ok": True}
    assert len(probes) == 2


@contextlib.contextmanager
def database_down(request, backend: str, app):
    """The app's database cannot be reached: PostgreSQL stopped, or SQLite's file swapped for a
    folder (every new connection fails to open it, as a lost disk would); back after."""
    engine = app.extensions["companion"].store.engine
    if backend == "postgresql":
        postgres = request.getfixturevalue("postgres")
        postgres.stop()
        try:
            yield
        finally:
            postgres.start()
        return
    engine.dispose()  # the last connection checkpoints the WAL into the file
    path = engine.url.database
    os.rename(path, path + ".away")
    os.mkdir(path)
    try:
        yield
    finally:
        os.rmdir(path)
        os.rename(path + ".away", path)
        engine.dispose()


@pytest.mark.both_backends
def test_every_read_answers_unavailable_while_the_database_is_down(request, backend, app, client,
                                                                   tables, caplog, monkeypatch):
    """#41 item 5: a league's standings, the record's and the stats' reads, the decks: each
    answers 503 server/unavailable as commands do, with a warning line in the log and no
    traceback, whichever part of the server reads the database. (A join read its league first
    and so was one of these; since #43 it reads nothing before its write, which fails as a
    command's does.)"""
    monkeypatch.setattr(store_module, "BACKOFF_S", (0.01,))  # the store's own reads give up at once
    league = client.post("/api/leagues", json={"name": "Club"}).get_json()
    plain = tables.create("rankfile")
    anna = tables.join(plain["code"], "Anna")
    me = {"Authorization": f"Bearer {anna['token']}"}
    with caplog.at_level(logging.WARNING), database_down(request, backend, app):
        answers = {
            "league": client.get(f"/api/leagues/{league['id']}"),
            "league csv": client.get(f"/api/leagues/{league['id']}?format=csv"),
            "new league": client.post("/api/leagues", json={"name": "Another"}),
            "record": client.get(f"/api/tables/{plain['code']}/record", headers=me),
            "stats": client.post("/api/stats", json={"identity": "a-phone-identity-key",
                                                     "tokens": [anna["token"]]}),
            "decks": client.get("/api/decks"),
            "finished": client.get("/api/history"),
        }
    said = {what: (r.status_code, (r.get_json() or {}).get("error", {}).get("code"))
            for what, r in answers.items()}
    assert said == dict.fromkeys(answers, (503, "server/unavailable"))
    told = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not told, [r.getMessage() for r in told]
    assert client.get(f"/api/leagues/{league['id']}").status_code == 200  # and back once it is


@pytest.mark.both_backends
def test_a_room_socket_is_refused_unavailable_while_the_database_is_down(request, backend, live,
                                                                         live_app, caplog):
    """The league room's socket checks the organiser's token outside the store too: refused
    with the same code and a close, not a traceback after the handshake."""
    from simple_websocket import ConnectionClosed
    from test_room_socket import room

    made = live_app.test_client().post("/api/leagues", json={"name": "Club"}).get_json()
    with caplog.at_level(logging.WARNING), database_down(request, backend, live_app):
        ws = room(live, made["id"], made["token"])
        assert ws.recv()["error"]["code"] == "server/unavailable"
        with pytest.raises(ConnectionClosed):
            ws.ws.receive(timeout=5)
    assert ws.ws.close_reason == 4503
    told = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not told, [r.getMessage() for r in told]
