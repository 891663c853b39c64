"""Table Companion: a referee, score sheet and shared hourglass for games at a real table."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import settings

__version__ = "0.1.0"


def instance_folder() -> str:
    """Where the database, the certificate and the admin key live: ``instance/`` in the folder
    the server is started from."""
    return os.path.join(os.getcwd(), "instance")


def default_database_url(instance_path: str | None = None) -> str:
    """``COMPANION_DATABASE_URL`` (SettingInvalid if it is none), else SQLite in ``instance/``."""
    return settings.value("COMPANION_DATABASE_URL") or (
        "sqlite:///" + os.path.join(instance_path or instance_folder(), "companion.db"))


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. Defaults come from the mapping below and the environment; tests pass
    ``test_config`` (a database URL, a clock, a lexicon, or games of their own)."""
    from .clock import SystemClock
    from .decks.rematch import fresh_blank_deck
    from .decks.store import DeckStore
    from .dictionary.hunspell_lexicon import load
    from .games.registry import build_games
    from .league.store import LeagueStore
    from .loops.reactor import Adopted
    from .paths import static_root
    from .realtime.hub import Hub
    from .realtime.rooms import MOVED, Rooms
    from .record.admin import ensure_key, key_file
    from .services import Services
    from .storage.store import Store, make_engine
    from .table.rules import TableRules
    from .table.screen_requests import ScreenRequests
    from .table.service import TableService
    from .venue.store import VenueStore
    from .web import (
        api,
        blanko_api,
        decks_api,
        errors,
        hosts,
        league_api,
        pages,
        payload,
        realtime,
        record_api,
        screen_requests_api,
        security,
        venue_api,
    )
    from .web.assets import install as install_assets
    from .web.ratelimit import ConnectionCap, GuessLimiter, RateLimiter

    app = Flask(__name__, static_folder=str(static_root()), static_url_path="/static",
                instance_path=instance_folder())
    app.config.from_mapping(
        VERSION=__version__,
        # the COMPANION_* settings (settings.py): DATABASE_URL, PUBLIC_URL, ALLOWED_HOSTS,
        # TRUSTED_PROXY_HOPS (proxies that set X-Forwarded-For; 0: the header is ignored, since
        # anyone can send it), the rate limits, and the websockets' ping interval and timeout
        # (a phone that vanished with no close frame is let go that long after an unanswered ping)
        **settings.read(),
        MACHINE_ADDRESSES=None,  # what lists this machine's addresses (tests give their own)
        MAX_CONTENT_LENGTH=64 * 1024,
        # flask-sock does the handshake; the reactor reads (see loops/reactor.py)
        SOCK_SERVER_OPTIONS={"max_message_size": 64 * 1024, "thread_class": Adopted,
                             "subprotocols": [realtime.PROTOCOL]},
        WS_FRAMES_PER_SECOND=20,
        WS_FRAME_BURST=40,
        WRONG_CODES_PER_MINUTE=20,
        CLOCK=None,
        LEXICON=None,
        GAMES=None,
    )
    if test_config:
        app.config.update(test_config)
    url = app.config["DATABASE_URL"] or default_database_url(app.instance_path)

    clock = app.config["CLOCK"] or SystemClock()
    hosts.install(app, clock)  # first of the request hooks, and a bad list stops the start at once
    lexicon = app.config["LEXICON"] or load()
    games = app.config["GAMES"] or build_games(lexicon)
    store = Store(make_engine(url))
    decks = DeckStore(store.engine, store.write_lock)
    hub = Hub()
    tables = TableService(store, TableRules(games), clock, hub, after_commit=[decks.after_commit],
                          prepare=[fresh_blank_deck(decks, clock)])
    leagues = LeagueStore(store, TableRules(games))
    tables.board_note = leagues.board_note  # a round's board tells its phones whom it waits for
    rooms = Rooms(leagues.league_of)  # the league rooms' screens, told of their tables
    tables.changed.append(rooms.table_changed)
    leagues.added.append(rooms.tables_added)
    venues = VenueStore(store)
    counters = Rooms(venues.venue_of, MOVED)  # the venues' staff screens, as the rooms'
    tables.changed.append(counters.table_changed)
    venues.added.append(counters.tables_added)
    # made on first start: `companion forget`'s key, and what the QR codes' join secrets are made of
    server_key = ensure_key(key_file(app)).encode()
    app.extensions["companion"] = Services(
        store=store, decks=decks, hub=hub, tables=tables, rooms=rooms,
        clock=clock, dictionary=lexicon,
        joins=RateLimiter(clock, app.config["JOINS_PER_MINUTE"] / 60, app.config["JOINS_PER_MINUTE"]),
        lookups=GuessLimiter(clock, app.config["WRONG_CODES_PER_MINUTE"]),
        sockets=ConnectionCap(app.config["WS_PER_ADDRESS"]),
        creations=RateLimiter(clock, app.config["CREATIONS_PER_MINUTE"] / 60,
                              app.config["CREATIONS_PER_MINUTE"]),
        deck_writes=RateLimiter(clock, app.config["DECK_WRITES_PER_MINUTE"] / 60,
                                app.config["DECK_WRITES_PER_MINUTE"]),
        public_url=app.config["PUBLIC_URL"],
        server_key=server_key, leagues=leagues, venues=venues, counters=counters,
        screens=ScreenRequests(store, clock, server_key, tables.screen_asked))

    app.json = payload.PhoneJSON(app)
    install_assets(app, Path(app.static_folder or static_root()))
    security.install(app)
    errors.install(app)
    app.before_request(realtime.before_upgrade)
    app.register_blueprint(api.bp)
    app.register_blueprint(blanko_api.bp)
    app.register_blueprint(decks_api.bp)
    app.register_blueprint(league_api.bp)
    app.register_blueprint(league_api.pages)
    app.register_blueprint(pages.bp)
    app.register_blueprint(record_api.bp)
    app.register_blueprint(record_api.pages)
    app.register_blueprint(screen_requests_api.bp)
    app.register_blueprint(venue_api.bp)
    realtime.sock.init_app(app)
    if hops := app.config["TRUSTED_PROXY_HOPS"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)
    return app
