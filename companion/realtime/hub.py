"""The realtime hub: which sockets watch which table, and safe sends to them.

Every connection has its own send lock (two threads writing one websocket at once would
interleave frames), and the hub's registry sits behind a lock of its own. A send that fails
marks the connection dead and closes it (a phone must never stay connected but deaf); its
request thread unregisters it once the reactor has let go of the socket (loops/reactor.py).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any, Protocol

from ..table.views import Viewer


class Socket(Protocol):
    def send(self, data: str) -> None: ...

    def close(self, reason: int | None = None, message: str | None = None) -> None: ...

    def probe(self) -> None: ...


class Connection:
    def __init__(self, ws: Socket, code: str, viewer: Viewer) -> None:
        self.ws = ws
        self.code = code
        self.viewer = viewer
        self.alive = True
        self._send_lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> bool:
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        with self._send_lock:
            if not self.alive:
                return False
            try:
                self.ws.send(data)
            except Exception:  # noqa: BLE001 - the phone is gone, or this message cannot go out:
                self._close(1011, "a message could not be sent")  # either way it must reconnect,
        return self.alive                                         # never stay open and deaf

    def close(self, message: str, code: str = "auth/removed") -> None:
        """Tell the phone why (``code`` for its words), then close with 4403 (4000 and the
        HTTP status, as a socket refused at its start is closed: 'forbidden')."""
        self.send({"type": "error", "error": {"code": code, "message": message}})
        with self._send_lock:
            self._close(4403, message)

    def _close(self, code: int, message: str) -> None:
        self.alive = False
        try:
            self.ws.close(code, message)
        except Exception:  # noqa: BLE001 - already gone is as good as closed
            pass


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, list[Connection]] = {}

    def register(self, conn: Connection) -> None:
        with self._lock:
            self._tables.setdefault(conn.code, []).append(conn)

    def unregister(self, conn: Connection) -> None:
        with self._lock:
            conns = self._tables.get(conn.code, [])
            if conn in conns:
                conns.remove(conn)
            if not conns:
                self._tables.pop(conn.code, None)

    def earlier_of(self, conn: Connection) -> list[Connection]:
        """The other open connections of the same seat (a player, or the host's screen) at the
        same table: when a phone comes back, the socket it had before sleeping is usually still
        here, dead."""
        return [c for c in self.connections(conn.code)
                if c is not conn and c.alive and c.viewer == conn.viewer]

    def connections(self, code: str) -> list[Connection]:
        with self._lock:
            return list(self._tables.get(code, []))

    def count(self) -> int:
        """How many connections are registered, at every table."""
        with self._lock:
            return sum(len(conns) for conns in self._tables.values())

    def online(self, code: str) -> list[str]:
        return sorted({c.viewer.actor for c in self.connections(code) if c.alive})

    def broadcast(self, code: str, messages_for: Callable[[Viewer], list[dict[str, Any]]]) -> None:
        """Send each connection the messages built for its viewer (built once per viewer)."""
        built: dict[Viewer, list[dict[str, Any]]] = {}
        for conn in self.connections(code):
            if conn.viewer not in built:
                built[conn.viewer] = messages_for(conn.viewer)
            for m in built[conn.viewer]:
                if not conn.send(m):
                    break

    def close_viewer(self, code: str, player_id: str) -> list[Connection]:
        """The connections of a removed player, for the transport to close."""
        return [c for c in self.connections(code) if c.viewer.player_id == player_id]
