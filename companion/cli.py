"""``companion serve``: start the server and print the address phones should open."""

from __future__ import annotations

import argparse
import os
import sys

from . import qr
from .netinfo import lan_address


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server for the table")
    serve.add_argument("--host", default="0.0.0.0")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="SQLite file for the event log (default: instance/companion.db)")
    serve.add_argument("--https", action="store_true",
                       help="serve over HTTPS with a self-signed certificate (made on first run), "
                            "which service workers and the screen wake lock need")
    forget = sub.add_parser("forget", help="delete a player's history on the running server "
                                           "(their name and identity at every table)")
    forget.add_argument("name", nargs="?", help="the name they played under (any case)")
    forget.add_argument("--identity", help="the identity key their browser shows on the stats page")
    forget.add_argument("--url", default="http://127.0.0.1:8000", help="the running server")
    forget.add_argument("--key", default=os.path.join("instance", "admin-key"),
                        help="the server's key file (in its instance folder)")
    args = parser.parse_args(argv)
    if args.command == "forget":
        from .record.admin import forget_command

        return forget_command(args.url, args.key, args.name, args.identity)
    return serve_command(args)


def serve_command(args: argparse.Namespace) -> int:
    from werkzeug.serving import run_simple

    from . import create_app
    from .dictionary.hunspell_lexicon import DictionaryMissing

    scheme = "https" if args.https else "http"
    host_for_url = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    public = os.environ.get("COMPANION_PUBLIC_URL") or f"{scheme}://{host_for_url}:{args.port}"
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
        from .tls import self_signed

        ssl_context = self_signed(app.instance_path, host_for_url)
    print(f"\nTable Companion is running.\nOn the table's screen open:  {public}/")
    print("Phones join by scanning the QR code of a table; this one opens the app:\n")
    print(qr.ascii_art(public + "/"))
    sys.stdout.flush()
    run_simple(args.host, args.port, app, threaded=True, ssl_context=ssl_context,
               request_handler=_handler())
    return 0


def _handler():  # type: ignore[no-untyped-def]
    """Werkzeug's request handler, logging paths without their query strings: a websocket's
    URL carries the phone's token, and tokens stay out of logs."""
    from werkzeug.serving import WSGIRequestHandler

    class QuietQueryHandler(WSGIRequestHandler):
        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            method, _, rest = self.requestline.partition(" ")
            path, _, proto = rest.partition(" ")
            self.log("info", '"%s %s %s" %s %s', method, path.split("?", 1)[0], proto, code, size)

    return QuietQueryHandler
