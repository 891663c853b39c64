"""The long-lived objects one app instance runs on, built once in the app factory."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from flask import current_app, request

from .clock import Clock
from .decks.store import DeckStore
from .errors import ApiError
from .games.blanko.words import Lexicon
from .league.store import LeagueStore
from .realtime.hub import Hub
from .realtime.rooms import Rooms
from .storage.store import Store
from .table.screen_requests import ScreenRequests
from .table.service import LiveTable, TableService, hash_token, normalise_code
from .table.views import Viewer
from .venue.store import VenueStore
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
    deck_writes: RateLimiter
    public_url: str | None
    server_key: bytes  # the instance folder's key (record/admin.py): join secrets are made from it
    leagues: LeagueStore
    rooms: Rooms
    venues: VenueStore
    counters: Rooms  # the venues' staff screens, told of their tables as a league's rooms are
    screens: ScreenRequests  # devices asking the host to be a table's screen

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

    # A phone that scanned the table's QR code is not guessing: the code's link carries the
    # table's join secret, and a lookup with it spends nothing (web/api.py). A guesser rotating
    # made-up device ids spends its address's allowance, which is everyone's behind that address
    # (a café's one public address); those who scanned the code get in all the same.

    def join_secret(self, code: str) -> str:
        """The secret of a table's QR code: an HMAC of its code under the server's key, so
        nothing is stored and every process with the same instance key knows it."""
        mac = hmac.new(self.server_key, b"join-secret:" + code.encode(), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def holds_join_secret(self, code: str, given: Any) -> bool:
        """Whether ``given`` is the table's join secret; anything else (a wrong one, another
        table's, not text) is no secret at all."""
        return same_secret(given, self.join_secret(normalise_code(code)))

    def holds_tent(self, code: str, given: Any) -> bool:
        """Whether ``given`` is the secret of the tent at the physical table where the table
        ``code`` is played (a venue's, venue/store.py)."""
        tent = self.venues.tent_of(normalise_code(code)) if isinstance(given, str) else None
        return same_secret(given, tent)

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

    def allow_deck_write(self, token: str | None) -> None:
        """An owner's rules and cards: typing in a copy by hand, not a script rewriting the
        deck thousands of times a minute. Counted per owner token (hashed: the limiter holds no
        secret), so another owner at the same address writes on, and a caller without the
        token spends a bucket of its own, never the owner's."""
        if token and not self.deck_writes.allow(key := f"deck:{hash_token(token)}"):
            raise self.deck_writes.refusal("too many changes to this deck; wait a minute", key)

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


def same_secret(given: Any, secret: str | None) -> bool:
    """Whether ``given`` is ``secret``, in constant time; what is not text, or empty, or
    compared with no secret at all, is not."""
    if not isinstance(given, str) or not given or secret is None:
        return False
    return hmac.compare_digest(given.encode(), secret.encode())


def services() -> Services:
    return current_app.extensions["companion"]
