"""A command's turn at its table: commands to one table take its lock one at a time, and one
that cannot have it soon is told the table is busy (503 ``table/busy``) instead of queueing.

Why (#35 item 7): a full pool answered ``server/busy`` within a second to each command that
reached it, but 2,500 simultaneous commands at one table queued for the table's lock first,
without a bound, and the last ones were answered after 24 s. Now a command waits for its turn
at most ``WAIT_S``, and when ``MAX_WAITING`` already wait it is answered at once: a table's
phones send a command each now and then, so a longer queue is a flood, and the answers it gets
cost less than the waits. bench/busy_table.py measures it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import ApiError

WAIT_S = 1.0
MAX_WAITING = 64


def busy() -> ApiError:
    return ApiError("table/busy", "this table is very busy just now; try again", 503)


class Turns:
    """The queue for one table's lock: how many wait for it, and whether this thread holds a
    place in it already (taken by ``queued`` before the command's token was checked)."""

    def __init__(self) -> None:
        self._waiting = 0
        self._count = threading.Lock()
        self._mine = threading.local()

    def _take_place(self) -> None:
        with self._count:
            if self._waiting >= MAX_WAITING:
                raise busy()
            self._waiting += 1
        self._mine.place = True

    def _give_up_place(self) -> None:
        if getattr(self._mine, "place", False):
            self._mine.place = False
            with self._count:
                self._waiting -= 1

    @contextmanager
    def queued(self) -> Iterator[None]:
        """A place in the queue, or ``busy()`` at once: taken before what comes ahead of the
        turn (an HTTP command's token is read from the database), so that a flood is refused
        at its door, not after each of its requests has waited for a connection of the pool
        (#41 item 10: 2,500 requests at once were refused seconds late, and some told
        ``server/busy``). The place is given up once the turn comes, or on leaving."""
        self._take_place()
        try:
            yield
        finally:
            self._give_up_place()

    @contextmanager
    def turn(self, lock: threading.RLock) -> Iterator[None]:
        """Hold ``lock`` (at once if this thread holds it already), or raise ``busy()``."""
        if lock.acquire(blocking=False):
            self._give_up_place()  # free for the next
        else:
            if not getattr(self._mine, "place", False):
                self._take_place()
            try:
                got = lock.acquire(timeout=WAIT_S)
            finally:
                self._give_up_place()
            if not got:
                raise busy()
        try:
            yield
        finally:
            lock.release()
