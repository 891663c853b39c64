"""Persistence of the event log, tables and tokens (SQLModel): SQLite in WAL mode by default,
PostgreSQL (``postgresql+psycopg://``) for several server processes on one set of tables.

The log is append-only. Events of one command are written in one transaction together with
anything derived from them (a new player's token, a finished game's result), and only after
that commit does the caller acknowledge the command, so a ``kill -9`` can lose nothing that a
phone was told had happened. SQLite runs with ``synchronous=FULL`` so a commit survives power
loss as well as a crash.

The order of a table's log is the database's: ``(table_code, seq)`` is unique, so of two
processes that decide on one table at once only one can commit; the other's append fails with
``IntegrityError`` and its caller reloads the log and decides again (table/service.py). A lost
database connection is retried with backoff; a commit whose answer was lost with its
connection is looked up before it is written again, so it is never stored twice.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

from sqlalchemy import BigInteger, Integer, UniqueConstraint, bindparam, event, func, insert, update
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import NullPool
from sqlmodel import Field, Session, SQLModel, col, create_engine, select

from .. import settings
from ..errors import ApiError
from ..realtime import fanout
from ..table.log import Record
from . import schema
from .health import StoreUnavailable, WriteHealth, busy, classify

log = logging.getLogger(__name__)
T = TypeVar("T")
# Pauses between tries while the database cannot be reached: about 4 s in all, then the
# caller is told (a phone's resent command is de-duplicated by its cid).
BACKOFF_S = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0)
# Epoch milliseconds overflow a 32-bit INTEGER (PostgreSQL's; SQLite does not care).
Millis = BigInteger
# Row ids grow with every event of every table; SQLite only autoincrements an INTEGER key.
RowId = BigInteger().with_variant(Integer(), "sqlite")
POOL_TIMEOUT_S = 1.0
CONNECT_TIMEOUT_S = 10  # for the look at start: a server that drops packets would hold it for minutes


class TableRow(SQLModel, table=True):
    __tablename__ = "tables"
    code: str = Field(primary_key=True)
    game: str
    host_token_hash: str = Field(index=True, unique=True)
    created_ms: int = Field(sa_type=Millis)
    status: str = "lobby"
    ended_ms: int | None = Field(default=None, sa_type=Millis)
    result_json: str | None = None
    names_json: str = "{}"


class PlayerRow(SQLModel, table=True):
    __tablename__ = "players"
    id: str = Field(primary_key=True)
    table_code: str = Field(index=True, foreign_key="tables.code")
    token_hash: str = Field(index=True, unique=True)
    name: str
    joined_ms: int = Field(sa_type=Millis)


class HandedOverRow(SQLModel, table=True):
    """A token whose seat the host handed to another phone: its old phone is told so, on every
    later try, rather than that its token is unknown (it may miss the closing message)."""
    __tablename__ = "handed_over"
    token_hash: str = Field(primary_key=True)
    table_code: str = Field(index=True, foreign_key="tables.code")


class EventRow(SQLModel, table=True):
    __tablename__ = "events"
    # The second constraint de-duplicates a phone's resent command in the database itself,
    # whichever process it reached (NULLs, the batches' later events, are all distinct).
    __table_args__ = (UniqueConstraint("table_code", "seq"),
                      UniqueConstraint("table_code", "actor", "command_id"))
    id: int | None = Field(default=None, primary_key=True, sa_type=RowId)
    table_code: str = Field(index=True, foreign_key="tables.code")
    seq: int
    batch: int
    actor: str
    ts_ms: int = Field(sa_type=Millis)
    command_id: str | None = None
    payload: str


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL, a ``file:`` URI's (``?uri=true``) included; None for
    another database, or one in memory."""
    parsed = make_url(url)
    path = parsed.database
    if path and path.startswith("file:"):
        path = unquote(urlsplit(path).path)
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:" \
            or parsed.query.get("mode") == "memory":
        return None
    return Path(path).resolve()


class DatabaseUnusable(RuntimeError):
    """A path that cannot be the database, with the sentence that tells the operator what to do."""


SQLITE_HEADER = b"SQLite format 3\x00"


