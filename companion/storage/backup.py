"""A consistent copy of the SQLite event log while the server runs.

Copying the file (``cp``) while the server runs can catch it half-way through a commit, and
misses whatever is still in the ``-wal`` file beside it. SQLite's online backup copies the
database as one read transaction sees it: every committed command, none half-written, without
holding up the server's writes (WAL)."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing

from .store import DatabaseUnusable, check_sqlite_file, sqlite_file


class BackupRefused(RuntimeError):
    pass


def backup(database_url: str, to: str) -> None:
    """Copy the SQLite database of ``database_url`` (a URL, or a file's path) into the new file
    ``to``."""
    source = sqlite_file(database_url if "://" in database_url else "sqlite:///" + database_url)
    if source is None:
        raise BackupRefused("only a SQLite database is backed up here; for PostgreSQL use pg_dump")
    if not source.exists():
        raise BackupRefused(f"there is no database at {source}")
    try:
        check_sqlite_file(source)
    except DatabaseUnusable as e:
        raise BackupRefused(str(e)) from None
    if os.path.exists(to):
        raise BackupRefused(f"{to} exists already; name a new file")
    folder = os.path.dirname(os.path.abspath(to))
    if not os.path.isdir(folder):
        raise BackupRefused(f"there is no folder {folder}: create it (mkdir -p) or name a file "
                            "in a folder that exists")
    os.close(os.open(to, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))  # as private as the source
    with closing(sqlite3.connect(f"{source.as_uri()}?mode=ro", uri=True)) as src, \
            closing(sqlite3.connect(to)) as dst:
        src.backup(dst)
