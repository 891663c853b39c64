"""The ``companion`` command: ``serve`` starts the server and prints the address phones should
open; the others look after a server's data."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import ssl
import sys
import threading
from typing import TYPE_CHECKING

from .. import __version__
from ..lan import qr
from ..lan.netinfo import lan_address
from . import cert as cert_command
from . import db as db_command

if TYPE_CHECKING:
    from flask import Flask

    from ..serving.server import Server

log = logging.getLogger(__name__)

# Every setting read from the environment, for --help (tests/test_cli.py finds them in the code).
ENVIRONMENT = {
    "COMPANION_DATABASE_URL": "SQLAlchemy URL of the event log (default: SQLite in instance/)",
    "COMPANION_PUBLIC_URL": "the URL phones open, in join links and QR codes (behind a proxy)",
    "COMPANION_ALLOWED_ORIGINS": "comma-separated extra origins allowed to open websockets",
    "COMPANION_ALLOWED_HOSTS": "comma-separated names it answers to besides its own (security.md)",
    "COMPANION_TRUSTED_PROXY_HOPS": "proxies in front that set X-Forwarded-For (default 0)",
    "COMPANION_REQUEST_TIMEOUT_S": "seconds a connection may stall before it is a websocket (10)",
    "COMPANION_WS_PING_INTERVAL_S": "seconds between websocket pings (25)",
    "COMPANION_WS_PING_TIMEOUT_S": "seconds a phone has to answer a ping (20)",
    "COMPANION_WS_PER_ADDRESS": "websockets one client address may hold at once (64)",
    "COMPANION_JOINS_PER_MINUTE": "joins an address may make a minute without the QR code (30)",
    "COMPANION_CREATIONS_PER_MINUTE": "tables an address may create a minute (60)",
    "COMPANION_DECK_WRITES_PER_MINUTE": "rules and cards a deck's owner may write a minute (30)",
    "COMPANION_SCHEMA_LOCK_WAIT_S": "seconds a start waits for another's migration (60)",
    "COMPANION_LOG_LEVEL": "default of --log-level",
    "COMPANION_LOG_FORMAT": "default of --log-format",
}
EPILOG = "environment:\n" + "\n".join(f"  {name:<32}{text}" for name, text in ENVIRONMENT.items())


def port_number(raw: str) -> int:
    try:
        port = int(raw)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{raw} is not a port number (0 to 65535)")
    return port


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", epilog=EPILOG,
                                     description="Table Companion: the referee, score sheet and "
                                                 "sand-timer of a game table, served to phones.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server for the table", epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    serve.add_argument("--host", default="0.0.0.0")
    serve.add_argument("--port", type=port_number, default=8000)
    serve.add_argument("--db", help="SQLite file for the event log (default: instance/companion.db)")
    serve.add_argument("--https", action="store_true",
                       help="serve over HTTPS: with the local CA's certificate if `companion cert` "
                            "made one (phones trust it: wake lock and offline shell), else a "
                            "self-signed one (wake lock only)")
    add_log_options(serve)
    forget = sub.add_parser("forget", help="delete a player's history on the running server "
                                           "(their name and identity at every table)")
    forget.add_argument("name", nargs="?", help="the name they played under (any case)")
    forget.add_argument("--identity", help="the identity key their browser shows on the stats page")
    forget.add_argument("--url", default="http://127.0.0.1:8000", help="the running server")
    forget.add_argument("--key", default=os.path.join("instance", "admin-key"),
                        help="the server's key file (in its instance folder)")
    add_db_commands(sub)
    cert_command.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "cert":
        return cert_command.run(args)
    if args.command == "forget":
        from ..record.admin import forget_command

        return forget_command(args.url, args.key, args.name, args.identity)
    if args.command == "db":
        return args.run(args)
    if argv is None:  # the program itself, not a call from Python: it may start itself again
        from ..serving.allocator import restart_tuned

        restart_tuned()
    return serve_command(args)


def one_of(choices: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """An option's type that also checks its default from the environment (argparse converts
    a string default through ``type``, but checks only given values against ``choices``)."""
    def choice(raw: str) -> str:
        if raw.lower() not in choices:
            raise argparse.ArgumentTypeError(f"{raw!r} is not one of {', '.join(choices)}")
        return raw.lower()
    return choice


def add_log_options(parser: argparse.ArgumentParser) -> None:
    from ..serving.logs import FORMATS, LEVELS

    parser.add_argument("--log-level", type=one_of(LEVELS), metavar="{" + ",".join(LEVELS) + "}",
                        default=os.environ.get("COMPANION_LOG_LEVEL", "info"))
    parser.add_argument("--log-format", type=one_of(FORMATS), metavar="{" + ",".join(FORMATS) + "}",
                        default=os.environ.get("COMPANION_LOG_FORMAT", "text"),
                        help="text lines, or JSON lines for a log collector (on stderr)")


def add_db_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    db = sub.add_parser("db", help="look after the database")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    add_db_backup(db_sub)
    db_command.add_upgrade(db_sub)


def add_db_backup(db_sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``companion db backup``: a consistent copy of the SQLite file while the server runs."""
    backup = db_sub.add_parser("backup", help="copy the SQLite database to a file, safely while "
                                              "the server runs")
    backup.add_argument("to", help="the file to write (it must not exist)")
    backup.add_argument("--db", help="the SQLite file (default: as companion serve would use)")
    backup.set_defaults(run=backup_command)


