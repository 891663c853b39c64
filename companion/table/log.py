"""The event log as the table layer reads it: records, command batches and undo.

A command's events share a ``batch`` (the seq of its first event). Undo appends a
``CommandUndone`` event naming a batch; nothing is ever deleted, so history shows both the
move and its undoing, and the effective log — what state is folded from — is the log less
undone batches and the undo markers themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games.core.events import Event

# Batches that undo never takes back: a join handed out a token that is still in a pocket.
NOT_UNDOABLE = frozenset({"TableCreated", "PlayerJoined", "CommandUndone"})


@dataclass(frozen=True)
class Record:
    seq: int
    batch: int
    actor: str  # a player id, or "host"
    ts_ms: int
    event: Event

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "batch": self.batch, "actor": self.actor, "ts_ms": self.ts_ms,
                "event": self.event}


def undone_batches(records: list[Record]) -> set[int]:
    return {r.event["batch"] for r in records if r.event["type"] == "CommandUndone"}


def effective(records: list[Record]) -> list[Record]:
    undone = undone_batches(records)
    return [r for r in records if r.batch not in undone and r.event["type"] != "CommandUndone"]


def last_undoable_batch(records: list[Record]) -> tuple[int, str] | None:
    """The (batch, actor) that an undo would take back now, if any."""
    undone = undone_batches(records)
    blocked: set[int] = set()
    for r in records:
        if r.event["type"] in NOT_UNDOABLE:
            blocked.add(r.batch)
    for r in reversed(records):
        if r.batch not in undone and r.batch not in blocked:
            return r.batch, r.actor
    return None
