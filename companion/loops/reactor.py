"""Every websocket read by one thread: a selector loop over the sockets flask-sock accepted.

simple-websocket gives each connection a reader thread that hands every frame on to the request
thread: two thread switches and two GIL handoffs per frame. With hundreds of phones on a 2-core
box those switches, not the work, made the slowest broadcasts slow (bench/broadcast.py). Here
flask-sock still does the handshake (``thread_class=Adopted`` starts no reader), then the
socket joins this loop: frames are parsed with wsproto and put in the link's inbox, which the
connection's request thread works through in order (so commands of different phones still run
side by side, and their commits can share an fsync); pings go out from the loop, and writes from
any thread go through the link's buffer, so a phone that stops reading costs a bounded backlog
and then its connection, never a blocked sender.

A close is the websocket's closing handshake (RFC 6455, 7.1): a close frame, the phone's answer
(or a grace), then the end of the TCP connection, which the server shuts down itself. The WSGI
server still answers the request once the route returns (flask-sock hands Werkzeug a 200): on a
socket shut down that write fails and is taken for a dropped connection, where on a socket
merely closed by the link (its file stays open in the server's reader and writer) "HTTP/1.1 200
OK" followed the close frame, which Chromium reports as "Invalid frame header" (tests/test_closing.py).
"""

from __future__ import annotations

import logging
import os
import queue
import selectors
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from wsproto import ConnectionState, WSConnection
from wsproto.events import CloseConnection, Event, Message, Ping, Pong, TextMessage
from wsproto.utilities import LocalProtocolError

from . import heartbeat
from .waker import Waker

log = logging.getLogger(__name__)

MAX_BACKLOG = 1024 * 1024  # bytes a phone may leave unread before it is cut off
RECEIVE_BYTES = 65536
CLOSE_GRACE_S = 2.0  # how long a closing link may take to get its close frame out
TICK_S = 0.25  # how often the loop looks at pings and pong deadlines
PROBE_TIMEOUT_S = 5.0  # how long a probed link has to answer (see Link.probe)
WOULD_BLOCK = (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError)


class Adopted(threading.Thread):
    """simple-websocket's reader thread, never started: the reactor reads instead. (As
    ``SOCK_SERVER_OPTIONS["thread_class"]`` it is built with the reader loop as target; it
    does not keep it, since a target bound to the websocket would make the two a reference
    cycle, freed only by the cyclic collector's next full pass instead of when the phone goes.)"""

    def __init__(self, target: Callable[[], None] | None = None) -> None:
        super().__init__(daemon=True)

    def start(self) -> None:
        pass


class LinkClosed(OSError):
    """Writing to a link that is closed or closing."""


