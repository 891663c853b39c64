"""How another thread wakes a selector loop: a byte on a socket pair the loop watches. Both loops
(request_reader.py, reactor.py) wait in ``select`` with a timeout; a call queued for them, or a
stop, must not wait out that timeout."""

from __future__ import annotations

import socket


class Waker:
    """The pair: register ``reader`` for reading with the loop's selector, ``drain`` it when it
    is ready, and ``wake`` from any thread."""

    def __init__(self) -> None:
        self.reader, self._writer = socket.socketpair()
        self.reader.setblocking(False)
        self._writer.setblocking(False)

    def wake(self) -> None:
        try:
            self._writer.send(b"\0")
        except OSError:  # already awake (the pair's buffer is full), or closed
            pass

    def drain(self) -> None:
        try:
            while self.reader.recv(4096):
                pass
        except BlockingIOError:
            pass

    def close(self) -> None:
        self.reader.close()
        self._writer.close()
