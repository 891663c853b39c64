"""Leagues in the database: the league (its name, the games it rates, the organiser's token
hash), which tables count for it, the rounds the organiser made (their pairs and bye), and the
organiser's rulings on games (a game voided, its result corrected, or restored: each with its
reason, only ever added, the latest on a game the one that counts), and the organiser's changes
to the roster (renames, merges, withdrawals), in the order made.

Nothing of a game is stored here: standings are folded, when asked for, from the logs of the
league's tables through their records (companion/record/games.py), so an undo or a rematch at
a table shows in the league as it does in the table's record; a ruling is read over the record
(league/order.py, ``corrected``), which stays as the table played it.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import UniqueConstraint
from sqlalchemy.exc import OperationalError
from sqlmodel import Field, Session, SQLModel, col, select

from ..errors import ApiError
from ..record.games import GameRecord, table_games
from ..record.people import person_in
from ..storage.store import Millis, PlayerRow, RowId, Store, TableRow
from ..table.names import shown
from ..table.rules import TableRules
from ..table.service import hash_token, holds, normalise_code
from .order import CORRECTIONS, GAMES, POINTS, TEAM, Result, corrected, result_of
from .players import NAME, Roster
from .ratings import Fold, Folds, Row, standings_of

MAX_NAME = 60
MAX_REASON = 200
MAX_POINTS = 10_000  # a corrected BLANKO score, either way
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a NOWAIT lock another holds
# Told (league id, table codes) once tables are counted for a league (its room's screen, web/realtime.py).
Added = Callable[[str, list[str]], None]
FOLDED_TABLES = 5000  # tables whose folded log a process keeps (a season of 50 people: 2,000)
Join = tuple[int, str, str, str | None]  # (when, table, name, phone) of a PlayerJoined
# A table's games as the league read them, by (game no, ruling id): the game as ruled and its
# result by the seats' player ids (None: voided).
Read = dict[tuple[int, int | None], tuple[GameRecord, Result | None] | None]
Folded = tuple[tuple[int, str], list[GameRecord], list[Join], Read]  # (the log's mark, games, joins, read)


class LeagueRow(SQLModel, table=True):
    __tablename__ = "leagues"
    id: str = Field(primary_key=True)
    name: str
    token_hash: str = Field(index=True, unique=True)
    created_ms: int = Field(sa_type=Millis)
    games_json: str


class LeagueTableRow(SQLModel, table=True):
    __tablename__ = "league_tables"
    table_code: str = Field(primary_key=True, foreign_key="tables.code")
    league_id: str = Field(index=True, foreign_key="leagues.id")
    round_no: int | None = None  # the round it was made for; None: a host made it with options.league


class LeagueRoundRow(SQLModel, table=True):
    __tablename__ = "league_rounds"
    __table_args__ = (UniqueConstraint("league_id", "no"),)
    id: int | None = Field(default=None, primary_key=True, sa_type=RowId)
    league_id: str = Field(index=True, foreign_key="leagues.id")
    no: int
    made_ms: int = Field(sa_type=Millis)
    pairs_json: str  # [{"players": [player key, player key], "table": code, "place"?: venue table}, ...]
    bye: str | None = None  # the player key who sat out


class LeagueCorrectionRow(SQLModel, table=True):
    """The organiser's ruling on one game of a league table (``game_no``: its number in the
    table's record), kept with its reason; a later ruling on the same game replaces it in the
    standings, never in this table."""
    __tablename__ = "league_corrections"
    id: int | None = Field(default=None, primary_key=True, sa_type=RowId)
    league_id: str = Field(index=True, foreign_key="leagues.id")
    table_code: str = Field(foreign_key="tables.code")
    game_no: int
    action: str  # void, correct or restore (league/order.py, ``corrected``)
    ruling_json: str  # correct: {"scores": {player id: points}} or {"winners": [player id]}; else {}
    reason: str
    made_ms: int = Field(sa_type=Millis)


class LeagueChangeRow(SQLModel, table=True):
    """A change the organiser made to the roster (league/players.py), players named as shown
    then: {"type": "rename", "player", "name"}, {"type": "merge", "player", "into"},
    {"type": "withdraw" or "bring_back", "player"}."""
    __tablename__ = "league_changes"
    id: int | None = Field(default=None, primary_key=True, sa_type=RowId)
    league_id: str = Field(index=True, foreign_key="leagues.id")
    made_ms: int = Field(sa_type=Millis)
    change_json: str


class League:
    """One league as read now: its players linked, the games that count, its rounds, and the
    organiser's rulings on games (oldest first)."""

    def __init__(self, row: LeagueRow, roster: Roster, results: list[Result],
                 rounds: list[LeagueRoundRow], tables: list[tuple[str, list[GameRecord]]],
                 rulings: list[LeagueCorrectionRow], counted: set[tuple[str, int]],
                 new_phones: list[tuple[str, str]],
                 fold: Callable[[list[Result]], Fold] | None = None) -> None:
        self.id, self.name, self.created_ms = row.id, row.name, row.created_ms
        self.games: list[str] = json.loads(row.games_json)
        self.roster, self.results, self.rounds = roster, results, rounds
        self.tables = tables  # (code, its games' records): those made for a round and by hosts
        self.codes = [code for code, _games in tables]
        self.new_phones = new_phones  # (table code, player): a known name sat down on a new phone
        self.rulings, self.counted = rulings, counted  # counted: (table code, game no) of results
        self._fold = fold or Folds().of
        self._standings: tuple[list[Row], list[Row]] | None = None
        self._names: dict[str, str] | None = None
        self._byes: list[tuple[int, str]] | None = None
        self._pairs: dict[int, list[list[str]]] = {}

    def standings(self) -> tuple[list[Row], list[Row]]:
        """(standings, chart) as league/ratings.py folds them, once for this reading, from the
        store's folds of the league's games (only what changed since is rated)."""
        if self._standings is None:
            self._standings = standings_of(self._fold(self.results), self.byes(), self.names())
        return self._standings

    def game(self, code: Any, no: Any) -> GameRecord:
        """A game of the league's tables as its table recorded it."""
        if isinstance(code, str) and isinstance(no, int) and not isinstance(no, bool):
            for c, games in self.tables:
                if c == normalise_code(code):
                    for g in games:
                        if g["no"] == no:
                            return g
        raise ApiError("league/unknown_game", "this league has no such game (table and number)", 404)

    def names(self) -> dict[str, str]:
        """Every player's name, those who have only had a bye so far included (read once:
        a request asks several times, and a season has thousands of seats)."""
        if self._names is None:
            keys = {p for r in self.results for p in r.players} | set(self.byes())
            self._names = {k: self.roster.name_of(k) for k in keys}
        return self._names

    def byes(self) -> list[str]:
        return [p for _ms, p in self.dated_byes()]

    def dated_byes(self) -> list[tuple[int, str]]:
        """(when its round was made, player) of every bye, oldest first."""
        if self._byes is None:
            self._byes = [(r.made_ms, self.roster.resolve(r.bye)) for r in self.rounds if r.bye is not None]
        return self._byes

    def pairs(self, rnd: LeagueRoundRow) -> list[list[str]]:
        """A round's boards' players as the roster knows them now (read once a round: the
        standings' rounds and who has met whom both ask, a season has 80 rounds)."""
        if rnd.no not in self._pairs:
            self._pairs[rnd.no] = [[self.roster.resolve(k) for k in b["players"]]
                                   for b in json.loads(rnd.pairs_json)]
        return self._pairs[rnd.no]

    def met(self) -> set[frozenset[str]]:
        """Pairs who played one another one-on-one or were paired in a round."""
        out = {frozenset(r.players) for r in self.results if len(r.players) == 2}
        for rnd in self.rounds:
            out |= {frozenset(p) for p in self.pairs(rnd)}
        return out

    def played_together(self, a: str, b: str) -> bool:
        return any(a in r.players and b in r.players for r in self.results)


