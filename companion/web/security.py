"""Response headers, the websocket Origin check, and the client address used for limits."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Request, Response, current_app, request

from ..errors import ApiError
from ..services import services

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


DEVICE_HEADER = "X-Companion-Device"  # a random id the pages keep per browser (static/js/api.js)


def guesser(req: Request) -> str:
    """Whose wrong guesses a request spends: its device's, or its address's."""
    device = req.headers.get(DEVICE_HEADER, "")
    return services().lookups.key(client_address(req), device if 8 <= len(device) <= 64 else None)


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


WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def refuse_cross_site_writes() -> None:
    """A page on another site can make a visitor's browser POST a form, text/plain or
    multipart body without asking first (a "simple" request), and so take seats at a known
    code. A write to the API must therefore be JSON, which a browser sends cross-site only
    after a CORS preflight this server never grants; one that carries a bearer token was
    preflighted for that header already. And where the browser names the page it came from,
    that page must be this server's."""
    if request.method not in WRITES or not request.path.startswith("/api/"):
        return
    if request.headers.get("Origin") is not None and not origin_allowed(
            request, current_app.config["ALLOWED_ORIGINS"]):
        raise ApiError("http/cross_origin", "this server takes writes only from its own pages", 403)
    if request.mimetype != "application/json" and "Authorization" not in request.headers:
        raise ApiError("http/not_json", "send the request body as JSON (Content-Type: application/json)", 415)


def install(app: Flask) -> None:
    app.before_request(refuse_cross_site_writes)
    app.after_request(add_headers)
