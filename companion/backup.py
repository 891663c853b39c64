"""A consistent copy of the SQLite event log while the server runs.

Copying the file (``cp``) while the server runs can catch it half-way through a commit, and
misses whatever is still in the ``-wal`` file beside it. SQLite's online backup copies the
database as one read transaction sees it: every committed command, none half-written, without
holding up the server's writes (WAL)."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing

from .store import sqlite_file


class BackupRefused(RuntimeError):
    pass


def backup(database_url: str, to: str) -> None:
    """Copy the SQLite database of ``database_url`` (a URL, or a file's path) into the new file
    ``to``."""
    source = sqlite_file(database_url if "://" in database_url else "sqlite:///" + database_url)
    if source is None:
        raise BackupRefused("only a SQLite database is backed up here; for PostgreSQL use pg_dump")
    if not source.is_file():
        raise BackupRefused(f"there is no database at {source}")
    if os.path.exists(to):
        raise BackupRefused(f"{to} exists already; name a new file")
    with closing(sqlite3.connect(f"{source.as_uri()}?mode=ro", uri=True)) as src, \
            closing(sqlite3.connect(to)) as dst:
        src.backup(dst)
