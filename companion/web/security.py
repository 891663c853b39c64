"""Response headers, the websocket Origin check, and the client address used for limits."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Request, Response, request

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:; media-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; manifest-src 'self'; "
       "worker-src 'self'")
DEFAULT_PORTS = {"http": 80, "https": 443}


def add_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    if request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def client_address(req: Request) -> str:
    return req.remote_addr or "unknown"


def origin_allowed(req: Request, extra: list[str]) -> bool:
    """A websocket may only be opened by a page this server served (same host and port), or
    by an origin the configuration names. A missing Origin is a non-browser client, which
    cannot be tricked into using a visitor's token, so it is let through.

    The host and port are those the browser asked for: its ``Host`` header. When that names no
    port, it is the port the connection came in on; through a trusted proxy (ProxyFix marks
    the request) that is the default one of the browser's scheme (``X-Forwarded-Proto``), not
    the port this process listens on, which behind a proxy on 443 is the upstream's."""
    origin = req.headers.get("Origin")
    if origin is None:
        return True
    if origin in extra:
        return True
    try:  # a port that is not a number (``:8000.evil.example``) or out of range is no origin
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https"):
            return False
        host = urlsplit("//" + req.host)
        default = DEFAULT_PORTS[req.scheme]
        proxied = "werkzeug.proxy_fix.orig" in req.environ
        served_port = host.port or (default if proxied else int(req.environ.get("SERVER_PORT") or default))
        return (parts.hostname or "") == (host.hostname or "") and (
            (parts.port or DEFAULT_PORTS[parts.scheme]) == served_port)
    except (ValueError, KeyError):  # KeyError: a forwarded scheme that is neither http nor https
        return False


def install(app: Flask) -> None:
    app.after_request(add_headers)
