"""A connection's requests as h11 reads them: the one parse of every byte a client sends.

Why (#41): the reader used to find where a request ends by hand and Werkzeug then parsed the same
bytes again; two parsers of one request is where request smuggling lives, and a hand-written
chunk parser is where a chunk size of -6 looped forever. Here h11 (strict RFC 9112, sans-IO,
the library wsproto is built on) decides where a request ends and what is malformed; this module
only adds the server's own policy on top of what h11 allows:

- a body is kept only up to the limit, whatever length it declares (413 past it);
- a request with both Content-Length and Transfer-Encoding is refused (RFC 9112 §6.1 allows it
  only to be read by Transfer-Encoding and the connection closed; refusing it is the same
  safety, simpler), and so is a head folded over lines (obs-fold, RFC 9112 §5.2: refuse, or
  unfold, which h11 does; a proxy in front may do the other);
- only HTTP/1.0 and 1.1 are spoken (505 for any other version h11 lets through).

Nothing here touches a socket: the loop (request_reader.py) feeds what it receives and acts on
the outcome, and a property test (tests/test_incoming.py) feeds it arbitrary bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import h11

MAX_HEAD_BYTES = 32 * 1024  # a phone's request head is under 1 KiB
_OBS_FOLD = re.compile(rb"\n[ \t]")
_VERSIONS = (b"1.0", b"1.1")


@dataclass(frozen=True)
class Refusal:
    """Answer this and close: the request is malformed, too large, or not HTTP/1."""

    status: int
    code: str
    message: str


@dataclass(frozen=True)
class Complete:
    """A whole request, its body de-chunked."""

    request: h11.Request
    body: bytes

    @property
    def websocket(self) -> bool:
        """Whether it asks to become a websocket (its thread then lasts as long as the phone)."""
        return any(name == b"upgrade" and b"websocket" in value.lower()
                   for name, value in self.request.headers)


class Ended:
    """The client closed before a request began, or part-way through its head: nothing to run."""


ENDED = Ended()


def _refusal(e: h11.RemoteProtocolError) -> Refusal:
    status = e.error_status_hint if e.error_status_hint in (400, 413, 431, 501, 505) else 400
    code = {413: "http/too_large", 501: "http/not_implemented"}.get(status, "http/bad_request")
    return Refusal(status, code, f"the request could not be read: {e}")


TOO_LARGE = Refusal(413, "http/too_large", "the request's body is over the server's limit")


class Incoming:
    """One connection's side of the conversation as h11 tracks it; the response is written
    through the same ``h11`` (responding.py), which is how h11 knows when the next request may
    begin and whether the connection must close."""

    __slots__ = ("h11", "max_body", "request", "body", "_head", "_continue_due")

    def __init__(self, max_body: int) -> None:
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD_BYTES)
        self.max_body = max_body
        self.request: h11.Request | None = None
        self.body = bytearray()
        self._head = bytearray()  # what came of a head not yet whole (bounded by h11's limit)
        self._continue_due = False

    @property
    def started(self) -> bool:
        """Whether any of the current request has come (a head cut short is still nothing)."""
        return self.request is not None

    def buffered(self) -> int:
        """Bytes held for this connection: memory a client can make the server keep."""
        return len(self._head) + len(self.body) + len(self.h11.trailing_data[0])

    def feed(self, data: bytes) -> Complete | Refusal | Ended | None:
        """Take what arrived (``b""``: the client closed its end) and say what it amounts to:
        a whole request, a refusal, the end, or None while more is needed."""
        if self.request is None:
            self._head += data
        try:
            self.h11.receive_data(data)
        except RuntimeError:  # data after the client said it was done: a client that misbehaves
            return Refusal(400, "http/bad_request", "data came after the connection's end")
        return self.next()

    def next(self) -> Complete | Refusal | Ended | None:
        """What the bytes already fed amount to (a pipelined request, once the answer to the one
        before it is out and ``start_next_cycle`` was called)."""
        try:
            while True:
                event = self.h11.next_event()
                if event is h11.NEED_DATA or event is h11.PAUSED:
                    return None
                if isinstance(event, h11.Request):
                    refused = self._take_head(event)
                    if refused:
                        return refused
                elif isinstance(event, h11.Data):
                    self.body += event.data
                    if len(self.body) > self.max_body:
                        return TOO_LARGE
                elif isinstance(event, h11.EndOfMessage):
                    assert self.request is not None
                    return Complete(self.request, bytes(self.body))
                elif isinstance(event, h11.ConnectionClosed):
                    return ENDED
        except h11.RemoteProtocolError as e:
            if self.request is None and self.h11.trailing_data[1]:
                return ENDED  # closed part-way through a head: not a request, nothing to say
            return _refusal(e)

    def _take_head(self, request: h11.Request) -> Refusal | None:
        if request.http_version not in _VERSIONS:
            return Refusal(505, "http/bad_request", "this server speaks HTTP/1.0 and HTTP/1.1")
        head_length = len(self._head) - len(self.h11.trailing_data[0])
        if _OBS_FOLD.search(self._head, 0, head_length):
            return Refusal(400, "http/bad_request", "a header is folded over two lines")
        self._head = bytearray()
        names = {name for name, _ in request.headers}
        if b"transfer-encoding" in names and b"content-length" in names:
            return Refusal(400, "http/bad_request", "both Content-Length and Transfer-Encoding")
        declared = next((int(v) for n, v in request.headers if n == b"content-length"), 0)
        if declared > self.max_body:
            return TOO_LARGE
        self.request = request
        self._continue_due = self.h11.they_are_waiting_for_100_continue
        return None

    def continue_now(self) -> bytes:
        """``HTTP/1.1 100 Continue`` once, if the client waits for it before sending its body
        (curl for a body over 1 MiB, some libraries for any): the body is read before the
        request has a thread, so nobody else would say it. A body over the limit is never asked
        for: it is refused as soon as its head is here."""
        if not self._continue_due:
            return b""
        self._continue_due = False
        said = self.h11.send(h11.InformationalResponse(status_code=100, headers=[], reason=b"Continue"))
        return said or b""

    def next_cycle(self) -> bool:
        """After an answer: ready for the connection's next request (True), or it must close."""
        if self.h11.our_state is not h11.DONE or self.h11.their_state is not h11.DONE:
            return False
        self.h11.start_next_cycle()
        self.request, self.body = None, bytearray()
        self._head = bytearray(self.h11.trailing_data[0])
        return True
