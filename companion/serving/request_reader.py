"""Requests read before they get a thread: one selector loop accepts every connection, does its
TLS handshake, and reads its request (head and body, up to the body limit) into a buffer, under
one deadline for the whole request; only a complete request is handed on, to a worker thread.
A kept-alive connection comes back here to wait for its next request.

Why (#35): a thread per connection let a request that dripped its body hold a thread for
minutes, and a few addresses fill the room. Here a slow guest costs its buffer (a few hundred
bytes while it drips; bench/slow_guest.py measures it) until its deadline. The design is the one
of the servers that take the open internet (nginx, uvicorn, waitress).

The TLS handshake runs here too, non-blocking: on a thread, a client that stops half-way through
its handshake would hold that thread until a deadline, which is what this loop exists to avoid;
a handshake's own CPU (about a millisecond) is spent on one thread or another all the same.

The loop does not know about tokens or the app: what it hands on is bytes, and the server
(server.py) decides. When the room is full, the newcomer is let in by shedding the connection
that has waited longest without completing a request: a phone sends its request at once and is
never that one, while a dripping guest always is.
"""

from __future__ import annotations

import json
import logging
import re
import selectors
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

MAX_HEAD_BYTES = 32 * 1024  # a phone's request head is under 1 KiB
RECEIVE_BYTES = 16 * 1024
TICK_S = 0.1  # how often deadlines are looked at
ACCEPT_BATCH = 64  # accepts per turn of the loop, so reading others goes on under a flood
WOULD_BLOCK = (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError)
_HEAD_END = re.compile(rb"\r?\n\r?\n")
_EXPECTS_CONTINUE = re.compile(rb"\nexpect:[ \t]*100-continue[ \t]*\r?\n", re.IGNORECASE)
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


def _canned(status: str, code: str, message: str, *headers: str) -> bytes:
    """A whole response, written by the loop itself (no app, no thread); JSON as every other
    refusal, with the code the phone words it by."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = [f"HTTP/1.1 {status}", "Content-Type: application/json", f"Content-Length: {len(body)}",
            *headers, "Connection: close", "", ""]
    return "\r\n".join(head).encode() + body


ROOM_FULL, ADDRESS_FULL = "room full", "address full"
RETRY_AFTER_S = 5
FULL = _canned("503 Service Unavailable", "server/full", "the server is full; try again in a moment",
               f"Retry-After: {RETRY_AFTER_S}")
LATE = _canned("400 Bad Request", "http/bad_request", "the request did not arrive in time")
TOO_LONG = _canned("431 Request Header Fields Too Large", "http/bad_request", "the request head is too long")


class Connection:
    """One connection while the loop holds it: its socket, what it sent so far, its deadline."""

    __slots__ = ("sock", "client_address", "address", "reserved", "due", "buf", "handshaken", "done", "seq",
                 "head_seen")

    def __init__(self, sock: socket.socket, client_address: Any, address: str, reserved: bool) -> None:
        self.sock = sock
        self.client_address = client_address
        self.address = address
        self.reserved = reserved  # its requests run only with a verified token (server.py)
        self.due = 0.0
        self.buf = bytearray()
        self.handshaken = not isinstance(sock, ssl.SSLSocket)
        self.done = False  # handed on or closed: the loop's queues skip it
        self.seq = 0
        self.head_seen = False  # its request's head is whole (and a 100 Continue sent if asked for)


def head_of(buf: bytes | bytearray) -> re.Match[bytes] | None:
    """Where the first request's head in ``buf`` ends; None while it is incomplete. Raises
    ValueError for a head longer than a request's may be."""
    found = _HEAD_END.search(buf)
    if (found.end() if found else len(buf)) > MAX_HEAD_BYTES:
        raise ValueError("head too long")
    return found


