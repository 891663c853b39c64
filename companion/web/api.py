"""The JSON API of CONTRACT.md: tables, players, state, commands, history, QR codes."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from ..errors import ApiError
from ..lan import qr
from ..record.people import person_of
from ..services import services
from ..table.service import LiveTable
from ..table.views import Viewer
from . import payload
from .security import client_address, guesser

bp = Blueprint("api", __name__, url_prefix="/api")


def body() -> dict[str, Any]:
    try:
        data = payload.loads(request.get_data(cache=True))
    except payload.BadJson as e:
        raise ApiError("http/bad_json", f"the request body must be JSON, but {e}") from None
    if not isinstance(data, dict):
        raise ApiError("http/bad_json", "the request body must be a JSON object")
    return data


def bearer() -> str | None:
    auth = request.headers.get("Authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


def lookup_limited(code: str, join_secret: Any = None) -> LiveTable:
    """The table behind a code, for a caller without a token. One that holds the table's join
    secret (it scanned the QR code) or the secret of the tent where it is played (it scanned the
    tent) is not guessing: it spends nothing of the guess limits, not even a new device of its
    address's allowance (``guesser``)."""
    s = services()
    if s.holds_join_secret(code, join_secret) or s.holds_tent(code, request.headers.get(TENT_HEADER)):
        return s.tables.live(code)
    return s.find_table(code, guesser(request))


def admitted(code: str) -> tuple[LiveTable, Viewer]:
    """The table and the bearer token's viewer, under the one rate-limit policy (services.py)."""
    return services().admit(code, guesser(request), bearer())


def bad_tent() -> ApiError:
    return ApiError("venue/bad_tent", "this is not the secret of this table's tent: scan the tent "
                    "again, or ask the staff for a new one", 403)


def join_url(code: str) -> str:
    return services().public_base_url() + f"/t/{code}"


JOIN_SECRET_HEADER = "X-Companion-Join-Secret"  # the join page's lookup; the join sends it in its body
TENT_HEADER = "X-Companion-Tent"  # a venue's tent's secret (web/venue_api.py); a join sends it in its body


def join_link(code: str) -> str:
    """The join URL with the table's join secret, for its host to show as the QR code. The
    secret is in the fragment, which a browser never sends, so no server or proxy logs it:
    the page reads it and sends it along (static/js/phone.js)."""
    return f"{join_url(code)}#k={services().join_secret(code)}"


def qr_target(code: str) -> str:
    """What a table's QR code encodes: for its host (the table's screen) the link with the
    join secret, never limited; for anyone else the plain join URL, as a typed code."""
    if bearer():
        live, viewer = admitted(code)
        return join_link(live.code) if viewer.is_host else join_url(live.code)
    return join_url(lookup_limited(code).code)


@bp.post("/tables")
def create_table():  # type: ignore[no-untyped-def]
    return made(*new_table(body()))


def new_table(data: dict[str, Any]) -> tuple[str, str]:
    """A new table's code and host token, for ``{"game", "options"}``: counted against the
    address's creations, and for the league ``options.league`` names."""
    s = services()
    s.allow_creation("table", client_address(request))
    league, options = s.leagues.for_table(data.get("game"), data.get("options"))
    code, token = s.tables.create(data.get("game"), s.table_options(data.get("game"), options))
    if league is not None:
        s.leagues.add_table(league, code)
    return code, token


def made(code: str, host_token: str) -> tuple[Response, int]:
    """The answer to a new table, wherever it was made (here, or at a venue's table)."""
    return jsonify({"code": code, "join_url": join_link(code), "host_token": host_token}), 201


@bp.get("/tables/<code>")
def table_public(code: str):  # type: ignore[no-untyped-def]
    """What a phone shows before joining: which game, whether it can still be joined."""
    live = lookup_limited(code, request.headers.get(JOIN_SECRET_HEADER))
    st = live.state
    return jsonify({"code": live.code, "game": st["game"], "status": st["status"],
                    "locked": st["locked"], "join_url": join_url(live.code),
                    "players": [p["name"] for p in st["players"].values() if not p["removed"]],
                    "league": services().leagues.league_of(live.code)})  # the league it counts for


@bp.post("/tables/<code>/players")
def join(code: str):  # type: ignore[no-untyped-def]
    """A seat at the table. A typed code is a guess and spends the address's join bucket; a
    join with the table's join secret (its QR code) spends nothing: the bucket is everyone's
    behind the address, and someone joining over and over at their own table (refusals count)
    must not keep out a phone that scanned the code beside them. Nor does a join with the
    secret of the tent where the table is played (``tent``); a wrong one is refused (403
    ``venue/bad_tent``) and spends a guess, as a wrong code does."""
    s = services()
    data = body()
    if "tent" in data:
        if not s.holds_tent(code, data["tent"]):
            s.may_guess(address := guesser(request))
            s.guessed_wrong(address)
            raise bad_tent()
    elif not s.holds_join_secret(code, data.get("join_secret")):
        s.find_table(code, guesser(request))
        if not s.joins.allow(address := client_address(request)):
            raise s.joins.refusal("too many joins from this device; wait a minute", address)
    player_id, token = s.tables.join(code, data.get("name"), person_of(data.get("identity")), data.get("cid"))
    return jsonify({"player_id": player_id, "token": token}), 201


@bp.post("/tables/<code>/players/<player_id>/handover")
def hand_over(code: str, player_id: str):  # type: ignore[no-untyped-def]
    """The host gives a seat a new token for another phone: the link (token in its #fragment,
    so no server log sees it) and its QR code for the table screen to show. The link names the
    game too, so the phone fetches the game's module while it asks for the table's state."""
    live, viewer = admitted(code)
    token = services().tables.hand_over(live.code, viewer, player_id)
    url = f"{join_url(live.code)}#seat={token}&game={live.state['game']}"
    return jsonify({"player_id": player_id, "token": token, "url": url,
                    "qr_svg": qr.svg(url).decode()}), 201


@bp.get("/tables/<code>/state")
def state(code: str):  # type: ignore[no-untyped-def]
    _, viewer = admitted(code)
    seq, view = services().tables.state(code, viewer)
    return jsonify({"seq": seq, "game": view["game"], "state": view})


@bp.post("/tables/<code>/commands")
def command(code: str):  # type: ignore[no-untyped-def]
    tables = services().tables
    with tables.queued(code):  # a flood is refused before its tokens cost database reads
        _, viewer = admitted(code)
        seq, view = tables.execute_and_view(code, viewer, body())
    return jsonify({"seq": seq, "state": view})


@bp.get("/tables/<code>/history")
def history(code: str):  # type: ignore[no-untyped-def]
    _, viewer = admitted(code)
    return jsonify({"events": services().tables.history(code, viewer)})


@bp.get("/tables/<code>/qr.svg")
def qr_svg(code: str):  # type: ignore[no-untyped-def]
    return Response(qr.svg(qr_target(code)), mimetype="image/svg+xml")


@bp.get("/tables/<code>/qr.png")
def qr_png(code: str):  # type: ignore[no-untyped-def]
    return Response(qr.png(qr_target(code)), mimetype="image/png")


@bp.get("/history")
def finished_games():  # type: ignore[no-untyped-def]
    return jsonify({"games": services().tables.finished()})


@bp.get("/config")
def client_config():  # type: ignore[no-untyped-def]
    """What the pages need to know about this server: its join base and the games on offer."""
    s = services()
    return jsonify({"base_url": s.public_base_url(),
                    "games": [{"name": g.name, "title": g.title, "min_players": g.min_players,
                               "max_players": g.max_players}
                              for g in s.tables.rules.games.values()],
                    "secure": request.is_secure, "version": current_app.config["VERSION"]})
