"""A table's record as files: CSV (a row per player per game) and a BG Stats import.

The BG Stats file takes the shape of BG Stats's own JSON export ("games", "players",
"locations", "plays" with "playerScores", "userInfo"), with the fields its own files carry
(each dated by ``modificationDate``, a play by ``entryDate`` too; players ``isAnonymous``),
which is what importers for it read; docs/api.md documents how a record maps onto it.
Identifiers are derived from the table code and game number, so importing the same file
twice adds nothing twice. Both files list the games in the order they were played, across
tables: a league's record listed them table by table.
"""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from .games import GameRecord
from .words import Words

CSV_COLUMNS = ("table", "game_no", "game", "started_utc", "ended_utc", "duration_s", "player_id", "name",
               "seat", "score", "winner", "summary")
# A league's record says too whether each game counts, and the director's ruling on it.
RULED_COLUMNS = ("counts", "ruling")
RULING_WORDS = {"void": "lg_rulingVoid", "correct": "lg_rulingCorrect", "restore": "lg_rulingRestore"}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NAMESPACE = uuid.UUID("6c1f0b52-3f7e-4a55-9a39-2f1d1e0c9a16")  # Table Companion's, for uuid5
ANONYMOUS = "Anonymous player"  # BG Stats's own name for a player nobody is told the name of
TEAM_OUTCOMES = frozenset({"won", "lost"})  # a cooperative game's result, by the deck or the team


def iso_utc(ms: int | None) -> str:
    if ms is None:
        return ""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _cell(text: str) -> str:
    """Text a spreadsheet would take for a formula gets a leading apostrophe (CSV injection)."""
    return "'" + text if text.startswith(FORMULA_START) else text


Tables = list[tuple[str, list[GameRecord]]]  # (table code, its games), as many as exported


def played(tables: Tables) -> Iterator[tuple[str, GameRecord]]:
    """Every game of ``tables`` with its table's code, in the order they began; games begun in
    the same millisecond in the order given (the tables as made), not by their random codes."""
    games = ((code, g) for code, games in tables for g in games)
    yield from sorted(games, key=lambda cg: cg[1]["started_ms"])


def to_csv(tables: Tables, words: Words | None = None, ruled: bool = False) -> str:
    """A row per player per game. In a language (``words``) the headers and results are worded
    for people; without one they are the stable names and outcome codes a script reads.
    ``ruled``: a league's games, as its director ruled on them, each row saying whether its
    game counts and the ruling (a table's own record has neither)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    columns = CSV_COLUMNS + (RULED_COLUMNS if ruled else ())
    writer.writerow([words.header(c) for c in columns] if words else columns)
    for code, g in played(tables):
        ruling = [int(g["counts"]), _cell(_ruling_text(g, words))] if ruled else []
        for p in g["players"]:
            pid = p["player_id"]
            writer.writerow([code, g["no"], g["game"], iso_utc(g["started_ms"]), iso_utc(g["ended_ms"]),
                             "" if g["duration_ms"] is None else g["duration_ms"] // 1000, pid,
                             _cell(p["name"]), p["seat"] + 1, g["scores"].get(pid, ""),
                             int(pid in g["winners"]), _cell(words.summary(g) if words else g["summary"]),
                             *ruling])
    return out.getvalue()


def _ruling_text(g: GameRecord, words: Words | None) -> str:
    """The director's ruling on a league's game, with its reason; a correction says what the
    table recorded, which the row's scores no longer show. Empty for a game nobody ruled on."""
    ruling = g.get("ruling")
    if ruling is None:
        return ""
    action, reason = ruling["action"], ruling["reason"]
    said = words.t(RULING_WORDS[action], {"reason": reason}) if words else f"{action}: {reason}"
    if action != "correct":
        return said
    recorded = _as_recorded(g, ruling["recorded"])
    table = words.t("csv.recorded", {"result": recorded}) if words else f"the table recorded {recorded}"
    return f"{said} ({table})"


def _as_recorded(g: GameRecord, recorded: dict[str, Any]) -> str:
    """A game's result as its table recorded it: each player's score, or its winners."""
    if recorded["scores"]:
        scores = recorded["scores"]
        return ", ".join(f"{p['name']} {scores.get(p['player_id'], '')}".strip() for p in g["players"])
    names = {p["player_id"]: p["name"] for p in g["players"]}
    return ", ".join(names.get(pid, "?") for pid in recorded["winners"]) or "-"


def from_csv(text: str) -> list[dict[str, str]]:
    """The rows of a CSV export as dicts (what a spreadsheet, or a test, reads back)."""
    return list(csv.DictReader(io.StringIO(text)))