@dataclass(frozen=True)
class Board:
    """A table as a board of a round: its league and round, its two players (keys, as the
    roster reads them now) and the roster that reads the names seated there."""
    league_id: str
    round_no: int
    players: list[str]
    roster: Roster


def _round_busy() -> ApiError:
    return ApiError("league/round_busy", "a round of this league is being made right now", 409)


class LeagueStore:
    def __init__(self, store: Store, rules: TableRules) -> None:
        self.store = store
        self.rules = rules
        self.added: list[Added] = []
        self._making: set[str] = set()  # the leagues whose next round is being made (making_round)
        self._making_lock = threading.Lock()
        # A table's games and joins as folded from its log, with the log's mark then (read()).
        self._folded: OrderedDict[str, Folded] = OrderedDict()
        self._folds: dict[str, Folds] = {}  # each league's ratings folded so far
        self._folding, self._rating = threading.Lock(), threading.Lock()

    def create(self, name: Any, games: Any, now_ms: int) -> tuple[str, str]:
        """A new league and its organiser's token. Its name is read as a player's is (the room's
        screen and every phone show it), and ``games`` must be a list of the games' names:
        anything else is a 400 with a code, never a 500."""
        name = shown(name) if isinstance(name, str) else ""
        if not name or len(name) > MAX_NAME:
            raise ApiError("league/bad_name", f"a league's name is 1 to {MAX_NAME} characters")
        if games is None:
            games = sorted(GAMES)
        if not (isinstance(games, list) and games and all(isinstance(g, str) and g in GAMES for g in games)):
            raise ApiError("league/bad_games", f"games is a list of {', '.join(sorted(GAMES))}")
        league_id, token = "l" + secrets.token_hex(6), secrets.token_urlsafe(16)
        with self.store.write_lock, Session(self.store.engine) as s:
            s.add(LeagueRow(id=league_id, name=name, token_hash=hash_token(token),
                            created_ms=now_ms, games_json=json.dumps(sorted(set(games)))))
            s.commit()
        return league_id, token

    def row(self, league_id: Any) -> LeagueRow:
        with Session(self.store.engine) as s:
            row = s.get(LeagueRow, league_id) if isinstance(league_id, str) else None
        if row is None:
            raise ApiError("league/unknown", "there is no such league", 404)
        return row

    def organised(self, league_id: Any, token: str | None) -> LeagueRow:
        row = self.row(league_id)
        if not holds(token, row.token_hash):
            raise ApiError("auth/bad_token", "only the league's organiser can do this", 401)
        return row

    def organiser_of(self, token: str) -> str | None:
        """The league whose organiser's token this is: a hash lookup, as every check of a token
        starts (the server's reserve asks only this, web/credentials.py)."""
        with Session(self.store.engine) as s:
            return s.exec(select(LeagueRow.id).where(LeagueRow.token_hash == hash_token(token))).first()

    def for_table(self, game: Any, options: Any) -> tuple[str | None, Any]:
        """(the league a new table counts for, its options without it for the game's rules);
        a bad league is refused here, before the table is made."""
        if not isinstance(options, dict) or "league" not in options:
            return None, options
        row = self.row(options["league"])
        if game not in json.loads(row.games_json):
            raise ApiError("league/game_not_rated", f"the league {row.name!r} does not count {game!r}")
        return row.id, {k: v for k, v in options.items() if k != "league"}

    def add_table(self, league_id: str, code: str, round_no: int | None = None) -> None:
        with self.store.write_lock, Session(self.store.engine) as s:
            s.add(LeagueTableRow(table_code=code, league_id=league_id, round_no=round_no))
            s.commit()
        self._added(league_id, [code])

    @contextmanager
    def making_round(self, league_id: str) -> Iterator[None]:
        """One round of a league made at a time, from reading who has met whom to the round's
        tables written down with it. Eight taps of "Next round" at once each paired the same
        league, made their tables, and then all but one found their round's number taken: a 500
        and their tables counted for nothing. A round asked for meanwhile is refused
        (``league/round_busy``) rather than queued: made after, it would only seat the same
        people again at other boards, and the room's screen shows the round that was made.

        In this process, a set of the leagues being paired; across processes (PostgreSQL), the
        league's row too, locked while the round is made. FOR NO KEY UPDATE: the round's rows,
        whose foreign key names the league, still go in beside the lock; NOWAIT: the second
        is told at once."""
        with self._making_lock:
            if league_id in self._making:
                raise _round_busy()
            self._making.add(league_id)
        try:
            with Session(self.store.engine) as s:
                if self.store.shared:
                    try:
                        s.exec(select(LeagueRow.id).where(col(LeagueRow.id) == league_id)
                               .with_for_update(nowait=True, key_share=True)).first()
                    except OperationalError as e:
                        if getattr(e.orig, "sqlstate", None) != LOCK_NOT_AVAILABLE:
                            raise
                        raise _round_busy() from None
                yield
        finally:
            with self._making_lock:
                self._making.discard(league_id)

    def add_round(self, league_id: str, no: int, now_ms: int, pairs: list[tuple[str, str]],
                  bye: str | None, codes: list[str], places: list[str] | None = None) -> None:
        """The round and its tables in one commit (the tables themselves are made before);
        ``places``: the venue's tables they are played at, board by board, if they are."""
        boards = [{"players": list(p), "table": code} for p, code in zip(pairs, codes, strict=True)]
        for board, place in zip(boards, places or [], strict=False):
            board["place"] = place
        with self.store.write_lock, Session(self.store.engine) as s:
            s.add(LeagueRoundRow(league_id=league_id, no=no, made_ms=now_ms,
                                 pairs_json=json.dumps(boards), bye=bye))
            for code in codes:
                s.add(LeagueTableRow(table_code=code, league_id=league_id, round_no=no))
            s.commit()
        self._added(league_id, codes)

    def delete_round(self, league_id: str, no: int, codes: list[str]) -> None:
        """A round that never began taken back: its row (its pairs and bye with it) and its
        boards, which then count for the league no more (the caller closed them first)."""
        with self.store.write_lock, Session(self.store.engine) as s:
            for row in s.exec(select(LeagueTableRow).where(col(LeagueTableRow.table_code).in_(codes))
                              .where(col(LeagueTableRow.league_id) == league_id)).all():
                s.delete(row)
            for rnd in s.exec(select(LeagueRoundRow).where(col(LeagueRoundRow.league_id) == league_id)
                              .where(col(LeagueRoundRow.no) == no)).all():
                s.delete(rnd)
            s.commit()
        self._added(league_id, [])

    def board_of(self, code: str) -> Board | None:
        """The round board a table is, or None (a host's table, or none of a league's): what a
        join reads to know whether the table's two players now sit. The roster is read from the
        seats' rows, the rounds and the director's changes, not from the tables' logs: a join
        at a board costs a few reads, not a fold of the season."""
        with Session(self.store.engine) as s:
            row = s.get(LeagueTableRow, code)
            if row is None or row.round_no is None:
                return None
            rnd = s.exec(select(LeagueRoundRow).where(col(LeagueRoundRow.league_id) == row.league_id)
                         .where(col(LeagueRoundRow.no) == row.round_no)).first()
            board = next((b for b in json.loads(rnd.pairs_json) if b["table"] == code), None) if rnd else None
            if board is None:
                return None
            rounds, changes = self._rounds_and_changes(s, row.league_id)
            joins = [(ts, c, name, None) for ts, c, name in s.exec(
                select(PlayerRow.joined_ms, PlayerRow.table_code, PlayerRow.name)
                .join(LeagueTableRow, col(LeagueTableRow.table_code) == col(PlayerRow.table_code))
                .where(col(LeagueTableRow.league_id) == row.league_id)).all()]
        roster = _roster(joins, rounds, changes)
        return Board(row.league_id, row.round_no, [roster.resolve(k) for k in board["players"]], roster)

    def board_note(self, code: str, seated: list[str]) -> dict[str, Any] | None:
        """What a gathering table's phones are told if it is a round's board: its round, and
        whom it still waits for (by the names the league shows) among the two it was made for."""
        board = self.board_of(code)
        if board is None:
            return None
        here = {board.roster.key_of(name) for name in seated}
        return {"round": board.round_no,
                "waiting_for": [board.roster.name_of(k) for k in board.players if k not in here]}

    @staticmethod
    def _rounds_and_changes(s: Session, league_id: str) -> tuple[list[LeagueRoundRow], list[str]]:
        rounds = list(s.exec(select(LeagueRoundRow).where(col(LeagueRoundRow.league_id) == league_id)
                             .order_by(col(LeagueRoundRow.no))).all())
        changes = list(s.exec(select(LeagueChangeRow.change_json)
                              .where(col(LeagueChangeRow.league_id) == league_id)
                              .order_by(col(LeagueChangeRow.id))).all())
        return rounds, changes

    def change(self, league_id: str, now_ms: int, change: dict[str, str]) -> None:
        """A change to the roster, checked by the caller against the league as read now."""
        with self.store.write_lock, Session(self.store.engine) as s:
            s.add(LeagueChangeRow(league_id=league_id, made_ms=now_ms,
                                  change_json=json.dumps(change, ensure_ascii=False)))
            s.commit()
        self._added(league_id, [])

    def _added(self, league_id: str, codes: list[str]) -> None:
        for listener in self.added:
            listener(league_id, codes)

    def still_on(self, codes: list[str]) -> set[str]:
        """Those of ``codes`` whose table has not ended (by the tables' rows, without loading
        each table's log: a season's finished tables stay out of memory)."""
        with Session(self.store.engine) as s:
            return set(s.exec(select(TableRow.code).where(col(TableRow.code).in_(codes))
                              .where(col(TableRow.status) != "ended")).all())

    def league_of(self, code: str) -> str | None:
        with Session(self.store.engine) as s:
            row = s.get(LeagueTableRow, code)
        return row.league_id if row else None

    def correct(self, league_id: str, data: dict[str, Any], now_ms: int) -> tuple[str, int]:
        """The organiser's ruling on a game (``table``, ``no``: its number in the table's
        record): ``action`` void, correct or restore, with a ``reason`` (kept, as every ruling
        is), and for correct BLANKO's ``scores`` of every seated player by name, or another
        game's ``winners`` by name. A game still undecided is not ruled on: it counts for
        nobody yet. Returns the game's (table code, number)."""
        lg = self.read(league_id)
        game = lg.game(data.get("table"), data.get("no"))
        code = normalise_code(data["table"])
        action = data.get("action")
        if not isinstance(action, str) or action not in CORRECTIONS:
            raise ApiError("league/bad_correction", f"action is one of {', '.join(sorted(CORRECTIONS))}")
        reason = shown(data["reason"]) if isinstance(data.get("reason"), str) else ""
        if not reason or len(reason) > MAX_REASON:
            raise ApiError("league/bad_reason", f"a ruling's reason is 1 to {MAX_REASON} characters")
        if game["won_ms"] is None:
            raise ApiError("league/game_on", "this game is still on: rule on it once it is over", 409)
        ruling = _ruling(game, action, data)
        with self.store.write_lock, Session(self.store.engine) as s:
            s.add(LeagueCorrectionRow(league_id=lg.id, table_code=code, game_no=game["no"], action=action,
                                      ruling_json=json.dumps(ruling), reason=reason, made_ms=now_ms))
            s.commit()
        self._added(lg.id, [])  # the room's screen reads the standings again
        return code, game["no"]

    def read(self, league_id: Any) -> League:
        """The league folded from its tables' logs and the organiser's rulings, games in the
        order they were won."""
        row = self.row(league_id)
        with Session(self.store.engine) as s:
            codes = list(s.exec(select(LeagueTableRow.table_code)
                                .where(col(LeagueTableRow.league_id) == row.id)
                                .order_by(col(LeagueTableRow.table_code))).all())
            rounds, changes = self._rounds_and_changes(s, row.id)
            rulings = list(s.exec(select(LeagueCorrectionRow)
                                  .where(col(LeagueCorrectionRow.league_id) == row.id)
                                  .order_by(col(LeagueCorrectionRow.id))).all())
        latest = {(c.table_code, c.game_no): c for c in rulings}
        joins: list[Join] = []
        seats, tables = [], []
        for code, (games, table_joins, read) in self._tables(codes).items():
            joins.extend(table_joins)
            tables.append((code, games))
            for g in games:
                c = latest.get((code, g["no"]))
                if (g["no"], c and c.id) not in read:  # the game as ruled, its seats by player id
                    ruled = corrected(g, {"action": c.action, **json.loads(c.ruling_json)}) if c else g
                    read[g["no"], c and c.id] = None if ruled is None else (ruled, result_of(ruled, str))
                if (seat := read[g["no"], c and c.id]) is not None:
                    seats.append((code, *seat))
        seats.sort(key=lambda s: (s[1]["won_ms"] is None, s[1]["won_ms"] or 0, s[1]["started_ms"]))
        roster = _roster(joins, rounds, changes)
        results, counted = [], set()
        known: dict[str, str] = {}  # name -> player, as the roster reads it (a season seats a name often)

        def player(name: str) -> str:
            if not name:
                return roster.seat(name)  # nobody: a player of their own at each seat
            if name not in known:
                known[name] = roster.seat(name)
            return known[name]

        for code, g, by_seat in seats:
            if by_seat is None:
                continue
            names = {p["player_id"]: p["name"] for p in g["players"]}
            results.append(by_seat.of({pid: player(names[pid]) for pid in by_seat.players}))
            counted.add((code, g["no"]))
        return League(row, roster, results, rounds, tables, rulings, counted,
                      _new_phones(roster, joins), lambda rs: self._fold(row.id, rs))

    def _tables(self, codes: list[str]) -> dict[str, tuple[list[GameRecord], list[Join], Read]]:
        """Each table's games (its record) and joins, folded from its log. A season's tables
        are read at every request (the standings, the room's screen at every move), and
        folding 2,000 logs took a second: a table folded before is taken as it was while its
        last seq and its names (which deleting a player's history changes) are the same, so
        only a table that moved is read and folded again (the marks and those logs are read a
        few hundred tables a query)."""
        marks = self.store.log_marks(codes)
        with self._folding:
            kept = {c: self._folded[c] for c in codes
                    if c in self._folded and self._folded[c][0] == marks.get(c)}
        logs = self.store.logs([c for c in codes if c not in kept])
        out = {}
        for code in codes:
            if code in kept:
                _mark, games, joins, read = kept[code]
            else:
                records = logs[code]
                games = table_games(records, self.rules)
                joins = [(r.ts_ms, code, r.event["name"], person_in(r.event))
                         for r in records if r.event["type"] == "PlayerJoined"]
                read = {}
                if records and code in marks:
                    kept[code] = ((records[-1].seq, marks[code][1]), games, joins, read)
            out[code] = (games, joins, read)
        with self._folding:
            for code, entry in kept.items():
                self._folded[code] = entry
                self._folded.move_to_end(code)
            while len(self._folded) > FOLDED_TABLES:
                self._folded.popitem(last=False)
        return out

    def _fold(self, league_id: str, results: list[Result]) -> Fold:
        """The league's ratings over ``results``, from its folds so far (league/ratings.py)."""
        with self._rating:
            return self._folds.setdefault(league_id, Folds()).of(results)


