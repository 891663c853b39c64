"""What the screens that watch many tables are sent: a league room's and a venue's counter. Each
table as its own screen shows it to everyone, and the QR codes they fetch once.
"""

from __future__ import annotations

import functools
from typing import Any

from flask import Response, request

from ..games.core import hourglass
from ..lan import qr
from ..services import services


def live_table(code: str, now_ms: int) -> dict[str, Any]:
    """A table still on, as its own screen shows it to everyone: its game, who sits there and
    their scores, whose turn it is, the sand, and since when its game is played."""
    tables = services().tables
    st = tables.live(code).state
    game = tables.rules.games[st["game"]]
    playing = st["status"] == "playing"
    scores = game.result(st["game_state"])["scores"] if playing else {}
    seated = st["seats"] if playing else list(st["players"])
    turn = game.turn_of(st["game_state"]) if playing else None
    return {"code": code, "game": game.name, "title": game.title, "status": st["status"],
            "players": [{"name": st["players"][p]["name"], "score": scores.get(p)}
                        for p in seated if not st["players"][p]["removed"]],
            "turn": st["players"][turn]["name"] if turn in st["players"] else None,
            "timer": hourglass.view(st["timer"], now_ms), "started_ms": st["started_ms"]}


@functools.lru_cache(maxsize=256)
def qr_svg(link: str) -> bytes:
    """A QR code for its link: the same link is asked for by every reload of a screen, and
    making the code costs more than serving it."""
    return qr.svg(link)


def private_svg(link: str) -> Response:
    """A QR code whose link holds a secret, for the one screen allowed it. It changes only with
    the server's address (or a new secret): the browser keeps it (private, since the secret is
    for no shared cache) and asks only whether it changed (its ETag)."""
    resp = Response(qr_svg(link), mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "private, no-cache"
    resp.add_etag()
    return resp.make_conditional(request)
