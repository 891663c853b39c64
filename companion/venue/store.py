"""Venues in the database: the venue (its name, the staff's token hash, its Wi-Fi), its physical
tables (label, order, the tent's secret) and which table of the server was played at which
physical table, game after game (the record of each stays the table's own, companion/record/).

A tent's secret is kept as it is, not hashed as the staff's token is: the tent is printed once
and laminated, and the staff print it again from the server (its QR code, ``qr.svg``), so the
server must be able to say it again. Made from the instance's key, as a table's join secret is,
every tent would be void the day that key is lost or the database moves to another machine.
The database holds every player's hidden cards already, and is kept private (storage/store.py).

The game going at a physical table is the latest one bound to it whose table has not ended.
Two phones that scan a free table's tent at once must not start two games there: binding is done
in ``claimed``, one claim at a time (a lock in this process, the physical tables' rows locked
across processes on PostgreSQL).
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, Session, SQLModel, col, select

from ..errors import ApiError
from ..storage.store import Millis, RowId, Store, TableRow
from ..table.names import shown
from ..table.service import hash_token, holds
from .labels import label_key, label_of, labels_of, wifi_of

MAX_NAME = 60
# Told (venue id, table codes) once games are bound to its tables (the staff's screen, web/realtime.py).
Added = Callable[[str, list[str]], None]


class VenueRow(SQLModel, table=True):
    __tablename__ = "venues"
    id: str = Field(primary_key=True)
    name: str
    token_hash: str = Field(index=True, unique=True)
    created_ms: int = Field(sa_type=Millis)
    wifi_json: str | None = None  # {"ssid", "password", "security"} (labels.wifi_of), or none


class VenueTableRow(SQLModel, table=True):
    """A physical table: its label as the operator typed it (cleaned), its place in the venue's
    order, and the secret its tent's QR code carries."""
    __tablename__ = "venue_tables"
    __table_args__ = (UniqueConstraint("venue_id", "label_key"),)
    id: int | None = Field(default=None, primary_key=True, sa_type=RowId)
    venue_id: str = Field(index=True, foreign_key="venues.id")
    position: int
    label: str
    label_key: str  # labels.label_key: how a URL's label finds it, however cased
    tent_secret: str


class VenueGameRow(SQLModel, table=True):
    """A table of the server played at a physical table, bound when it was made there."""
    __tablename__ = "venue_games"
    table_code: str = Field(primary_key=True, foreign_key="tables.code")
    venue_table_id: int = Field(index=True, foreign_key="venue_tables.id", sa_type=RowId)
    bound_ms: int = Field(sa_type=Millis)


def _unknown() -> ApiError:
    return ApiError("venue/unknown", "there is no such venue or table", 404)


