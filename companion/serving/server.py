"""The HTTP server ``companion serve`` runs for a whole evening: requests read by one loop with
h11 and run on a thread each, so that a slow guest costs a buffer, not the room.

Why this one (docs/deploying.md has the measurements): the realtime hub, the reactor and the
per-table locks live in one process, so the choice is between servers with threads. gunicorn's
threaded worker bounds only the wait for a connection's first byte: a request that stops half-way
through its headers holds one of its fixed pool of threads for good. Here a connection gets no
thread until its request is complete: one selector loop (request_reader.py) does the TLS
handshake and reads the request line, headers and body through h11 (incoming.py), with one
deadline for all of it (``request_timeout_s``), and waits there for a kept-alive connection's
next request; a complete request then runs on a thread of its own (responding.py: the environ
from h11's parse, the answer through h11), and a websocket goes on to the reactor (reactor.py).
Every byte of a request is parsed once, by h11 (#41).

The room: at most ``max_connections`` at once and ``MAX_PER_ADDRESS`` per address. The last
``RESERVE`` slots run only requests whose token is on record (web/credentials.py: a hash lookup),
and their request must come within ``RESERVE_DEADLINE_S``. A full room lets a newcomer in by
shedding the connection that has waited longest without completing a request; with none to
shed, or an address at its cap, the answer is a 503 with ``Retry-After``. A head cut short by the
client closing (a FIN before the blank line) is not a request and is not run.
"""

from __future__ import annotations

import os
import resource
import socket
import ssl
import threading
from collections.abc import Callable
from typing import Any

from ..loops.incoming import Complete
from ..loops.request_reader import ADDRESS_FULL, FULL, ROOM_FULL, Connection, RequestReader, canned
from ..web.credentials import on_record
from ..web.ratelimit import ConnectionCap
from .responding import Answer, WSGIApp, access_log, environ_of

REQUEST_TIMEOUT_S = 10.0  # a whole request (TLS handshake, head, body), or a kept-alive wait
MAX_CONNECTIONS = 20000  # each costs a buffer until its request is complete (performance.md)
MAX_PER_ADDRESS = 64  # a phone's browser opens ~6 connections and a websocket; a table screen more
RESERVE = 200  # of MAX_CONNECTIONS, kept for seated phones and the host
RESERVE_DEADLINE_S = 5.0
MAX_BODY_BYTES = 64 * 1024  # unless the app says (MAX_CONTENT_LENGTH)
# Requests running at once (a websocket's, which lasts as long as the phone is there, is not
# counted): beyond, the loop answers 503 server/busy at once, for the cost of a write. Every
# request takes its turn at the one interpreter lock, the loop's reading included, so a flood
# let in whole answered everyone late, its refusals too: 2,500 commands at one table, 4-5 s for
# the last with a cap of 96 or 128 (never reached: the table's queue, turns.py, holds 64 and
# refuses the rest, each refusal a request's worth of work); with 64, every answer within 1.1 s
# (bench/busy_table_http.py). Phones send commands over their websockets, which are not
# counted; a page's assets (6 at a time per phone, a millisecond or two each) come nowhere near
# it. The price: for as long as a flood lasts, other HTTP requests may be told to try again.
MAX_IN_FLIGHT = 64
BUSY = canned(503, "server/busy", "the server is busy just now; try again in a moment", "Retry-After: 1")
FAILED = canned(500, "server/internal", "something went wrong on the server; nothing was recorded")


def _peer(client_address: Any) -> str:
    return client_address[0] if isinstance(client_address, tuple) else str(client_address)


