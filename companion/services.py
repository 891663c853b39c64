"""The long-lived objects one app instance runs on, built once in the app factory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app, request

from .clock import Clock
from .decks import DeckStore
from .errors import ApiError
from .games.blanko.words import Lexicon
from .hub import Hub
from .store import Store
from .table.service import LiveTable, TableService
from .web.ratelimit import RateLimiter


@dataclass
class Services:
    store: Store
    decks: DeckStore
    tables: TableService
    hub: Hub
    clock: Clock
    dictionary: Lexicon
    joins: RateLimiter
    lookups: RateLimiter
    public_url: str | None

    def find_table(self, code: str, address: str) -> LiveTable:
        """The table behind a code, counted against the caller: unknown codes cost a token of
        the address's bucket, known ones nothing, so guessing codes is slow while a phone
        reconnecting to its own table is never limited."""
        if not self.lookups.allow(address, cost=0.0):
            raise ApiError("rate/limited", "too many wrong table codes; wait a minute", 429)
        try:
            return self.tables.live(code)
        except ApiError:
            self.lookups.allow(address, cost=1.0)
            raise

    def table_options(self, game: Any, raw: Any) -> Any:
        """Options as the game's pure rules need them: a BLANK table gets a snapshot of its deck."""
        if game == "blank" and isinstance(raw, dict):
            return {**{k: v for k, v in raw.items() if k != "deck"},
                    "deck": self.decks.snapshot_for_table(raw.get("deck_ids") or raw.get("deck_id"),
                                                          self.clock.now_ms())}
        return raw

    def public_base_url(self) -> str:
        """The address phones should use: the LAN URL the server printed, or else the one
        this request came in on."""
        return (self.public_url or request.host_url).rstrip("/")


def services() -> Services:
    return current_app.extensions["companion"]