def _ruling(game: GameRecord, action: str, data: dict[str, Any]) -> dict[str, Any]:
    """What a correction says, by the table's player ids: BLANKO's scores of every player
    seated (the winners follow from them), or another game's winners (BLANK and BLDNG: one;
    Rank & File: every player, or none for a loss)."""
    if action != "correct":
        return {}
    seated = {p["name"]: p["player_id"] for p in game["players"] if not p.get("removed")}
    if game["game"] in POINTS:
        scores = data.get("scores")
        if not (isinstance(scores, dict) and set(scores) == set(seated)
                and all(type(v) is int and abs(v) <= MAX_POINTS for v in scores.values())):
            raise ApiError("league/bad_correction", "scores gives each seated player's points by name, "
                           f"whole numbers of at most {MAX_POINTS} either way")
        return {"scores": {seated[n]: v for n, v in scores.items()}}
    winners = data.get("winners")
    if not (isinstance(winners, list) and all(isinstance(w, str) and w in seated for w in winners)
            and len(set(winners)) == len(winners)
            and len(winners) in ((0, len(seated)) if game["game"] in TEAM else (1,))):
        raise ApiError("league/bad_correction", "winners names the winner among the seated players "
                       "(Rank & File: every player, or none)")
    return {"winners": [seated[w] for w in winners]}


