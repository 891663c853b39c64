"""A table's record as files: CSV (a row per player per game) and a BG Stats import.

The BG Stats file takes the shape of BG Stats's own JSON export ("games", "players",
"locations", "plays" with "playerScores"), which is what importers for it read; docs/api.md
documents how a record maps onto it. Identifiers are derived from the table code and game
number, so importing the same file twice adds nothing twice.
"""

from __future__ import annotations

import csv
import io
import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from .games import GameRecord
from .words import Words

CSV_COLUMNS = ("table", "game_no", "game", "started_utc", "ended_utc", "duration_s", "player_id", "name",
               "seat", "score", "winner", "summary")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NAMESPACE = uuid.UUID("6c1f0b52-3f7e-4a55-9a39-2f1d1e0c9a16")  # Table Companion's, for uuid5


def iso_utc(ms: int | None) -> str:
    if ms is None:
        return ""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _cell(text: str) -> str:
    """Text a spreadsheet would take for a formula gets a leading apostrophe (CSV injection)."""
    return "'" + text if text.startswith(FORMULA_START) else text


Tables = list[tuple[str, list[GameRecord]]]  # (table code, its games), as many as exported


def to_csv(tables: Tables, words: Words | None = None) -> str:
    """A row per player per game. In a language (``words``) the headers and results are worded
    for people; without one they are the stable names and outcome codes a script reads."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([words.header(c) for c in CSV_COLUMNS] if words else CSV_COLUMNS)
    for code, g in ((code, g) for code, games in tables for g in games):
        for p in g["players"]:
            pid = p["player_id"]
            writer.writerow([code, g["no"], g["game"], iso_utc(g["started_ms"]), iso_utc(g["ended_ms"]),
                             "" if g["duration_ms"] is None else g["duration_ms"] // 1000, pid,
                             _cell(p["name"]), p["seat"] + 1, g["scores"].get(pid, ""),
                             int(pid in g["winners"]), _cell(words.summary(g) if words else g["summary"])])
    return out.getvalue()


def from_csv(text: str) -> list[dict[str, str]]:
    """The rows of a CSV export as dicts (what a spreadsheet, or a test, reads back)."""
    return list(csv.DictReader(io.StringIO(text)))


def to_bgstats(tables: Tables, tz_minutes: int = 0, location: str = "Table Companion") -> dict[str, Any]:
    """Records in BG Stats's shape. A player is one name (in any case) across the tables, as
    BG Stats keeps players by name. ``tz_minutes`` is the players' offset from UTC: BG Stats
    keeps play dates in local time."""
    zone = timezone(timedelta(minutes=tz_minutes))
    kinds: dict[str, int] = {}
    people: dict[str, int] = {}
    doc: dict[str, Any] = {"sourceName": "Table Companion", "games": [], "players": [],
                           "locations": [{"id": 1, "name": location,
                                          "uuid": str(uuid.uuid5(NAMESPACE, "location/" + location))}],
                           "plays": []}
    for code, g in ((code, g) for code, games in tables for g in games):
        if g["game"] not in kinds:
            kinds[g["game"]] = len(kinds) + 1
            doc["games"].append({"id": kinds[g["game"]], "name": g["title"], "bggId": 0,
                                 "uuid": str(uuid.uuid5(NAMESPACE, "game/" + g["game"])),
                                 "cooperative": g["cooperative"], "highestWins": True,
                                 "noPoints": not g["scores"]})
        ranks = _ranks(g)
        scores = []
        for p in g["players"]:
            key = p["name"].casefold()
            if key not in people:
                people[key] = len(people) + 1
                doc["players"].append({"id": people[key], "name": p["name"],
                                       "uuid": str(uuid.uuid5(NAMESPACE, f"player/{key}"))})
            pid = p["player_id"]
            scores.append({"playerRefId": people[key], "score": str(g["scores"].get(pid, "")),
                           "winner": pid in g["winners"], "newPlayer": False,
                           "startPlayer": p["seat"] == 0, "seatOrder": p["seat"] + 1,
                           "rank": ranks.get(pid, 0)})
        start = datetime.fromtimestamp(g["started_ms"] / 1000, zone)
        doc["plays"].append({"uuid": str(uuid.uuid5(NAMESPACE, f"play/{code}/{g['no']}")),
                             "playDate": start.strftime("%Y-%m-%d %H:%M:%S"),
                             "durationMin": round((g["duration_ms"] or 0) / 60000),
                             "gameRefId": kinds[g["game"]], "locationRefId": 1,
                             "ignored": g["ended_ms"] is None, "manualWinner": False, "rounds": 0,
                             "board": "", "comments": f"Table {code}, game {g['no']}: {g['summary']}",
                             "playerScores": scores})
    return doc


def _ranks(g: GameRecord) -> dict[str, int]:
    """1 for the best score, ties sharing a rank; a game without scores ranks its winners 1."""
    if not g["scores"]:
        return {pid: 1 for pid in g["winners"]}
    ordered = sorted(g["scores"].values(), reverse=True)
    return {pid: ordered.index(s) + 1 for pid, s in g["scores"].items()}
