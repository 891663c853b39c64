"""The long-lived objects one app instance runs on, built once in the app factory."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, request

from .clock import Clock
from .games.blanko.words import Lexicon
from .hub import Hub
from .store import Store
from .table.service import TableService
from .web.ratelimit import RateLimiter


@dataclass
class Services:
    store: Store
    tables: TableService
    hub: Hub
    clock: Clock
    dictionary: Lexicon
    joins: RateLimiter
    lookups: RateLimiter
    public_url: str | None

    def public_base_url(self) -> str:
        """The address phones should use: the LAN URL the server printed, or else the one
        this request came in on."""
        return (self.public_url or request.host_url).rstrip("/")


def services() -> Services:
    return current_app.extensions["companion"]
