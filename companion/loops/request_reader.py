"""Requests read before they get a thread: one selector loop accepts every connection, does its
TLS handshake, and reads its request (head and body, up to the body limit) under one deadline for
the whole request; only a complete request is handed on, to a worker thread. A kept-alive
connection comes back here to wait for its next request.

Why (#35): a thread per connection let a request that dripped its body hold a thread for
minutes, and a few addresses fill the room. Here a slow guest costs its buffer (a few hundred
bytes while it drips; bench/slow_guest.py measures it) until its deadline. The design is the one
of the servers that take the open internet (nginx, uvicorn, waitress).

The loop decides *when* (deadlines, buffers, caps, shedding); h11 decides *what*: where a request
ends and whether it is malformed (incoming.py, #41). A malformed request is answered 400 and
the connection closed, so nothing after it is taken for a request of its own.

The TLS handshake runs here too, non-blocking: on a thread, a client that stops half-way through
its handshake would hold that thread until a deadline, which is what this loop exists to avoid;
a handshake's own CPU (about a millisecond) is spent on one thread or another all the same.

The loop does not know about tokens or the app: the server (server.py) decides what a request
gets. When the room is full, the newcomer is let in by shedding the connection that has waited
longest without completing a request: a phone sends its request at once and is never that one,
while a dripping guest always is. The loop beats a heartbeat every turn (heartbeat.py).
"""

from __future__ import annotations

import json
import logging
import selectors
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from . import heartbeat
from .incoming import ENDED, Complete, Incoming, Refusal
from .waker import Waker

log = logging.getLogger(__name__)

RECEIVE_BYTES = 16 * 1024
TICK_S = 0.1  # how often deadlines are looked at
ACCEPT_BATCH = 64  # accepts per turn of the loop, so reading others goes on under a flood
LINGER_S = 2.0  # how long a refused request's unread rest is read away before the close,
LINGER_BYTES = 8 * 1024 * 1024  # and how much of it at the most
WOULD_BLOCK = (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError)


