"""Events are plain JSON-ready dicts; secrets ride in a per-player envelope that views strip.

An event says what happened (``{"type": "CardsDealt", ...}``). Data only one player may see
goes under ``"secrets": {player_id: {...}}``; :func:`event_for` merges in the viewer's own
entry and drops the rest, so a secret can never reach another phone through events, history
or undo data, whatever a game forgets to do in its own views.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]
# The envelope entry of what no phone may see, like the order of a face-down pile: no player id
# is ever this, so event_for hands it to nobody.
NOBODY = "-"


def event(type_: str, secrets: dict[str, dict[str, Any]] | None = None, **data: Any) -> Event:
    e: Event = {"type": type_, **data}
    if secrets:
        e["secrets"] = secrets
    return e


def secret_of(e: Event, player_id: str) -> dict[str, Any]:
    """The part of ``e`` that only ``player_id`` may see (empty when there is none)."""
    return e.get("secrets", {}).get(player_id, {})


def event_for(e: Event, viewer: str | None) -> Event:
    """The event as ``viewer`` (a player id, or None for the host's shared screen) may see it."""
    public = {k: v for k, v in e.items() if k != "secrets"}
    if viewer is not None:
        public.update(secret_of(e, viewer))
    return public
