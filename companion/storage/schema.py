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
from sqlalchemy import inspect
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


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
