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

from .. import __version__, settings
from ..lan import qr
from ..lan.netinfo import lan_address
from ..settings import SETTINGS, SettingInvalid
from . import cert as cert_command
from . import db as db_command

if TYPE_CHECKING:
    from flask import Flask

    from ..serving.server import Server

log = logging.getLogger(__name__)

# Every setting read from the environment, for --help (tests/test_cli.py finds them in the code).
ENVIRONMENT = {name: setting.described() for name, setting in SETTINGS.items()} | {
    "COMPANION_LOG_LEVEL": "default of --log-level",
    "COMPANION_LOG_FORMAT": "default of --log-format",
}
EPILOG = "environment:\n" + "\n".join(f"  {name:<{max(map(len, ENVIRONMENT)) + 2}}{text}"
                                       for name, text in ENVIRONMENT.items())


def port_number(raw: str) -> int:
    """``--port``, checked when the command runs: one sentence, not argparse's usage."""
    try:
        port = int(raw)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise SettingInvalid(f"{raw} is not a port number (0 to 65535)")
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
    serve.add_argument("--host", default="0.0.0.0",
                       help="the address to listen on (default: 0.0.0.0, every IPv4 address; :: "
                            "for IPv6 too, 127.0.0.1 for this machine only)")
    serve.add_argument("--port", default="8000", help="the port to listen on (default: 8000; 0 "
                                                      "for any free one)")
    serve.add_argument("--db", help="SQLite file for the event log (default: instance/companion.db)")
    serve.add_argument("--create", action="store_true", help=db_command.CREATE_HELP)
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
    try:
        return run(args, argv)
    except SettingInvalid as e:
        return refuse(str(e))


def run(args: argparse.Namespace, argv: list[str] | None) -> int:
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
    from ..storage.backup import BackupRefused, backup

    source, _ = db_command.database_of(args)
    try:
        backup(source, args.to)
    except BackupRefused as e:
        print(f"companion: {e}", file=sys.stderr)
        return 1
    print(f"companion: backed up to {args.to}")
    return 0


def serve_command(args: argparse.Namespace) -> int:
    """Everything it can check is checked before anything is bound or made (settings, the
    port, the database's path); a start that fails later takes back what it made."""
    from ..serving.logs import configure
    from ..storage.single_writer import SecondWriter, hold
    from ..storage.store import DatabaseUnusable, check_database

    configure(args.log_level, args.log_format)
    port = port_number(args.port)
    config = settings.read()
    database_url, new_folder = db_command.database_of(args)
    try:
        check_database(database_url, new_folder)
        writer_lock = hold(database_url)
    except (DatabaseUnusable, SecondWriter, OSError) as e:
        return refuse(str(e))
    try:
        app, server, public = start(args, port, config["PUBLIC_URL"], database_url)
    except BaseException as e:
        if writer_lock is not None:
            writer_lock.undo()
        if isinstance(e, StartRefused):
            return refuse(str(e))
        raise
    stop_on_signals(server)  # before the address is printed: whoever reads it may stop us at once
    log.info("serving %s on %s port %d (version %s)", settings.without_password(database_url),
             args.host, server.server_address[1], __version__)
    print(f"\nTable Companion is running.\nOn the table's screen open:  {public}/")
    print(f"A venue's staff screen:      {public}/venue")  # a café's tables and their printed tents
    if sys.stdout.isatty():  # a terminal shows it; a journal would only keep 33 lines of blocks
        print("Phones join by scanning the QR code of a table; this one opens the app:\n")
        print(qr.ascii_art(public + "/"))
    sys.stdout.flush()
    server.serve_forever()
    goodbye(app)
    return 0


class StartRefused(RuntimeError):
    """A start that cannot go on, in the sentence that says why."""


def start(args: argparse.Namespace, port: int, public_url: str | None,
          database_url: str) -> tuple[Flask, Server, str]:
    """Bind, build the app and the server: the app, the server and the URL phones open."""
    from .. import create_app
    from ..dictionary.hunspell_lexicon import DictionaryMissing
    from ..serving.server import MAX_CONNECTIONS, Server, bind, open_files_limit
    from ..storage.store import DatabaseUnusable

    try:
        listener = bind(args.host, port)
    except OSError as e:
        raise StartRefused(f"cannot listen on {args.host} port {port}: {e.strerror or e}") from None
    port = listener.getsockname()[1]  # the real one, when asked for port 0
    scheme = "https" if args.https else "http"
    host_for_url = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    public = public_url or f"{scheme}://{host_for_url}:{port}"
    try:
        app = create_app({"PUBLIC_URL": public, "DATABASE_URL": database_url})
    except (DictionaryMissing, DatabaseUnusable, SettingInvalid) as e:
        listener.close()
        raise StartRefused(str(e)) from None
    try:
        ssl_context = None
        if args.https:
            from ..lan.tls import server_certificate

            ssl_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ssl_context.load_cert_chain(*server_certificate(app.instance_path, host_for_url))
        server = Server(args.host, port, app, ssl_context=ssl_context, fd=listener.fileno(),
                        request_timeout_s=app.config["REQUEST_TIMEOUT_S"],
                        max_connections=min(MAX_CONNECTIONS, open_files_limit() * 3 // 4))
    except BaseException:
        app.extensions["companion"].store.engine.dispose()  # before its files are taken back
        raise
    finally:
        listener.close()  # the server holds its own duplicate of it
    return app, server, public


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
