"""One request run through the WSGI app and its answer written, both from h11's one parse.

Why (#41): the WSGI environ used to come from Werkzeug's second parse of bytes the reader had
already framed. Here it is built from the ``h11.Request`` the reader got (incoming.py), and the
answer goes out through the same h11 connection, which frames it (Content-Length, chunked, or
to the close for an HTTP/1.0 client; nothing for HEAD, 204 and 304) and knows afterwards whether
the connection may take another request.

A websocket's route takes the socket over (simple-websocket reads it from ``werkzeug.socket``,
as under Werkzeug's own server, and writes the 101 itself); the 200 flask-sock hands back after
the socket's end is not written.
"""

from __future__ import annotations

import logging
import socket
import sys
from collections.abc import Callable, Iterable
from email.utils import formatdate
from io import BytesIO
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

import h11

from ..loops.incoming import Complete

access_log = logging.getLogger("companion.http")
log = logging.getLogger(__name__)
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def environ_of(got: Complete, sock: socket.socket, client_address: Any, server_address: tuple[str, int],
               scheme: str) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of a request h11 read. A header whose name has an underscore
    is dropped: its environ key would be the one of a header spelt with a hyphen, which a proxy
    in front may have set (X-Forwarded-For)."""
    request = got.request
    target = request.target.decode("latin-1")
    host = None
    if not target.startswith("/") and "://" in target:  # absolute-form: its authority is the Host
        parts = urlsplit(target)
        host, target = parts.netloc, (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    path, _, query = target.partition("?")
    peer = client_address if isinstance(client_address, tuple) else (str(client_address), 0)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": request.method.decode("ascii"),
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "QUERY_STRING": query,
        "REQUEST_URI": request.target.decode("latin-1"),
        "RAW_URI": request.target.decode("latin-1"),
        "SERVER_NAME": server_address[0],
        "SERVER_PORT": str(server_address[1]),
        "SERVER_PROTOCOL": f"HTTP/{request.http_version.decode('ascii')}",
        "REMOTE_ADDR": peer[0],
        "REMOTE_PORT": str(peer[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scheme,
        "wsgi.input": BytesIO(got.body),
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "werkzeug.socket": sock,
    }
    for raw_name, raw_value in request.headers:
        name, value = raw_name.decode("latin-1"), raw_value.decode("latin-1")
        if "_" in name or name == "transfer-encoding":  # the body is de-chunked already
            continue
        key = name.upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = f"HTTP_{key}"
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    if host is not None:
        environ["HTTP_HOST"] = host
    if got.body or "CONTENT_LENGTH" in environ:
        environ["CONTENT_LENGTH"] = str(len(got.body))
    return environ


class Answer:
    """Writes one answer through h11. ``said(status, size)`` is told as its head goes out, with
    the length the head declares ("-" if none): the access log's line then comes before the
    client has the whole answer, as it did from Werkzeug's handler."""

    def __init__(self, conn: h11.Connection, sock: socket.socket, method: str,
                 said: Callable[[int, str], None]) -> None:
        self.conn, self.sock, self.method, self.said = conn, sock, method, said
        self.status = 0
        self._head: h11.Response | None = None
        self._sent_head = False

    def run(self, app: WSGIApp, environ: dict[str, Any], taken: Callable[[int], bool]) -> None:
        """Call ``app`` and write its answer; write nothing if ``taken(status)`` says the route
        took the socket over (a websocket)."""
        result = app(environ, self._start_response)
        try:
            if taken(self.status):
                return
            for chunk in result:
                self._write(chunk)
            self._write(b"")  # a head with an empty body
            self._send(h11.EndOfMessage())
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()

    def _start_response(self, status: str, headers: list[tuple[str, str]],
                        exc_info: Any = None) -> Callable[[bytes], None]:
        if exc_info and self._sent_head:
            raise exc_info[1].with_traceback(exc_info[2])
        code, _, reason = status.partition(" ")
        self.status = int(code)
        names = {name.lower() for name, _ in headers}
        extra = [] if "date" in names else [("Date", formatdate(usegmt=True))]
        self._head = h11.Response(status_code=self.status, reason=reason.encode("latin-1"),
                                  headers=[*headers, *extra])
        return self._write

    def _write(self, data: bytes) -> None:
        if not self._sent_head:
            assert self._head is not None, "the app wrote before start_response"
            self._sent_head = True
            self._send(self._head)
            length = next((v for n, v in self._head.headers if n == b"content-length"), b"-")
            self.said(self.status, length.decode("latin-1"))
        if data and self.method != "HEAD":
            self._send(h11.Data(data=data))

    def _send(self, event: h11.Event) -> None:
        data = self.conn.send(event)
        if data:
            self.sock.sendall(data)

    @property
    def head_sent(self) -> bool:
        return self._sent_head

