"""Whether the process's socket loops still turn, told to /healthz and to systemd's watchdog.

Why (#41): every phone's request goes through one loop (request_reader.py) and every websocket
through another (reactor.py). A bug or a pathological input that stops one stops the room, and
nothing showed it: the process was up, its port open. Each loop beats once a turn (at least every
``TICK_S`` of its own, since each waits with a timeout); /healthz answers 503 while one has not
beaten for ``STALL_S``, and the request loop sends systemd ``WATCHDOG=1`` only while every loop
beats, so a unit with ``WatchdogSec=`` (docs/deploying.md) restarts a stuck process. The ping is
sd_notify's datagram on ``$NOTIFY_SOCKET``: a few lines, no new dependency.
"""

from __future__ import annotations

import os
import socket
import threading
import time

STALL_S = 10.0  # far beyond a turn (0.1-0.25 s) on any machine, however busy
_now = time.monotonic  # the loops' own clock: not one a test replaces in the time module

_lock = threading.Lock()
_beating: set[Heartbeat] = set()


class Heartbeat:
    """One loop's last turn."""

    __slots__ = ("name", "last", "pid")

    def __init__(self, name: str) -> None:
        self.name = name
        self.last = _now()
        self.pid = os.getpid()  # a forked worker (gunicorn) has a copy, but not the thread

    def beat(self) -> None:
        self.last = _now()


def register(name: str) -> Heartbeat:
    """A loop that starts; ``unregister`` it when it ends (a loop that ended is not stalled)."""
    heart = Heartbeat(name)
    with _lock:
        _beating.add(heart)
    return heart


def unregister(heart: Heartbeat) -> None:
    with _lock:
        _beating.discard(heart)


def stalled(after_s: float | None = None) -> list[str]:
    """The loops of this process that have not turned for ``after_s`` (STALL_S)."""
    limit = _now() - (STALL_S if after_s is None else after_s)
    with _lock:
        return sorted(heart.name for heart in _beating if heart.last < limit and heart.pid == os.getpid())


class Watchdog:
    """systemd's watchdog, pinged from the loop's own turns while every loop beats; does nothing
    when the process was not started with ``WatchdogSec=`` (no ``$WATCHDOG_USEC`` for it)."""

    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET", "")
        usec, pid = env.get("WATCHDOG_USEC", ""), env.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        self.every_s = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 and mine else 0.0
        if self.address.startswith("@"):  # an abstract socket's name
            self.address = "\0" + self.address[1:]
        self._next = 0.0

    @property
    def enabled(self) -> bool:
        return bool(self.address and self.every_s)

    def turn(self, now: float) -> None:
        """Called every turn of the loop: ping at half the watchdog's interval, and not at all
        while a loop is stuck (systemd then stops and restarts the process)."""
        if not self.enabled or now < self._next or stalled(min(STALL_S, self.every_s)):
            return
        self._next = now + self.every_s
        self.notify(b"WATCHDOG=1")

    def notify(self, message: bytes) -> None:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
                s.sendto(message, self.address)
        except OSError:  # systemd gone, or the socket not there: nothing to tell
            pass
