"""Leagues over HTTP: create one, read its standings (JSON or CSV), and for the organiser's
token the round's pairings, the round's tables, the roster's changes, the room's screen, and the
games with the organiser's rulings on them (void, correct, restore, each with its reason).

A table counts for a league when it is created with ``options.league`` (web/api.py asks
``LeagueStore.for_table`` before it makes the table, so a bad league makes no table). Who a
seat is in the league is read from its name (league/players.py).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from ..errors import ApiError
from ..games.core.errors import RuleViolation
from ..league.order import RATED, corrected
from ..league.pairings import pair
from ..league.store import League, LeagueCorrectionRow, LeagueStore
from ..league.tsh import to_tsh
from ..record.exports import _cell
from ..record.games import GameRecord
from ..services import services
from ..table.rules import MAX_NAME, clean_name
from ..table.service import normalise_code
from ..table.views import Viewer
from .api import bearer, body, join_link
from .assets import assets_of
from .league_rounds import (
    delete_latest,
    hand_made,
    over_unfinished,
    refuse_over_unfinished,
    round_of,
    start_all,
)
from .record_api import export
from .screens import live_table, private_svg
from .security import client_address
from .venue_api import bind, free_tables

bp = Blueprint("league_api", __name__, url_prefix="/api/leagues")
pages = Blueprint("league_pages", __name__)
CSV_COLUMNS = ("rank", "name", "games", "wins", "spread", "byes", "rating")
MAX_PRESENT = 200
ONE_ON_ONE = "blanko"  # what a round's tables play unless the organiser says otherwise
RECORD_FORMATS = ("csv", "bgstats", "tsh")


def leagues() -> LeagueStore:
    return services().leagues


@bp.post("")
def create_league():  # type: ignore[no-untyped-def]
    data = body()
    s = services()
    s.allow_creation("league", client_address(request))
    league_id, token = leagues().create(data.get("name"), data.get("games"), s.clock.now_ms())
    return jsonify({"id": league_id, "token": token}), 201


@bp.get("/<league_id>")
def league(league_id: str):  # type: ignore[no-untyped-def]
    """The standings, best first, and the rating chart; ``?format=csv`` for the standings as a
    spreadsheet."""
    lg = leagues().read(league_id)
    if request.args.get("format", "json") == "csv":
        return _csv(lg, lg.standings()[0])
    return jsonify({**_public(lg), "rounds": [_round(lg, r) for r in lg.rounds]})


def round_games(lg: League) -> list[str]:
    """The games a round's tables can play: the league's rated ones, BLANKO (the one-on-one
    game the pairings are for) first. Rank & File is played together, so it has no pairs."""
    return sorted((g for g in lg.games if g in RATED), key=lambda g: g != ONE_ON_ONE)


def _public(lg: League) -> dict[str, Any]:
    rows, chart = lg.standings()
    names = lg.names()
    return {"id": lg.id, "name": lg.name, "games": lg.games, "round_games": round_games(lg),
            "standings": [{**{k: v for k, v in r.items() if k != "player"},
                           "withdrawn": lg.roster.withdrawn(r["player"])} for r in rows],
            "chart": [{"evening": e["evening"], "from_ms": e["from_ms"],
                       "ratings": {names[p]: v for p, v in e["ratings"].items() if names[p]}}
                      for e in chart]}


@bp.get("/<league_id>/room")
def room(league_id: str):  # type: ignore[no-untyped-def]
    """What the room's screen shows, for the organiser's token: the standings and chart, the
    latest round's boards, and every table of the league not yet over (its game, players and
    scores, whose turn, the sand). The screen asks again whenever its socket says a table moved
    (web/realtime.py, room_socket), so the boards' QR codes are not in it but at their own URL
    (``board_qr_svg``), fetched once: inlined, eight boards' were ~70 KB a read."""
    leagues().organised(league_id, bearer())
    lg = leagues().read(league_id)
    s = services()
    now = s.clock.now_ms()
    latest = lg.rounds[-1] if lg.rounds else None
    on = leagues().still_on(lg.codes)
    return jsonify({**_public(lg), "server_ms": now,
                    "round": None if latest is None else {
                        **_round(lg, latest),
                        "tables": [_round_table(b) for b in json.loads(latest.pairs_json)]},
                    "tables": [live_table(code, now) for code in lg.codes if code in on],
                    # A known name on a new phone at a table still on: the director may look.
                    "new_phones": [{"name": lg.roster.name_of(key), "table": code}
                                   for code, key in lg.new_phones if code in on]})


