"""After the game, over HTTP: a table's record (JSON, CSV, BG Stats), its charts, and stats.

A record is read with a seat's or the host's token of that table, and nothing else. Stats
cover only the tables the asking browser sat at (its player identity) or holds a token of.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from ..errors import ApiError
from ..record.admin import ensure_key, key_file
from ..record.charts import game_chart
from ..record.exports import Tables, to_bgstats, to_csv
from ..record.games import GameRecord, table_games
from ..record.people import forget, person_of, persons, seats_of
from ..record.stats import TableGames, compute
from ..record.words import Words
from ..services import services
from ..table.log import effective
from ..table.service import hash_token
from .api import bearer, body
from .assets import assets_of
from .security import guesser

bp = Blueprint("record_api", __name__, url_prefix="/api")
pages = Blueprint("record_pages", __name__)


@pages.get("/stats")
def stats_page():  # type: ignore[no-untyped-def]
    """The PWA's stats page (static/js/stats.js), for the table screen and phones alike."""
    return assets_of(current_app).serve_page(("js/stats.js",))


def table_record(code: str, token: str | None) -> tuple[str, list[GameRecord]]:
    """The games of a table, for one of its own tokens."""
    tables = services().tables
    live, _ = services().admit(code, guesser(request), token)  # the one rate-limit policy
    with live.lock:
        records = tables.log(live)
    return live.code, table_games(records, tables.rules)


@bp.get("/tables/<code>/record")
def record(code: str):  # type: ignore[no-untyped-def]
    code, games = table_record(code, bearer())
    fmt = request.args.get("format", "json")
    if fmt == "json":
        return jsonify({"code": code, "games": games})
    return export([(code, games)], fmt, f"table-{code}")


def export(tables: Tables, fmt: str, name: str, ruled: bool = False) -> Response:
    """Records as a file to download: CSV (in the phone's language, ``?lang=``) or BG Stats;
    ``ruled``: a league's, whose CSV says whether each game counts and its ruling."""
    if fmt == "csv":
        lang = request.args.get("lang")
        return Response(to_csv(tables, Words.of(lang) if lang else None, ruled), mimetype="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})
    if fmt == "bgstats":
        doc = to_bgstats(tables, _tz_minutes(), exported_ms=services().clock.now_ms())
        return Response(json.dumps(doc, ensure_ascii=False, indent=1), mimetype="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}.bgstats.json"'})
    raise ApiError("record/bad_format", "format is json, csv or bgstats")


@bp.get("/tables/<code>/record/<int:no>/chart.svg")
def chart(code: str, no: int):  # type: ignore[no-untyped-def]
    _code, games = table_record(code, bearer())
    svg = game_chart(games[no - 1]) if 1 <= no <= len(games) else None
    if svg is None:
        raise ApiError("record/no_chart", "that game has no score chart", 404)
    return Response(svg, mimetype="image/svg+xml")


def _tz_minutes() -> int:
    raw: Any = request.args.get("tz", "0")
    try:
        minutes = int(raw)
    except ValueError:
        raise ApiError("record/bad_tz", "tz is the minutes east of UTC, e.g. 60") from None
    if not -14 * 60 <= minutes <= 14 * 60:
        raise ApiError("record/bad_tz", "tz is the minutes east of UTC, between -840 and 840")
    return minutes


MAX_TOKENS = 500


@bp.post("/stats")
def stats():  # type: ignore[no-untyped-def]
    """Stats over the tables this browser sat at (``identity``) or holds tokens of (``tokens``:
    its seats' and its table screen's), and no other; ``by_name`` also counts the seats taken
    under the identity's ``name`` as the viewer's own."""
    data = body()
    found = visible_tables(data)
    name = data.get("name")
    return jsonify(compute(found, person_of(data.get("identity")), name if isinstance(name, str) else None,
                           data.get("by_name") is True))


@bp.post("/stats/export")
def stats_export():  # type: ignore[no-untyped-def]
    """Every game of the same tables as /stats, as one CSV or BG Stats file (``?format=``)."""
    found = visible_tables(body())
    return export([(t.code, t.games) for t in found], request.args.get("format", "csv"), "table-companion")


def visible_tables(data: dict[str, Any]) -> list[TableGames]:
    """The tables a stats request may read, with their games: those its identity sat at and
    those it holds a token of."""
    s = services()
    person = person_of(data.get("identity"))
    raw_tokens = data.get("tokens", [])
    if not isinstance(raw_tokens, list) or len(raw_tokens) > MAX_TOKENS:
        raise ApiError("stats/bad_tokens", f"tokens is a list of at most {MAX_TOKENS} table tokens")
    seats: dict[str, str | None] = {}  # table code -> the viewer's player id there (None: host)
    if person:
        seats.update(seats_of(s.store, person))
    address = guesser(request)
    s.may_guess(address)
    for token in raw_tokens:
        owner = s.store.token_owner(hash_token(token)) if isinstance(token, str) and token else None
        if owner is not None:
            seats.setdefault(owner[0], owner[1])
        else:  # a token that opens nothing is a guess, counted like a wrong code
            s.guessed_wrong(address)
    found = []
    for code, pid in seats.items():
        records = [r for r, _cid in s.store.records(code)]
        if pid is not None and any(r.event["type"] == "PlayerRemoved" and r.event["player_id"] == pid
                                   for r in effective(records)):
            continue  # the host removed this seat: its table is no longer this phone's to read
        found.append(TableGames(code, table_games(records, s.tables.rules), persons(records)))
    return found


@bp.post("/admin/forget")
def admin_forget():  # type: ignore[no-untyped-def]
    """Delete a player's history (their name and identity, in every table's log), for the
    server's host: the request carries the key from the server's instance folder."""
    given = bearer() or ""
    if not secrets.compare_digest(given.encode(), ensure_key(key_file(current_app)).encode()):
        raise ApiError("auth/bad_token", "this needs the server's own key (see `companion forget`)", 401)
    data = body()
    name, person = data.get("name"), person_of(data.get("identity"))
    if not (isinstance(name, str) and name.strip()) and person is None:
        raise ApiError("admin/who", "name the player, or give their identity")
    s = services()
    touched = forget(s.store, name.strip() if isinstance(name, str) else None, person)
    for code in touched:
        s.tables.evict(code)
    return jsonify({"tables": touched})
