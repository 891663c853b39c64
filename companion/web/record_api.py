"""After the game, over HTTP: a table's record (JSON, CSV, BG Stats), its charts, and stats.

A record is read with a seat's or the host's token of that table, and nothing else. Stats
cover only the tables the asking browser sat at (its player identity) or holds a token of.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request

from ..errors import ApiError
from ..record.charts import game_chart
from ..record.exports import to_bgstats, to_csv
from ..record.games import GameRecord, table_games
from ..services import services
from .api import bearer, lookup_limited

bp = Blueprint("record_api", __name__, url_prefix="/api")


def table_record(code: str, token: str | None) -> tuple[str, list[GameRecord]]:
    """The games of a table, for one of its own tokens."""
    lookup_limited(code)
    tables = services().tables
    tables.authenticate(code, token)
    live = tables.live(code)
    with live.lock:
        records = list(live.records)
    return live.code, table_games(records, tables.rules)


@bp.get("/tables/<code>/record")
def record(code: str):  # type: ignore[no-untyped-def]
    code, games = table_record(code, bearer())
    fmt = request.args.get("format", "json")
    if fmt == "csv":
        return Response(to_csv(code, games), mimetype="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="table-{code}.csv"'})
    if fmt == "bgstats":
        doc = to_bgstats(code, games, _tz_minutes())
        return Response(json.dumps(doc, ensure_ascii=False, indent=1), mimetype="application/json",
                        headers={"Content-Disposition": f'attachment; filename="table-{code}.bgsplay.json"'})
    if fmt != "json":
        raise ApiError("record/bad_format", "format is json, csv or bgstats")
    return jsonify({"code": code, "games": games})


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