def check_sqlite_file(path: Path, new_folder: bool = True) -> None:
    """DatabaseUnusable for a path that cannot be the database: a folder, a file this user
    cannot read and write, or one that is not SQLite's (a missing or empty file becomes the
    database), or, unless ``new_folder``, a file in a folder that does not exist (a typo in a
    path given would start an empty evening in a new folder). Checked before anything touches
    the file, which is then made private."""
    if path.is_dir():
        raise DatabaseUnusable(f"{path} is a folder: name the database file (for example "
                               f"{path / 'companion.db'})")
    if not path.exists():
        folder = next(p for p in path.parents if p.exists())  # the one its folders are made in
        if not folder.is_dir():
            raise DatabaseUnusable(f"{folder} is a file, not a folder: name a database file in a "
                                   f"folder (for example {folder.parent / 'companion.db'})")
        if folder != path.parent and not new_folder:
            raise DatabaseUnusable(f"there is no folder {path.parent}: create it (mkdir -p), name a "
                                   "file in a folder that exists, or start with --create to have it made")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise DatabaseUnusable(f"this user cannot create files in {folder}: give it access, "
                                   "or name a file in a folder of its own")
        return
    if not os.access(path, os.R_OK | os.W_OK):
        raise DatabaseUnusable(f"this user cannot read and write {path}: give it access "
                               "(chown, or chmod u+rw) or name another file")
    with open(path, "rb") as f:
        head = f.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:
        raise DatabaseUnusable(f"{path} is not a SQLite database: name the server's database "
                               "file, or a new file to start an empty one")


def check_database(url: str, new_folder: bool = True) -> None:
    """``check_sqlite_file`` for a SQLite URL's file; another database must answer now, or it
    is one sentence at start rather than a traceback of the driver's."""
    if (path := sqlite_file(url)) is not None:
        check_sqlite_file(path, new_folder)
    elif make_url(url).get_backend_name() != "sqlite":  # SQLite in memory has nothing to reach
        _check_reachable(url)


def _check_reachable(url: str) -> None:
    parsed = make_url(url)
    shown = parsed.render_as_string(hide_password=True)
    postgres = parsed.get_backend_name() == "postgresql"
    try:
        engine = create_engine(url, poolclass=NullPool,
                               connect_args={"connect_timeout": CONNECT_TIMEOUT_S} if postgres else {})
    except ImportError as e:
        extra = " (pip install 'table-companion[postgres]')" if postgres else ""
        raise DatabaseUnusable(f"the driver for {shown} is not installed: {e}{extra}") from None
    try:
        with engine.connect():
            pass
    except OperationalError as e:
        said = str(e.orig or e).strip().splitlines()[0]
        raise DatabaseUnusable(f"cannot reach the database {shown}: {said}; start it, or correct "
                               "COMPANION_DATABASE_URL") from None
    finally:
        engine.dispose()


def _private_sqlite_file(path: Path) -> None:
    """The database file, and its folder if need be. It holds token hashes and every hidden card:
    readable by its owner only, like the admin key (SQLite gives its -wal and -shm files the
    database file's permissions)."""
    check_sqlite_file(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_RDONLY, 0o600))
    os.chmod(path, 0o600)


def migration_lock_timeout_s() -> float:
    """How long a start waits for the schema's locks (schema.lock): the environment's
    ``COMPANION_SCHEMA_LOCK_WAIT_S`` (settings.py), or 60 s."""
    try:
        return float(settings.value("COMPANION_SCHEMA_LOCK_WAIT_S"))
    except settings.SettingInvalid as e:
        raise DatabaseUnusable(str(e)) from None


