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
    """The queue for one table's lock: how many wait for it."""

    def __init__(self) -> None:
        self._waiting = 0
        self._count = threading.Lock()

    @contextmanager
    def turn(self, lock: threading.RLock) -> Iterator[None]:
        """Hold ``lock`` (at once if this thread holds it already), or raise ``busy()``."""
        if not lock.acquire(blocking=False):
            with self._count:
                if self._waiting >= MAX_WAITING:
                    raise busy()
                self._waiting += 1
            try:
                got = lock.acquire(timeout=WAIT_S)
            finally:
                with self._count:
                    self._waiting -= 1
            if not got:
                raise busy()
        try:
            yield
        finally:
            lock.release()
