"""The sockets of the screens that watch many tables: which league rooms' screens watch which
league (and which venues' counters watch which venue), and the notice each is sent when
something happens at one of its tables.

The notice carries nothing (``{"type": "room.changed"}``; a venue's ``{"type": "moved"}``): the
screen reads the room anew with the organiser's (the staff's) token, so what its socket is sent
needs no view of its own and holds no secret. A table's league (venue) is looked up once and
remembered (it never changes), and only while some screen is watched: with none open, a table's
commit costs a count of none.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..table.views import Viewer
from .hub import Connection, Hub

NOTICE = {"type": "room.changed"}
MOVED = {"type": "moved"}  # a venue's counter's notice (web/venue_api.py)
# Whom a room's connection speaks for: the organiser, who is sent no table's view at all.
ORGANISER = Viewer(None, True)
MAX_KNOWN = 10_000  # tables whose league (or none) is remembered; the oldest are forgotten first


class Rooms:
    """Keyed by league id, with the league of a table from ``league_of``; a venue's counters
    are Rooms keyed by venue id, with their own ``notice``."""

    def __init__(self, league_of: Callable[[str], str | None],
                 notice: dict[str, str] | None = None) -> None:
        self._league_of = league_of
        self.notice = notice or NOTICE
        self._lock = threading.Lock()
        self._screens = Hub()  # keyed by league id, as the tables' hub by table code
        self._known: dict[str, str | None] = {}  # table code: its league, or None

    def attach(self, conn: Connection) -> None:
        """Watch ``conn.code``'s league, and tell it at once: what changed before its socket
        opened (since the page's last read, or while it was away) is read anew."""
        self._screens.register(conn)
        conn.send(self.notice)

    def detach(self, conn: Connection) -> None:
        self._screens.unregister(conn)

    def watching(self) -> int:
        """How many rooms' sockets are open (what the tests count back to nothing)."""
        return self._screens.count()

    def table_changed(self, code: str) -> None:
        """A table published: its league's rooms are told. Called under the table's lock, so a
        league not yet known is looked up (once) only when some room is open at all."""
        if not self._screens.count():
            return
        try:
            league_id = self._known[code]
        except KeyError:
            league_id = self._learn(code)
        if league_id is not None:
            self.league_changed(league_id)

    def tables_added(self, league_id: str, codes: list[str]) -> None:
        """Tables made for a league (by a host, or a round's): remembered, and its rooms told."""
        with self._lock:
            for code in codes:
                self._remember(code, league_id)
        self.league_changed(league_id)

    def league_changed(self, league_id: str) -> None:
        self._screens.broadcast(league_id, lambda _viewer: [self.notice])

    def _learn(self, code: str) -> str | None:
        league_id = self._league_of(code)
        with self._lock:
            self._remember(code, league_id)
        return league_id

    def _remember(self, code: str, league_id: str | None) -> None:
        self._known.pop(code, None)
        self._known[code] = league_id
        if len(self._known) > MAX_KNOWN:
            del self._known[next(iter(self._known))]
