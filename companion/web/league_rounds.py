"""A league's rounds as the director runs them (#43 items 10 and 11), beside the pairing itself
(web/league_api.py): a round made over one still being played only when the director says so,
the pairs as the director edited them, the latest round taken back while nobody has begun it,
and a round's boards started as soon as their two players sit, or all at once.

A board is started through the table's own command, ``table.start_game`` as its host sends
it, so the start is in the table's log like any other; the organiser acts at a board of the
league as its host would (``HOST``), as "Close" does.
"""

from __future__ import annotations

import json
import logging
from contextlib import ExitStack
from typing import Any

from ..errors import ApiError
from ..games.core.errors import RuleViolation
from ..league.store import League, LeagueRoundRow
from ..services import services
from ..table.rules import MAX_NAME, TableState, clean_name
from ..table.views import Viewer

log = logging.getLogger(__name__)
HOST = Viewer(None, True)
Pairs = list[tuple[str, str]]


def over_unfinished(data: dict[str, Any]) -> bool:
    """Whether the director said to make the round over one whose boards are still on."""
    over = data.get("over_unfinished", False)
    if not isinstance(over, bool):
        raise ApiError("league/bad_over_unfinished", "over_unfinished is true or false")
    return over


def refuse_over_unfinished(lg: League) -> None:
    """A round over the latest, while a board of it is still on (gathering or playing), is
    asked for first (``league/round_unfinished``, naming the boards): made without a word, the
    new round's people were seated twice and the old boards stayed open all evening."""
    if not lg.rounds:
        return
    latest = lg.rounds[-1]
    on = sorted(services().leagues.still_on([b["table"] for b in json.loads(latest.pairs_json)]))
    if on:
        raise ApiError("league/round_unfinished",
                       f"round {latest.no} is not over ({', '.join(on)} still on): send "
                       "over_unfinished: true to make the next round all the same", 409,
                       {"round": latest.no, "tables": on})


def hand_made(lg: League, keys: list[str], data: dict[str, Any]) -> tuple[Pairs, str | None] | None:
    """The round as the director edited it (``pairs`` of names, and ``bye``), checked against
    the players present (``keys``): each exactly once, a bye only and always when they are odd
    in number, names read as the roster reads them. None when the body has no pairs: the
    Swiss system pairs the round."""
    raw, bye = data.get("pairs"), data.get("bye")
    refusal = ApiError("league/bad_pairs", f"pairs is a list of [name, name] and bye a name or null, "
                       f"each name 1 to {MAX_NAME} characters")
    if "pairs" not in data:
        if bye is not None:  # a bye chosen by hand, the pairs left to the system: which is meant?
            raise refusal
        return None
    if not (isinstance(raw, list) and raw and all(isinstance(p, list) and len(p) == 2 for p in raw)
            and (bye is None or isinstance(bye, str))):
        raise refusal
    try:
        pairs = [(lg.roster.key_of(clean_name(a)), lg.roster.key_of(clean_name(b))) for a, b in raw]
        bye_key = None if bye is None else lg.roster.key_of(clean_name(bye))
    except RuleViolation:
        raise refusal from None
    if (bye_key is not None) != (len(keys) % 2 == 1):
        raise ApiError("league/bad_bye", f"{len(keys)} are present: "
                       + ("one sits out with the bye" if len(keys) % 2 else "nobody sits out"))
    listed = [k for p in pairs for k in p] + ([bye_key] if bye_key else [])
    if sorted(listed) != sorted(keys):
        name = lg.roster.name_of
        wrong = [f"{name(k)} twice" for k in sorted(set(listed)) if listed.count(k) > 1]
        wrong += [f"{name(k)} missing" for k in keys if k not in listed]
        wrong += [f"{name(k)} not present" for k in sorted(set(listed)) if k not in keys]
        raise ApiError("league/pairs_not_present", "the pairs and the bye list each player present "
                       f"once: {', '.join(wrong)}")
    return pairs, bye_key


