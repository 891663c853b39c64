"""A device asking to become a table's screen, and the host's answer (issue #44, item 4).

A table started from a tent (a café's printed code) has no screen: the host's phone is enough.
A tablet brought to the table later opens the tent and asks to show the table; the host's phone
is told and allows or refuses; once allowed, the tablet collects the host's token (which the
host's answer carried) with the request's own secret, once, and is the table's screen from then
on, as a screen that made the table would be.

Nothing of the game happens here, so nothing goes in the table's log: a request lives in this
process's memory for ``TTL_MS`` and is forgotten once collected. The tablet's asking and
collecting and the host's answer therefore have to reach the same server process (the single
process of the default SQLite set-up does; several PostgreSQL processes behind a balancer
need sticky sessions for it). The host's token is kept only between the answer and the
collection, and never written anywhere.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from dataclasses import dataclass

from ..clock import Clock
from ..errors import ApiError

TTL_MS = 2 * 60_000  # a request the host did not answer, or an answer not collected, lapses
PER_TABLE = 3  # open requests at one table: a prank cannot bury the host's phone in them


@dataclass
class Request:
    id: str
    secret: str
    asked_ms: int
    allowed: bool | None = None  # None: not answered yet
    host_token: str | None = None  # the host's, from the answer that allowed it, until collected


class ScreenRequests:
    """The open requests of every table in this process, behind one lock."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._tables: dict[str, list[Request]] = {}

    def _open(self, code: str) -> list[Request]:
        """The table's requests not lapsed (under the lock)."""
        now = self.clock.now_ms()
        kept = [r for r in self._tables.get(code, []) if now - r.asked_ms < TTL_MS]
        if kept:
            self._tables[code] = kept
        else:
            self._tables.pop(code, None)
        return kept

    def ask(self, code: str) -> Request:
        with self._lock:
            open_now = self._open(code)
            if len(open_now) >= PER_TABLE:
                raise ApiError("screen/too_many", "this table has screens waiting for the host already; "
                               "wait for their answer", 429)
            request = Request(secrets.token_urlsafe(9), secrets.token_urlsafe(16), self.clock.now_ms())
            self._tables[code] = [*open_now, request]
            return request

    def waiting(self, code: str) -> list[Request]:
        """The requests the host has not answered, oldest first."""
        with self._lock:
            return [r for r in self._open(code) if r.allowed is None]

    def answer(self, code: str, request_id: str, host_token: str | None) -> Request:
        """The host's answer: its token allows the request (for the tablet to collect), None
        refuses it."""
        with self._lock:
            request = self._find(code, request_id)
            if request.allowed is not None:
                raise ApiError("screen/answered", "this screen has had its answer already", 409)
            request.allowed = host_token is not None
            request.host_token = host_token
            return request

    def collect(self, code: str, request_id: str, secret: str) -> Request:
        """The request as it stands, for the device that asked (its secret); an answered one is
        forgotten at once, so the host's token is handed out once."""
        with self._lock:
            request = self._find(code, request_id)
            if not hmac.compare_digest(request.secret.encode(), secret.encode()):
                raise _unknown()
            if request.allowed is not None:
                self._tables[code].remove(request)
            return request

    def _find(self, code: str, request_id: str) -> Request:
        for request in self._open(code):
            if request.id == request_id:
                return request
        raise _unknown()


def _unknown() -> ApiError:
    return ApiError("screen/unknown", "no such request for this table's screen (or it lapsed)", 404)
