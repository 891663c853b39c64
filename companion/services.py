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
from .league_store import LeagueStore
from .store import Store
from .table.service import LiveTable, TableService
from .table.views import Viewer
from .web.ratelimit import ConnectionCap, GuessLimiter, RateLimiter

GUESSES = ("table/unknown", "auth/bad_token")  # what a wrong guess at a code or a token gets


@dataclass
class Services:
    store: Store
    decks: DeckStore
    tables: TableService
    hub: Hub
    clock: Clock
    dictionary: Lexicon
    joins: RateLimiter
    lookups: GuessLimiter
    sockets: ConnectionCap
    creations: RateLimiter
    public_url: str | None
    leagues: LeagueStore

    # The one rate-limit policy of table codes and tokens. Wrong guesses (unknown codes, wrong
    # tokens) cost a token of the caller's bucket (its device's, else its address's: see
    # web/ratelimit.py GuessLimiter, and ``address`` below is that key); once it is empty, every
    # lookup from there without a valid token is refused, whether the code exists or not, so the
    # answers say nothing about which codes do. A valid token is never limited: a phone
    # reconnecting to its own table is not locked out by someone guessing from the same
    # address (the same NAT, or every phone behind a proxy whose hops are not configured).

    def find_table(self, code: str, address: str) -> LiveTable:
        """The table behind a code, for a caller without a token (to join it, show its QR)."""
        self.may_guess(address)
        try:
            return self.tables.live(code)
        except ApiError:
            self.lookups.guessed_wrong(address)
            raise

    def admit(self, code: str, address: str, token: str | None) -> tuple[LiveTable, Viewer]:
        """The table and who the token speaks for; a wrong guess is counted as above."""
        try:
            viewer = self.tables.authenticate(code, token)
        except ApiError as e:
            if e.code not in GUESSES:
                raise
            self.guessed_wrong(address)
            raise
        return self.tables.live(code), viewer

    def may_guess(self, address: str) -> None:
        """Refused while the address has no wrong guess left."""
        if not self.lookups.may_guess(address):
            raise self.lookups.refusal("too many wrong table codes; wait a minute", address)

    def guessed_wrong(self, address: str) -> None:
        """Count a wrong code or token; refused once the address has none left."""
        if not self.lookups.guessed_wrong(address):
            raise self.lookups.refusal("too many wrong table codes; wait a minute", address) from None

    def allow_creation(self, kind: str, address: str) -> None:
        """Tables and decks made from one address: a club's evening, not a flood."""
        if not self.creations.allow(key := f"{kind}:{address}"):
            raise self.creations.refusal(f"too many new {kind}s from this device; wait a minute", key)

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
