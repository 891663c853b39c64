"""One server process per SQLite file.

Each process keeps its tables in memory and hears of another's commits only through
PostgreSQL's fan-out, so two processes on one SQLite file would drift apart (one at seq 5, the
other at 4, its phones never told). The process that serves takes an exclusive lock on a file
next to the database (``companion.db.lock``), and a second one is refused with a sentence
saying what to do instead.

The locks are POSIX record locks (``lockf``): they belong to a process, end with it (a
``kill -9`` included), and are not inherited by a forked child. Byte 0 is held by the process
that built the app: ``companion serve``, or a gunicorn worker importing ``companion.wsgi``
(the second worker of ``-w 2`` is refused on import). With gunicorn's ``--preload`` the app is
built once in the master and the workers are forked from it: byte 1 is then taken by the
forked worker that serves, and a second forked worker is refused.

The lock file is found by the database's name, which a hard link or a ``file:`` URI changes:
the process that serves also holds a ``flock`` on the database file itself, which is the
file's under any name (its device and inode). flock locks are apart from the record locks
SQLite takes on the same file, so neither disturbs the other.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from .store import sqlite_file

SERVING, FORKED_WORKER = 0, 1  # the bytes locked
SQLITE_BESIDE = ("-wal", "-shm", "-journal")  # the files SQLite keeps next to a database
HELP = "SQLite serves one process: run one, or several on PostgreSQL (COMPANION_DATABASE_URL, " \
       "docs/deploying.md)"


class SecondWriter(RuntimeError):
    """Another process serves this SQLite file already."""


class WriterLock:
    def __init__(self, database: Path, made: list[Path] | None = None) -> None:
        self.database = database
        self.path = database.with_name(database.name + ".lock")
        # what this start makes, outermost first, for ``undo``: the folders hold made already
        self.made = [*(made or []), *(p for p in (self.path, database) if not p.exists())]
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        os.set_inheritable(self._fd, False)
        self._file = os.open(database, os.O_RDWR | os.O_CREAT, 0o600)
        os.set_inheritable(self._file, False)

    def take(self, byte: int) -> None:
        """Lock ``byte`` for this process, or raise SecondWriter naming who has it."""
        try:
            fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, byte)
        except OSError as e:
            if e.errno not in (errno.EACCES, errno.EAGAIN):
                raise
            holder = os.pread(self._fd, 32, 0).decode("ascii", "replace").strip() or "?"
            whom = f"another process (pid {holder})" if byte == SERVING else "another worker"
            raise SecondWriter(f"{self.database} is already served by {whom}; {HELP}.") from None
        if byte == SERVING:
            try:
                fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise SecondWriter(f"{self.database} is already served by another process, under "
                                   f"another name (a hard link, or a file: URI); {HELP}.") from None
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    def undo(self) -> None:
        """For a start that failed: let go, and take away what it made (the folders, the lock
        file, a new database with SQLite's files beside it), which hold nothing yet; a failed
        start left an empty database and its lock, and a typo's folder, behind."""
        os.close(self._fd)
        os.close(self._file)
        made = set(self.made)
        if self.database in made:
            made |= {self.database.with_name(self.database.name + end) for end in SQLITE_BESIDE}
        for path in sorted(made, key=lambda p: len(p.parts), reverse=True):  # files before folders
            try:
                path.rmdir() if path.is_dir() else path.unlink(missing_ok=True)
            except OSError:  # a folder something else has put a file into since: it stays
                pass

    def take_in_forked_workers(self, refused: int = 3) -> None:
        """From now on a forked child takes byte 1, or says why not and exits with ``refused``
        (3 is gunicorn's "worker failed to boot", on which its master stops)."""
        os.register_at_fork(after_in_child=lambda: self._forked(refused))

    def _forked(self, refused: int) -> None:
        try:
            self.take(FORKED_WORKER)
        except SecondWriter as e:
            os.write(2, f"companion: {e}\n".encode())
            os._exit(refused)


def hold(database_url: str) -> WriterLock | None:
    """In the process about to serve ``database_url``: its lock, taken (None when the database
    is not a SQLite file), or SecondWriter."""
    database = sqlite_file(database_url)
    if database is None:
        return None
    made = [folder for folder in reversed(database.parents) if not folder.exists()]
    database.parent.mkdir(parents=True, exist_ok=True)
    lock = WriterLock(database, made)
    lock.take(SERVING)
    return lock