def to_bgstats(tables: Tables, tz_minutes: int = 0, location: str = "Table Companion",
               exported_ms: int | None = None) -> dict[str, Any]:
    """Records in BG Stats's shape. A player is one name (in any case) across the tables, as
    BG Stats keeps players by name; a seat without a name (its history deleted) is an
    anonymous player of its own. ``tz_minutes`` is the players' offset from UTC: BG Stats
    keeps dates in local time. Each player, game and the location is dated by its latest
    play (``modificationDate``)."""
    zone = timezone(timedelta(minutes=tz_minutes))

    def local(ms: int) -> str:
        return datetime.fromtimestamp(ms / 1000, zone).strftime("%Y-%m-%d %H:%M:%S")

    kinds: dict[str, dict[str, Any]] = {}
    people: dict[str, dict[str, Any]] = {}
    place = {"id": 1, "name": location, "uuid": str(uuid.uuid5(NAMESPACE, "location/" + location)),
             "modificationDate": ""}
    plays = []
    for code, g in played(tables):
        changed = local(_changed_ms(g))
        kind = kinds.setdefault(g["game"], {
            "id": len(kinds) + 1, "name": g["title"], "bggId": 0,
            "uuid": str(uuid.uuid5(NAMESPACE, "game/" + g["game"])), "cooperative": g["cooperative"],
            "highestWins": True, "noPoints": not g["scores"], "usesTeams": False,
            "isBaseGame": 1, "isExpansion": 0})
        ranks = _ranks(g)
        scores = []
        for p in g["players"]:
            pid = p["player_id"]
            key = p["name"].casefold() if p["name"] else f"anonymous/{code}/{g['no']}/{pid}"
            person = people.setdefault(key, {
                "id": len(people) + 1, "name": p["name"] or ANONYMOUS, "isAnonymous": not p["name"],
                "uuid": str(uuid.uuid5(NAMESPACE, f"player/{key}")), "bggUsername": ""})
            person["modificationDate"] = changed
            score = g["scores"].get(pid)
            scores.append({"playerRefId": person["id"], "score": None if score is None else str(score),
                           "winner": pid in g["winners"], "newPlayer": False,
                           "startPlayer": pid == g["start_player"], "seatOrder": p["seat"] + 1,
                           "rank": ranks.get(pid, 0)})
        kind["modificationDate"] = place["modificationDate"] = changed
        start = datetime.fromtimestamp(g["started_ms"] / 1000, zone)
        plays.append({"uuid": str(uuid.uuid5(NAMESPACE, f"play/{code}/{g['no']}")),
                      "playDate": start.strftime("%Y-%m-%d %H:%M:%S"),
                      "entryDate": local(g["ended_ms"] or g["won_ms"] or g["started_ms"]),
                      "modificationDate": changed,
                      "durationMin": round((g["duration_ms"] or 0) / 60000),
                      "gameRefId": kind["id"], "locationRefId": 1,
                      "ignored": not _has_result(g) or _voided(g),
                      "manualWinner": not g["scores"] and bool(g["winners"]),
                      "usesTeams": False, "rounds": 0, "scoringSetting": 0, "board": _board(g),
                      "comments": f"Table {code}, game {g['no']}: {g['summary']}" + _ruling_comment(g),
                      "playerScores": scores, "expansionPlays": []})
    exported = {} if exported_ms is None else {"exportDate": local(exported_ms)}
    return {"sourceName": "Table Companion", "games": list(kinds.values()), "players": list(people.values()),
            "locations": [place] if plays else [], "plays": plays,
            "userInfo": {"meRefId": 0, **exported, "appVersion": "Table Companion"}}


def _changed_ms(g: GameRecord) -> int:
    """When a game's record last changed: its end, else its latest turn, else its start."""
    return g["ended_ms"] or max((t["ts_ms"] for t in g["turns"]), default=g["started_ms"])


def _has_result(g: GameRecord) -> bool:
    """A game is a result once won, or, played together, lost: one still undecided (or ended
    before anyone won) is none, and BG Stats is told to leave it out of its statistics."""
    return bool(g["winners"]) or (g["cooperative"] and g.get("result", {}).get("outcome") in TEAM_OUTCOMES)


def _voided(g: GameRecord) -> bool:
    return g.get("ruling", {}).get("action") == "void"


def _ruling_comment(g: GameRecord) -> str:
    """A league's ruling on a play, for its comments (in English, as the rest of them): a
    voided play is ignored, and says why; a corrected one is played as corrected, and says
    what the table recorded."""
    return f". {_ruling_text(g, Words.of('en'))}" if "ruling" in g else ""


def _board(g: GameRecord) -> str:
    """BG Stats's board of a play (the map or mode it was played on): Rank & File's variant."""
    variant = g.get("details", {}).get("variant")
    return variant if isinstance(variant, str) else ""


def _ranks(g: GameRecord) -> dict[str, int]:
    """1 for the best score, ties sharing a rank. A game without scores ranks its winners 1
    and the others 2; a cooperative game won, everyone 1; a game nobody won, nobody (0), as
    BG Stats's own files rank a lost cooperative play."""
    if not g["scores"]:
        if g["cooperative"] or not g["winners"]:
            return {pid: 1 for pid in g["winners"]}
        return {p["player_id"]: 1 if p["player_id"] in g["winners"] else 2 for p in g["players"]}
    ordered = sorted(g["scores"].values(), reverse=True)
    return {pid: ordered.index(s) + 1 for pid, s in g["scores"].items()}