class Link:
    """One websocket in the reactor: it reads, anyone may write. Satisfies hub.Socket."""

    def __init__(self, reactor: Reactor, ws: Any, max_message_size: int, ping_interval_s: float,
                 ping_timeout_s: float) -> None:
        self.reactor = reactor
        self._server = ws  # the simple-websocket Server that did the handshake
        self.sock: socket.socket = ws.sock
        self.proto: WSConnection = ws.ws
        self.max_message_size = max_message_size
        self.ping_interval_s = ping_interval_s
        self.ping_timeout_s = ping_timeout_s
        self.next_ping = time.monotonic() + ping_interval_s
        self.awaiting_pong = False
        self.pong_due = 0.0
        self.inbox: queue.SimpleQueue[str | bytes | None] = queue.SimpleQueue()  # None: closed
        self._lock = threading.Lock()
        self._out = bytearray()
        self._closing = False
        self._released = False
        self._parts: list[Any] = []
        self._size = 0

    def receive(self) -> str | bytes | None:
        """The next whole message, waiting for it; None once the link is closed, and on every
        later call too (the end is put back for whoever asks next)."""
        message = self.inbox.get()
        if message is None:
            self.inbox.put(None)
        return message

    # -- writing (any thread) -------------------------------------------------------------
    def send(self, data: str) -> None:
        self._write(TextMessage(data=data))

    def close(self, reason: int | None = None, message: str | None = None) -> None:
        """Send a close frame; the socket is let go once the phone answers it, or after a grace."""
        self._try(CloseConnection(code=reason or 1000, reason=message))
        self.reactor.call_soon(lambda: self.reactor.flush(self))

    def probe(self) -> None:
        """Ask for a pong within ``PROBE_TIMEOUT_S``. Called when the same seat connects again,
        which is what a phone does when it wakes: its old socket is most likely one that went
        to sleep without a close frame, and would otherwise hold its thread, its memory and
        its player's "online" dot until the ping timeout. A second tab that is alive answers
        and stays."""
        self.reactor.call_soon(self._probe)

    def _probe(self) -> None:  # on the loop's thread, like ping_due
        if self.closing:
            return
        self._ping(time.monotonic() + min(PROBE_TIMEOUT_S, self.ping_timeout_s))

    def _write(self, event: Event) -> None:
        with self._lock:
            if self._closing:
                raise LinkClosed("the connection is closed")
            try:
                data = self.proto.send(event)
            except LocalProtocolError as e:
                self._closing = True
                raise LinkClosed(str(e)) from None
            if isinstance(event, CloseConnection):
                self._closing = True
                self.next_ping = time.monotonic() + CLOSE_GRACE_S
            had_backlog = bool(self._out)
            self._out += data
            if not had_backlog:
                self._flush_locked()
            if len(self._out) > MAX_BACKLOG:
                self._closing = True
                self._out.clear()
                self.reactor.call_soon(lambda: self.reactor.drop(self))
                raise LinkClosed("the phone stopped reading")
            if self._out and not had_backlog:
                self.reactor.call_soon(lambda: self.reactor.watch_writes(self))

    def _flush_locked(self) -> None:
        while self._out:
            try:
                sent = self.sock.send(self._out)
            except WOULD_BLOCK:
                return
            except OSError:  # the phone is gone: let go of it now, not at the next ping
                self._closing = True
                self._out.clear()
                self.reactor.call_soon(lambda: self.reactor.drop(self))
                return
            del self._out[:sent]

    def flush(self) -> bool:
        """Write what is buffered; True once nothing is left and the link may close: it is
        closing, and not waiting for the phone to answer its close frame."""
        with self._lock:
            self._flush_locked()
            return not self._out and self._closing and self.proto.state is not ConnectionState.LOCAL_CLOSING

    @property
    def backlog(self) -> bool:
        with self._lock:
            return bool(self._out)

    # -- reading (the reactor's thread) ---------------------------------------------------
    def read(self) -> bool:
        """Take in what arrived and handle its frames; False when the link is done."""
        try:
            data = self.sock.recv(RECEIVE_BYTES)
            while isinstance(self.sock, ssl.SSLSocket) and self.sock.pending():
                data += self.sock.recv(RECEIVE_BYTES)
        except WOULD_BLOCK:
            return True
        except OSError:
            data = b""
        if not data:
            return False
        self.proto.receive_data(data)
        for event in self.proto.events():
            if not self._handle(event):
                return False
        return True

    def _handle(self, event: Event) -> bool:
        """False once the closing handshake is over. What the phone sends after the link began
        to close is not taken in, but read, up to its close frame: a socket closed with bytes
        unread would end in a reset instead of the close."""
        if isinstance(event, CloseConnection):
            # The phone's close, answered unless it answers the server's; or, the link still
            # open, wsproto's verdict on a frame it could not parse (1007: not UTF-8), sent.
            with self._lock:
                if self.proto.state in (ConnectionState.OPEN, ConnectionState.REMOTE_CLOSING):
                    self._out += self.proto.send(event.response())
                self._closing = True
            return False
        if self.closing:
            return True
        if isinstance(event, Message):
            self._size += len(event.data)
            if self._size > self.max_message_size:
                self.close(1009, "Message is too big")
                return True
            self._parts.append(event.data)
            if event.message_finished:
                self.inbox.put(("" if isinstance(event, TextMessage) else b"").join(self._parts))
                self._parts, self._size = [], 0
        elif isinstance(event, Ping):
            self._try(event.response())
        elif isinstance(event, Pong):
            self.awaiting_pong = False
        return True

    def ping_due(self, now: float) -> bool:
        """Ping when it is time, and close a link whose pong is late: a phone that vanished
        without a close frame (Wi-Fi gone, battery out) answers nothing. False once the link
        has been closing longer than the grace (its close frame stuck behind what the phone
        did not read, or never acknowledged): let it go."""
        if self.closing:
            return now < self.next_ping
        if self.awaiting_pong:
            if now >= self.pong_due:
                self.close(1008, "Ping/Pong timeout")
        elif now >= self.next_ping:
            self.next_ping = now + self.ping_interval_s
            self._ping(now + self.ping_timeout_s)
        return True

    def _ping(self, pong_due: float) -> None:
        """A pong is due by ``pong_due``; one ping outstanding at a time, so a ping already
        out keeps waiting, for the earlier of the two deadlines."""
        if self.awaiting_pong:
            self.pong_due = min(self.pong_due, pong_due)
        else:
            self.awaiting_pong, self.pong_due = True, pong_due
            self._try(Ping())

    def _try(self, event: Event) -> None:
        try:
            self._write(event)
        except LinkClosed:
            pass

    @property
    def closing(self) -> bool:
        with self._lock:
            return self._closing

    def released(self) -> None:
        """The reactor let go: end the connection, wake the request thread and tell
        simple-websocket it is over. Shut down, not only closed: the WSGI server's own reader
        and writer keep the socket's file open, and would write its response after the close
        frame and read on as if a next request came (see the module's docstring)."""
        with self._lock:
            if self._released:
                return
            self._closing = self._released = True
        self.reactor.forget(self)
        self._server.connected = False
        for end in (lambda: self.sock.shutdown(socket.SHUT_RDWR), self.sock.close):
            try:
                end()
            except OSError:  # the phone was gone already
                pass
        self.inbox.put(None)


