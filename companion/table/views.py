"""What one viewer is sent: built on the server from the whole state, per viewer.

The host token drives the shared table screen that everyone can see, so it is given the
public view; a player additionally gets their own secrets. Nothing here is hidden by the page:
it is simply absent from what is sent. A table's options are left to its game's view, which
shows what matters of them (a BLANK deck's snapshot is kilobytes no page needs per event).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games.core import hourglass
from ..games.core.events import event_for
from ..games.core.game import Game
from .log import Record, undone_batches
from .rules import TableState


@dataclass(frozen=True)
class Viewer:
    player_id: str | None  # None: the host's table screen
    is_host: bool

    @property
    def actor(self) -> str:
        return "host" if self.is_host else str(self.player_id)


def table_view(state: TableState, game: Game, viewer: Viewer, now_ms: int) -> dict[str, Any]:
    who = None if viewer.is_host else viewer.player_id
    return {
        "code": state["code"],
        "game": state["game"],
        "title": game.title,
        "status": state["status"],
        "game_no": state.get("game_no", 1),  # the rematches at this table count on from 1
        "locked": state["locked"],
        "players": [{"id": p["id"], "name": p["name"], "removed": p["removed"]}
                    for p in state["players"].values()],
        "seats": state["seats"],
        "me": {"player_id": who, "is_host": viewer.is_host},
        "timer": hourglass.view(state["timer"], now_ms),
        "game_state": game.view(state["game_state"], who),
        "result": state["result"],
        "started_ms": state["started_ms"],
        "ended_ms": state["ended_ms"],
    }


def record_view(r: Record, viewer: Viewer, undone: set[int] | None = None) -> dict[str, Any]:
    """One history entry: the event as this viewer may see it, who did it, and whether it
    was later undone."""
    who = None if viewer.is_host else viewer.player_id
    out = {"seq": r.seq, "batch": r.batch, "actor": r.actor, "ts_ms": r.ts_ms,
           "event": event_for(r.event, who)}
    if undone is not None:
        out["undone"] = r.batch in undone
    return out


def history_view(records: list[Record], viewer: Viewer) -> list[dict[str, Any]]:
    undone = undone_batches(records)
    return [record_view(r, viewer, undone) for r in records]