def make_engine(url: str, synchronous: str = "FULL", lock_timeout_s: float | None = None) -> Engine:
    """The engine of the database at ``url``, its schema brought up to date; on PostgreSQL
    waiting at most ``lock_timeout_s`` (default: ``migration_lock_timeout_s()``) for another process's
    migration, then DatabaseUnusable with the sentence that says what holds it."""
    is_sqlite = url.startswith("sqlite")
    if (database := sqlite_file(url)) is not None:
        _private_sqlite_file(database)
    # hide_parameters: a failed statement's message (logged, and kept in tracebacks) must not
    # carry the rows it wrote, which hold token hashes and the events' secrets.
    # pool_timeout: a pool with every connection taken answers server/busy within a second,
    # instead of holding the request for 30 s.
    engine = create_engine(url, connect_args={"check_same_thread": False} if is_sqlite else {},
                           hide_parameters=True, pool_timeout=POOL_TIMEOUT_S)
    if is_sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
        if synchronous != "FULL":  # only the commit benchmark asks for another level
            event.listen(engine, "connect",
                         lambda c, _r: c.execute(f"PRAGMA synchronous={synchronous}"))
    # A worker forked with the app already built (gunicorn --preload) must not share the
    # parent's connections: it opens its own.
    ref = weakref.ref(engine)
    os.register_at_fork(after_in_child=lambda: (e := ref()) is not None and e.dispose(close=False))
    postgresql = engine.dialect.name == "postgresql"
    waits_s = lock_timeout_s if lock_timeout_s is not None or not postgresql else migration_lock_timeout_s()
    try:
        with engine.begin() as conn:
            if postgresql:
                schema.lock(conn, waits_s)
            schema.upgrade(conn)
            if postgresql:
                fanout.install(conn)
    except OperationalError as e:
        if not (postgresql and schema.lock_wait_ended(e)):
            raise
        said = schema.why_locked(engine, waits_s)
        engine.dispose()
        raise DatabaseUnusable(said) from None
    return engine


@dataclass
class _Append:
    """One command's writes, waiting for a commit."""
    code: str
    records: list[Record]
    command_id: str | None
    player: PlayerRow | None = None
    table_update: dict[str, Any] | None = None
    table: dict[str, Any] | None = None  # a new table's row
    done: bool = False
    error: Exception | None = None

    def write(self, conn: Connection) -> None:
        if self.table is not None:
            conn.execute(insert(TableRow), [self.table])
        if self.player is not None:
            conn.execute(insert(PlayerRow), [self.player.model_dump()])
        conn.execute(insert(EventRow), [_row(self.code, r, self.command_id) for r in self.records])
        if self.table_update:
            conn.execute(update(TableRow).where(col(TableRow.code) == self.code).values(**self.table_update))


