"""Fan-out between server processes with PostgreSQL's LISTEN/NOTIFY: no second broker.

Every insert into the log announces itself through a trigger (``install``), inside its own
transaction, so PostgreSQL delivers the few bytes ``"CODE SEQ"`` to every listening process
only if it commits, and the commit needs no statement more than before. The
notification carries no event: a process that holds phones of that table reads the new
events from the log and sends each phone its own view (table/service.py), exactly as for its
own commands, so secrets never travel through the channel. A process ignores its own
notifications and those of tables it has not loaded (a table is folded from the log when
first used), but for telling the follower's listeners that such a table changed (a league
room's screen in this process, watching a table that another process serves).

A device that asks to be a table's screen is announced on the same channel as ``"CODE screen"``,
in its request's transaction (table/screen_requests.py): every process tells its phones of that
table that one waits, and the host's phone reads which from the database.

The listener keeps one connection of its own. When it is lost, it reconnects with backoff,
is reported as not ready on /healthz meanwhile, and on reconnecting pulls every loaded
table, since the notifications of that gap are gone.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from sqlalchemy.engine import Connection, make_url

from ..errors import ApiError

log = logging.getLogger(__name__)
CHANNEL = "companion_events"
RECONNECT_S = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0)  # then every 5 s
PULL_THREADS = 4  # a pull waits for the table's lock and the database, seldom for the CPU
WAKE_S = 0.25  # how often the listener looks up from its connection to see if it should stop
STARTING_S = 5.0  # how long a process's first readiness check waits for its listener to connect
# "CODE screen": a device asks to be the table's screen (table/screen_requests.py), in place of a seq
SCREEN_ASKED = "screen"


ANNOUNCE_DDL = (
    f"""CREATE OR REPLACE FUNCTION companion_announce() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('{CHANNEL}', table_code || ' ' || max(seq)) FROM appended GROUP BY table_code;
        RETURN NULL;
    END $$""",
    "DROP TRIGGER IF EXISTS events_announce ON events",
    """CREATE TRIGGER events_announce AFTER INSERT ON events REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION companion_announce()""",
)


def install(conn: Connection) -> None:
    """The trigger that announces every append (idempotent; under the schema's lock, storage/store.py)."""
    for statement in ANNOUNCE_DDL:
        conn.exec_driver_sql(statement)


class Follower(Protocol):
    """What the fan-out keeps up to date: the tables this process has in memory."""

    def behind(self, code: str, seq: int) -> bool: ...

    def pull(self, code: str) -> None: ...

    def loaded(self) -> Iterable[str]: ...

    def noticed(self, code: str, seq: int) -> None: ...

    def screen_asked(self, code: str) -> None: ...


class Fanout:
    def __init__(self, database_url: str, follower: Follower) -> None:
        url = make_url(database_url).set(drivername="postgresql")
        self.conninfo = url.render_as_string(hide_password=False)
        self.follower = follower
        self._ready = threading.Event()
        self._started = 0.0
        self._pid = 0
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        self._stop = threading.Event()
        self._pool: ThreadPoolExecutor | None = None
        self._thread: threading.Thread | None = None

    def ensure_running(self) -> None:
        """Started on first use, and again in a forked worker (threads do not survive a fork)."""
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._ready = threading.Event()  # a new one in a forked worker, as for the threads
            self._started = time.monotonic()
            self._pending = set()
            self._pool = ThreadPoolExecutor(PULL_THREADS, thread_name_prefix="fanout-pull")
            self._thread = threading.Thread(target=self._listen, name="fanout-listen", daemon=True)
            self._thread.start()

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    @ready.setter
    def ready(self, value: bool) -> None:
        if value:
            self._ready.set()
        else:
            self._ready.clear()

    def ready_soon(self) -> bool:
        """Started if need be, and ready: a process just started (a fresh gunicorn worker, whose
        first request may be the load balancer's probe) waits for its listener's first
        connection rather than be reported not ready for the split second it takes; later a
        lost connection is reported at once."""
        self.ensure_running()
        return self._ready.wait(max(0.0, self._started + STARTING_S - time.monotonic()))

    def close(self) -> None:
        """Stop listening and pulling, and wait for both: after this, nothing here uses the
        database."""
        self._stop.set()
        if self._thread is not None and self._pid == os.getpid():
            self._thread.join(2 * WAKE_S)
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    # -- on the listener's thread ---------------------------------------------------------
    def _listen(self) -> None:
        import psycopg  # only a PostgreSQL deployment needs it installed

        failures = 0
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.ready, failures = True, 0
                    for code in list(self.follower.loaded()):  # what the gap's notices said
                        self._queue(code)
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=WAKE_S):
                            self._notified(n.payload)
            except psycopg.Error as e:
                self.ready = False
                pause = RECONNECT_S[min(failures, len(RECONNECT_S) - 1)]
                failures += 1
                log.warning("fan-out lost its database connection (%s); retrying in %.1f s", e, pause)
                self._stop.wait(pause)
        self.ready = False

    def _notified(self, payload: str) -> None:
        code, _, seq = payload.partition(" ")
        if seq == SCREEN_ASKED:
            self.follower.screen_asked(code)
            return
        if not seq.isdigit():
            return
        if self.follower.behind(code, int(seq)):
            self._queue(code)
        else:  # up to date, or not loaded here: perhaps someone listens all the same
            self.follower.noticed(code, int(seq))

    def _queue(self, code: str) -> None:
        """One pull per table at a time: notices that come while one waits are folded into it."""
        with self._lock:
            if code in self._pending or self._pool is None:
                return
            self._pending.add(code)
        try:
            self._pool.submit(self._pull, code)
        except RuntimeError:  # shut down
            pass

    def _pull(self, code: str) -> None:
        with self._lock:
            self._pending.discard(code)
        try:
            self.follower.pull(code)
        except ApiError as e:  # the database is away or busy (the store says which): not a bug
            log.warning("fan-out could not bring table %s up to date (%s); the next notice or "
                        "reconnect pulls it again", code, e.code)
        except Exception:  # noqa: BLE001 - the next notice or reconnect pulls it again
            log.exception("fan-out could not bring table %s up to date", code)