def round_of(lg: League, no: int) -> LeagueRoundRow:
    for rnd in lg.rounds:
        if rnd.no == no:
            return rnd
    raise ApiError("league/unknown_round", f"this league has no round {no}", 404)


def delete_latest(lg: League, no: int) -> list[str]:
    """The latest round taken back while no game has begun at any of its boards: its boards
    closed (as "Close" closes one), then the round and its boards out of the league, so its
    bye and its pairs count no more. Returns the boards' codes. Paired again, it is made anew.

    The boards are held (their locks, in this process) while they are looked at and closed,
    so none starts in between; across processes, a board started meanwhile refuses its close
    and the round stays (with the boards closed before it: nobody had begun a game there)."""
    rnd = round_of(lg, no)
    if rnd is not lg.rounds[-1]:
        raise ApiError("league/round_not_latest", f"only the latest round ({lg.rounds[-1].no}) can be "
                       "deleted", 409)
    tables = services().tables
    codes = [b["table"] for b in json.loads(rnd.pairs_json)]
    boards = sorted((tables.live(code) for code in codes), key=lambda live: live.code)
    with ExitStack() as held:
        for live in boards:
            held.enter_context(live.turns.turn(live.lock))
        started = [live.code for live in boards if live.state["started_ms"] is not None]
        if started:
            raise ApiError("league/round_started", f"a game has begun at {', '.join(started)}: "
                           f"round {no} stays", 409, {"round": no, "tables": started})
        for live in boards:
            if live.state["status"] == "lobby":
                try:
                    tables.execute(live.code, HOST, {"type": "table.close"})
                except RuleViolation as e:  # begun in another process just now
                    raise ApiError("league/round_started", f"a game has begun at {live.code}: "
                                   f"round {no} stays", 409, {"round": no, "tables": [live.code]}) from e
    services().leagues.delete_round(lg.id, no, codes)
    return sorted(codes)


def _seated(state: TableState, read: Any) -> list[str]:
    """The players sitting at a table, as the league reads their names (``read``: key_of)."""
    return [read(p["name"]) for p in state["players"].values() if not p["removed"]]


def _start(code: str) -> str | None:
    """A board's game started as its host starts it; the refusal's code if it was not."""
    try:
        services().tables.execute(code, HOST, {"type": "table.start_game"})
    except (ApiError, RuleViolation) as e:
        log.info("board %s not started: %s", code, e.code)
        return e.code
    return None


def start_when_seated(code: str) -> None:
    """After a join: a round's board starts once its two players sit there, and nobody else
    (a stranger at a board waits for the director, who sees who sits where). The director
    used to open each board's screen to start it (#43 item 11)."""
    s = services()
    live = s.tables.live(code)
    if live.state["status"] != "lobby" or len(_seated(live.state, str)) != 2:  # a board is two
        return  # the first of two, or a third, looks up nothing
    board = s.leagues.board_of(live.code)
    if board is not None and sorted(_seated(live.state, board.roster.key_of)) == sorted(board.players):
        _start(live.code)


def start_all(lg: League, rnd: LeagueRoundRow) -> dict[str, Any]:
    """Every board of the round still gathering where at least its two players sit, started
    (with whoever else sits there: the director has looked); the rest wait for whom is missing."""
    tables = services().tables
    started: list[str] = []
    waiting: list[dict[str, Any]] = []
    refused: list[dict[str, str]] = []
    for board, players in zip(json.loads(rnd.pairs_json), lg.pairs(rnd), strict=True):
        code = board["table"]
        state = tables.live(code).state
        if state["status"] != "lobby":
            continue
        seated = _seated(state, lg.roster.key_of)
        missing = [lg.roster.name_of(k) for k in players if k not in seated]
        if missing:
            waiting.append({"table": code, "for": missing})
        elif (why := _start(code)) is None:
            started.append(code)
        else:
            refused.append({"table": code, "error": why})
    return {"round": rnd.no, "started": started, "waiting": waiting, "refused": refused}
