"""What a command is decided with: who sent it, the time, and randomness, all passed in."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .errors import RuleViolation


@dataclass(frozen=True)
class Context:
    """The world as the rules see it. ``now_ms`` is server epoch ms; ``rng`` is seeded by
    the caller, and every draw made with it is recorded in the events it produces, so a
    replay never needs the generator again."""

    actor: str | None
    is_host: bool
    now_ms: int
    rng: random.Random = field(default_factory=lambda: random.Random(0), compare=False)

    def require_host(self, what: str) -> None:
        if not self.is_host:
            raise RuleViolation("table/host_only", f"only the host can {what}", "forbidden")

    def require_player(self) -> str:
        if self.actor is None:
            raise RuleViolation(
                "table/players_only", "this is a player's move; join the table first", "forbidden"
            )
        return self.actor
