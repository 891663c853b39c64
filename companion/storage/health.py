"""What a failed write says about the database, and whether writes work now: the words a
phone is given (``server/storage_full``, ``server/read_only``, ``server/busy``) and what
/healthz reports.

A full disk or a read-only file is not a lost connection: trying again for seconds helps no
one, and "cannot reach its database" would send an operator looking in the wrong place. The
command is refused at once with what failed; nothing was acknowledged, so nothing is lost,
and the phone sends it again (its command id keeps it from landing twice).
"""

from __future__ import annotations

import threading
import time

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, OperationalError

from ..errors import ApiError

# How long a failed write keeps /healthz unready without a successful one since: a load balancer
# sends no new phones to a process that cannot record their moves.
FAILED_WRITE_MEMORY_S = 30.0

_FULL = ("database or disk is full", "no space left on device", "could not extend file", "disk full")
_READ_ONLY = ("readonly database", "read-only", "read only")


def storage_full() -> ApiError:
    return ApiError("server/storage_full",
                    "the server's disk is full, so nothing can be recorded; tell the host", 503)


def read_only() -> ApiError:
    return ApiError("server/read_only",
                    "the server's database cannot be written to; tell the host", 503)


def busy() -> ApiError:
    return ApiError("server/busy", "the server is busy just now; try again in a moment", 503)


def classify(e: DBAPIError) -> ApiError | None:
    """The failure a write met, if it is one that trying again will not mend."""
    said = str(e.orig).lower()
    if any(words in said for words in _FULL):
        return storage_full()
    if any(words in said for words in _READ_ONLY):
        return read_only()
    return None


class WriteHealth:
    """The outcome of the last write, and a probe that writes without changing anything."""

    def __init__(self, engine: Engine, write_lock: threading.Lock) -> None:
        self.engine = engine
        self.write_lock = write_lock  # the store's: a probe queues with the commits
        self._lock = threading.Lock()
        self._failure: ApiError | None = None
        self._failed_at = 0.0

    def succeeded(self) -> None:
        with self._lock:
            self._failure = None

    def failed(self, error: ApiError) -> None:
        with self._lock:
            self._failure, self._failed_at = error, time.monotonic()

    def problem(self) -> str | None:
        """The error code that says why writes fail now, or None while they work: a write
        failure not yet followed by a success, else what a probe write meets."""
        with self._lock:
            if self._failure is not None and time.monotonic() - self._failed_at < FAILED_WRITE_MEMORY_S:
                return self._failure.code
        try:
            self._probe()
        except DBAPIError as e:  # PostgreSQL in a read-only transaction: not an OperationalError
            known = classify(e)
            if known is not None:
                return known.code
            if isinstance(e, OperationalError):  # no answer at all
                return "server/unavailable"
            raise
        return None

    def _probe(self) -> None:
        """A write transaction that changes nothing: SQLite rewrites its header's user version
        with the value it has; PostgreSQL takes a transaction id, which a read-only server
        refuses."""
        with self.write_lock, self.engine.begin() as conn:
            if self.engine.dialect.name == "sqlite":
                version = conn.exec_driver_sql("PRAGMA user_version").scalar_one()
                conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
            else:
                conn.exec_driver_sql("SELECT txid_current()")