def backup_command(args: argparse.Namespace) -> int:
    from .. import default_database_url
    from ..storage.backup import BackupRefused, backup

    source = os.path.abspath(args.db) if args.db else default_database_url()
    try:
        backup(source, args.to)
    except BackupRefused as e:
        print(f"companion: {e}", file=sys.stderr)
        return 1
    print(f"companion: backed up to {args.to}")
    return 0


def serve_command(args: argparse.Namespace) -> int:
    from sqlalchemy.engine import make_url

    from .. import create_app, default_database_url
    from ..dictionary.hunspell_lexicon import DictionaryMissing
    from ..serving.logs import configure
    from ..serving.server import MAX_CONNECTIONS, Server, bind, open_files_limit
    from ..storage.single_writer import SecondWriter, hold
    from ..storage.store import DatabaseUnusable, check_database
    from ..web.hosts import HostListInvalid

    configure(args.log_level, args.log_format)
    database_url = "sqlite:///" + os.path.abspath(args.db) if args.db else default_database_url()
    try:
        check_database(database_url)
    except DatabaseUnusable as e:
        return refuse(str(e))
    try:
        writer_lock = hold(database_url)  # noqa: F841 - held for as long as the process serves
    except (SecondWriter, OSError) as e:
        return refuse(str(e))
    try:
        listener = bind(args.host, args.port)
    except OSError as e:
        return refuse(f"cannot listen on {args.host} port {args.port}: {e.strerror or e}")
    port = listener.getsockname()[1]  # the real one, when asked for port 0
    scheme = "https" if args.https else "http"
    host_for_url = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    public = os.environ.get("COMPANION_PUBLIC_URL") or f"{scheme}://{host_for_url}:{port}"
    try:
        app = create_app({"PUBLIC_URL": public, "DATABASE_URL": database_url})
    except (DictionaryMissing, HostListInvalid, DatabaseUnusable) as e:  # the last: its schema locked
        return refuse(str(e))
    ssl_context = None
    if args.https:
        from ..lan.tls import server_certificate

        ssl_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ssl_context.load_cert_chain(*server_certificate(app.instance_path, host_for_url))
    server = Server(args.host, port, app, ssl_context=ssl_context, fd=listener.fileno(),
                    request_timeout_s=float(os.environ.get("COMPANION_REQUEST_TIMEOUT_S", "10")),
                    max_connections=min(MAX_CONNECTIONS, open_files_limit() * 3 // 4))
    listener.close()  # the server holds its own duplicate of it
    stop_on_signals(server)  # before the address is printed: whoever reads it may stop us at once
    log.info("serving %s on %s port %d (version %s)",
             make_url(database_url).render_as_string(hide_password=True), args.host, port, __version__)
    print(f"\nTable Companion is running.\nOn the table's screen open:  {public}/")
    if sys.stdout.isatty():  # a terminal shows it; a journal would only keep 33 lines of blocks
        print("Phones join by scanning the QR code of a table; this one opens the app:\n")
        print(qr.ascii_art(public + "/"))
    sys.stdout.flush()
    server.serve_forever()
    goodbye(app)
    return 0


def refuse(sentence: str) -> int:
    print(f"companion: {sentence}", file=sys.stderr)
    return 1


def stop_on_signals(server: Server) -> None:
    """Ctrl-C and SIGTERM (systemd, docker, a deploy) end ``serve_forever``; the server then
    says goodbye to its phones. ``shutdown`` waits for the loop, so it runs on another thread."""
    def stop(signum: int, _frame: object) -> None:
        log.info("stopping (%s)", signal.Signals(signum).name)
        threading.Thread(target=server.shutdown, name="shutdown", daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def goodbye(app: Flask) -> None:
    """Tell every phone the server is going away, then let go of the database."""
    from ..loops.reactor import going_away

    going_away()
    services = app.extensions["companion"]
    services.tables.close()
    services.store.engine.dispose()