class VenueStore:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.added: list[Added] = []
        self._claim_lock = threading.Lock()

    def create(self, name: Any, tables: Any, wifi: Any, now_ms: int) -> tuple[str, str, list[VenueTableRow]]:
        """A new venue, its staff's token and its tables, each with a tent secret of its own.
        Its name is read as a league's is; anything malformed is a 400 with a code, and nothing
        is made."""
        name = shown(name) if isinstance(name, str) else ""
        if not name or len(name) > MAX_NAME:
            raise ApiError("venue/bad_name", f"a venue's name is 1 to {MAX_NAME} characters")
        labels, wifi = labels_of(tables), wifi_of(wifi)
        venue_id, token = "v" + secrets.token_hex(6), secrets.token_urlsafe(16)
        rows = [VenueTableRow(venue_id=venue_id, position=i, label=label, label_key=label_key(label),
                              tent_secret=secrets.token_urlsafe(16)) for i, label in enumerate(labels)]
        with self.store.write_lock, Session(self.store.engine, expire_on_commit=False) as s:
            s.add(VenueRow(id=venue_id, name=name, token_hash=hash_token(token), created_ms=now_ms,
                           wifi_json=None if wifi is None else json.dumps(wifi, ensure_ascii=False)))
            s.flush()  # the venue before its tables (PostgreSQL checks their foreign key at once)
            s.add_all(rows)
            s.commit()
        return venue_id, token, rows

    def row(self, venue_id: Any) -> VenueRow:
        with Session(self.store.engine) as s:
            row = s.get(VenueRow, venue_id) if isinstance(venue_id, str) else None
        if row is None:
            raise _unknown()
        return row

    def staffed(self, venue_id: Any, token: str | None) -> VenueRow:
        """The venue, for its staff's token; 401 without a token, 403 with another."""
        row = self.row(venue_id)
        if not token:
            raise ApiError("auth/missing_token", "this needs the venue staff's token", 401)
        if not holds(token, row.token_hash):
            raise ApiError("venue/not_staff", "only the venue's staff can do this", 403)
        return row

    def staff_of(self, token: str) -> str | None:
        """The venue whose staff's token this is: a hash lookup (the server's reserve, web/credentials.py)."""
        with Session(self.store.engine) as s:
            return s.exec(select(VenueRow.id).where(VenueRow.token_hash == hash_token(token))).first()

    def tables(self, venue_id: str) -> list[VenueTableRow]:
        with Session(self.store.engine) as s:
            return list(s.exec(select(VenueTableRow).where(col(VenueTableRow.venue_id) == venue_id)
                               .order_by(col(VenueTableRow.position))).all())

    def table(self, venue_id: Any, label: Any) -> VenueTableRow | None:
        """The physical table a URL names (its label however cased), or None."""
        try:
            key = label_key(label_of(label))
        except ApiError:
            return None
        if not isinstance(venue_id, str):
            return None
        with Session(self.store.engine) as s:
            return s.exec(select(VenueTableRow).where(col(VenueTableRow.venue_id) == venue_id)
                          .where(col(VenueTableRow.label_key) == key)).first()

    def staffed_table(self, venue_id: Any, token: str | None, label: Any) -> VenueTableRow:
        """A physical table of the venue, for its staff's token; 404 for a label it has not."""
        row = self.staffed(venue_id, token)
        table = self.table(row.id, label)
        if table is None:
            raise _unknown()
        return table

    def going(self, tables: list[VenueTableRow]) -> dict[int, str]:
        """The code of the game going at each of ``tables`` that has one (gathering or
        playing), by the tables' rows: a finished table's log stays out of memory."""
        ids = [t.id for t in tables]
        with Session(self.store.engine) as s:
            found = s.exec(select(VenueGameRow.venue_table_id, VenueGameRow.table_code)
                           .join(TableRow, col(TableRow.code) == col(VenueGameRow.table_code))
                           .where(col(VenueGameRow.venue_table_id).in_(ids))
                           .where(col(TableRow.status) != "ended")
                           .order_by(col(VenueGameRow.bound_ms))).all()
        return dict(found)  # the latest bound, should two ever be going

    @contextmanager
    def claimed(self, tables: list[VenueTableRow]) -> Iterator[None]:
        """``tables`` held while the caller looks whether they are free and binds new games to
        them: one claim at a time in this process (creating a table takes milliseconds), and
        across processes (PostgreSQL) the tables' rows locked until the claim ends. FOR NO KEY
        UPDATE: the binding's foreign key still goes in beside the lock."""
        with self._claim_lock:
            if not self.store.shared:
                yield
                return
            with Session(self.store.engine) as s:
                s.exec(select(VenueTableRow.id).where(col(VenueTableRow.id).in_([t.id for t in tables]))
                       .with_for_update(key_share=True)).all()
                yield

    def bind(self, venue_id: str, bound: list[tuple[VenueTableRow, str]], now_ms: int) -> None:
        """New tables (codes) played at these physical tables, in one commit; under ``claimed``."""
        with self.store.write_lock, Session(self.store.engine) as s:
            s.add_all([VenueGameRow(table_code=code, venue_table_id=t.id, bound_ms=now_ms)
                       for t, code in bound])
            s.commit()
        for listener in self.added:
            listener(venue_id, [code for _t, code in bound])

    def _bound(self, code: str) -> VenueTableRow | None:
        with Session(self.store.engine) as s:
            return s.exec(select(VenueTableRow).join(VenueGameRow, col(VenueGameRow.venue_table_id)
                                                     == col(VenueTableRow.id))
                          .where(col(VenueGameRow.table_code) == code)).first()

    def tent_of(self, code: str) -> str | None:
        """The secret of the tent at the physical table where ``code`` is played, if it is."""
        table = self._bound(code)
        return table.tent_secret if table else None

    def venue_of(self, code: str) -> str | None:
        table = self._bound(code)
        return table.venue_id if table else None

    def reprint(self, table: VenueTableRow) -> VenueTableRow:
        """A new secret for the table's tent: the old one opens nothing from this commit on."""
        with self.store.write_lock, Session(self.store.engine, expire_on_commit=False) as s:
            row = s.get(VenueTableRow, table.id)
            if row is None:
                raise _unknown()
            row.tent_secret = secrets.token_urlsafe(16)
            s.add(row)
            s.commit()
        return row

    def set_wifi(self, venue: VenueRow, raw: Any) -> dict[str, str] | None:
        wifi = wifi_of(raw)
        with self.store.write_lock, Session(self.store.engine) as s:
            row = s.get(VenueRow, venue.id)
            if row is None:
                raise _unknown()
            row.wifi_json = None if wifi is None else json.dumps(wifi, ensure_ascii=False)
            s.add(row)
            s.commit()
        return wifi


def wifi(venue: VenueRow) -> dict[str, str] | None:
    return None if venue.wifi_json is None else json.loads(venue.wifi_json)
