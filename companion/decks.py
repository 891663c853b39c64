"""BLANK decks in the database: each owner's copy of the game, changed by every win.

A deck outlives tables, so it is not in any table's event log; a table takes a snapshot of its
deck when it is created (so replaying the table needs nothing else), and an approved prize is
written back here.
"""

from __future__ import annotations

import json
import secrets
import threading
from typing import Any

from sqlmodel import Field, Session, SQLModel, col, select

from .errors import ApiError
from .games.blank.deck import apply_prize, new_deck, read_rule, validate_deck
from .store import Millis
from .table.service import hash_token


class DeckRow(SQLModel, table=True):
    __tablename__ = "decks"
    id: str = Field(primary_key=True)
    name: str
    owner_token_hash: str
    updated_ms: int = Field(sa_type=Millis)
    data: str


class DeckStore:
    def __init__(self, engine: Any, write_lock: threading.Lock) -> None:
        self.engine = engine
        self.write_lock = write_lock  # the Store's: one writer at a time (see Store)
        SQLModel.metadata.create_all(engine)

    def create(self, data: dict[str, Any], now_ms: int) -> tuple[str, str]:
        deck_id, token = "d" + secrets.token_hex(6), secrets.token_urlsafe(16)
        with self.write_lock, Session(self.engine) as s:
            s.add(DeckRow(id=deck_id, name=data["name"], owner_token_hash=hash_token(token),
                          updated_ms=now_ms, data=json.dumps(data, ensure_ascii=False)))
            s.commit()
        return deck_id, token

    def new(self, name: str, mark: str, now_ms: int) -> tuple[str, str]:
        return self.create(new_deck(name, mark, now_ms), now_ms)

    def imported(self, raw: Any, now_ms: int) -> tuple[str, str]:
        return self.create(validate_deck(raw), now_ms)

    def get(self, deck_id: str) -> dict[str, Any]:
        with Session(self.engine) as s:
            row = s.get(DeckRow, deck_id)
        if row is None:
            raise ApiError("deck/unknown", "there is no such deck", 404)
        return json.loads(row.data)

    def all(self) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.exec(select(DeckRow).order_by(col(DeckRow.updated_ms).desc())).all()
        out = []
        for r in rows:
            d = json.loads(r.data)
            out.append({"id": r.id, "name": d["name"], "mark": d.get("mark", ""), "rules": len(d["rules"]),
                        "wins": d["wins"], "updated_ms": r.updated_ms})
        return out

    def _save(self, deck_id: str, data: dict[str, Any], now_ms: int) -> None:
        with self.write_lock, Session(self.engine) as s:
            row = s.get(DeckRow, deck_id)
            assert row is not None
            row.data, row.updated_ms = json.dumps(data, ensure_ascii=False), now_ms
            s.add(row)
            s.commit()

    def add_rule(self, deck_id: str, token: str | None, raw: Any, now_ms: int) -> dict[str, Any]:
        """The owner types in a rule of their physical copy (e.g. its 14 basic rules)."""
        with Session(self.engine) as s:
            row = s.get(DeckRow, deck_id)
        if row is None:
            raise ApiError("deck/unknown", "there is no such deck", 404)
        if not token or hash_token(token) != row.owner_token_hash:
            raise ApiError("auth/bad_token", "only the deck's owner can edit it", 401)
        data = json.loads(row.data)
        data["rules"].append(read_rule(raw, f"r{len(data['rules']) + 1}", now_ms))
        self._save(deck_id, data, now_ms)
        return data

    def record_prize(self, deck_id: str, prize: dict[str, Any], winner: str, now_ms: int) -> None:
        self._save(deck_id, apply_prize(self.get(deck_id), prize, winner, now_ms), now_ms)

    def snapshot_for_table(self, deck_id: Any, now_ms: int) -> dict[str, Any]:
        """The deck as a new table plays it. Its newest creation is featured in this game
        only; afterwards it is shuffled in like any other rule."""
        if not isinstance(deck_id, str):
            raise ApiError("blank/no_deck", "choose a deck for this table (options.deck_id)")
        data = self.get(deck_id)
        if data.get("newest_creation"):
            self._save(deck_id, {**data, "newest_creation": None}, now_ms)
        return data

    def after_commit(self, state: dict[str, Any], events: list[dict[str, Any]], now_ms: int) -> None:
        """Write an approved BLANK prize into the table's deck, forever."""
        for e in events:
            if e["type"] == "PrizeDecided" and e["approved"]:
                gs = state["game_state"]
                winner = state["players"][gs["winner"]]["name"]
                self.record_prize(state["options"]["deck_id"], gs["prize"], winner, now_ms)
