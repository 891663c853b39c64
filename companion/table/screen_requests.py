"""A device asking to become a table's screen, and the host's answer (issue #44, item 4).

A table started from a tent (a café's printed code) has no screen: the host's phone is enough.
A tablet brought to the table later opens the tent and asks to show the table; the host's phone
is told and allows or refuses; once allowed, the tablet collects the host's token (which the
host's answer carried) with the request's own secret, once, and is the table's screen from then
on, as a screen that made the table would be.

Nothing of the game happens here, so nothing goes in the table's log. A request is a row of the
database for ``TTL_MS``, not a process's memory: behind a balancer with no sticky sessions (the
hosted mode, docs/deploying.md) the tablet's asking, the host phone's socket, its answer and the
tablet's collecting may each reach another process. The host's phone is told through the
fan-out's channel (realtime/fanout.py), which carries the table's code and nothing else.

What the row keeps opens nothing by itself: the request's secret as its hash, and the host's
token, between the answer and the collection, sealed with a pad made from the instance's key
(which every process has and the database has not, as the tables' join secrets are made). The
row is deleted when the answer is collected, so the token is handed out once, whichever
processes two collections reach.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import delete, text, update
from sqlmodel import Field, Session, SQLModel, col, select

from ..clock import Clock
from ..errors import ApiError
from ..realtime.fanout import CHANNEL, SCREEN_ASKED
from ..storage.store import Millis, Store, TableRow
from .service import hash_token, holds

TTL_MS = 2 * 60_000  # a request the host did not answer, or an answer not collected, lapses
PER_TABLE = 3  # open requests at one table: a prank cannot bury the host's phone in them
# what a request's id (secrets.token_urlsafe(9)) and a table's code are made of: anything else
# names no request, and is not sent to the database (PostgreSQL refuses a NUL in text)
NAMED = re.compile(r"[A-Za-z0-9_-]{1,32}")


class ScreenRequestRow(SQLModel, table=True):
    __tablename__ = "screen_requests"
    id: str = Field(primary_key=True)
    table_code: str = Field(index=True, foreign_key="tables.code")
    secret_hash: str
    asked_ms: int = Field(index=True, sa_type=Millis)
    allowed: bool | None = None  # None: not answered yet
    sealed_token: str | None = None  # the host's token, sealed (``_seal``), until collected


UNANSWERED = col(ScreenRequestRow.allowed).is_(None)


@dataclass
class Request:
    id: str
    asked_ms: int
    allowed: bool | None = None
    secret: str | None = None  # only as asked: the device's, kept as its hash
    host_token: str | None = None  # only as collected, once allowed


class ScreenRequests:
    """The open requests of every table, in the database every process shares; ``tell`` tells
    this process's phones of a table that a device waits (where no other process listens)."""

    def __init__(self, store: Store, clock: Clock, server_key: bytes, tell: Callable[[str], None]) -> None:
        self.store, self.clock, self.server_key, self.tell = store, clock, server_key, tell

    def _open_at(self, code: str, now: int):  # type: ignore[no-untyped-def]
        """The table's requests not lapsed (a query)."""
        return (select(ScreenRequestRow).where(col(ScreenRequestRow.table_code) == code)
                .where(col(ScreenRequestRow.asked_ms) > now - TTL_MS))

    def ask(self, code: str) -> Request:
        now = self.clock.now_ms()
        request = Request(secrets.token_urlsafe(9), now, secret=secrets.token_urlsafe(16))
        with self.store.write_lock, Session(self.store.engine) as s:
            if self.store.shared:  # one asking at a table at a time across processes: the cap holds
                s.exec(select(TableRow.code).where(col(TableRow.code) == code).with_for_update())
            s.exec(delete(ScreenRequestRow).where(col(ScreenRequestRow.asked_ms) <= now - TTL_MS))
            if len(s.exec(self._open_at(code, now)).all()) >= PER_TABLE:
                raise ApiError("screen/too_many", "this table has screens waiting for the host already; "
                               "wait for their answer", 429)
            s.add(ScreenRequestRow(id=request.id, table_code=code, secret_hash=hash_token(request.secret),
                                   asked_ms=now))
            if self.store.shared:  # every process's phones hear it, once it is committed
                s.exec(text("SELECT pg_notify(:channel, :payload)"),  # type: ignore[call-overload]
                       params={"channel": CHANNEL, "payload": f"{code} {SCREEN_ASKED}"})
            s.commit()
        if not self.store.shared:
            self.tell(code)
        return request

    def waiting(self, code: str) -> list[Request]:
        """The requests the host has not answered, oldest first."""
        with Session(self.store.engine) as s:
            rows = s.exec(self._open_at(code, self.clock.now_ms()).where(UNANSWERED)
                          .order_by(col(ScreenRequestRow.asked_ms))).all()
        return [Request(r.id, r.asked_ms) for r in rows]

    def answer(self, code: str, request_id: str, host_token: str | None) -> Request:
        """The host's answer: its token allows the request (for the device to collect), None
        refuses it. Answered once, though two answers reach two processes at once."""
        _named(code, request_id)
        now = self.clock.now_ms()
        with self.store.write_lock, Session(self.store.engine) as s:
            sealed = None if host_token is None else self._seal(request_id, host_token)
            row = col(ScreenRequestRow.id) == request_id
            done = s.exec(update(ScreenRequestRow)  # type: ignore[call-overload]
                          .where(row, col(ScreenRequestRow.table_code) == code,
                                 col(ScreenRequestRow.asked_ms) > now - TTL_MS, UNANSWERED)
                          .values(allowed=host_token is not None, sealed_token=sealed))
            s.commit()
            if done.rowcount != 1:
                if s.exec(self._open_at(code, now).where(row)).first() is None:
                    raise _unknown()
                raise ApiError("screen/answered", "this screen has had its answer already", 409)
        return Request(request_id, now, allowed=host_token is not None)

    def collect(self, code: str, request_id: str, secret: str) -> Request:
        """The request as it stands, for the device that asked (its secret); an answered one is
        deleted as it is read, so the host's token is handed out once."""
        _named(code, request_id)
        with self.store.write_lock, Session(self.store.engine) as s:
            asked = self._open_at(code, self.clock.now_ms()).where(col(ScreenRequestRow.id) == request_id)
            row = s.exec(asked).first()
            if row is None or not holds(secret, row.secret_hash):
                raise _unknown()
            if row.allowed is None:
                return Request(row.id, row.asked_ms)
            taken = s.exec(delete(ScreenRequestRow).where(col(ScreenRequestRow.id) == row.id))  # type: ignore[call-overload]
            s.commit()
        if taken.rowcount != 1:  # collected through another process this very moment
            raise _unknown()
        token = self._unseal(row.id, row.sealed_token) if row.sealed_token is not None else None
        return Request(row.id, row.asked_ms, allowed=row.allowed, host_token=token)

    def _pad(self, request_id: str, size: int) -> bytes:
        """A one-time pad (a request is answered once) that only the instance's key and the
        request make: what seals the host's token in the row, and opens it again."""
        key = hmac.new(self.server_key, b"screen-seal:" + request_id.encode(), hashlib.sha256).digest()
        return hashlib.shake_256(key).digest(size)

    def _seal(self, request_id: str, token: str) -> str:
        data = token.encode()
        return base64.urlsafe_b64encode(_xor(data, self._pad(request_id, len(data)))).decode()

    def _unseal(self, request_id: str, sealed: str) -> str:
        data = base64.urlsafe_b64decode(sealed)
        return _xor(data, self._pad(request_id, len(data))).decode()


def _xor(data: bytes, pad: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, pad, strict=True))


def _named(code: str, request_id: str) -> None:
    if not (NAMED.fullmatch(code) and NAMED.fullmatch(request_id)):
        raise _unknown()


def _unknown() -> ApiError:
    return ApiError("screen/unknown", "no such request for this table's screen (or it lapsed)", 404)