class Server:
    """Connections on the reader's loop until their request is complete, then a thread per
    request; bounded in number: in all, per address, with a reserve for verified tokens."""

    def __init__(self, host: str, port: int, app: WSGIApp, ssl_context: ssl.SSLContext | None = None,
                 request_timeout_s: float = REQUEST_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS,
                 fd: int | None = None, max_per_address: int = MAX_PER_ADDRESS,
                 reserve: int | None = None, max_in_flight: int = MAX_IN_FLIGHT) -> None:
        self.app = app
        self.max_in_flight = max_in_flight
        self._in_flight = 0
        self.request_timeout_s = request_timeout_s
        self.max_connections = max(1, max_connections)
        self.reserve = min(RESERVE, self.max_connections // 10) if reserve is None else reserve
        config = getattr(app, "config", {})
        # Behind a proxy every connection comes from the proxy; the app limits per forwarded address.
        self._per_address = ConnectionCap(max_per_address if not config.get("TRUSTED_PROXY_HOPS")
                                          else self.max_connections)
        self._lock = threading.Lock()
        self._open = 0
        # With ``fd``: a duplicate of a socket bound already (it keeps its own, and closes it)
        self.socket = bind(host, port) if fd is None else socket.socket(fileno=os.dup(fd))
        self.server_address: tuple[str, int] = self.socket.getsockname()[:2]
        self.ssl_context = ssl_context  # the reader wraps each connection, not the listener
        self.scheme = "https" if ssl_context is not None else "http"
        self.max_body = config.get("MAX_CONTENT_LENGTH") or MAX_BODY_BYTES
        self.reader = RequestReader(self.socket, ssl_context, request_timeout_s, RESERVE_DEADLINE_S,
                                    self.max_body, self._admit, self._dispatch, self._release)

    @property
    def open_connections(self) -> int:
        with self._lock:
            return self._open

    def _admit(self, sock: socket.socket, client_address: Any) -> Connection | str:
        address = _peer(client_address)
        with self._lock:
            if self._open >= self.max_connections:
                return ROOM_FULL
            if not self._per_address.acquire(address):
                return ADDRESS_FULL
            self._open += 1
            reserved = self._open > self.max_connections - self.reserve
        return Connection(sock, client_address, address, reserved, self.max_body)

    def _release(self, conn: Connection) -> None:
        with self._lock:
            self._open -= 1
            self._per_address.release(conn.address)

    def _dispatch(self, conn: Connection, got: Complete) -> None:
        """On the loop's thread: a thread for the request, or ``BUSY`` at once when too many run
        (written without waiting: a client that reads nothing must not stop the loop)."""
        slot = self._slot(counted=not got.websocket)
        if slot is None:
            try:
                conn.sock.setblocking(False)
                conn.sock.send(BUSY)
            except OSError:
                pass
            self._close(conn)
            return
        try:
            threading.Thread(target=self._run, args=(conn, got, slot), name="request", daemon=True).start()
        except RuntimeError:  # no thread to be had
            slot()
            self._close(conn)

    def _slot(self, counted: bool) -> Callable[[], None] | None:
        """A place among the requests running, and what gives it back (once; a websocket's is
        not counted), or None when every place is taken. It is given back as soon as the answer's
        head is out: what is left is writing, paced by the client, and a phone that reads slowly
        must not keep a place."""
        if counted:
            with self._lock:
                if self._in_flight >= self.max_in_flight:
                    return None
                self._in_flight += 1
        held = [counted]

        def give_back() -> None:
            with self._lock:
                if held[0]:
                    held[0] = False
                    self._in_flight -= 1
        return give_back

    def _run(self, conn: Connection, got: Complete, slot: Callable[[], None]) -> None:
        """A request on its thread; then the connection waits on the loop for its next one,
        or is closed."""
        keep = False
        try:
            keep = self._answer(conn, got, slot)
        except Exception:  # noqa: BLE001 - one request's failure must not leak its slot
            access_log.exception("request failed")
        finally:
            slot()
        if keep and conn.sock.fileno() != -1 and conn.incoming.next_cycle():
            self.reader.resume(conn)
        else:
            self._close(conn)

    def _answer(self, conn: Connection, got: Complete, slot: Callable[[], None]) -> bool:
        """Run the app and write its answer; whether the connection may take another request."""
        environ = environ_of(got, conn.sock, conn.client_address, self.server_address, self.scheme)
        conn.sock.settimeout(self.request_timeout_s)  # for writing the answer
        if conn.reserved and not on_record(self.app, environ):
            conn.sock.sendall(FULL)
            return False
        # A websocket's request: every one to /ws/ that is not one is refused before the upgrade
        # (426, 403), so a 200 there comes after the socket's end, the route having taken it over.
        websocket = got.websocket and environ["PATH_INFO"].startswith("/ws/")

        def said(status: int, size: str) -> None:
            slot()
            self._log(conn, environ, status, size)

        answer = Answer(conn.incoming.h11, conn.sock, environ["REQUEST_METHOD"], said)
        try:
            answer.run(self.app, environ, taken=lambda status: websocket and status == 200)
        except OSError:  # the phone went, or stopped reading
            return False
        except Exception:
            access_log.exception("request failed on %s", environ["PATH_INFO"])
            if not answer.head_sent:
                conn.sock.sendall(FAILED)
                self._log(conn, environ, 500, str(len(FAILED)))
            return False
        if websocket and answer.status == 200:  # the route had the socket until its end
            self._log(conn, environ, 101, "-")
            return False
        return True

    @staticmethod
    def _log(conn: Connection, environ: dict[str, Any], status: int, size: str) -> None:
        """Paths without their query strings: tokens stay out of logs."""
        access_log.info('%s "%s %s %s" %s %s', conn.address, environ["REQUEST_METHOD"],
                        environ["RAW_URI"].split("?", 1)[0], environ["SERVER_PROTOCOL"], status, size)

    def _close(self, conn: Connection) -> None:
        try:
            conn.sock.close()
        finally:
            self._release(conn)

    def serve_forever(self) -> None:
        self.reader.run()

    def shutdown(self) -> None:
        self.reader.stop()

    def server_close(self) -> None:
        self.socket.close()


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the app is built so that port 0 gets its real number
    into the address the server prints."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family, backlog=1024)
    listener.set_inheritable(True)
    return listener


def open_files_limit() -> int:
    """Every phone is a socket: raise the process's limit on open files as far as the system
    allows, and say what it now is (the cap on connections is set below it, so that a full
    house is answered 503 instead of making ``accept`` fail)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MAX_CONNECTIONS + 256 if hard == resource.RLIM_INFINITY else hard
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft
