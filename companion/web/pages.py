"""The PWA's pages and the files browsers insist on finding at the root."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, jsonify, request

from ..lan.tls import ca_der
from ..loops import heartbeat
from ..services import services
from .assets import assets_of

bp = Blueprint("pages", __name__)


@bp.get("/")
def table_screen():  # type: ignore[no-untyped-def]
    # Without a table this is the setup screen, which shows BLANK's decks and options at once.
    blank = () if request.args.get("table") else ("js/games/blank.js",)
    return assets_of(current_app).serve_page(("js/table-screen.js", *blank))


@bp.get("/t/<code>")
def phone(code: str):  # type: ignore[no-untyped-def]
    return assets_of(current_app).serve_page(("js/phone.js",))


@bp.get("/venue")
@bp.get("/venue/print")
def venue():  # type: ignore[no-untyped-def]
    """The staff's screen of a venue's tables and its tents to print (static/js/venue.js); the
    staff token is in the link's fragment or kept on the device, never in this URL."""
    return assets_of(current_app).serve_page(("js/venue.js",))


@bp.get("/v/<venue_id>/<path:label>")
def tent(venue_id: str, label: str):  # type: ignore[no-untyped-def]
    """The QR code on a physical table's tent: its secret is in the fragment, which the page
    reads and sends in a header (static/js/tent.js)."""
    return assets_of(current_app).serve_page(("js/tent.js",))


@bp.get("/sw.js")
def service_worker():  # type: ignore[no-untyped-def]
    # Served from / so that its scope covers the whole app; revalidated on every visit, so a
    # release's worker (whose cache is named after the files' version) is picked up at once.
    return assets_of(current_app).serve_worker()


@bp.get("/manifest.webmanifest")
def manifest():  # type: ignore[no-untyped-def]
    return assets_of(current_app).serve_manifest()


@bp.get("/ca.crt")
def local_ca():  # type: ignore[no-untyped-def]
    """The local certificate authority of ``companion cert``, for phones to install (lan/tls.py);
    a certificate is public, its key stays in the instance folder."""
    der = ca_der(current_app.instance_path)
    if der is None:
        abort(404)
    return Response(der, mimetype="application/x-x509-ca-cert",
                    headers={"Content-Disposition": 'attachment; filename="table-companion-ca.crt"'})


@bp.get("/api/languages")
def languages():  # type: ignore[no-untyped-def]
    """The languages the pages can be worded in (code and own name), English first: one
    catalogue file in static/i18n/ each, whatever is there is on offer."""
    return jsonify({"languages": assets_of(current_app).languages})


@bp.get("/healthz")
def healthz():  # type: ignore[no-untyped-def]
    """Readiness, for a load balancer: 503 while the database cannot be reached or written
    (a full disk, a read-only file: ``error.code`` says which), while this process cannot
    hear what the others commit (its phones would fall behind), or while one of its socket
    loops has not turned for seconds (``stalled`` names it: loops/heartbeat.py)."""
    s = services()
    s.dictionary.has_word("alma")
    fanout = s.tables.fanout
    reachable = s.store.ping()
    problem = s.store.health.problem() if reachable else "server/unavailable"
    stuck = heartbeat.stalled()
    if stuck and not problem:
        problem = "server/stalled"
    checks = {"database": reachable, "writes": problem in (None, "server/stalled"),
              "fanout": fanout is None or fanout.ready_soon(), "loops": not stuck}
    if all(checks.values()):
        return jsonify({"ok": True})
    return jsonify({"ok": False, **checks, **({"stalled": stuck} if stuck else {}),
                    **({"error": {"code": problem}} if problem else {})}), 503
