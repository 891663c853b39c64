"""A table's screen added later, with its host's consent (table/screen_requests.py): the device
asks, the host's phone is told over the table's socket and answers, the device collects the
answer (and, if allowed, the host's token) with its request's secret, in a header.

A device that asks with the secret of the table's QR code (``join_secret`` in the body) or of
the tent where it is played (``X-Companion-Tent``) is no guesser; one without either spends a
guess, as a typed code does (api.py ``lookup_limited``). The request's secret travels in a
header, never in a URL.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from ..errors import ApiError
from ..services import services
from ..table.service import normalise_code
from ..table.views import Viewer
from .api import admitted, bearer, body, join_link, lookup_limited
from .security import client_address, guesser

bp = Blueprint("screen_requests_api", __name__, url_prefix="/api/tables")
SECRET_HEADER = "X-Companion-Screen"


def _host_only(viewer: Viewer) -> None:
    if not viewer.is_host:
        raise ApiError("table/host_only", "only the host can let a device be the table's screen", 403)


@bp.post("/<code>/screens")
def ask(code: str):  # type: ignore[no-untyped-def]
    """A device at the table asks to be its screen: ``{"id", "secret"}`` to collect the answer."""
    data = body()
    s = services()
    live = lookup_limited(code, data.get("join_secret"))
    if live.state["status"] == "ended":
        raise ApiError("screen/table_over", "this table's game is over; start a new one", 409)
    s.allow_creation("screen", client_address(request))
    asked = s.screens.ask(live.code)  # and the table's phones are told, through every process
    return jsonify({"id": asked.id, "secret": asked.secret}), 201


@bp.get("/<code>/screens")
def waiting(code: str):  # type: ignore[no-untyped-def]
    """The host's phone: the devices waiting for its answer."""
    live, viewer = admitted(code)
    _host_only(viewer)
    return jsonify({"requests": [{"id": r.id, "asked_ms": r.asked_ms}
                                 for r in services().screens.waiting(live.code)]})


@bp.post("/<code>/screens/<request_id>")
def answer(code: str, request_id: str):  # type: ignore[no-untyped-def]
    """The host allows (``{"allow": true}``) or refuses a device."""
    live, viewer = admitted(code)
    _host_only(viewer)
    allow: Any = body().get("allow")
    if not isinstance(allow, bool):
        raise ApiError("screen/bad_answer", "'allow' must be true or false")
    answered = services().screens.answer(live.code, request_id, bearer() if allow else None)
    return jsonify({"id": answered.id, "allowed": answered.allowed})


@bp.get("/<code>/screens/<request_id>")
def collect(code: str, request_id: str):  # type: ignore[no-untyped-def]
    """The device that asked: ``waiting``, ``refused``, or ``allowed`` with the host's token
    (once: the request is forgotten with it). A wrong secret is a wrong guess."""
    s = services()
    try:
        asked = s.screens.collect(normalise_code(code), request_id, request.headers.get(SECRET_HEADER, ""))
    except ApiError:
        # the right secret is never limited, as a valid token is not (services.py)
        s.may_guess(who := guesser(request))
        s.guessed_wrong(who)
        raise
    if asked.allowed is None:
        return jsonify({"status": "waiting"})
    if not asked.allowed:
        return jsonify({"status": "refused"})
    live = s.tables.live(code)
    return jsonify({"status": "allowed", "host_token": asked.host_token, "code": live.code,
                    "game": live.state["game"], "join_url": join_link(live.code)})
