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

access_log = logging.getLogger("companion.http")
REQUEST_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 4000


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

    def log_error(self, format: str, *args: Any) -> None:
        if not format.startswith("Request timed out"):  # routine: an idle or half-sent connection
            super().log_error(format, *args)

    def log(self, type: str, message: str, *args: Any) -> None:
        """Through a logger of this program's, so ``--log-level`` applies and the time is the
        log line's (Werkzeug's own adds a second one, and its logger ignores the level)."""
        access_log.log(logging.getLevelName(type.upper()), "%s %s", self.address_string(), message % args)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        method, _, rest = self.requestline.partition(" ")
        path, _, proto = rest.partition(" ")
        self.log("info", '"%s %s %s" %s %s', method, path.split("?", 1)[0], proto, code, size)


class Server(ThreadedWSGIServer):
    """A thread per connection, each bounded in time until it is a websocket, and in number."""

    def __init__(self, host: str, port: int, app: Any, ssl_context: ssl.SSLContext | None = None,
                 request_timeout_s: float = REQUEST_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS,
                 fd: int | None = None) -> None:
        super().__init__(host, port, app, Handler, fd=fd)
        self.ssl_context = ssl_context  # wrapped per connection in get_request, not here
        self.request_timeout_s = request_timeout_s
        self._slots = threading.BoundedSemaphore(max(1, max_connections))

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

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


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
