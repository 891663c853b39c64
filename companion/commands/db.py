"""``companion db upgrade``: migrate the database without starting the server (``serve`` does
the same on every start), for an operator who upgrades before a deploy or wants to see it done."""

from __future__ import annotations

import argparse
import os
import sys

from .. import settings

CREATE_HELP = "make the database's folder if it is missing (a --db or COMPANION_DATABASE_URL in " \
              "a folder that does not exist is refused: a typo would start an empty evening)"


def add_upgrade(db_sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    upgrade = db_sub.add_parser("upgrade", help="bring the schema to this release's (also done on start)")
    upgrade.add_argument("--db", help="SQLite file (default: as companion serve would use)")
    upgrade.add_argument("--create", action="store_true", help=CREATE_HELP)
    upgrade.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..storage import schema
    from ..storage.store import DatabaseUnusable, make_engine

    url, new_folder = database_of(args)
    try:
        before, shape = _before(url, new_folder)
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


def _before(url: str, new_folder: bool) -> tuple[str | None, str | None]:
    """The database's revision before the upgrade, and, where it has none, the revision its
    tables match (None and None: a new database)."""
    from sqlalchemy import create_engine

    from ..storage import schema
    from ..storage.store import check_database, sqlite_file

    check_database(url, new_folder)
    if (path := sqlite_file(url)) is not None and not path.exists():
        return None, None
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return schema.current(conn), schema.legacy_revision(conn)
    finally:
        engine.dispose()


def database_of(args: argparse.Namespace) -> tuple[str, bool]:
    """The database a command is about, and whether its folder may be made: the default's
    ``instance/`` may be, a folder named by ``--db`` or ``COMPANION_DATABASE_URL`` only when
    ``--create`` says so."""
    from .. import default_database_url

    create = getattr(args, "create", False)
    if args.db:
        return "sqlite:///" + os.path.abspath(args.db), create
    return default_database_url(), create or settings.value("COMPANION_DATABASE_URL") is None
