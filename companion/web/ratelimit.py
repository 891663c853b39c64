"""Token buckets keyed by client and purpose (joins, wrong table codes, websocket frames)."""

from __future__ import annotations

import math
import threading
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
            b.tokens = min(self.burst, b.tokens + (now - b.at_ms) / 1000 * self.per_second)
            b.at_ms = now
            if len(self._buckets) > 10_000:
                self._sweep(now)
            if b.tokens < max(cost, 1.0):
                return False
            b.tokens -= cost
            return True

    def refusal(self, message: str) -> RateLimited:
        """The 429 for a caller of this bucket: try again once a token has refilled."""
        return RateLimited(message, max(1, math.ceil(1 / self.per_second)))

    def _sweep(self, now: int) -> None:
        full_after_ms = self.burst / self.per_second * 1000
        for k in [k for k, b in self._buckets.items() if now - b.at_ms > full_after_ms]:
            del self._buckets[k]
