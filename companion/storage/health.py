"""What a failed database call says about the database, and whether writes work now: the words
a phone is given (``server/storage_full``, ``server/read_only``, ``server/busy``,
``server/unavailable``) and what /healthz reports.

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
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ..errors import ApiError

# How long a failed write keeps /healthz unready without a successful one since: a load balancer
# sends no new phones to a process that cannot record their moves.
FAILED_WRITE_MEMORY_S = 30.0
# Meanwhile /healthz probes the database itself, so that it is ready as soon as the database
# answers again, not once a phone happens to write: one probe at a time, at most one a
# second (a load balancer may ask often, from many places), and none that waits longer than
# this for the commits ahead of it.
PROBE_INTERVAL_S = 1.0
PROBE_WAIT_S = 0.5
# What a probe can tell: that the database answers and takes a write transaction. A full disk
# is another matter (a probe that adds nothing cannot show there is room): that stays
# remembered until a real write succeeds.
PROBE_MENDS = ("server/unavailable", "server/busy", "server/read_only")

_FULL = ("database or disk is full", "no space left on device", "could not extend file", "disk full")
_READ_ONLY = ("readonly database", "read-only", "read only")


class StoreUnavailable(ApiError):
    def __init__(self) -> None:
        super().__init__("server/unavailable",
                         "the server cannot reach its database just now; try again in a moment", 503)


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


def failure_of(e: BaseException) -> ApiError | None:
    """What a failed database call tells the phone, wherever in the server it was made (the
    store's reads and writes, and every other reader: web/errors.py maps what reaches a
    request): a full disk or a read-only database by name, a pool with no connection free as
    busy, a database that does not answer or lost the connection as unavailable. None for any
    other failure (a constraint, a statement the database refuses): that is a bug."""
    if isinstance(e, PoolTimeout):
        return busy()
    if not isinstance(e, DBAPIError):
        return None
    if (known := classify(e)) is not None:
        return known
    if isinstance(e, OperationalError) or e.connection_invalidated:
        return StoreUnavailable()
    return None


class WriteHealth:
    """The outcome of the last write, and a probe that writes without changing anything."""

    def __init__(self, engine: Engine, write_lock: threading.Lock) -> None:
        self.engine = engine
        self.write_lock = write_lock  # the store's: a probe queues with the commits
        self._lock = threading.Lock()
        self._failure: ApiError | None = None
        self._failed_at = 0.0
        self._probing = threading.Lock()
        self._probed_at = float("-inf")

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
            now = time.monotonic()
            failure = self._failure if now - self._failed_at < FAILED_WRITE_MEMORY_S else None
        if failure is None:
            return self._probed()
        if failure.code not in PROBE_MENDS:
            return failure.code
        return self._probed_again(failure)

    def _probed_again(self, failure: ApiError) -> str | None:
        """Whether the database answers again after ``failure``; bounded as PROBE_* say, and
        the remembered failure is the answer whenever no probe may run."""
        if not self._probing.acquire(blocking=False):
            return failure.code
        try:
            started = time.monotonic()
            if started - self._probed_at < PROBE_INTERVAL_S:
                return failure.code
            self._probed_at = started
            problem = self._probed(wait_s=PROBE_WAIT_S)
        except TimeoutError:  # a write is under way: its outcome will say
            return failure.code
        finally:
            self._probing.release()
        if problem is None:
            with self._lock:  # a write that failed while the probe ran still counts
                if self._failed_at <= started:
                    self._failure = None
        return problem

    def _probed(self, wait_s: float = -1) -> str | None:
        """What a probe write meets: None, or the code of a failure the probe recognises."""
        try:
            self._probe(wait_s)
        except DBAPIError as e:  # PostgreSQL in a read-only transaction: not an OperationalError
            known = classify(e)
            if known is not None:
                return known.code
            if isinstance(e, OperationalError):  # no answer at all
                return "server/unavailable"
            raise
        return None

    def _probe(self, wait_s: float) -> None:
        """A write transaction that changes nothing: SQLite rewrites its header's user version
        with the value it has; PostgreSQL takes a transaction id, which a read-only server
        refuses. It queues with the commits for the store's write lock, for at most ``wait_s``
        (TimeoutError; -1: as long as they take)."""
        if not self.write_lock.acquire(timeout=wait_s):
            raise TimeoutError("the commits ahead of the probe are still running")
        try:
            with self.engine.begin() as conn:
                if self.engine.dialect.name == "sqlite":
                    version = conn.exec_driver_sql("PRAGMA user_version").scalar_one()
                    conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
                else:
                    conn.exec_driver_sql("SELECT txid_current()")
        finally:
            self.write_lock.release()