class Reactor:
    """The loop thread and its selector; only that thread touches the selector."""

    def __init__(self) -> None:
        self._calls: deque[Callable[[], None]] = deque()
        self._lock = threading.Lock()
        self._links: set[Link] = set()
        # Every link from its handshake to its end, registered on the loop or not yet (the route
        # sends the snapshot first): what close_all tells and waits for. Any thread's.
        self._adopted: set[Link] = set()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._waker: Waker | None = None  # made when the loop starts (in each forked worker too)

    def adopt(self, ws: Any, max_message_size: int, ping_interval_s: float,
              ping_timeout_s: float | None = None) -> Link:
        """A link for a handshaken socket; it is read once ``start`` is called. A pong must
        come within ``ping_timeout_s`` of its ping (by default, before the next ping)."""
        link = Link(self, ws, max_message_size, ping_interval_s,
                    ping_interval_s if ping_timeout_s is None else ping_timeout_s)
        with self._lock:
            self._adopted.add(link)
        return link

    def forget(self, link: Link) -> None:
        """The link was let go."""
        with self._lock:
            self._adopted.discard(link)

    def start(self, link: Link) -> None:
        link.sock.setblocking(False)
        self._ensure_running()
        self.call_soon(lambda: self._register(link))

    def call_soon(self, fn: Callable[[], None]) -> None:
        self._calls.append(fn)
        if threading.current_thread() is not self._thread:
            self._wake()

    def close_all(self, code: int, reason: str, wait_s: float = CLOSE_GRACE_S) -> None:
        """Close every link with ``code`` (the server is going away) and wait, up to ``wait_s``,
        until each close frame is out and answered or the link let go. A link not yet on the
        loop is closed too: its route registers it next, and the loop sends the frame then."""
        if self._thread is not None and self._pid != os.getpid():
            return  # a forked copy: the links are the parent's
        with self._lock:
            links = list(self._adopted)
        for link in links:
            link.close(code, reason)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            with self._lock:
                if not self._adopted:
                    return
            time.sleep(0.02)

    # -- on the loop's thread ---------------------------------------------------------------
    def watch_writes(self, link: Link) -> None:
        if link in self._links and link.backlog:
            self._sel.modify(link.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, link)

    def flush(self, link: Link) -> None:
        if link.flush():
            self.drop(link)
        elif link in self._links and not link.backlog:
            self._sel.modify(link.sock, selectors.EVENT_READ, link)

    def drop(self, link: Link) -> None:
        if link in self._links:
            self._links.discard(link)
            self._sel.unregister(link.sock)
            link.flush()  # a close frame still in the buffer, if the socket takes it
        link.released()

    def _register(self, link: Link) -> None:
        if link.closing and link.flush():  # closed before the loop got to it, and done
            self.drop(link)
            return
        try:
            stale = self._sel.get_map().get(link.sock.fileno())
            if stale is not None:  # a socket closed behind the loop's back; its number is reused
                self.drop(stale.data)
            self._sel.register(link.sock, selectors.EVENT_READ, link)
        except (ValueError, OSError):  # the socket broke before it got here
            link.released()
            return
        self._links.add(link)
        self.watch_writes(link)

    def _run(self) -> None:
        next_pings = time.monotonic() + TICK_S
        heart = heartbeat.register("websockets")
        waker = self._waker
        assert waker is not None
        while True:
            heart.beat()
            while self._calls:
                try:
                    self._calls.popleft()()
                except Exception:  # noqa: BLE001 - the loop serves every phone: it must go on
                    log.exception("websocket reactor call failed")
            for key, mask in self._sel.select(timeout=TICK_S):
                link = key.data
                if link is None:
                    waker.drain()
                    continue
                if link not in self._links:
                    continue
                try:
                    if mask & selectors.EVENT_WRITE:
                        self.flush(link)
                    if mask & selectors.EVENT_READ and link in self._links and not link.read():
                        self.drop(link)
                except Exception:  # noqa: BLE001 - one broken link must not stop every phone's
                    log.exception("websocket link failed; closing it")
                    self.drop(link)
            now = time.monotonic()
            if now >= next_pings:
                next_pings = now + TICK_S
                for link in list(self._links):
                    if not link.ping_due(now):
                        self.drop(link)

    def _ensure_running(self) -> None:
        """Started on first use, and again in a forked worker (threads do not survive a fork)."""
        with self._lock:
            if self._thread is not None and self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._sel = selectors.DefaultSelector()
            self._waker = Waker()  # a forked worker's own: the parent's pair is the parent's
            self._sel.register(self._waker.reader, selectors.EVENT_READ, None)
            self._links = set()
            self._thread = threading.Thread(target=self._run, name="websocket-reactor", daemon=True)
            self._thread.start()

    def _wake(self) -> None:
        if self._waker is not None:  # not started yet: nothing to wake
            self._waker.wake()


reactor = Reactor()


def going_away() -> None:
    """The server is stopping: every phone is told 1001 "going away", so its page reconnects at
    once (to this server when it is back, or to another behind a proxy) rather than wait out a
    dead socket."""
    reactor.close_all(1001, "going away")
