"""Leagues in the database: the league (its name, the games it rates, the organiser's token
hash), which tables count for it, and the rounds the organiser made (their pairs and bye).

Nothing of a game is stored here: standings are folded, when asked for, from the logs of the
league's tables through their records (companion/record/games.py), so an undo or a rematch at
a table shows in the league as it does in the table's record.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import UniqueConstraint
from sqlalchemy.exc import OperationalError
from sqlmodel import Field, Session, SQLModel, col, select

from ..errors import ApiError
from ..record.games import GameRecord, table_games
from ..record.people import persons
from ..storage.store import Millis, RowId, Store, TableRow
from ..table.names import shown
from ..table.rules import TableRules
from ..table.service import hash_token
from .order import GAMES, Result, result_of
from .players import Roster

MAX_NAME = 60
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a NOWAIT lock another holds
# Told (league id, table codes) once tables are counted for a league (its room's screen, web/realtime.py).
Added = Callable[[str, list[str]], None]


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
    pairs_json: str  # [{"players": [player key, player key], "table": code}, ...], board by board
    bye: str | None = None  # the player key who sat out


class League:
    """One league as read now: its players linked, its finished games, its rounds."""

    def __init__(self, row: LeagueRow, roster: Roster, results: list[Result],
                 rounds: list[LeagueRoundRow], tables: list[tuple[str, list[GameRecord]]]) -> None:
        self.id, self.name, self.created_ms = row.id, row.name, row.created_ms
        self.games: list[str] = json.loads(row.games_json)
        self.roster, self.results, self.rounds = roster, results, rounds
        self.tables = tables  # (code, its games' records): those made for a round and by hosts
        self.codes = [code for code, _games in tables]

    def names(self) -> dict[str, str]:
        """Every player's name, those who have only had a bye so far included."""
        return {**{b: name_of(b) for b in self.byes()}, **self.roster.names}

    def byes(self) -> list[str]:
        return [r.bye for r in self.rounds if r.bye is not None]

    def met(self) -> set[frozenset[str]]:
        """Pairs who played one another one-on-one or were paired in a round."""
        out = {frozenset(r.players) for r in self.results if len(r.players) == 2}
        for rnd in self.rounds:
            out |= {frozenset(b["players"]) for b in json.loads(rnd.pairs_json)}
        return out


def _round_busy() -> ApiError:
    return ApiError("league/round_busy", "a round of this league is being made right now", 409)


def name_of(key: str) -> str:
    """A newcomer's name from their key (see league/players.py), before any game links them."""
    return key.removeprefix("name:") if key.startswith("name:") else ""


class LeagueStore:
    def __init__(self, store: Store, rules: TableRules) -> None:
        self.store = store
        self.rules = rules
        self.added: list[Added] = []
        self._making: set[str] = set()  # the leagues whose next round is being made (making_round)
        self._making_lock = threading.Lock()

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
        if not token or not secrets.compare_digest(hash_token(token), row.token_hash):
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
                  bye: str | None, codes: list[str]) -> None:
        """The round and its tables in one commit (the tables themselves are made before)."""
        boards = [{"players": list(p), "table": code} for p, code in zip(pairs, codes, strict=True)]
        with self.store.write_lock, Session(self.store.engine) as s:
            s.add(LeagueRoundRow(league_id=league_id, no=no, made_ms=now_ms,
                                 pairs_json=json.dumps(boards), bye=bye))
            for code in codes:
                s.add(LeagueTableRow(table_code=code, league_id=league_id, round_no=no))
            s.commit()
        self._added(league_id, codes)

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

    def read(self, league_id: Any) -> League:
        """The league folded from its tables' logs, games in the order they ended."""
        row = self.row(league_id)
        with Session(self.store.engine) as s:
            codes = list(s.exec(select(LeagueTableRow.table_code)
                                .where(col(LeagueTableRow.league_id) == row.id)
                                .order_by(col(LeagueTableRow.table_code))).all())
            rounds = list(s.exec(select(LeagueRoundRow).where(col(LeagueRoundRow.league_id) == row.id)
                                 .order_by(col(LeagueRoundRow.no))).all())
        seats, tables = [], []
        for code in codes:
            records = [r for r, _cid in self.store.records(code)]
            who = persons(records)
            games = table_games(records, self.rules)
            tables.append((code, games))
            seats.extend((g, who) for g in games)
        seats.sort(key=lambda gw: (gw[0]["ended_ms"] is None, gw[0]["ended_ms"] or 0, gw[0]["started_ms"]))
        roster, results = Roster(), []
        for g, who in seats:
            names = {p["player_id"]: p["name"] for p in g["players"]}
            r = result_of(g, lambda pid, names=names, who=who: roster.seat(who.get(pid), names[pid]))
            if r is not None:
                results.append(r)
        return League(row, roster, results, rounds, tables)
