"""The schema's history as migrations: a database of an older release, game in progress, is
upgraded on start (or by ``companion db upgrade``) and play goes on, with the duplicate
protection of today's schema."""

import os
import subprocess
import sys
import time

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from conftest import Tables, closed
from sqlalchemy import MetaData, Table, create_engine, insert, inspect, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel

import companion.decks.store  # noqa: F401 - its table is among those compared
import companion.league.store  # noqa: F401 - and the leagues'
import companion.table.screen_requests  # noqa: F401 - and the screen requests'
import companion.venue.store  # noqa: F401 - and the venues'
from companion import create_app
from companion.storage import schema
from companion.storage.schema import SCHEMA_LOCK
from companion.storage.store import make_engine

# What companion/store.py and decks.py of commit 56e3563^ (before the unique command id) made
# on SQLite, verbatim from its sqlite_master.
OLD_SQLITE_SCHEMA = """
CREATE TABLE tables (
	code VARCHAR NOT NULL, game VARCHAR NOT NULL, host_token_hash VARCHAR NOT NULL,
	created_ms INTEGER NOT NULL, status VARCHAR NOT NULL, ended_ms INTEGER, result_json VARCHAR,
	names_json VARCHAR NOT NULL, PRIMARY KEY (code));
CREATE UNIQUE INDEX ix_tables_host_token_hash ON tables (host_token_hash);
CREATE TABLE decks (
	id VARCHAR NOT NULL, name VARCHAR NOT NULL, owner_token_hash VARCHAR NOT NULL,
	updated_ms INTEGER NOT NULL, data VARCHAR NOT NULL, PRIMARY KEY (id));
CREATE TABLE players (
	id VARCHAR NOT NULL, table_code VARCHAR NOT NULL, token_hash VARCHAR NOT NULL,
	name VARCHAR NOT NULL, joined_ms INTEGER NOT NULL, PRIMARY KEY (id),
	FOREIGN KEY(table_code) REFERENCES tables (code));
CREATE UNIQUE INDEX ix_players_token_hash ON players (token_hash);
CREATE INDEX ix_players_table_code ON players (table_code);
CREATE TABLE events (
	id INTEGER NOT NULL, table_code VARCHAR NOT NULL, seq INTEGER NOT NULL, batch INTEGER NOT NULL,
	actor VARCHAR NOT NULL, ts_ms INTEGER NOT NULL, command_id VARCHAR, payload VARCHAR NOT NULL,
	PRIMARY KEY (id), UNIQUE (table_code, seq), FOREIGN KEY(table_code) REFERENCES tables (code));
CREATE INDEX ix_events_table_code ON events (table_code);
"""


def old_database(url: str) -> None:
    """An unversioned database of an older release. On SQLite the schema before the unique
    command id, verbatim. PostgreSQL came with that constraint (and could not have held a game
    before it: epoch milliseconds overflowed its INTEGER), so there it is what the last release
    without migrations made: ``create_all`` of the same models, no version table."""
    engine = create_engine(url)
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            for statement in OLD_SQLITE_SCHEMA.split(";"):
                if statement.strip():
                    conn.exec_driver_sql(statement)
        else:
            SQLModel.metadata.create_all(conn)
    engine.dispose()


def copy_rows(source_url: str, target_url: str) -> None:
    """The rows of a game, as the older release wrote them (the columns were the same)."""
    source, target = create_engine(source_url), create_engine(target_url)
    with source.connect() as src, target.begin() as dst:
        for name in ("tables", "players", "events"):
            rows = [{k: v for k, v in r.items() if (name, k) != ("events", "id")}  # PostgreSQL's
                    for r in src.execute(text(f"SELECT * FROM {name}")).mappings()]  # own sequence
            dst.execute(insert(Table(name, MetaData(), autoload_with=dst)), rows)
    source.dispose()
    target.dispose()