def request_end(buf: bytes | bytearray, found: re.Match[bytes], max_body: int) -> tuple[int, bool] | None:
    """Where the first request in ``buf`` (its head ending at ``found``) ends, and whether its
    body is all there (False: a body over ``max_body``, handed on with its head alone for the
    app to refuse); None while the body is incomplete."""
    head_end = found.end()
    length, chunked = 0, False
    for line in bytes(buf[:found.start()]).split(b"\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                return head_end, False  # the handler refuses it
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        return _chunked_end(buf, head_end, max_body)
    if length < 0 or length > max_body:
        return head_end, False
    return (head_end + length, True) if len(buf) >= head_end + length else None


def _chunked_end(buf: bytes | bytearray, at: int, max_body: int) -> tuple[int, bool] | None:
    """The end of a chunked body (its last chunk and trailer), or None while it is incomplete."""
    start = at
    while True:
        line_end = buf.find(b"\n", at)
        if line_end < 0:
            return None
        try:
            size = int(bytes(buf[at:line_end]).split(b";")[0].strip(), 16)
        except ValueError:
            return at, False
        at = line_end + 1
        if at - start > max_body + MAX_HEAD_BYTES:
            return start, False
        if size == 0:  # the last chunk, then trailer lines up to a blank one
            if buf[at:at + 2] == b"\r\n" or buf[at:at + 1] == b"\n":
                return at + (2 if buf[at:at + 1] == b"\r" else 1), True
            trailer = _HEAD_END.search(buf, at)
            return (trailer.end(), True) if trailer else None
        at += size
        if len(buf) < at + 2:
            return None
        at += 2 if buf[at:at + 2] == b"\r\n" else 1


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
    data, complete)`` is given each request (run it on a thread); ``release(conn)`` is told of
    every connection the loop closes."""

    def __init__(self, listener: socket.socket, ssl_context: ssl.SSLContext | None, deadline_s: float,
                 reserve_deadline_s: float, max_body: int,
                 admit: Callable[[socket.socket, Any], Connection | str],
                 handle: Callable[[Connection, bytes, bool], None],
                 release: Callable[[Connection], None]) -> None:
        self.listener = listener
        self.ssl_context = ssl_context
        self.deadline_s = deadline_s
        self.reserve_deadline_s = min(reserve_deadline_s, deadline_s)
        self.max_body = max_body
        self._admit, self._handle, self._release = admit, handle, release
        self._sel = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        for end in (self._wake_r, self._wake_w, listener):
            end.setblocking(False)
        self._sel.register(self._wake_r, selectors.EVENT_READ, None)
        self._sel.register(listener, selectors.EVENT_READ, "listener")
        self._calls: deque[Callable[[], None]] = deque()
        # By deadline: each queue's deadlines come in the order they were set (one length each).
        self._queues: tuple[deque[tuple[float, int, Connection]], ...] = (deque(), deque())
        self._held: set[Connection] = set()
        self._stop = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()  # not running yet
        self._accept_again = 0.0
        self._seq = 0

    @property
    def held(self) -> int:
        """Connections the loop holds now (waiting for a request or its rest)."""
        return len(self._held)

    # -- any thread --------------------------------------------------------------------------
    def resume(self, conn: Connection, leftover: bytes) -> None:
        """A request on ``conn`` was answered and it stays open: wait for the next one here."""
        self._call(lambda: self._take(conn, leftover))

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        self._stopped.wait(5)

    def _call(self, fn: Callable[[], None]) -> None:
        self._calls.append(fn)
        self._wake()

    def _wake(self) -> None:
        try:
            self._wake_w.send(b"\0")
        except OSError:  # already awake, or closed
            pass

    # -- the loop's thread -------------------------------------------------------------------
    def run(self) -> None:
        self._stopped.clear()
        try:
            while not self._stop.is_set():
                while self._calls:
                    self._calls.popleft()()
                for key, _mask in self._sel.select(timeout=TICK_S):
                    if key.data is None:
                        self._drain_wake()
                    elif key.data == "listener":
                        self._accept()
                    else:
                        self._progress(key.data)
                self._expire(time.monotonic())
        finally:
            for conn in list(self._held):
                self._close(conn)
            self._sel.close()
            self._wake_r.close()
            self._wake_w.close()
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
            self._take(conn, b"")

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
        """Close the connection that has waited longest without completing a request."""
        oldest: Connection | None = None
        for queue in self._queues:
            _skip_stale(queue)
            if queue and (oldest is None or queue[0][2].seq < oldest.seq):
                oldest = queue[0][2]
        if oldest is None:
            return False
        self._close(oldest)
        return True

    def _take(self, conn: Connection, leftover: bytes) -> None:
        """Hold ``conn`` until its next request is complete or its deadline passes."""
        if self._stop.is_set():
            self._release_closed(conn)
            return
        conn.buf = bytearray(leftover)
        conn.done = False
        conn.head_seen = False
        self._seq += 1
        conn.seq = self._seq
        conn.due = time.monotonic() + (self.reserve_deadline_s if conn.reserved else self.deadline_s)
        self._queues[conn.reserved].append((conn.due, conn.seq, conn))
        try:
            conn.sock.setblocking(False)
            self._sel.register(conn.sock, selectors.EVENT_READ, conn)
        except (OSError, ValueError):  # closed meanwhile
            conn.done = True
            self._release_closed(conn)
            return
        self._held.add(conn)
        self._progress(conn)  # what is already there: a pipelined request, TLS's own buffer

    def _progress(self, conn: Connection) -> None:
        if conn.done:
            return
        if not conn.handshaken:
            try:
                conn.sock.do_handshake()  # type: ignore[attr-defined]
            except ssl.SSLWantWriteError:
                self._sel.modify(conn.sock, selectors.EVENT_WRITE, conn)
                return
            except ssl.SSLWantReadError:
                self._sel.modify(conn.sock, selectors.EVENT_READ, conn)
                return
            except (OSError, ValueError):  # a plain-HTTP client, a refused certificate, a reset
                self._close(conn)
                return
            conn.handshaken = True
            self._sel.modify(conn.sock, selectors.EVENT_READ, conn)
        ended = False
        try:
            while True:
                data = conn.sock.recv(RECEIVE_BYTES)
                if not data:
                    ended = True
                    break
                conn.buf += data
                if len(conn.buf) > MAX_HEAD_BYTES + self.max_body:
                    break
        except WOULD_BLOCK:
            pass
        except OSError:
            ended = True
        try:
            head = head_of(conn.buf)
        except ValueError:
            self._answer(conn, TOO_LONG)
            return
        end = None if head is None else request_end(conn.buf, head, self.max_body)
        if end is not None:
            self._hand_on(conn, end[0], end[1])
        elif ended:
            self._ended(conn)
        elif head is not None and not conn.head_seen:
            self._go_on(conn, head)

    def _go_on(self, conn: Connection, head: re.Match[bytes]) -> None:
        """A client that asks before sending its body (``Expect: 100-continue``: curl's for a
        body over 1 MiB, some libraries' for any) is told to go on once its head is here: the
        body is read here, before the request has a thread, so nobody else would tell it. A body
        over the limit is not asked for: its head is handed on, and the answer is a 413."""
        conn.head_seen = True
        if _EXPECTS_CONTINUE.search(conn.buf, 0, head.end()):
            try:
                conn.sock.send(CONTINUE)
            except (OSError, ValueError):  # gone (the read says so), or TLS not ready to write
                pass

    def _ended(self, conn: Connection) -> None:
        """The client closed its end before its request was complete: a head cut short is not a
        request (nothing is run); a body cut short is answered 400."""
        if _HEAD_END.search(conn.buf):
            self._answer(conn, LATE)
        else:
            self._close(conn)

    def _hand_on(self, conn: Connection, end: int, complete: bool) -> None:
        data, leftover = bytes(conn.buf[:end]), bytes(conn.buf[end:])
        self._let_go(conn)
        conn.buf = bytearray(leftover)
        try:
            conn.sock.setblocking(True)
        except OSError:
            self._release_closed(conn)
            return
        self._handle(conn, data, complete)

    def _expire(self, now: float) -> None:
        if self._accept_again and now >= self._accept_again:
            self._accept_again = 0.0
            self._sel.register(self.listener, selectors.EVENT_READ, "listener")
        for queue in self._queues:
            while _skip_stale(queue) and queue[0][0] <= now:
                conn = queue.popleft()[2]
                if _HEAD_END.search(conn.buf):  # its body is late: say so
                    self._answer(conn, LATE)
                else:  # a head, or the wait for a next request: the connection just ends
                    self._close(conn)

    def _answer(self, conn: Connection, response: bytes) -> None:
        try:
            conn.sock.send(response)
        except OSError:  # gone, or a full buffer: the close says the rest
            pass
        self._close(conn)

    def _let_go(self, conn: Connection) -> None:
        conn.done = True
        self._held.discard(conn)
        try:
            self._sel.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass

    def _close(self, conn: Connection) -> None:
        self._let_go(conn)
        self._release_closed(conn)

    def _release_closed(self, conn: Connection) -> None:
        conn.sock.close()
        self._release(conn)

    def _drain_wake(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except BlockingIOError:
            pass
