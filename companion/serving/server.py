"""The HTTP server ``companion serve`` runs for a whole evening: Werkzeug's threaded server with
the guards its development mode leaves out.

Why this one (docs/deploying.md has the measurements): the realtime hub, the reactor and the
per-table locks live in one process, so the choice is between servers with threads. gunicorn's
threaded worker bounds only the wait for a connection's first byte: a request that stops half-way
through its headers holds one of its fixed pool of threads for good, and every open websocket
holds another, so a few dozen half-sent requests lock a room out. Here every read a connection
makes before it becomes a websocket (the TLS handshake, the request line and headers, the body,
the wait for the next request on a kept-alive connection) must make progress within
``request_timeout_s`` or the connection is closed; the TLS handshake runs on the connection's own
thread, not on the thread that accepts everyone's connections; and there is a cap on the
connections served at once, beyond which new ones are closed at once rather than queued.

One address cannot take the room: a request head must be complete within ``HEAD_DEADLINE_S``
however slowly its bytes trickle in; one address holds at most ``MAX_PER_ADDRESS``
connections; and the last ``RESERVE`` connections are kept for requests that carry a seat's
or the host's credentials (a bearer token, a websocket), whose head must come at once. A head
cut short by the client closing (a FIN before the blank line) is not a request and is not run.
"""

from __future__ import annotations

import errno
import logging
import resource
import socket
import ssl
import threading
import time
from typing import Any

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from ..web.ratelimit import ConnectionCap

access_log = logging.getLogger("companion.http")
REQUEST_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 4000
HEAD_DEADLINE_S = 30.0  # a request line and headers, however slowly their bytes come
MAX_PER_ADDRESS = 64  # a phone's browser opens ~6 connections and a websocket; a table screen more
RESERVE = 200  # of MAX_CONNECTIONS, kept for seated phones and the host
RESERVE_HEAD_DEADLINE_S = 5.0


class _HeadReader:
    """The connection's reader while a request head is read: notes an end of stream, which
    the standard library's header parser takes for the blank line that ends the head."""

    def __init__(self, rfile: Any) -> None:
        self.rfile = rfile
        self.ended = False

    def readline(self, *args: Any) -> bytes:
        line: bytes = self.rfile.readline(*args)
        self.ended = self.ended or not line.endswith(b"\n")
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rfile, name)


class Handler(WSGIRequestHandler):
    """One connection. Logs paths without their query strings: a websocket's URL carries the
    phone's token, and tokens stay out of logs."""

    server: Server

    def setup(self) -> None:
        self.timeout = self.server.request_timeout_s  # socketserver applies it to the socket
        super().setup()

    def handle(self) -> None:
        if isinstance(self.connection, ssl.SSLSocket):
            try:
                self.connection.do_handshake()
            except (OSError, ValueError):  # a timeout, a plain-HTTP client, a refused certificate
                return
        super().handle()

    def handle_one_request(self) -> None:
        reserved = self.server.in_reserve(self.connection)
        self.server.watchdog.arm(self.connection, RESERVE_HEAD_DEADLINE_S if reserved else HEAD_DEADLINE_S)
        try:
            super().handle_one_request()
        finally:
            self.server.watchdog.disarm(self.connection)

    def parse_request(self) -> bool:
        if not self.raw_requestline.endswith(b"\n"):  # the line itself was cut short
            self.close_connection = True
            return False
        reader = self.rfile = _HeadReader(self.rfile)
        try:
            parsed = super().parse_request()
        finally:
            self.rfile = reader.rfile
        self.server.watchdog.disarm(self.connection)  # the head is in: the deadline is met
        if not parsed:
            return False
        if reader.ended:
            self.close_connection = True
            return False
        if self.server.in_reserve(self.connection) and not self._credentialed():
            self.close_connection = True
            self.send_error(503, "the server is full; try again in a moment")
            return False
        return True

    def _credentialed(self) -> bool:
        """A seat or the host: a bearer token, or a websocket (which authenticates first)."""
        return self.headers.get("Authorization", "").lower().startswith("bearer ") or \
            self.path.startswith("/ws/")

    def log_error(self, format: str, *args: Any) -> None:
        if not format.startswith("Request timed out"):  # routine: an idle or half-sent connection
            super().log_error(format, *args)

    def log(self, type: str, message: str, *args: Any) -> None:
        """Through a logger of this program's, so ``--log-level`` applies and the time is the
        log line's (Werkzeug's own adds a second one, and its logger ignores the level)."""
        access_log.log(logging.getLevelName(type.upper()), "%s %s", self.address_string(), message % args)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if str(code) == "200" and self._upgraded():
            code = 101  # what the phone got; Werkzeug logs the 200 flask-sock hands it afterwards
        method, _, rest = self.requestline.partition(" ")
        path, _, proto = rest.partition(" ")
        self.log("info", '"%s %s %s" %s %s', method, path.split("?", 1)[0], proto, code, size)


    def _upgraded(self) -> bool:
        """A websocket that was: every request to /ws/ that is not one is refused before the
        upgrade (426, 403), so a 200 there comes after the socket's end."""
        return self.path.startswith("/ws/") and "websocket" in self.headers.get("Upgrade", "").lower()