class Store:
    """Writes go one at a time through an in-process lock: SQLite has a single writer anyway,
    and a writer that finds the database locked backs off in sleeps of 1, 2, 5… ms, which is
    where a busy server's slowest commands came from. Appends that queue up behind the lock
    are committed together by whichever of them gets it first (group commit: one fsync for
    all). Appends use Core statements: the ORM's unit of work cost more CPU than the fsync."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # A read is one statement: on PostgreSQL, without BEGIN and ROLLBACK round trips
        self.reader = engine.execution_options(isolation_level="AUTOCOMMIT") if self.shared else engine
        self.write_lock = threading.Lock()
        self._queue: list[_Append] = []
        self._queue_lock = threading.Lock()
        self.health = WriteHealth(engine, self.write_lock)

    @property
    def shared(self) -> bool:
        """Whether other server processes may write this log too (and announce it)."""
        return self.engine.dialect.name == "postgresql"

    def ping(self) -> bool:
        """One quick look, no retries: what /healthz reports."""
        try:
            with Session(self.engine) as s:
                s.exec(select(TableRow.code).limit(1)).first()
        except OperationalError:
            return False
        return True

    # -- writes ----------------------------------------------------------------------------
    def create_table(self, code: str, game: str, host_token_hash: str, first: Record) -> None:
        self._append(_Append(code, [first], None, table={
            "code": code, "game": game, "host_token_hash": host_token_hash, "created_ms": first.ts_ms}))

    def replace_token(self, code: str, player_id: str, token_hash: str) -> None:
        """A seat's new token (the host handed the seat to another phone); the old one stops
        working in the same commit."""
        with self.write_lock, self.engine.begin() as conn:
            seat = (col(PlayerRow.table_code) == code) & (col(PlayerRow.id) == player_id)
            old = conn.execute(select(PlayerRow.token_hash).where(seat)).scalar_one()
            conn.execute(insert(HandedOverRow), [{"token_hash": old, "table_code": code}])
            conn.execute(update(PlayerRow).where(seat).values(token_hash=token_hash))

    def append(self, code: str, records: Iterable[Record], command_id: str | None = None,
               player: PlayerRow | None = None, table_update: dict[str, Any] | None = None) -> None:
        """Write one command's events (and what comes with them) atomically; returns once
        they are committed, perhaps in the same transaction as other tables' commands."""
        self._append(_Append(code, list(records), command_id, player, table_update))

    def _append(self, mine: _Append) -> None:
        with self._queue_lock:
            self._queue.append(mine)
        with self.write_lock:
            if not mine.done:
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._commit(batch)
        if mine.error is None:
            self.health.succeeded()
            return
        if isinstance(mine.error, ApiError) and mine.error.code.startswith("server/"):
            self.health.failed(mine.error)
            log.error("a write to table %s failed: %s", mine.code, mine.error.code)
        raise mine.error

    def _commit(self, batch: list[_Append]) -> None:
        """All in one transaction; if that fails, each on its own, so a bad one fails alone."""
        try:
            with self.engine.begin() as conn:
                for a in batch:
                    a.write(conn)
        except PoolTimeout:
            for a in batch:
                a.error = busy()
        except OperationalError as e:  # the connection, not the data: each is settled on its own
            known = classify(e)
            for a in batch:
                if known is not None:  # a full disk or a read-only file: no retry mends it
                    a.error = known
                else:
                    self._settle(a)
        except Exception as e:  # noqa: BLE001 - handed to the append's own caller
            if len(batch) == 1:
                batch[0].error = e
            else:
                for a in batch:
                    self._commit([a])
        for a in batch:
            a.done = True

    def _settle(self, a: _Append) -> None:
        """Once the database answers again: if the lost commit did land, it is done;
        otherwise it is written now. Given up after the backoff (StoreUnavailable)."""
        for pause in BACKOFF_S:
            time.sleep(pause)
            try:
                if self._landed(a):
                    return
                with self.engine.begin() as conn:
                    a.write(conn)
                return
            except OperationalError as e:
                if (known := classify(e)) is not None:
                    a.error = known
                    return
                log.warning("database unreachable, retrying an append to %s: %s", a.code, e)
            except Exception as e:  # noqa: BLE001 - handed to the append's own caller
                a.error = e
                return
        a.error = StoreUnavailable()

    def _landed(self, a: _Append) -> bool:
        first = _row(a.code, a.records[0], a.command_id)
        with Session(self.engine) as s:
            row = s.exec(select(EventRow).where(EventRow.table_code == a.code,
                                                EventRow.seq == first["seq"])).first()
        return row is not None and (row.actor, row.ts_ms, row.payload) == (
            first["actor"], first["ts_ms"], first["payload"])

    # -- reads -----------------------------------------------------------------------------
    def _read(self, read: Callable[[Connection], T]) -> T:
        try:
            return self._read_retrying(read)
        except PoolTimeout:
            raise busy() from None

    def _read_retrying(self, read: Callable[[Connection], T]) -> T:
        """A read, tried again with backoff while the database cannot be reached. Core
        statements on a bare connection: a Session and ORM rows cost more CPU than the query,
        and every process on PostgreSQL reads each command's events once more to fan them out."""
        for pause in BACKOFF_S:
            try:
                with self.reader.connect() as conn:
                    return read(conn)
            except OperationalError as e:
                log.warning("database unreachable, retrying a read: %s", e)
                time.sleep(pause)
        try:
            with self.reader.connect() as conn:
                return read(conn)
        except OperationalError as e:
            raise StoreUnavailable() from e

    def table(self, code: str) -> TableRow | None:
        row = self._read(lambda c: c.execute(select(TableRow).where(col(TableRow.code) == code)).first())
        return None if row is None else TableRow.model_validate(row._mapping)

    def records(self, code: str, after: int = 0) -> list[tuple[Record, str | None]]:
        """The table's log after seq ``after``, in order, with each batch's command id."""
        rows = self._read(lambda c: c.execute(_LOG_AFTER, {"code": code, "after": after}).all())
        return [(Record(seq, batch, actor, ts_ms, json.loads(payload)), cid)
                for seq, batch, actor, ts_ms, payload, cid in rows]

    def logs(self, codes: list[str]) -> dict[str, list[Record]]:
        """The logs of ``codes``, each in order, a few hundred tables a read: a league's season
        of 2,000 tables took 2,000 reads of one table each."""
        out: dict[str, list[Record]] = {code: [] for code in codes}
        for i in range(0, len(codes), LOGS_A_READ):
            some = codes[i:i + LOGS_A_READ]
            rows = self._read(lambda c, some=some: c.execute(_LOGS, {"codes": some}).all())
            for code, seq, batch, actor, ts_ms, payload in rows:
                out[code].append(Record(seq, batch, actor, ts_ms, json.loads(payload)))
        return out

    def log_marks(self, codes: list[str]) -> dict[str, tuple[int, str]]:
        """Each table's last seq and its names (which change, with no new seq, when a player's
        history is deleted): what a log folded earlier is checked against."""
        seqs: dict[str, int] = {}
        names: dict[str, str] = {}
        for i in range(0, len(codes), LOGS_A_READ):
            some = codes[i:i + LOGS_A_READ]
            seqs.update(self._read(lambda c, some=some: c.execute(_LAST_SEQS, {"codes": some}).all()))
            names.update(self._read(lambda c, some=some: c.execute(_NAMES, {"codes": some}).all()))
        return {code: (seq, names[code]) for code, seq in seqs.items()}

    def token_owner(self, token_hash: str) -> tuple[str, str | None] | None:
        """(table code, player id) for a player's token, (code, None) for a host's."""
        def read(c: Connection) -> tuple[str, str | None] | None:
            host = c.execute(select(TableRow.code).where(col(TableRow.host_token_hash) == token_hash)).first()
            if host is not None:
                return host[0], None
            p = c.execute(select(PlayerRow.table_code, PlayerRow.id)
                          .where(col(PlayerRow.token_hash) == token_hash)).first()
            return (p[0], p[1]) if p else None
        return self._read(read)

    def command_seq(self, code: str, actor: str, command_id: str) -> int | None:
        """The seq a client's command id was stored at, if it was."""
        row = self._read(lambda c: c.execute(select(EventRow.seq).where(
            col(EventRow.table_code) == code, col(EventRow.actor) == actor,
            col(EventRow.command_id) == command_id)).first())
        return None if row is None else row[0]

    def joined_with(self, code: str, command_id: str) -> tuple[str, str] | None:
        """The seat a join with this command id made, and its token's hash now."""
        row = self._read(lambda c: c.execute(
            select(PlayerRow.id, PlayerRow.token_hash)
            .join(EventRow, (col(EventRow.table_code) == col(PlayerRow.table_code))
                  & (col(EventRow.actor) == col(PlayerRow.id)))
            .where(col(PlayerRow.table_code) == code, col(EventRow.command_id) == command_id)).first())
        return None if row is None else (row[0], row[1])

    def handed_over(self, token_hash: str) -> bool:
        return self._read(lambda c: c.execute(select(HandedOverRow.token_hash).where(
            col(HandedOverRow.token_hash) == token_hash)).first()) is not None

    def finished(self, limit: int = 50) -> list[TableRow]:
        rows = self._read(lambda c: c.execute(
            select(TableRow).where(col(TableRow.status) == "ended")
            .order_by(col(TableRow.ended_ms).desc()).limit(limit)).all())
        return [TableRow.model_validate(r._mapping) for r in rows]