def canned(status: int, code: str, message: str, *headers: str) -> bytes:
    """A whole response, written by the loop itself (no app, no thread); JSON as every other
    refusal, with the code the phone words it by."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    reason = {400: "Bad Request", 413: "Content Too Large", 431: "Request Header Fields Too Large",
              500: "Internal Server Error", 501: "Not Implemented", 503: "Service Unavailable",
              505: "HTTP Version Not Supported"}.get(status, "Error")
    head = [f"HTTP/1.1 {status} {reason}", "Content-Type: application/json", f"Content-Length: {len(body)}",
            *headers, "Connection: close", "", ""]
    return "\r\n".join(head).encode() + body


ROOM_FULL, ADDRESS_FULL = "room full", "address full"
RETRY_AFTER_S = 5
FULL = canned(503, "server/full", "the server is full; try again in a moment",
              f"Retry-After: {RETRY_AFTER_S}")
LATE = canned(400, "http/bad_request", "the request did not arrive in time")
NORMAL, RESERVED, LINGERING = 0, 1, 2  # the loop's queues of deadlines


class Connection:
    """One connection while the loop holds it: its socket, its requests as h11 reads them, its
    deadline."""

    __slots__ = ("sock", "client_address", "address", "reserved", "due", "incoming", "handshaken", "done",
                 "seq", "lingering", "linger_left")

    def __init__(self, sock: socket.socket, client_address: Any, address: str, reserved: bool,
                 max_body: int = 64 * 1024) -> None:
        self.sock = sock
        self.client_address = client_address
        self.address = address
        self.reserved = reserved  # its requests run only with a verified token (server.py)
        self.due = 0.0
        self.incoming = Incoming(max_body)
        self.handshaken = not isinstance(sock, ssl.SSLSocket)
        self.done = False  # handed on or closed: the loop's queues skip it
        self.seq = 0
        self.lingering = False  # answered and half-closed: what it still sends is read away
        self.linger_left = LINGER_BYTES


def _skip_stale(queue: deque[tuple[float, int, Connection]]) -> bool:
    """Drop the queue's first entries that are over (handed on, closed, or set again since);
    True if one that counts is left."""
    while queue and (queue[0][2].done or queue[0][2].seq != queue[0][1]):
        queue.popleft()
    return bool(queue)


class RequestReader:
    """The loop; only its thread touches the selector and the connections it holds.

    ``admit(sock, client_address)`` is asked for every new connection and returns a Connection,
    or why not: ``ROOM_FULL`` (the loop then sheds one to let it in, or answers 503) or
    ``ADDRESS_FULL`` (503, nobody shed: an address at its cap waits its turn). ``handle(conn,
    complete)`` is given each whole request (run it on a thread; the connection comes back
    through ``resume``, or is closed); ``release(conn)`` is told of every connection the loop
    closes."""

    def __init__(self, listener: socket.socket, ssl_context: ssl.SSLContext | None, deadline_s: float,
                 reserve_deadline_s: float, max_body: int,
                 admit: Callable[[socket.socket, Any], Connection | str],
                 handle: Callable[[Connection, Complete], None],
                 release: Callable[[Connection], None]) -> None:
        self.listener = listener
        self.ssl_context = ssl_context
        self.deadline_s = deadline_s
        self.reserve_deadline_s = min(reserve_deadline_s, deadline_s)
        self.max_body = max_body
        self._admit, self._handle, self._release = admit, handle, release
        self._sel = selectors.DefaultSelector()
        self._waker = Waker()
        listener.setblocking(False)
        self._sel.register(self._waker.reader, selectors.EVENT_READ, None)
        self._sel.register(listener, selectors.EVENT_READ, "listener")
        self._calls: deque[Callable[[], None]] = deque()
        # By deadline: each queue's deadlines come in the order they were set (one length each).
        self._queues: tuple[deque[tuple[float, int, Connection]], ...] = (deque(), deque(), deque())
        self._held: set[Connection] = set()
        self._stop = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()  # not running yet
        self._accept_again = 0.0
        self._seq = 0
        self.watchdog = heartbeat.Watchdog()

    @property
    def held(self) -> int:
        """Connections the loop holds now (waiting for a request or its rest)."""
        return len(self._held)

    # -- any thread --------------------------------------------------------------------------
    def resume(self, conn: Connection) -> None:
        """A request on ``conn`` was answered and it stays open: wait for the next one here."""
        self.call(lambda: self._take(conn))

    def call(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the loop's thread, at its next turn."""
        self._calls.append(fn)
        self._waker.wake()

    def stop(self) -> None:
        self._stop.set()
        self._waker.wake()
        self._stopped.wait(5)

    # -- the loop's thread -------------------------------------------------------------------
    def run(self) -> None:
        self._stopped.clear()
        heart = heartbeat.register("requests")
        try:
            while not self._stop.is_set():
                while self._calls:
                    self._calls.popleft()()
                for key, _mask in self._sel.select(timeout=TICK_S):
                    if key.data is None:
                        self._waker.drain()
                    elif key.data == "listener":
                        self._accept()
                    else:
                        self._progress(key.data)
                now = time.monotonic()
                self._expire(now)
                heart.beat()
                self.watchdog.turn(now)
        finally:
            heartbeat.unregister(heart)
            for conn in list(self._held):
                self._close(conn)
            self._sel.close()
            self._waker.close()
            self._stopped.set()

    def _accept(self) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                sock, client_address = self.listener.accept()
            except WOULD_BLOCK:
                return
            except OSError as e:  # out of files: leave the rest in the backlog a moment
                log.warning("cannot accept a connection: %s", e)
                self._sel.unregister(self.listener)
                self._accept_again = time.monotonic() + 0.05
                return
            conn = self._admit(sock, client_address)
            if conn == ROOM_FULL and self._shed_one():
                conn = self._admit(sock, client_address)
            if not isinstance(conn, Connection):
                self._refuse(sock)
                continue
            if self.ssl_context is not None:
                conn.sock = self.ssl_context.wrap_socket(sock, server_side=True,
                                                         do_handshake_on_connect=False)
                conn.handshaken = False
            self._take(conn)

    def _refuse(self, sock: socket.socket) -> None:
        """Beyond the cap, with nothing to shed: a 503 rather than a silent close. (Over TLS the
        answer would need a handshake first; the socket is closed.)"""
        if self.ssl_context is None:
            try:
                sock.setblocking(False)
                sock.send(FULL)
            except OSError:
                pass
        sock.close()

    def _shed_one(self) -> bool:
        """Close a connection that is only being read away, or else the one that has waited
        longest without completing a request."""
        oldest: Connection | None = None
        for queue in (self._queues[LINGERING], self._queues[NORMAL], self._queues[RESERVED]):
            _skip_stale(queue)
            if queue and (oldest is None or queue[0][2].seq < oldest.seq):
                oldest = queue[0][2]
            if oldest is not None and oldest.lingering:
                break
        if oldest is None:
            return False
        self._close(oldest)
        return True

    def _take(self, conn: Connection) -> None:
        """Hold ``conn`` until its next request is complete or its deadline passes."""
        if self._stop.is_set():
            self._release_closed(conn)
            return
        conn.done = False
        self._wait(conn, RESERVED if conn.reserved else NORMAL,
                   self.reserve_deadline_s if conn.reserved else self.deadline_s)
        try:
            conn.sock.setblocking(False)
            self._sel.register(conn.sock, selectors.EVENT_READ, conn)
        except (OSError, ValueError):  # closed meanwhile
            conn.done = True
            self._release_closed(conn)
            return
        self._held.add(conn)
        if conn.handshaken:  # a pipelined request may be whole already
            self._act(conn, conn.incoming.next())
        if not conn.done:
            self._progress(conn)  # what is already there: TLS's own buffer

    def _wait(self, conn: Connection, queue: int, wait_s: float) -> None:
        self._seq += 1
        conn.seq = self._seq
        conn.due = time.monotonic() + wait_s
        self._queues[queue].append((conn.due, conn.seq, conn))

    def _progress(self, conn: Connection) -> None:
        if conn.done:
            return
        if not conn.handshaken and not self._handshake(conn):
            return
        try:
            while not conn.done:
                data = conn.sock.recv(RECEIVE_BYTES)
                if conn.lingering:
                    conn.linger_left -= len(data)
                    if not data or conn.linger_left < 0:
                        self._close(conn)
                    continue  # read away, unlooked at
                outcome = conn.incoming.feed(data)
                self._act(conn, ENDED if outcome is None and not data else outcome)
                if not data:
                    return
        except WOULD_BLOCK:
            pass
        except OSError:
            if conn.lingering:
                self._close(conn)
            else:
                self._act(conn, conn.incoming.feed(b""))
            return
        if not conn.done and not conn.lingering:
            self._send(conn, conn.incoming.continue_now())

    def _handshake(self, conn: Connection) -> bool:
        try:
            conn.sock.do_handshake()  # type: ignore[attr-defined]
        except ssl.SSLWantWriteError:
            self._sel.modify(conn.sock, selectors.EVENT_WRITE, conn)
            return False
        except ssl.SSLWantReadError:
            self._sel.modify(conn.sock, selectors.EVENT_READ, conn)
            return False
        except (OSError, ValueError):  # a plain-HTTP client, a refused certificate, a reset
            self._close(conn)
            return False
        conn.handshaken = True
        self._sel.modify(conn.sock, selectors.EVENT_READ, conn)
        return True

    def _act(self, conn: Connection, outcome: Complete | Refusal | object | None) -> None:
        if isinstance(outcome, Complete):
            self._hand_on(conn, outcome)
        elif isinstance(outcome, Refusal):
            self._answer(conn, canned(outcome.status, outcome.code, outcome.message))
        elif outcome is ENDED:
            self._close(conn)

    def _send(self, conn: Connection, data: bytes) -> None:
        if data:
            try:
                conn.sock.send(data)
            except (OSError, ValueError):  # gone (the read says so), or TLS not ready to write
                pass

    def _hand_on(self, conn: Connection, request: Complete) -> None:
        self._let_go(conn)
        try:
            conn.sock.setblocking(True)
        except OSError:
            self._release_closed(conn)
            return
        self._handle(conn, request)

    def _expire(self, now: float) -> None:
        if self._accept_again and now >= self._accept_again:
            self._accept_again = 0.0
            self._sel.register(self.listener, selectors.EVENT_READ, "listener")
        for queue in self._queues:
            while _skip_stale(queue) and queue[0][0] <= now:
                conn = queue.popleft()[2]
                if conn.incoming.started and not conn.lingering:  # its body is late: say so
                    self._answer(conn, LATE)
                else:  # a head, the wait for a next request, or a rest read away: it just ends
                    self._close(conn)

    def _answer(self, conn: Connection, response: bytes) -> None:
        """Say ``response`` and end the connection; what the client still sends is read away a
        moment first (as nginx's lingering close does): closing on unread bytes is a reset, which
        can take the answer from the client before it has read it."""
        self._send(conn, response)
        if conn.sock.fileno() == -1 or isinstance(conn.sock, ssl.SSLSocket):
            self._close(conn)
            return
        try:
            conn.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self._close(conn)
            return
        conn.lingering = True
        self._wait(conn, LINGERING, LINGER_S)

    def _let_go(self, conn: Connection) -> None:
        conn.done = True
        self._held.discard(conn)
        try:
            self._sel.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass

    def _close(self, conn: Connection) -> None:
        if conn.done and conn not in self._held:
            return  # closed already (or handed on: not the loop's to close)
        self._let_go(conn)
        self._release_closed(conn)

    def _release_closed(self, conn: Connection) -> None:
        conn.sock.close()
        self._release(conn)
