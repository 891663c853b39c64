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
    from . import default_database_url, schema
    from .store import DatabaseUnusable, make_engine

    url = "sqlite:///" + os.path.abspath(args.db) if args.db else default_database_url()
    try:
        engine = make_engine(url)
    except DatabaseUnusable as e:
        print(f"companion: {e}", file=sys.stderr)
        return 1
    with engine.connect() as conn:
        print(f"companion: the database is at revision {schema.current(conn)}")
    engine.dispose()
    return 0