def _round_table(board: dict[str, Any]) -> dict[str, Any]:
    """A board as the room's screen shows it; with the venue's table it is played at, if it is."""
    code = board["table"]
    st = services().tables.live(code).state
    seated = st["seats"] or list(st["players"])
    return {"code": code, "players": [st["players"][p]["name"] for p in seated
                                      if not st["players"][p]["removed"]],
            "join_url": join_link(code), "status": st["status"], "started": st["started_ms"] is not None,
            **({"place": board["place"]} if board.get("place") else {})}


@bp.get("/<league_id>/tables/<code>/qr.svg")
def board_qr_svg(league_id: str, code: str):  # type: ignore[no-untyped-def]
    """A board's QR code, as its table's own screen shows it (api.py, ``qr_target``): the link
    with the join secret, so only for the league's organiser, and only for a table of the
    league. The token comes in a header and the URL holds nothing secret, so no access log
    holds either (docs/security.md). A code's QR changes only with the server's address: the
    browser keeps it (private, since the secret is for no shared cache) and asks only whether
    it changed (its ETag), besides the page keeping it while it is open."""
    row = leagues().organised(league_id, bearer())
    return private_svg(join_link(_league_table(row.id, code)))


@bp.post("/<league_id>/tables/<code>/close")
def close_table(league_id: str, code: str):  # type: ignore[no-untyped-def]
    """A table of the league whose game has not started, closed by the organiser: a board
    nobody came to stayed "gathering" on the room's screen all evening (#43). It ends as its
    host's "End game" would end it, before any game, so it counts for nothing; a game being
    played is its table's to end (409 ``table/already_started``)."""
    row = leagues().organised(league_id, bearer())
    code = _league_table(row.id, code)
    services().tables.execute(code, Viewer(None, True), {"type": "table.close"})
    return jsonify({"code": code, "status": services().tables.live(code).state["status"]})


def _league_table(league_id: str, code: str) -> str:
    """The code of a table of the league, normalised; 404 for any other."""
    code = normalise_code(code)
    if leagues().league_of(code) != league_id:
        raise ApiError("table/unknown", "this league has no table with this code", 404)
    return code


@bp.get("/<league_id>/record")
def record(league_id: str):  # type: ignore[no-untyped-def]
    """Every game of the league's tables, for the organiser: the record's CSV or BG Stats file
    (``?format=``, ``?lang=``, ``?tz=`` as a table's record takes them), in the order played;
    or ``?format=tsh``, the season's BLANKO one-on-one games that count and its byes as a TSH
    division file (league/tsh.py), for the tournament software Scrabble clubs use."""
    leagues().organised(league_id, bearer())
    fmt = request.args.get("format", "csv")
    if fmt not in RECORD_FORMATS:
        raise ApiError("record/bad_format", f"format is {', '.join(RECORD_FORMATS)}")
    lg = leagues().read(league_id)
    if fmt == "tsh":
        rows, _ = lg.standings()
        return Response(to_tsh(lg.results, lg.dated_byes(), rows, lg.names()), mimetype="text/plain",
                        headers={"Content-Disposition": f'attachment; filename="league-{lg.id}.t"'})
    latest = {(c.table_code, c.game_no): c for c in lg.rulings}  # oldest first: the last stands
    tables = [(code, [_as_ruled(lg, code, _as_league_names(lg, g), latest.get((code, g["no"])))
                      for g in games]) for code, games in lg.tables]
    return export(tables, fmt, f"league-{lg.id}", ruled=True)