def _peer(client_address: Any) -> str:
    return client_address[0] if isinstance(client_address, tuple) else str(client_address)


class Watchdog:
    """Deadlines for request heads, on one thread for all connections: a connection whose head
    is not in by its deadline is shut down, which ends the read its handler is blocked in."""

    TICK_S = 0.5

    def __init__(self) -> None:
        self._due: dict[socket.socket, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="head-deadlines", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def arm(self, conn: socket.socket, seconds: float) -> None:
        with self._lock:
            self._due[conn] = time.monotonic() + seconds

    def disarm(self, conn: socket.socket) -> None:
        with self._lock:
            self._due.pop(conn, None)

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.TICK_S):
            now = time.monotonic()
            with self._lock:
                late = [conn for conn, due in self._due.items() if due <= now]
                for conn in late:
                    del self._due[conn]
            for conn in late:
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:  # closed meanwhile
                    pass


class Server(ThreadedWSGIServer):
    """A thread per connection, each bounded in time until it is a websocket, and in number:
    in all, per address, with a reserve for credentials."""

    def __init__(self, host: str, port: int, app: Any, ssl_context: ssl.SSLContext | None = None,
                 request_timeout_s: float = REQUEST_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS,
                 fd: int | None = None, max_per_address: int = MAX_PER_ADDRESS,
                 reserve: int | None = None) -> None:
        self.request_timeout_s = request_timeout_s
        self.max_connections = max(1, max_connections)
        self.reserve = min(RESERVE, self.max_connections // 10) if reserve is None else reserve
        # Behind a proxy every connection comes from the proxy; the app limits per forwarded address.
        self._per_address = ConnectionCap(max_per_address if not getattr(app, "config", {}).get(
            "TRUSTED_PROXY_HOPS") else self.max_connections)
        self._lock = threading.Lock()
        self._open = 0
        self._reserved: set[socket.socket] = set()
        self.watchdog = Watchdog()  # before the base class: it calls server_close on the way
        super().__init__(host, port, app, Handler, fd=fd)
        self.ssl_context = ssl_context  # wrapped per connection in get_request, not by the base class

    def get_request(self) -> tuple[socket.socket, Any]:
        try:
            conn, address = self.socket.accept()
        except OSError as e:
            if e.errno in (errno.EMFILE, errno.ENFILE):  # out of files: the connection waits in
                time.sleep(0.05)  # the backlog; do not spin on a listener that stays readable
            raise
        if self.ssl_context is not None:
            conn = self.ssl_context.wrap_socket(conn, server_side=True, do_handshake_on_connect=False)
        return conn, address

    def in_reserve(self, conn: socket.socket) -> bool:
        return conn in self._reserved

    def _admit(self, request: Any, address: str) -> bool:
        with self._lock:
            if self._open >= self.max_connections or not self._per_address.acquire(address):
                return False
            self._open += 1
            if self._open > self.max_connections - self.reserve:
                self._reserved.add(request)
            return True

    def _release(self, request: Any, address: str) -> None:
        with self._lock:
            self._open -= 1
            self._per_address.release(address)
            self._reserved.discard(request)

    def process_request(self, request: Any, client_address: Any) -> None:
        address = _peer(client_address)
        if not self._admit(request, address):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(request, address)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(request, _peer(client_address))

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        self.watchdog.start()
        try:
            super().serve_forever(poll_interval)
        finally:
            self.watchdog.stop()


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
    house is turned away instead of making ``accept`` fail in a busy loop)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MAX_CONNECTIONS + 256 if hard == resource.RLIM_INFINITY else hard
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft
