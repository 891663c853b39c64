"""Venues over HTTP (issue 44): make one with its physical tables, the tent's two requests (what
is going at this table; start a game here), and for the staff's token the counter's screen of
every table, ending a table's game, a tent printed anew, the tents' QR codes and the Wi-Fi's.

A tent's secret travels in the ``X-Companion-Tent`` header (a join sends it in its body,
web/api.py), never in a URL's path or query, so no access log holds it; the tent's URL carries
it in its fragment (``#k=``), which a browser never sends. A wrong or old secret is a guess, and
spends the address's guesses as a wrong table code does (services.py). A tent makes a table and
joins it, and never gives host rights over a game already going: its answers name the game, not
its host's token.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

from flask import Blueprint, jsonify, request

from ..errors import ApiError
from ..services import same_secret, services
from ..table.views import Viewer
from ..venue.labels import label_key, labels_of, wifi_text
from ..venue.store import VenueRow, VenueStore, VenueTableRow, wifi
from .api import TENT_HEADER, bad_tent, bearer, body, made, new_table
from .errors import error_body
from .screens import live_table, private_svg
from .security import client_address, guesser

bp = Blueprint("venue_api", __name__, url_prefix="/api/venues")
FREE = {"code": None, "game": None, "title": None, "status": None, "players": [], "turn": None,
        "timer": None, "started_ms": None}


def venues() -> VenueStore:
    return services().venues


def tent_url(table: VenueTableRow) -> str:
    """What a tent's QR code encodes: permanent, but for its secret, which is in the fragment."""
    return (f"{services().public_base_url()}/v/{table.venue_id}/{quote(table.label, safe='')}"
            f"#k={table.tent_secret}")


@bp.post("")
def create_venue():  # type: ignore[no-untyped-def]
    data = body()
    s = services()
    s.allow_creation("venue", client_address(request))
    venue_id, token, tables = venues().create(data.get("name"), data.get("tables"), data.get("wifi"),
                                              s.clock.now_ms())
    return jsonify({"id": venue_id, "token": token,
                    "tables": [{"label": t.label, "url": tent_url(t)} for t in tables]}), 201


@bp.get("/<venue_id>")
def venue(venue_id: str):  # type: ignore[no-untyped-def]
    """The counter's screen, for the staff's token: every physical table in the venue's order,
    free or its game as its own screen shows it (who sits there, whose turn, the sand, since
    when). The screen asks again whenever its socket says a table moved (web/realtime.py)."""
    row = venues().staffed(venue_id, bearer())
    tables = venues().tables(row.id)
    going = venues().going(tables)
    now = services().clock.now_ms()
    return jsonify({"id": row.id, "name": row.name, "server_ms": now, "wifi": _wifi_shown(row),
                    "tables": [{"label": t.label, **(live_table(going[t.id], now) if t.id in going else FREE)}
                               for t in tables]})


def _wifi_shown(row: VenueRow) -> dict[str, str] | None:
    """The Wi-Fi as the print page writes it under its QR code: its name, not its password."""
    w = wifi(row)
    return None if w is None else {"ssid": w["ssid"], "security": w["security"]}


def _tent(venue_id: str, label: str) -> VenueTableRow:
    """The physical table whose tent's secret the request carries. Anything else is a guess:
    refused while the address has none left (429), else spent, and answered 404 for a venue or
    label there is not, 403 for a wrong or old secret."""
    table = venues().table(venue_id, label)
    if table is not None and same_secret(request.headers.get(TENT_HEADER), table.tent_secret):
        return table
    s = services()
    s.may_guess(address := guesser(request))
    s.guessed_wrong(address)
    if table is None:
        raise ApiError("venue/unknown", "there is no such venue or table", 404)
    raise bad_tent()


@bp.get("/<venue_id>/tables/<label>")
def tent(venue_id: str, label: str):  # type: ignore[no-untyped-def]
    """What a phone that scanned a tent shows: the game going at the table (gathering or
    playing: join it), or none (start one)."""
    table = _tent(venue_id, label)
    going = venues().going([table]).get(table.id)
    st = services().tables.live(going).state if going else None
    return jsonify({"venue": venues().row(table.venue_id).name, "label": table.label, "code": going,
                    "game": st["game"] if st else None, "status": st["status"] if st else None})


@bp.post("/<venue_id>/tables/<label>/games")
def start_here(venue_id: str, label: str):  # type: ignore[no-untyped-def]
    """A new table played at this physical table, as ``POST /api/tables`` makes one; the phone
    that asked is its host. A table with a game going is busy (409, naming the game, not its
    host's token): two phones that scanned the free tent at once start one game between them."""
    table = _tent(venue_id, label)
    data = body()
    with venues().claimed([table]):
        going = venues().going([table]).get(table.id)
        if going is not None:
            return _busy(table, going)
        code, token = new_table(data)
        venues().bind(table.venue_id, [(table, code)], services().clock.now_ms())
    return made(code, token)