def _as_ruled(lg: League, code: str, g: GameRecord, ruling: LeagueCorrectionRow | None) -> GameRecord:
    """A game as the league reads it, for its files: whether it counts, and the director's
    ruling on it (a corrected result in place of the table's, which the ruling keeps as
    ``recorded``). The files listed a voided game as if it counted."""
    out = {**g, "counts": (code, g["no"]) in lg.counted}
    if ruling is None:
        return out
    ruled = corrected(g, {"action": ruling.action, **json.loads(ruling.ruling_json)})
    return {**out, **(ruled or {}), "ruling": {"action": ruling.action, "reason": ruling.reason,
                                              "recorded": {"scores": g["scores"], "winners": g["winners"]}}}


def _as_league_names(lg: League, g: GameRecord) -> GameRecord:
    """A game's record with each seat named as the league names its player (Dani, renamed or
    merged into Daniella, is Daniella in every row): a spreadsheet or BG Stats keeps players by
    name, and two spellings of one person were two players there."""
    name = lg.roster.name_of
    return {**g, "players": [{**p, "name": name(lg.roster.seat(p["name"]))} for p in g["players"]]}


@bp.get("/<league_id>/results")
def results(league_id: str):  # type: ignore[no-untyped-def]
    """Every game of the league's tables that is over (or won, BLANK's prize to come), as its
    table recorded it, whether it counts, and the organiser's rulings on it, oldest first:
    for the organiser, who rules on them (``corrections``). Not in the room's answer, which is
    read at every move: a season's games would be most of it."""
    leagues().organised(league_id, bearer())
    lg = leagues().read(league_id)
    ruled: dict[tuple[str, int], list[LeagueCorrectionRow]] = {}
    for c in lg.rulings:
        ruled.setdefault((c.table_code, c.game_no), []).append(c)
    out = [_result(lg, code, g, ruled.get((code, g["no"]), []))
           for code, games in lg.tables for g in games if g["won_ms"] is not None or (code, g["no"]) in ruled]
    out.sort(key=lambda r: (r["won_ms"] is None, r["won_ms"] or 0))
    return jsonify({"results": out})


@bp.post("/<league_id>/corrections")
def correct(league_id: str):  # type: ignore[no-untyped-def]
    """The organiser's ruling on a game (LeagueStore.correct): the standings and ratings are
    folded again with it, and the game's entry as ``results`` lists it is answered."""
    row = leagues().organised(league_id, bearer())
    code, no = leagues().correct(row.id, body(), services().clock.now_ms())
    lg = leagues().read(row.id)
    rulings = [c for c in lg.rulings if (c.table_code, c.game_no) == (code, no)]
    return jsonify({"result": _result(lg, code, lg.game(code, no), rulings)}), 201


def _result(lg: League, code: str, g: GameRecord, rulings: list[LeagueCorrectionRow]) -> dict[str, Any]:
    names = {p["player_id"]: p["name"] for p in g["players"]}
    return {"table": code, "no": g["no"], "game": g["game"], "won_ms": g["won_ms"], "ended_by": g["ended_by"],
            "players": [{"name": p["name"], "score": g["scores"].get(p["player_id"])}
                        for p in g["players"] if not p.get("removed")],
            "winners": [names[w] for w in g["winners"] if w in names],
            "counted": (code, g["no"]) in lg.counted,
            "rulings": [{"action": c.action, "reason": c.reason, "made_ms": c.made_ms,
                         **_by_name(json.loads(c.ruling_json), names)} for c in rulings]}


