"""The database's schema, brought to this release's by the Alembic migrations in
``migrations/versions/`` (on every start, and by ``companion db upgrade``).

A database made before there were migrations has no version table: which revision it is at is
read from its shape (the history was linear), it is stamped so, and upgraded from there. Without
this, a log from before the unique (table_code, actor, command_id) would run on without the
duplicate protection the docs promise.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError
from sqlmodel import SQLModel

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SCHEMA_LOCK = 0x7ab1e  # PostgreSQL advisory lock: processes that start together migrate one at a time
CLIENT_CHECK_MS = 1000  # how often a migrating backend checks that its server is still there
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout ends a wait


def _config(conn: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    return config


def current(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def legacy_revision(conn: Connection) -> str | None:
    """The revision an unversioned database's tables match; None for an empty database."""
    insp = inspect(conn)
    if not insp.has_table("events"):
        return None
    uniques = {tuple(u["column_names"]) for u in insp.get_unique_constraints("events")}
    if ("table_code", "actor", "command_id") not in uniques:
        return "0001"
    if insp.has_table("screen_requests"):
        return "0008"
    if insp.has_table("venues"):
        return "0007"
    if insp.has_table("league_changes"):
        return "0006"
    if insp.has_table("league_corrections"):
        return "0005"
    if insp.has_table("leagues"):
        return "0004"
    return "0003" if insp.has_table("handed_over") else "0002"


def upgrade(conn: Connection) -> None:
    """Bring the schema to head, inside the caller's transaction. An empty database gets the
    models' tables at once, stamped head (Alembic's advice; tests/test_migrations.py checks
    that the migrations build the same): a step at a time cost every new database 0.2 s."""
    config = _config(conn)
    if current(conn) is None:
        found = legacy_revision(conn)
        if found is None:
            SQLModel.metadata.create_all(conn)
            found = "head"
        command.stamp(config, found)
    command.upgrade(config, "head")


def lock(conn: Connection, timeout_s: float) -> None:
    """PostgreSQL's schema lock for this transaction's migration, waited for at most
    ``timeout_s``; then OperationalError (``lock_wait_ended``, and ``why_locked`` says why).

    A server killed mid-migration leaves its backend running the statement it was given, holding
    this lock and the tables', until that statement ends (the NOT IN of migration 0002 ran for
    hours): the backend only notices that its client is gone when it next talks to it. So:

    - ``client_connection_check_interval`` (PostgreSQL 14 and later) has this session's backend
      check every second, while a statement runs, that its server is still there, and roll back
      when it is not: a killed server's migration lets go of its locks within a second or so,
      and the restart goes on.
    - ``lock_timeout`` bounds every lock this transaction waits for: this one (another process
      migrating, or an orphan of an older release or PostgreSQL, which makes no such check),
      and the tables' (an ALTER waiting behind another client's long transaction, while every
      reader of the table queues behind the ALTER). Past it the start fails with one sentence.

    Ending the holder ourselves is not done: from here the orphan of a killed server cannot be
    told from a live process migrating now (another worker starting beside this one, whose
    start would then fail). The sentence names the backend, for the operator who knows."""
    conn.exec_driver_sql(f"SET LOCAL lock_timeout = {max(1, round(timeout_s * 1000))}")
    if conn.dialect.server_version_info >= (14,):
        conn.exec_driver_sql(f"SET LOCAL client_connection_check_interval = {CLIENT_CHECK_MS}")
    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})


def lock_wait_ended(e: OperationalError) -> bool:
    """Whether ``lock``'s timeout ended a wait for a lock (the schema's or a table's)."""
    return getattr(e.orig, "sqlstate", None) == LOCK_NOT_AVAILABLE


def why_locked(engine: Engine, timeout_s: float) -> str:
    """The sentence for an operator whose start waited ``timeout_s`` for a lock in vain."""
    with engine.connect() as conn:
        holder = conn.execute(text(
            "SELECT l.pid, EXTRACT(EPOCH FROM now() - a.xact_start) FROM pg_locks AS l "
            "LEFT JOIN pg_stat_activity AS a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND l.classid = 0 AND l.objid::bigint = :key AND l.objsubid = 1"), {"key": SCHEMA_LOCK}).first()
    if holder is None:
        return (f"another session held a lock on the database's tables for more than {timeout_s:g} s "
                "while this server brought their schema up to date: end that session (pg_stat_activity "
                "shows it) or start again once it is done")
    pid, held_s = holder
    return (f"PostgreSQL backend {pid} has held the schema lock for {float(held_s or 0):.0f} s, so this "
            f"server could not bring the database's schema up to date within {timeout_s:g} s: if another "
            "server is starting, wait for it and start again (COMPANION_SCHEMA_LOCK_WAIT_S waits "
            f"longer); if none is (one killed mid-migration left it), end it with SELECT "
            f"pg_terminate_backend({pid}) and start again")
