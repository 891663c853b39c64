"""The ``COMPANION_*`` settings, read from the environment here and nowhere else, each checked
against what it may be. A typo is one sentence at start, before anything is bound or made: a
request timeout of 0 started a server that said it ran and answered every request with nothing,
a public URL of ``games`` put ``games/t/CODE`` into every QR code, and a word where a number
belonged was a traceback.

``SETTINGS`` is the one table: each setting's help line (``companion --help``), how it is read
(which says what it may be), and its value when unset or empty."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

PREFIX = "COMPANION_"


class SettingInvalid(ValueError):
    """A setting (or an option) it cannot run with; the message is the sentence that says which
    and why."""


@dataclass(frozen=True)
class Number:
    """A number from ``low`` to ``high``; reads a setting (a whole one when ``kind`` is int)."""

    kind: type[int] | type[float]
    low: float
    high: float

    def __call__(self, raw: str) -> float:
        try:
            value = self.kind(raw)
        except ValueError:
            value = None
        if value is None or not self.low <= value <= self.high:  # NaN is in no range
            whole = "a whole number" if self.kind is int else "a number"
            raise ValueError(f"{whole} from {figure(self.low)} to {figure(self.high)}")
        return value


def figure(x: float) -> str:
    """A bound or default as --help and a refusal write it: 3600, 0.1, 1000000."""
    return f"{x:g}" if isinstance(x, float) else str(x)


def _entries(raw: str) -> list[str]:
    return [entry.strip() for entry in raw.split(",")]


def _root_url(raw: str, allowed_paths: tuple[str, ...]) -> bool:
    """Whether ``raw`` is an http(s) URL with a host, a valid port, no query or fragment, and a
    path among ``allowed_paths``."""
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and \
        parts.path in allowed_paths and not parts.query and not parts.fragment


def public_url(raw: str) -> str:
    # The pages and their files are served from /, so a path would lead phones nowhere.
    if not _root_url(raw, ("", "/")):
        raise ValueError("the URL phones open, such as https://games.example.org (http or https, "
                         "a host, no path)")
    return raw


def origins(raw: str) -> list[str]:
    # Compared as written with a browser's Origin, which never has a path, not even "/".
    entries = _entries(raw)
    if not all(_root_url(entry, ("",)) for entry in entries):
        raise ValueError("a list of origins such as https://games.example.org (scheme and host, "
                         "no path), separated by commas")
    return entries


def host_list(raw: str) -> list[str]:
    from .web.hosts import listed_names

    entries = _entries(raw)
    listed_names(entries)  # HostListInvalid, a SettingInvalid naming the entry, if one is no host
    return entries


def database_url(raw: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        make_url(raw).get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError):
        raise ValueError("a database URL it can use, such as sqlite:////srv/companion.db or "
                         "postgresql+psycopg://user@host/companion") from None
    return raw


def without_password(raw: str) -> str:
    """A database URL as it may be shown: its password hidden, or if it is no URL, what
    follows its last ``@`` (what a password could be in comes before it)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(raw).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return raw.rpartition("@")[2]


@dataclass(frozen=True)
class Setting:
    help: str
    read: Callable[[str], Any]  # raises ValueError saying what the setting may be
    default: Any
    shown: Callable[[str], str] = str  # the value as a refusal may show it

    def described(self) -> str:
        if isinstance(self.read, Number):
            return f"{self.help} ({figure(self.read.low)} to {figure(self.read.high)}, " \
                   f"default {figure(self.default)})"
        return self.help


SECONDS = Number(float, 0.1, 3600.0)
PER_MINUTE = Number(int, 1, 1_000_000)
SETTINGS: dict[str, Setting] = {
    "COMPANION_DATABASE_URL": Setting("SQLAlchemy URL of the event log (default: SQLite in "
                                      "instance/)", database_url, None, without_password),
    "COMPANION_PUBLIC_URL": Setting("the URL phones open, in join links and QR codes (behind a "
                                    "proxy)", public_url, None),
    "COMPANION_ALLOWED_ORIGINS": Setting("comma-separated extra origins allowed to open websockets",
                                         origins, []),
    "COMPANION_ALLOWED_HOSTS": Setting("comma-separated names it answers to besides its own "
                                       "(security.md)", host_list, []),
    "COMPANION_TRUSTED_PROXY_HOPS": Setting("proxies in front that set X-Forwarded-For",
                                            Number(int, 0, 10), 0),
    "COMPANION_REQUEST_TIMEOUT_S": Setting("seconds a connection may stall before it is a websocket",
                                           SECONDS, 10.0),
    "COMPANION_WS_PING_INTERVAL_S": Setting("seconds between websocket pings", SECONDS, 25.0),
    "COMPANION_WS_PING_TIMEOUT_S": Setting("seconds a phone has to answer a ping", SECONDS, 20.0),
    "COMPANION_WS_PER_ADDRESS": Setting("websockets one client address may hold at once",
                                        Number(int, 1, 20_000), 64),
    "COMPANION_JOINS_PER_MINUTE": Setting("joins an address may make a minute without the QR code",
                                          PER_MINUTE, 30),
    "COMPANION_CREATIONS_PER_MINUTE": Setting("tables an address may create a minute", PER_MINUTE, 60),
    "COMPANION_DECK_WRITES_PER_MINUTE": Setting("rules and cards a deck's owner may write a minute",
                                                PER_MINUTE, 30),
    # long enough for another process's migration of a club's years of events, short of forever
    "COMPANION_SCHEMA_LOCK_WAIT_S": Setting("seconds a start waits for another's migration (PostgreSQL)",
                                            Number(float, 0.1, 86_400.0), 60.0),
}


def value(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """One setting, read and checked (its default when unset or empty), or SettingInvalid."""
    setting = SETTINGS[name]
    raw = (os.environ if environ is None else environ).get(name, "").strip()
    if not raw:
        return setting.default
    try:
        return setting.read(raw)
    except SettingInvalid:
        raise
    except ValueError as e:
        raise SettingInvalid(f"{name}={setting.shown(raw)!r} is not {e}") from None


def read(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Every setting, by its name in the app's config (without ``COMPANION_``), or
    SettingInvalid for the first it cannot run with."""
    return {name.removeprefix(PREFIX): value(name, environ) for name in SETTINGS}
