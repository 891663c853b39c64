"""The HTTP server ``companion serve`` runs for a whole evening: Werkzeug's request handler,
behind a reader that makes a slow guest cost a buffer, not the room.

Why this one (docs/deploying.md has the measurements): the realtime hub, the reactor and the
per-table locks live in one process, so the choice is between servers with threads. gunicorn's
threaded worker bounds only the wait for a connection's first byte: a request that stops half-way
through its headers holds one of its fixed pool of threads for good. Here a connection gets no
thread until its request is complete: one selector loop (request_reader.py) does the TLS
handshake and reads the request line, headers and body, with one deadline for all of it
(``request_timeout_s``), and waits there for a kept-alive connection's next request; a complete
request then runs on a thread of its own, through Werkzeug's handler (and a websocket goes on to
the reactor, web/reactor.py).

The room: at most ``max_connections`` at once and ``MAX_PER_ADDRESS`` per address. The last
``RESERVE`` slots run only requests whose token is on record (web/credentials.py: a hash lookup),
and their request must come within ``RESERVE_DEADLINE_S``. A full room lets a newcomer in by
shedding the connection that has waited longest without completing a request; with none to
shed, or an address at its cap, the answer is a 503 with ``Retry-After``. A head cut short by the
client closing (a FIN before the blank line) is not a request and is not run.
"""

from __future__ import annotations

import io
import logging
import resource
import socket
import ssl
import threading
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler

from ..web.credentials import on_record
from ..web.ratelimit import ConnectionCap
from .request_reader import ADDRESS_FULL, FULL, ROOM_FULL, Connection, RequestReader

access_log = logging.getLogger("companion.http")
REQUEST_TIMEOUT_S = 10.0  # a whole request (TLS handshake, head, body), or a kept-alive wait
MAX_CONNECTIONS = 20000  # each costs a buffer until its request is complete (performance.md)
MAX_PER_ADDRESS = 64  # a phone's browser opens ~6 connections and a websocket; a table screen more
RESERVE = 200  # of MAX_CONNECTIONS, kept for seated phones and the host
RESERVE_DEADLINE_S = 5.0
MAX_BODY_BYTES = 64 * 1024  # unless the app says (MAX_CONTENT_LENGTH)


class Handler(WSGIRequestHandler):
    """One complete request, read already (``data``); Werkzeug parses and runs it. Logs paths
    without their query strings: a websocket's URL carries the phone's token, and tokens stay
    out of logs. The connection is kept alive when the request allows it (Werkzeug closes every
    one, since its reader could not tell where a request ends; the reader here can)."""

    server: Server
    protocol_version = "HTTP/1.1"

    def __init__(self, conn: Connection, data: bytes, complete: bool, server: Server) -> None:
        self.conn, self.data, self.complete = conn, data, complete
        self.keep = False
        super().__init__(conn.sock, conn.client_address, server)  # type: ignore[arg-type]

    def setup(self) -> None:
        self.timeout = self.server.request_timeout_s  # for writing the answer
        super().setup()
        # The socket's reader is not read, but kept open until the end: while it is, a socket
        # the reactor closed keeps its number, and Werkzeug's last look at it does not fail.
        self._socket_file, self.rfile = self.rfile, io.BytesIO(self.data)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self._socket_file.close()

    def handle(self) -> None:
        self.close_connection = True
        try:
            self.handle_one_request()
        except (ConnectionError, TimeoutError, ssl.SSLError):  # the phone went, or stopped reading
            self.close_connection = True

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if self.conn.reserved and not on_record(self.server.app, self.make_environ()):
            self.close_connection = True
            self.wfile.write(FULL)
            return False
        return True

    def handle_expect_100(self) -> bool:
        """The reader answered ``Expect: 100-continue`` before the body came (request_reader.py);
        said again after it, a 100 would be read as the answer's first line by some clients."""
        return True

    def run_wsgi(self) -> None:
        self.keep = self.complete and not self.close_connection and not self._upgraded()
        del self.headers["Expect"]  # Werkzeug would send a 100 of its own
        super().run_wsgi()

    def send_header(self, keyword: str, value: str) -> None:
        if self.keep and keyword.lower() == "connection" and value.lower() == "close":
            return  # Werkzeug's, on every answer
        super().send_header(keyword, value)

    def log_error(self, format: str, *args: Any) -> None:
        if not format.startswith("Request timed out"):  # routine: a phone that stopped reading
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


class Server(BaseWSGIServer):
    """Connections on the reader's loop until their request is complete, then a thread per
    request; bounded in number: in all, per address, with a reserve for verified tokens."""

    multithread = True

    def __init__(self, host: str, port: int, app: Any, ssl_context: ssl.SSLContext | None = None,
                 request_timeout_s: float = REQUEST_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS,
                 fd: int | None = None, max_per_address: int = MAX_PER_ADDRESS,
                 reserve: int | None = None) -> None:
        self.request_timeout_s = request_timeout_s
        self.max_connections = max(1, max_connections)
        self.reserve = min(RESERVE, self.max_connections // 10) if reserve is None else reserve
        config = getattr(app, "config", {})
        # Behind a proxy every connection comes from the proxy; the app limits per forwarded address.
        self._per_address = ConnectionCap(max_per_address if not config.get("TRUSTED_PROXY_HOPS")
                                          else self.max_connections)
        self._lock = threading.Lock()
        self._open = 0
        super().__init__(host, port, app, Handler, fd=fd)  # type: ignore[arg-type]
        self.ssl_context = ssl_context  # the reader wraps each connection, not the listener
        self.reader = RequestReader(self.socket, ssl_context, request_timeout_s, RESERVE_DEADLINE_S,
                                    config.get("MAX_CONTENT_LENGTH") or MAX_BODY_BYTES,
                                    self._admit, self._dispatch, self._release)

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
            return Connection(sock, client_address, address, self._open > self.max_connections - self.reserve)

    def _release(self, conn: Connection) -> None:
        with self._lock:
            self._open -= 1
            self._per_address.release(conn.address)

    def _dispatch(self, conn: Connection, data: bytes, complete: bool) -> None:
        try:
            threading.Thread(target=self._run, args=(conn, data, complete), name="request",
                             daemon=True).start()
        except RuntimeError:  # no thread to be had
            self._close(conn)

    def _run(self, conn: Connection, data: bytes, complete: bool) -> None:
        """A request on its thread; then the connection waits on the loop for its next one,
        or is closed."""
        keep = False
        try:
            handler = Handler(conn, data, complete, self)
            keep = handler.keep and not handler.close_connection
        except Exception:  # noqa: BLE001 - one request's failure must not leak its slot
            access_log.exception("request failed")
        if keep and conn.sock.fileno() != -1:
            self.reader.resume(conn, bytes(conn.buf))
        else:
            self._close(conn)

    def _close(self, conn: Connection) -> None:
        try:
            conn.sock.close()
        finally:
            self._release(conn)

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        self.reader.run()

    def shutdown(self) -> None:
        self.reader.stop()


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
