"""The record's files for other software (#43 item 17): rows and plays in the order they were
played, across tables; a BG Stats file with the fields BG Stats's own exports carry; a
Rank & File play as BG Stats keeps a cooperative one."""

import re

from companion.record.exports import from_csv, to_bgstats, to_csv

MINUTE = 60_000
BG_STATS_DATE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")


def game(no, started_ms, game="blanko", scores=None, winners=(), ended_ms=None, names=("Anna", "Bence"),
         outcome=None, turns=()):
    """A game as companion/record/games.py keeps it, its players ``p0``, ``p1``, …"""
    ids = [f"p{i}" for i in range(len(names))]
    return {"no": no, "game": game, "title": game.upper(), "cooperative": game == "rankfile",
            "started_ms": started_ms, "ended_ms": ended_ms, "won_ms": ended_ms if winners else None,
            "duration_ms": None if ended_ms is None else ended_ms - started_ms, "ended_by": "rules",
            "players": [{"player_id": p, "name": n, "seat": i, "removed": False}
                        for i, (p, n) in enumerate(zip(ids, names, strict=True))],
            "winners": list(winners), "scores": dict(scores or {}), "summary": "",
            "result": {"outcome": outcome} if outcome else {}, "details": {}, "start_player": "p0",
            "turns": [{"n": i + 1, "ts_ms": ts, "player": "p0", "events": [], "scores": {}}
                      for i, ts in enumerate(turns)]}


def test_rows_and_plays_are_in_the_order_played_not_table_by_table():
    """A league's record listed table after table: the evening's second game at table A came
    before the first game at table B, played an hour earlier."""
    tables = [("AAAAA", [game(1, 0, scores={"p0": 10, "p1": 5}, winners=["p0"], ended_ms=20 * MINUTE),
                         game(2, 120 * MINUTE, scores={"p0": 7, "p1": 9}, winners=["p1"],
                              ended_ms=140 * MINUTE)]),
              ("BBBBB", [game(1, 60 * MINUTE, scores={"p0": 3, "p1": 4}, winners=["p1"], ended_ms=80 * MINUTE,
                              names=("Csilla", "Dani"))])]
    rows = from_csv(to_csv(tables))
    assert [(r["table"], r["game_no"]) for r in rows[::2]] == [("AAAAA", "1"), ("BBBBB", "1"), ("AAAAA", "2")]
    plays = to_bgstats(tables)["plays"]
    assert [p["comments"].split(":")[0] for p in plays] == [
        "Table AAAAA, game 1", "Table BBBBB, game 1", "Table AAAAA, game 2"]
    assert [p["playDate"] for p in plays] == sorted(p["playDate"] for p in plays)


def test_bg_stats_carries_the_fields_of_its_own_play_files():
    """BG Stats's exports date every play (entryDate, modificationDate), player, game and
    location, and mark players isAnonymous; a play names its scoring, teams and board."""
    g = game(1, 0, scores={"p0": 10, "p1": 5}, winners=["p0"], ended_ms=30 * MINUTE,
             turns=(5 * MINUTE, 25 * MINUTE))
    doc = to_bgstats([("AAAAA", [g])], tz_minutes=60, exported_ms=90 * MINUTE)
    [play] = doc["plays"]
    assert play["playDate"] == "1970-01-01 01:00:00"  # local time: tz 60
    assert play["entryDate"] == "1970-01-01 01:30:00"  # written down when it ended
    assert play["modificationDate"] == "1970-01-01 01:30:00"
    assert {k: play[k] for k in ("usesTeams", "manualWinner", "board", "scoringSetting", "rounds",
                                 "expansionPlays", "ignored")} == {
        "usesTeams": False, "manualWinner": False, "board": "", "scoringSetting": 0, "rounds": 0,
        "expansionPlays": [], "ignored": False}
    for kind in ("players", "games", "locations"):
        assert all(BG_STATS_DATE.match(x["modificationDate"]) for x in doc[kind]), kind
    assert [(p["name"], p["isAnonymous"]) for p in doc["players"]] == [("Anna", False), ("Bence", False)]
    assert doc["games"][0]["usesTeams"] is False and doc["games"][0]["isBaseGame"] == 1
    assert doc["userInfo"] == {"meRefId": 0, "exportDate": "1970-01-01 02:30:00",
                               "appVersion": "Table Companion"}
    assert [(s["score"], s["winner"], s["rank"]) for s in play["playerScores"]] == [
        ("10", True, 1), ("5", False, 2)]


def test_a_seat_whose_history_was_deleted_is_an_anonymous_player_of_its_own():
    """Two forgotten seats were one player named "" in BG Stats (a player against themself)."""
    g = game(1, 0, scores={"p0": 10, "p1": 5}, winners=["p0"], ended_ms=MINUTE, names=("", ""))
    doc = to_bgstats([("AAAAA", [g])])
    assert [(p["name"], p["isAnonymous"]) for p in doc["players"]] == [
        ("Anonymous player", True), ("Anonymous player", True)]
    assert len({s["playerRefId"] for s in doc["plays"][0]["playerScores"]}) == 2


def test_a_rank_and_file_play_is_a_cooperative_play_with_its_team_result():
    """BG Stats keeps a cooperative play as every player a winner (rank 1) or none (rank 0),
    the winner chosen by hand, no teams; a game the host ended before the deck or the team
    had the last word has no result: BG Stats ignores it."""
    names = ("Anna", "Bence", "Csilla")
    won = game(1, 0, "rankfile", winners=["p0", "p1", "p2"], ended_ms=MINUTE, names=names, outcome="won")
    lost = game(2, 2 * MINUTE, "rankfile", ended_ms=3 * MINUTE, names=names, outcome="lost")
    ended = game(3, 4 * MINUTE, "rankfile", ended_ms=5 * MINUTE, names=names, outcome="unfinished")
    doc = to_bgstats([("AAAAA", [won, lost, ended])])
    assert doc["games"][0]["cooperative"] is True and doc["games"][0]["noPoints"] is True
    plays = doc["plays"]
    assert [{(s["winner"], s["rank"], s["score"]) for s in p["playerScores"]} for p in plays] == [
        {(True, 1, None)}, {(False, 0, None)}, {(False, 0, None)}]
    assert [p["manualWinner"] for p in plays] == [True, False, False]
    assert [p["ignored"] for p in plays] == [False, False, True]
    assert all(p["usesTeams"] is False for p in plays)


def test_a_game_without_points_ranks_its_winner_first_and_the_rest_second():
    """BLDNG has a winner and no points: BG Stats ranks the others second, where 0 was "no rank"."""
    g = game(1, 0, "bldng", winners=["p1"], ended_ms=MINUTE, names=("Anna", "Bence", "Csilla"))
    [play] = to_bgstats([("AAAAA", [g])])["plays"]
    assert [(s["winner"], s["rank"]) for s in play["playerScores"]] == [(False, 2), (True, 1), (False, 2)]
    assert play["manualWinner"] is True


def test_a_game_still_on_without_a_winner_is_ignored_and_a_won_blank_game_is_not():
    """A BLANK game counts once won, while the winner's prize is still being chosen."""
    on = game(1, 0, scores={"p0": 3, "p1": 0})
    won = game(2, MINUTE, "blank", scores={"p0": 0, "p1": -3}, winners=["p0"])
    assert [p["ignored"] for p in to_bgstats([("AAAAA", [on, won])])["plays"]] == [True, False]