def revision(url: str) -> str | None:
    engine = create_engine(url)
    with engine.connect() as conn:
        found = schema.current(conn)
    engine.dispose()
    return found


@pytest.fixture
def another_db_url(request, backend, tmp_path) -> str:
    if backend == "postgresql":
        return request.getfixturevalue("postgres").new_database()
    return f"sqlite:///{tmp_path}/older.db"


@pytest.mark.both_backends
def test_the_migrations_make_the_schema_the_models_describe(db_url, backend):
    engine = create_engine(db_url)
    with engine.begin() as conn:
        command.upgrade(schema._config(conn), "head")
        # SQLite stores INTEGER and BIGINT alike, and its old files kept their INTEGER columns
        ctx = MigrationContext.configure(conn, opts={"compare_type": backend == "postgresql"})
        assert compare_metadata(ctx, SQLModel.metadata) == []
        assert schema.current(conn) == "0008"
    engine.dispose()


@pytest.mark.both_backends
def test_a_new_database_is_made_from_the_models_and_stamped(db_url):
    engine = make_engine(db_url)
    with engine.connect() as conn:
        assert schema.current(conn) == "0008"
        assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []
    engine.dispose()


@pytest.mark.both_backends
def test_a_new_database_downgrades_and_upgrades_again(db_url):
    """Made from the models, its unique command id has no name on SQLite (PostgreSQL names it),
    which the downgrade from 0002 must find all the same."""
    make_engine(db_url).dispose()
    engine = create_engine(db_url)
    with engine.begin() as conn:
        command.downgrade(schema._config(conn), "0001")
        assert schema.current(conn) == "0001"
        assert ("table_code", "actor", "command_id") not in {
            tuple(u["column_names"]) for u in inspect(conn).get_unique_constraints("events")}
        command.upgrade(schema._config(conn), "head")
        assert schema.current(conn) == "0008"
    engine.dispose()


@pytest.mark.both_backends
def test_a_game_in_progress_in_a_database_from_before_migrations_plays_on(db_url, another_db_url, clock):
    then = create_app({"DATABASE_URL": db_url, "CLOCK": clock, "TESTING": True})
    tables = Tables(then.test_client())
    code, host, tokens, _ = tables.seated("rankfile", ["Anna", "Bela"])
    tables.ok(code, tokens["Anna"], "timer.start", seconds=30, cid="c1")
    before = tables.state(code, tokens["Bela"])
    closed(then)
    old_database(another_db_url)
    copy_rows(db_url, another_db_url)
    assert revision(another_db_url) is None

    now = create_app({"DATABASE_URL": another_db_url, "CLOCK": clock, "TESTING": True})
    try:
        assert revision(another_db_url) == "0008"
        tables = Tables(now.test_client())
        assert tables.state(code, tokens["Bela"]) == before
        flipped = tables.ok(code, tokens["Bela"], "timer.flip", cid="c2")
        assert flipped["seq"] == before["seq"] + 1
        assert tables.ok(code, tokens["Bela"], "timer.flip", cid="c2")["seq"] == flipped["seq"]
        store = now.extensions["companion"].store
        with pytest.raises(IntegrityError), store.engine.begin() as conn:  # the database refuses it too
            conn.execute(text("INSERT INTO events (table_code, seq, batch, actor, ts_ms, command_id, "
                              "payload) SELECT table_code, seq + 100, batch + 100, actor, ts_ms, "
                              "command_id, payload FROM events WHERE command_id = 'c2'"))
    finally:
        closed(now)


def test_a_command_id_stored_twice_before_the_constraint_keeps_its_events(tmp_path):
    url = f"sqlite:///{tmp_path}/twice.db"
    old_database(url)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO tables VALUES ('ACDEF', 'rankfile', 'h', 1, 'lobby', NULL, NULL, "
                             "'{}')")
        for seq in (1, 2):
            conn.exec_driver_sql(f"INSERT INTO events (table_code, seq, batch, actor, ts_ms, command_id, "
                                 f"payload) VALUES ('ACDEF', {seq}, {seq}, 'p1', 1, 'same', '{{}}')")
    engine.dispose()
    engine = make_engine(url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT seq, command_id FROM events ORDER BY seq").all() == [
            (1, "same"), (2, None)]
        assert {tuple(u["column_names"]) for u in inspect(conn).get_unique_constraints("events")} == {
            ("table_code", "seq"), ("table_code", "actor", "command_id")}
    engine.dispose()