def _busy(table: VenueTableRow, code: str) -> Any:
    game = services().tables.live(code).state["game"]
    return jsonify({**error_body("venue/table_busy", f"a game is going at table {table.label}: join it"),
                    "code": code, "game": game}), 409


@bp.post("/<venue_id>/tables/<label>/end")
def end(venue_id: str, label: str):  # type: ignore[no-untyped-def]
    """The staff end the game going at a table (closing time), as its host's "End game" ends
    it: the game's record stays, and the table is free."""
    table = venues().staffed_table(venue_id, bearer(), label)
    going = venues().going([table]).get(table.id)
    if going is None:
        raise ApiError("venue/table_free", f"no game is going at table {table.label}", 409)
    tables = services().tables
    tables.execute(going, Viewer(None, True), {"type": "table.end_game"})
    return jsonify({"label": table.label, "code": going, "status": tables.live(going).state["status"]})


@bp.post("/<venue_id>/tables/<label>/tent")
def reprint(venue_id: str, label: str):  # type: ignore[no-untyped-def]
    """A tent printed anew (one lost, or photographed and passed round): a new secret, and the
    old one opens nothing from now on."""
    table = venues().reprint(venues().staffed_table(venue_id, bearer(), label))
    return jsonify({"label": table.label, "url": tent_url(table)})


@bp.get("/<venue_id>/tables/<label>/qr.svg")
def tent_qr_svg(venue_id: str, label: str):  # type: ignore[no-untyped-def]
    """A tent's QR code, for the staff's print page: its URL with the secret, so for the staff's
    token only, which comes in a header (the URL holds nothing secret)."""
    return private_svg(tent_url(venues().staffed_table(venue_id, bearer(), label)))


@bp.get("/<venue_id>/wifi.svg")
def wifi_qr_svg(venue_id: str):  # type: ignore[no-untyped-def]
    """The QR code that puts a guest's phone on the venue's Wi-Fi, for the tents' second code."""
    w = wifi(venues().staffed(venue_id, bearer()))
    if w is None:
        raise ApiError("venue/no_wifi", "this venue has no Wi-Fi on its tents", 404)
    return private_svg(wifi_text(w))


@bp.post("/<venue_id>/wifi")
def set_wifi(venue_id: str):  # type: ignore[no-untyped-def]
    """The Wi-Fi the tents offer, ``{"ssid", "password", "security"?}``, or none (``{"ssid": null}``)."""
    row = venues().staffed(venue_id, bearer())
    w = venues().set_wifi(row, body())
    return jsonify({"wifi": None if w is None else {"ssid": w["ssid"], "security": w["security"]}})


@contextmanager
def free_tables(venue: Any, labels: Any, count: int) -> Iterator[list[VenueTableRow]]:
    """``count`` free physical tables for a league's round (league_api.make_round), held until
    its boards are bound to them (``bind``): of the venue ``{"id", "token"}`` names (its staff's
    token), those ``labels`` names in that order, else all of its tables in the venue's order,
    passing over the busy ones. Without a venue, none. Refused before anything is made: a wrong
    venue or label, a wrong token, or fewer free tables than boards (409 ``venue/no_free_table``)."""
    if venue is None:
        yield []
        return
    if not isinstance(venue, dict):
        raise ApiError("venue/bad_venue", 'venue is {"id", "token"}: the venue and its staff\'s token')
    token = venue.get("token")
    row = venues().staffed(venue.get("id"), token if isinstance(token, str) else None)
    tables = venues().tables(row.id)
    if labels is not None:
        by_key = {t.label_key: t for t in tables}
        named = labels_of(labels)
        missing = [label for label in named if label_key(label) not in by_key]
        if missing:
            raise ApiError("venue/unknown", f"{row.name} has no table called {missing[0]!r}", 404)
        tables = [by_key[label_key(label)] for label in named]
    with venues().claimed(tables):
        going = venues().going(tables)
        free = [t for t in tables if t.id not in going]
        if len(free) < count:
            raise ApiError("venue/no_free_table", f"the round has {count} boards, and {len(free)} of "
                           "the tables asked for are free", 409)
        yield free[:count]


def bind(tables: list[VenueTableRow], codes: list[str], now_ms: int) -> None:
    """The new tables ``codes`` played at ``tables`` (``free_tables``'), board by board."""
    if tables:
        venues().bind(tables[0].venue_id, list(zip(tables, codes, strict=True)), now_ms)
