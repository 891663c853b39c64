"""``companion db upgrade``: migrate the database without starting the server (``serve`` does
the same on every start), for an operator who upgrades before a deploy or wants to see it done."""

from __future__ import annotations

import argparse
import os
import sys


def add_upgrade(db_sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    upgrade = db_sub.add_parser("upgrade", help="bring the schema to this release's (also done on start)")
    upgrade.add_argument("--db", help="SQLite file (default: as companion serve would use)")
    upgrade.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from .. import default_database_url
    from ..storage import schema
    from ..storage.store import DatabaseUnusable, make_engine

    url = "sqlite:///" + os.path.abspath(args.db) if args.db else default_database_url()
    try:
        before, shape = _before(url)
        engine = make_engine(url)
    except DatabaseUnusable as e:
        print(f"companion: {e}", file=sys.stderr)
        return 1
    with engine.connect() as conn:
        after = schema.current(conn)
    engine.dispose()
    if before is not None:
        done = f"upgraded the database from revision {before} to {after}" if before != after else \
            f"the database is at revision {after}, this release's: nothing to do"
    elif shape is not None:
        done = f"stamped the unversioned database as revision {shape} (read from its tables) " \
               f"and upgraded it to {after}"
    else:
        done = f"created a new database at revision {after}"
    print(f"companion: {done}")
    return 0


def _before(url: str) -> tuple[str | None, str | None]:
    """The database's revision before the upgrade, and, where it has none, the revision its
    tables match (None and None: a new database)."""
    from sqlalchemy import create_engine

    from ..storage import schema
    from ..storage.store import check_database, sqlite_file

    check_database(url)
    if (path := sqlite_file(url)) is not None and not path.exists():
        return None, None
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return schema.current(conn), schema.legacy_revision(conn)
    finally:
        engine.dispose()
