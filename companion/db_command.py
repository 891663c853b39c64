"""``companion db upgrade``: migrate the database without starting the server (``serve`` does
the same on every start), for an operator who upgrades before a deploy or wants to see it done."""

from __future__ import annotations

import argparse
import os


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    db = sub.add_parser("db", help="the database's schema")
    actions = db.add_subparsers(dest="db_command", required=True)
    upgrade = actions.add_parser("upgrade", help="bring the schema to this release's (also done on start)")
    upgrade.add_argument("--db", help="SQLite file (default: COMPANION_DATABASE_URL, else "
                                      "instance/companion.db)")


def run(args: argparse.Namespace) -> int:
    from . import default_database_url, schema
    from .store import make_engine

    url = ("sqlite:///" + os.path.abspath(args.db) if args.db
           else default_database_url(os.path.join(os.getcwd(), "instance")))
    engine = make_engine(url)
    with engine.connect() as conn:
        print(f"companion: the database is at revision {schema.current(conn)}")
    engine.dispose()
    return 0
