"""``companion serve``: start the server and print the address phones should open."""

from __future__ import annotations

import argparse
import os
import ssl
import sys

from . import cert_command, db_command, qr
from .netinfo import lan_address


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server for the table")
    serve.add_argument("--host", default="0.0.0.0")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="SQLite file for the event log (default: instance/companion.db)")
    serve.add_argument("--https", action="store_true",
                       help="serve over HTTPS: with the local CA's certificate if `companion cert` "
                            "made one (phones trust it: wake lock and offline shell), else a "
                            "self-signed one (wake lock only)")
    forget = sub.add_parser("forget", help="delete a player's history on the running server "
                                           "(their name and identity at every table)")
    forget.add_argument("name", nargs="?", help="the name they played under (any case)")
    forget.add_argument("--identity", help="the identity key their browser shows on the stats page")
    forget.add_argument("--url", default="http://127.0.0.1:8000", help="the running server")
    forget.add_argument("--key", default=os.path.join("instance", "admin-key"),
                        help="the server's key file (in its instance folder)")
    db_command.add_parser(sub)
    cert_command.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "db":
        return db_command.run(args)
    if args.command == "cert":
        return cert_command.run(args)
    if args.command == "forget":
        from .record.admin import forget_command

        return forget_command(args.url, args.key, args.name, args.identity)
    if argv is None:  # the program itself, not a call from Python: it may start itself again
        from .allocator import restart_tuned

        restart_tuned()
    return serve_command(args)


def serve_command(args: argparse.Namespace) -> int:
    from . import create_app
    from .dictionary.hunspell_lexicon import DictionaryMissing
    from .server import MAX_CONNECTIONS, Server, bind, open_files_limit

    listener = bind(args.host, args.port)
    port = listener.getsockname()[1]  # the real one, when asked for port 0
    scheme = "https" if args.https else "http"
    host_for_url = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    public = os.environ.get("COMPANION_PUBLIC_URL") or f"{scheme}://{host_for_url}:{port}"
    config: dict[str, object] = {"PUBLIC_URL": public}
    if args.db:
        config["DATABASE_URL"] = "sqlite:///" + os.path.abspath(args.db)
    try:
        app = create_app(config)
    except DictionaryMissing as e:
        print(f"companion: {e}", file=sys.stderr)
        return 1
    ssl_context = None
    if args.https:
        from .tls import server_certificate

        ssl_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ssl_context.load_cert_chain(*server_certificate(app.instance_path, host_for_url))
    server = Server(args.host, port, app, ssl_context=ssl_context, fd=listener.fileno(),
                    request_timeout_s=float(os.environ.get("COMPANION_REQUEST_TIMEOUT_S", "10")),
                    max_connections=min(MAX_CONNECTIONS, open_files_limit() * 3 // 4))
    listener.close()  # the server holds its own duplicate of it
    print(f"\nTable Companion is running.\nOn the table's screen open:  {public}/")
    print("Phones join by scanning the QR code of a table; this one opens the app:\n")
    print(qr.ascii_art(public + "/"))
    sys.stdout.flush()
    server.serve_forever()
    return 0
