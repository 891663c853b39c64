"""Token buckets keyed by client and purpose (joins, wrong table codes, websocket frames)."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

from ..clock import Clock
from ..errors import RateLimited


@dataclass
class _Bucket:
    tokens: float
    at_ms: int


class RateLimiter:
    """``allow(key)`` spends one token; a bucket holds ``burst`` and refills ``per_second``.

    Buckets idle long enough to be full again are dropped, so the map stays small."""

    def __init__(self, clock: Clock, per_second: float, burst: int) -> None:
        self.clock = clock
        self.per_second = per_second
        self.burst = burst
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def allow(self, key: str, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if the bucket has them; ``cost=0`` only asks whether the
        bucket still has a whole token left."""
        now = self.clock.now_ms()
        with self._lock:
            b = self._buckets.get(key)
            if b is None:
                b = self._buckets[key] = _Bucket(float(self.burst), now)
            b.tokens = self._refilled(b, now)
            b.at_ms = now
            if len(self._buckets) > 10_000:
                self._sweep(now)
            if b.tokens < max(cost, 1.0):
                return False
            b.tokens -= cost
            return True

    def wait_s(self, key: str) -> int:
        """Whole seconds until the bucket holds a token again (0 if it does)."""
        with self._lock:
            b = self._buckets.get(key)
            if b is None:
                return 0
            tokens = self._refilled(b, self.clock.now_ms())
        return math.ceil(max(0.0, 1.0 - tokens) / self.per_second)

    def refusal(self, message: str, key: str) -> RateLimited:
        """The 429 for this bucket's caller, saying when to try again (``Retry-After``)."""
        return RateLimited(message, max(1, self.wait_s(key)))

    def _refilled(self, b: _Bucket, now: int) -> float:
        return min(self.burst, b.tokens + (now - b.at_ms) / 1000 * self.per_second)

    def _sweep(self, now: int) -> None:
        full_after_ms = self.burst / self.per_second * 1000
        for k in [k for k, b in self._buckets.items() if now - b.at_ms > full_after_ms]:
            del self._buckets[k]


class GuessLimiter:
    """Wrong guesses at table codes and tokens, counted per device so that the limit hits the
    guesser and not a phone beside it (the same café Wi-Fi, one public address).

    A device is the random id a page sends (``X-Companion-Device``); a request without one
    counts for its whole address. An address can bring only so many new ids an hour, so
    making up ids buys a guesser little. Each device has a quick bucket (a burst of typos,
    refilled in a minute) and a slow one (refilled over an hour), so a patient guesser who
    stays under the quick rate is bounded too."""

    SLOW_BURST = 40
    SLOW_PER_HOUR = 60
    NEW_DEVICES_BURST = 10
    NEW_DEVICES_PER_HOUR = 20
    KNOWN_DEVICES = 50_000

    def __init__(self, clock: Clock, per_minute: int) -> None:
        self.quick = RateLimiter(clock, per_minute / 60, per_minute)
        self.slow = RateLimiter(clock, self.SLOW_PER_HOUR / 3600, self.SLOW_BURST)
        self.new_devices = RateLimiter(clock, self.NEW_DEVICES_PER_HOUR / 3600, self.NEW_DEVICES_BURST)
        self._known: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._lock = threading.Lock()

    def key(self, address: str, device: str | None) -> str:
        """Whose bucket a request spends: its device's, once the address may bring it."""
        if not device:
            return address
        with self._lock:
            pair = (address, device)
            if pair in self._known:
                self._known.move_to_end(pair)
                return f"{address}|{device}"
            if not self.new_devices.allow(address):
                return address
            self._known[pair] = None
            if len(self._known) > self.KNOWN_DEVICES:
                self._known.popitem(last=False)
            return f"{address}|{device}"

    def refusal(self, message: str, key: str) -> RateLimited:
        """The 429 for a guesser: the later of the two buckets' next token."""
        return RateLimited(message, max(1, self.quick.wait_s(key), self.slow.wait_s(key)))

    def may_guess(self, key: str) -> bool:
        return self.quick.allow(key, cost=0.0) and self.slow.allow(key, cost=0.0)

    def guessed_wrong(self, key: str) -> bool:
        """Spend one guess; False once the device has none left."""
        return self.quick.allow(key) and self.slow.allow(key)


class ConnectionCap:
    """How many websockets one client address holds at once. The server caps connections per
    address at the socket, but behind a reverse proxy every connection is the proxy's: there,
    this is the per-address cap, by the forwarded address."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def acquire(self, address: str) -> bool:
        with self._lock:
            if self._open.get(address, 0) >= self.per_address:
                return False
            self._open[address] = self._open.get(address, 0) + 1
            return True

    def release(self, address: str) -> None:
        with self._lock:
            left = self._open.pop(address) - 1
            if left:
                self._open[address] = left