def _by_name(ruling: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A ruling as the organiser wrote it: by the players' names at the table."""
    if "scores" in ruling:
        return {"scores": {names[p]: v for p, v in ruling["scores"].items()}}
    if "winners" in ruling:
        return {"winners": [names[p] for p in ruling["winners"]]}
    return {}


def _csv(lg: League, rows: list[dict[str, Any]]) -> Response:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for r in rows:
        writer.writerow([_cell(str(r[c])) if c == "name" else r[c] for c in CSV_COLUMNS])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="league-{lg.id}.csv"'})


def _round(lg: League, r: Any) -> dict[str, Any]:
    bye = lg.roster.resolve(r.bye) if r.bye else None
    return {"no": r.no, "made_ms": r.made_ms, **_named(lg, lg.pairs(r), bye)}


def _present() -> list[str]:
    """The names the organiser lists as present, each read as a table reads a player's name
    who sits down (table/rules.py: what shows nothing and control characters dropped, at most
    MAX_NAME characters), so that a name ticked here is the name seated there."""
    present = body().get("present")
    refusal = ApiError("league/bad_present", f"present is a list of 2 to {MAX_PRESENT} players' "
                       f"names, each of 1 to {MAX_NAME} characters")
    if not (isinstance(present, list) and 2 <= len(present) <= MAX_PRESENT):
        raise refusal
    try:
        return [clean_name(n) for n in present]
    except RuleViolation:
        raise refusal from None


def _present_keys(lg: League, names: list[str]) -> list[str]:
    """The players present (keys), each once. One person ticked twice (by the league's reading
    of names: case, what shows nothing, look-alike letters, the organiser's merges) is refused:
    ["Solo", "Solo"] passed for two and gave Solo a bye; so is a withdrawn player."""
    for n in names:  # a newcomer ticked twice, in two spellings, is one newcomer too
        lg.roster.see(n)
    keys = [lg.roster.key_of(n) for n in names]
    twice = sorted({lg.roster.name_of(k) for k in keys if keys.count(k) > 1})
    if twice:
        raise ApiError("league/same_player_twice", f"listed twice: {', '.join(twice)}")
    out = [lg.roster.name_of(k) for k in keys if lg.roster.withdrawn(k)]
    if out:
        raise ApiError("league/withdrawn", f"withdrawn from the league: {', '.join(out)}")
    return keys


def _next_round(lg: League, keys: list[str]) -> tuple[list[tuple[str, str]], str | None]:
    """The next round's pairs and bye (player keys) for the players present: by wins (a bye
    is one), then the standings (league/pairings.py)."""
    rows, _ = lg.standings()
    order = {r["player"]: i for i, r in enumerate(rows)}
    # Newcomers come last, by the organiser's order: they have no standing yet.
    ranked = sorted(keys, key=lambda k: (order.get(k, len(order)), keys.index(k)))
    bye_counts: dict[str, int] = {}
    for b in lg.byes():
        bye_counts[b] = bye_counts.get(b, 0) + 1
    wins = {r["player"]: r["wins"] for r in rows}
    spread = {r["player"]: r["spread"] for r in rows}
    r = pair(ranked, lg.met(), bye_counts, wins, spread)
    return list(r.pairs), r.bye


def _named(lg: League, pairs: list[Any], bye: str | None) -> dict[str, Any]:
    name = lg.roster.name_of
    return {"pairs": [[name(a), name(b)] for a, b in pairs], "bye": name(bye) if bye else None}


@bp.post("/<league_id>/pairings")
def pairings(league_id: str):  # type: ignore[no-untyped-def]
    """The next round as the Swiss system pairs it (nothing is made)."""
    row = leagues().organised(league_id, bearer())
    names = _present()
    lg = leagues().read(row.id)
    return jsonify(_named(lg, *_next_round(lg, _present_keys(lg, names))))


@bp.post("/<league_id>/rounds")
def make_round(league_id: str):  # type: ignore[no-untyped-def]
    """The next round made: a table for each pair (``game``, ``options``: the league's first
    round game, BLANKO where it counts it, and its defaults unless given), counting for the
    league, with its host token (its QR code at ``board_qr_svg``); the bye is kept (it counts as a
    win). Paired by the Swiss system, or as the director edited the pairs (``pairs``, ``bye``);
    over a round still being played only when told (``over_unfinished``: web/league_rounds.py)."""
    row = leagues().organised(league_id, bearer())
    names = _present()
    over = over_unfinished(body())
    with leagues().making_round(row.id):  # read, paired, made and written down: one at a time
        lg = leagues().read(row.id)
        keys = _present_keys(lg, names)
        pairs, bye = hand_made(lg, keys, body()) or _next_round(lg, keys)
        rated = round_games(lg)
        game = body().get("game", rated[0] if rated else ONE_ON_ONE)
        if game not in rated:
            raise ApiError("league/game_not_rated", f"a round's tables play a rated game of the league: "
                           f"{', '.join(rated)}")
        s = services()
        options = s.table_options(game, body().get("options") or {})  # the same for every table
        if not over:
            refuse_over_unfinished(lg)
        with free_tables(body().get("venue"), body().get("tables"), len(pairs)) as places:
            made = [(a, b, *s.tables.create(game, options)) for a, b in pairs]
            codes, now = [code for _a, _b, code, _t in made], s.clock.now_ms()
            no = max((r.no for r in lg.rounds), default=0) + 1
            leagues().add_round(lg.id, no, now, pairs, bye, codes, [t.label for t in places])
            bind(places, codes, now)
    name = lg.roster.name_of
    tables = [{"code": code, "players": [name(a), name(b)], "join_url": join_link(code),
               "host_token": token, **({"place": places[i].label} if places else {})}
              for i, (a, b, code, token) in enumerate(made)]
    return jsonify({"round": no, "game": game, **_named(lg, pairs, bye), "tables": tables}), 201


@bp.delete("/<league_id>/rounds/<int:no>")
def delete_round(league_id: str, no: int):  # type: ignore[no-untyped-def]
    """The latest round taken back while nobody has begun a game at it (to pair it again, or
    not at all): its boards closed, its pairs and bye forgotten (web/league_rounds.py)."""
    row = leagues().organised(league_id, bearer())
    with leagues().making_round(row.id):  # not while a round is being made from it
        closed = delete_latest(leagues().read(row.id), no)
    return jsonify({"deleted": no, "closed": closed})


@bp.post("/<league_id>/rounds/<int:no>/start")
def start_round(league_id: str, no: int):  # type: ignore[no-untyped-def]
    """The room's "Start all": every board of the round where its two players sit, started;
    which started, and which wait for whom."""
    row = leagues().organised(league_id, bearer())
    lg = leagues().read(row.id)
    return jsonify(start_all(lg, round_of(lg, no)))


@bp.post("/<league_id>/players/<any(rename, merge, withdraw, bring_back):action>")
def change_roster(league_id: str, action: str):  # type: ignore[no-untyped-def]
    """The organiser keeps the roster: the ``player`` (by any of their names) renamed to
    ``name``, merged ``into`` another player (one person under two names), withdrawn from the
    pairings or brought back. Answers the standings as they are then."""
    row = leagues().organised(league_id, bearer())
    lg = leagues().read(row.id)
    player = _player(lg, body().get("player"))
    change = {"type": action, "player": lg.roster.name_of(player)}
    if action == "rename":
        new = _typed(body().get("name"))
        if lg.roster.knows(new) and lg.roster.key_of(new) != player:
            raise ApiError("league/rename_taken", f"{lg.roster.name_of(lg.roster.key_of(new))!r} is another "
                           "player of this league: merge the two if they are one person", 409)
        change["name"] = new
    elif action == "merge":
        into = _player(lg, body().get("into"))
        if into == player:
            raise ApiError("league/same_player", "a player cannot be merged into themselves")
        if lg.played_together(player, into):
            raise ApiError("league/merge_met", "these two played each other: they are two people", 409)
        change["into"] = lg.roster.name_of(into)
    leagues().change(row.id, services().clock.now_ms(), change)
    return jsonify(_public(leagues().read(row.id)))


def _typed(raw: Any) -> str:
    """A player's name as the organiser typed it, read as a table reads it."""
    try:
        return clean_name(raw)
    except RuleViolation:
        raise ApiError("league/bad_player", f"a player is named by 1 to {MAX_NAME} characters") from None


def _player(lg: League, raw: Any) -> str:
    """The league player a name the organiser sent stands for."""
    name = _typed(raw)
    if not lg.roster.knows(name):
        raise ApiError("league/unknown_player", f"nobody of this league is called {name!r}", 404)
    return lg.roster.key_of(name)


@pages.get("/league")
def league_page():  # type: ignore[no-untyped-def]
    """The room's screen, a league's standings, or a new league's form (js/league-screen.js)."""
    return assets_of(current_app).serve_page(("js/league-screen.js",))