def test_companion_db_upgrade_upgrades_an_old_file(tmp_path):
    path = tmp_path / "old.db"
    old_database(f"sqlite:///{path}")
    done = subprocess.run([sys.executable, "-m", "companion", "db", "upgrade", "--db", str(path)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={k: v for k, v in os.environ.items() if k != "COMPANION_DATABASE_URL"})
    assert done.returncode == 0, done.stderr
    assert "0008" in done.stdout
    assert revision(f"sqlite:///{path}") == "0008"


def test_the_migrations_are_packages_of_their_own_so_the_wheel_holds_them():
    from setuptools import find_packages

    root = schema.MIGRATIONS.parents[2]
    assert {"companion.storage.migrations", "companion.storage.migrations.versions"} <= set(
        find_packages(root, include=["companion*"]))
    versions = sorted(p.name for p in (schema.MIGRATIONS / "versions").glob("0*.py"))
    assert versions == ["0001_baseline.py", "0002_command_id_unique.py", "0003_handed_over.py",
                        "0004_leagues.py", "0005_league_corrections.py", "0006_league_changes.py",
                        "0007_venues.py", "0008_screen_requests.py"]


def test_companion_db_upgrade_says_what_it_did(tmp_path, capsys):
    from companion.commands.cli import main

    path = tmp_path / "old.db"
    old_database(f"sqlite:///{path}")
    said = []
    for db in (path, path, tmp_path / "new.db"):
        assert main(["db", "upgrade", "--db", str(db)]) == 0
        said.append(capsys.readouterr().out.strip())
    assert said == [
        "companion: stamped the unversioned database as revision 0001 (read from its tables) "
        "and upgraded it to 0008",
        "companion: the database is at revision 0008, this release's: nothing to do",
        "companion: created a new database at revision 0008"]


EVENTS = 300_000


def command_id_of(n: int) -> str | None:
    """What the 300,000 events' rows hold: a command id stored twice for 1 in 50 pairs (the
    second copy one row later, same table and actor), none for a third, else its own."""
    if n % 100 < 2:
        return f"twice{n // 2}"
    return None if n % 3 == 0 else f"c{n}"


@pytest.mark.both_backends
def test_0002_clears_repeated_command_ids_of_300000_events_whatever_work_mem(db_url, backend):
    """#41 item 8: ``NOT IN (subquery)`` was planned as a subplan run once per row when its
    hash table would not fit ``work_mem`` (PostgreSQL's default 4 MB: still running after
    150 s on 300,000 events). At the smallest ``work_mem`` it must finish (the statement
    timeout is only a guard) and clear exactly the later copies of each repeated command id."""
    engine = create_engine(db_url)
    with engine.begin() as conn:
        command.upgrade(schema._config(conn), "0001")
        conn.execute(text("INSERT INTO tables (code, game, host_token_hash, created_ms, status, "
                          "names_json) SELECT 'T' || n, 'rankfile', 'h' || n, 1, 'lobby', '{}' "
                          "FROM (WITH RECURSIVE g(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM g "
                          "WHERE n < :last) SELECT n FROM g) AS t"), {"last": EVENTS // 300 - 1})
        conn.execute(text(  # one statement (SQLite has no generate_series): 300 events a table
            "INSERT INTO events (table_code, seq, batch, actor, ts_ms, command_id, payload) "
            "SELECT 'T' || (n / 300), n, n, 'p' || ((n / 2) % 4), 1, CASE WHEN n % 100 < 2 THEN "
            "'twice' || (n / 2) WHEN n % 3 = 0 THEN NULL ELSE 'c' || n END, '{}' "
            "FROM (WITH RECURSIVE g(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM g WHERE n < :last) "
            "SELECT n FROM g) AS e"), {"last": EVENTS - 1})
    with engine.begin() as conn:
        if backend == "postgresql":
            conn.exec_driver_sql("SET LOCAL work_mem = '64kB'")
            conn.exec_driver_sql("SET LOCAL statement_timeout = '60s'")
        started = time.monotonic()
        command.upgrade(schema._config(conn), "0002")
        took = time.monotonic() - started
    with engine.connect() as conn:
        stored = dict(conn.exec_driver_sql("SELECT seq, command_id FROM events").all())
    engine.dispose()
    assert took < 60, took
    assert stored == {n: None if n % 100 == 1 else command_id_of(n) for n in range(EVENTS)}


LOCK_WAIT_S = 2.0


def test_a_start_that_cannot_get_the_schema_lock_fails_with_one_sentence(postgres):
    """#41 item 8: a server killed mid-migration may leave a backend holding the schema lock (so
    may one still migrating). A start waits for it at most its lock timeout, then says so in one
    sentence, naming the backend, with no traceback."""
    import psycopg

    url = postgres.new_database()
    make_engine(url).dispose()  # the database as it is once a server has run
    with psycopg.connect(postgres.url().replace("+psycopg", ""), autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        pid = holder.info.backend_pid
        env = {**os.environ, "COMPANION_DATABASE_URL": url,
               "COMPANION_SCHEMA_LOCK_WAIT_S": str(LOCK_WAIT_S)}
        for args in (["db", "upgrade"], ["serve", "--host", "127.0.0.1", "--port", "0"]):
            started = time.monotonic()
            done = subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                                  text=True, timeout=120, env=env)
            waited = time.monotonic() - started
            assert done.returncode == 1, done.stderr
            said = [line for line in done.stderr.splitlines() if line.startswith("companion: ")]
            assert len(said) == 1 and "Traceback" not in done.stderr, done.stderr
            assert f"backend {pid}" in said[0] and f"pg_terminate_backend({pid})" in said[0], said
            assert waited < LOCK_WAIT_S + 30  # the lock timeout, and starting Python twice over


STUCK_MIGRATION = """
import sys
from companion.storage import schema, store

def stuck(conn):
    print("migrating", flush=True)
    conn.exec_driver_sql("SELECT pg_sleep(60)")  # past the wait below: its end would free the lock

schema.upgrade = stuck
store.make_engine(sys.argv[1])
"""


def test_a_server_killed_mid_migration_leaves_no_backend_holding_the_lock(postgres):
    """The backend of a migration whose server was killed (kill -9, mid-statement) notices that
    its client is gone and rolls back within a second or so; the next start takes the lock at
    once rather than wait for that statement to end."""
    url = postgres.new_database()
    with subprocess.Popen([sys.executable, "-c", STUCK_MIGRATION, url], stdout=subprocess.PIPE,
                          text=True) as migrating:
        try:
            assert migrating.stdout.readline().strip() == "migrating"
            time.sleep(0.5)  # into its pg_sleep
        finally:
            migrating.kill()
    started = time.monotonic()
    make_engine(url, lock_timeout_s=30).dispose()
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("raw", ["soon", "0", "-5", "nan"])
def test_a_schema_lock_wait_that_is_no_number_of_seconds_is_refused_in_a_sentence(raw, monkeypatch):
    from companion.storage.store import DatabaseUnusable, migration_lock_timeout_s

    monkeypatch.setenv("COMPANION_SCHEMA_LOCK_WAIT_S", raw)
    with pytest.raises(DatabaseUnusable, match="COMPANION_SCHEMA_LOCK_WAIT_S=.* is not a number"):
        migration_lock_timeout_s()