# Built once: composing the statement cost as much CPU as running it.
_LOG_AFTER = (select(EventRow.seq, EventRow.batch, EventRow.actor, EventRow.ts_ms, EventRow.payload,
                     EventRow.command_id)
              .where(col(EventRow.table_code) == bindparam("code"), col(EventRow.seq) > bindparam("after"))
              .order_by(col(EventRow.seq)))
LOGS_A_READ = 500  # tables named in one query (SQLite's bound parameters are limited)
_LOGS = (select(EventRow.table_code, EventRow.seq, EventRow.batch, EventRow.actor, EventRow.ts_ms,
                EventRow.payload)
         .where(col(EventRow.table_code).in_(bindparam("codes", expanding=True)))
         .order_by(col(EventRow.table_code), col(EventRow.seq)))
# Two reads, each on its own index, take half the time of one joined and grouped by names.
_LAST_SEQS = (select(EventRow.table_code, func.max(EventRow.seq))
              .where(col(EventRow.table_code).in_(bindparam("codes", expanding=True)))
              .group_by(col(EventRow.table_code)))
_NAMES = (select(TableRow.code, TableRow.names_json)
          .where(col(TableRow.code).in_(bindparam("codes", expanding=True))))


def _row(code: str, r: Record, command_id: str | None) -> dict[str, Any]:
    return {"table_code": code, "seq": r.seq, "batch": r.batch, "actor": r.actor, "ts_ms": r.ts_ms,
            "command_id": command_id if r.seq == r.batch else None,
            "payload": json.dumps(r.event, ensure_ascii=False, separators=(",", ":"))}
