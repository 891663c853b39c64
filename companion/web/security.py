"""Response headers, the websocket Origin check, and the client address used for limits."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Request, Response, request

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:; media-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; manifest-src 'self'; "
       "worker-src 'self'")


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
    cannot be tricked into using a visitor's token, so it is let through."""
    origin = req.headers.get("Origin")
    if origin is None:
        return True
    if origin in extra:
        return True
    try:  # a port that is not a number (``:8000.evil.example``) or out of range is no origin
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https"):
            return False
        default = 443 if parts.scheme == "https" else 80
        host = urlsplit("//" + req.host)
        served_port = host.port or int(req.environ.get("SERVER_PORT") or default)
        return (parts.hostname or "") == (host.hostname or "") and (parts.port or default) == served_port
    except ValueError:
        return False


def install(app: Flask) -> None:
    app.after_request(add_headers)
