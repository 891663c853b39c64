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

from ..errors import ApiError
from ..games.blank.deck import (
    add_rule,
    apply_prize,
    describe_card,
    keyed_examples,
    mix,
    new_deck,
    refreshed,
    validate_deck,
)
from ..storage.store import Millis
from ..table.service import hash_token

MAX_MIXED = 4  # owners' decks at one table: 288 Game Cards are already a lot to shuffle


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
        return keyed_examples(json.loads(row.data))

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

    def _owned(self, deck_id: str, token: str | None) -> dict[str, Any]:
        with Session(self.engine) as s:
            row = s.get(DeckRow, deck_id)
        if row is None:
            raise ApiError("deck/unknown", "there is no such deck", 404)
        if not token or hash_token(token) != row.owner_token_hash:
            raise ApiError("auth/bad_token", "only the deck's owner can edit it", 401)
        return json.loads(row.data)

    def add_rule(self, deck_id: str, token: str | None, raw: Any, now_ms: int) -> dict[str, Any]:
        """The owner types in a rule of their physical copy (e.g. its 14 basic rules)."""
        data = add_rule(self._owned(deck_id, token), raw, now_ms)
        self._save(deck_id, data, now_ms)
        return data

    def describe_card(self, deck_id: str, token: str | None, card_id: str, raw: Any,
                      now_ms: int) -> dict[str, Any]:
        """The owner enters one of their Game Cards as it is: illustrated or not, and the
        effect printed on it."""
        data = describe_card(self._owned(deck_id, token), card_id, raw)
        self._save(deck_id, data, now_ms)
        return data

    def record_prize(self, deck_id: str, prize: dict[str, Any], winner: str, now_ms: int) -> None:
        self._save(deck_id, apply_prize(self.get(deck_id), prize, winner, now_ms), now_ms)

    def snapshot_for_table(self, deck_ids: Any, now_ms: int) -> dict[str, Any]:
        """The deck as a new table plays it: one deck id, or a list of several owners' decks
        mixed into one (:func:`mix`). A deck's newest creation is featured in this game only;
        afterwards it is shuffled in like any other rule."""
        decks = self._decks(deck_ids)
        for deck_id, data in decks:
            if data.get("newest_creation"):
                self._save(deck_id, {**data, "newest_creation": None}, now_ms)
        return mix(decks)

    def current_for_table(self, table_deck: dict[str, Any], deck_ids: Any) -> dict[str, Any]:
        """A table's deck as the owners' copies are now, for a game that has not started: the
        effects and rules entered after the table was made are played (:func:`refreshed`)."""
        return refreshed(table_deck, mix(self._decks(deck_ids)))

    def _decks(self, deck_ids: Any) -> list[tuple[str, dict[str, Any]]]:
        ids = [deck_ids] if isinstance(deck_ids, str) else deck_ids
        if not (isinstance(ids, list) and 0 < len(ids) <= MAX_MIXED
                and all(isinstance(d, str) for d in ids) and len(set(ids)) == len(ids)):
            raise ApiError("blank/no_deck", "choose a deck for this table (options.deck_id), or up to "
                           f"{MAX_MIXED} different decks to mix (options.deck_ids)")
        return [(deck_id, self.get(deck_id)) for deck_id in ids]

    def after_commit(self, state: dict[str, Any], events: list[dict[str, Any]], now_ms: int) -> None:
        """Write an approved BLANK prize into the table's deck (at a table of mixed decks, the
        deck the customised card or the chosen copy belongs to), forever."""
        for e in events:
            if e["type"] == "PrizeDecided" and e["approved"]:
                gs = state["game_state"]
                winner = state["players"][gs["winner"]]["name"]
                options = state["options"]
                deck_ids = options.get("deck_ids") or [options["deck_id"]]
                self.record_prize(deck_ids[gs["prize"].get("deck", 0)], gs["prize"], winner, now_ms)
