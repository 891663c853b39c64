"""Persistence of the event log, tables and tokens (SQLModel; SQLite in WAL mode by default).

The log is append-only. Events of one command are written in one transaction together with
anything derived from them (a new player's token, a finished game's result), and only after
that commit does the caller acknowledge the command, so a ``kill -9`` can lose nothing that a
phone was told had happened. SQLite runs with ``synchronous=FULL`` so a commit survives power
loss as well as a crash.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import UniqueConstraint, event, insert, update
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Field, Session, SQLModel, col, create_engine, select

from .table.log import Record


class TableRow(SQLModel, table=True):
    __tablename__ = "tables"
    code: str = Field(primary_key=True)
    game: str
    host_token_hash: str = Field(index=True, unique=True)
    created_ms: int
    status: str = "lobby"
    ended_ms: int | None = None
    result_json: str | None = None
    names_json: str = "{}"


class PlayerRow(SQLModel, table=True):
    __tablename__ = "players"
    id: str = Field(primary_key=True)
    table_code: str = Field(index=True, foreign_key="tables.code")
    token_hash: str = Field(index=True, unique=True)
    name: str
    joined_ms: int


class EventRow(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_code", "seq"),)
    id: int | None = Field(default=None, primary_key=True)
    table_code: str = Field(index=True, foreign_key="tables.code")
    seq: int
    batch: int
    actor: str
    ts_ms: int
    command_id: str | None = None
    payload: str


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def make_engine(url: str, synchronous: str = "FULL") -> Engine:
    is_sqlite = url.startswith("sqlite")
    engine = create_engine(url, connect_args={"check_same_thread": False} if is_sqlite else {})
    if is_sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
        if synchronous != "FULL":  # only the commit benchmark asks for another level
            event.listen(engine, "connect",
                         lambda c, _r: c.execute(f"PRAGMA synchronous={synchronous}"))
    SQLModel.metadata.create_all(engine)
    return engine


@dataclass
class _Append:
    """One command's writes, waiting for a commit."""
    code: str
    records: list[Record]
    command_id: str | None
    player: PlayerRow | None
    table_update: dict[str, Any] | None
    done: bool = False
    error: Exception | None = None

    def write(self, conn: Connection) -> None:
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
        self.write_lock = threading.Lock()
        self._queue: list[_Append] = []
        self._queue_lock = threading.Lock()

    def ping(self) -> bool:
        with Session(self.engine) as s:
            s.exec(select(TableRow.code).limit(1)).first()
        return True

    # -- writes ----------------------------------------------------------------------------
    def create_table(self, code: str, game: str, host_token_hash: str, first: Record) -> None:
        with self.write_lock, self.engine.begin() as conn:
            conn.execute(insert(TableRow), [{"code": code, "game": game, "host_token_hash": host_token_hash,
                                             "created_ms": first.ts_ms}])
            conn.execute(insert(EventRow), [_row(code, first, None)])

    def replace_token(self, code: str, player_id: str, token_hash: str) -> None:
        """A seat's new token (the host handed the seat to another phone); the old one stops
        working in the same commit."""
        with self.write_lock, self.engine.begin() as conn:
            seat = (col(PlayerRow.table_code) == code) & (col(PlayerRow.id) == player_id)
            conn.execute(update(PlayerRow).where(seat).values(token_hash=token_hash))

    def append(self, code: str, records: Iterable[Record], command_id: str | None = None,
               player: PlayerRow | None = None, table_update: dict[str, Any] | None = None) -> None:
        """Write one command's events (and what comes with them) atomically; returns once
        they are committed, perhaps in the same transaction as other tables' commands."""
        mine = _Append(code, list(records), command_id, player, table_update)
        with self._queue_lock:
            self._queue.append(mine)
        with self.write_lock:
            if not mine.done:
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._commit(batch)
        if mine.error is not None:
            raise mine.error

    def _commit(self, batch: list[_Append]) -> None:
        """All in one transaction; if that fails, each on its own, so a bad one fails alone."""
        try:
            with self.engine.begin() as conn:
                for a in batch:
                    a.write(conn)
        except Exception as e:  # noqa: BLE001 - handed to the append's own caller
            if len(batch) == 1:
                batch[0].error = e
            else:
                for a in batch:
                    self._commit([a])
        for a in batch:
            a.done = True

    # -- reads -----------------------------------------------------------------------------
    def table(self, code: str) -> TableRow | None:
        with Session(self.engine) as s:
            return s.get(TableRow, code)

    def records(self, code: str) -> list[tuple[Record, str | None]]:
        with Session(self.engine) as s:
            rows = s.exec(select(EventRow).where(EventRow.table_code == code)
                          .order_by(col(EventRow.seq))).all()
            return [(Record(r.seq, r.batch, r.actor, r.ts_ms, json.loads(r.payload)), r.command_id)
                    for r in rows]

    def token_owner(self, token_hash: str) -> tuple[str, str | None] | None:
        """(table code, player id) for a player's token, (code, None) for a host's."""
        with Session(self.engine) as s:
            host = s.exec(select(TableRow.code).where(TableRow.host_token_hash == token_hash)).first()
            if host is not None:
                return host, None
            p = s.exec(select(PlayerRow).where(PlayerRow.token_hash == token_hash)).first()
            return (p.table_code, p.id) if p else None

    def finished(self, limit: int = 50) -> list[TableRow]:
        with Session(self.engine) as s:
            return list(s.exec(select(TableRow).where(TableRow.status == "ended")
                               .order_by(col(TableRow.ended_ms).desc()).limit(limit)).all())


def _row(code: str, r: Record, command_id: str | None) -> dict[str, Any]:
    return {"table_code": code, "seq": r.seq, "batch": r.batch, "actor": r.actor, "ts_ms": r.ts_ms,
            "command_id": command_id if r.seq == r.batch else None,
            "payload": json.dumps(r.event, ensure_ascii=False, separators=(",", ":"))}