def _roster(joins: list[tuple[int, str, str, str | None]], rounds: list[LeagueRoundRow],
            changes: list[str]) -> Roster:
    """Every name seated or ticked, oldest first, then the organiser's changes in order."""
    seen = [(ts, name, person) for ts, _code, name, person in joins]
    for rnd in rounds:
        keys = [k for b in json.loads(rnd.pairs_json) for k in b["players"]] + [rnd.bye or ""]
        seen.extend((rnd.made_ms, k.removeprefix(NAME), None) for k in keys if k.startswith(NAME))
    roster = Roster()
    for _ts, name, person in sorted(seen, key=lambda s: s[0]):
        roster.see(name, person)
    for raw in changes:
        c = json.loads(raw)
        if c["type"] == "rename":
            roster.rename(c["player"], c["name"])
        elif c["type"] == "merge":
            roster.merge(c["player"], c["into"])
        else:
            roster.withdraw(c["player"], out=c["type"] == "withdraw")
    return roster


def _new_phones(roster: Roster, joins: list[tuple[int, str, str, str | None]]) -> list[tuple[str, str]]:
    """(table, player) of each seat taken under a known name on a phone its player had not
    used before, having used another: the player, or someone in their name, for the director
    to look at."""
    phones: dict[str, set[str]] = {}
    out = []
    for _ts, code, name, person in sorted(joins, key=lambda j: j[0]):
        if not name or person is None:
            continue
        key = roster.key_of(name)
        known = phones.setdefault(key, set())
        if known and person not in known:
            out.append((code, key))
        known.add(person)
    return out
