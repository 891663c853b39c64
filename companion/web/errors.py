"""Every failure on /api and /ws as ``{"error": {"code", "message"}}``, never an HTML 500; the
pages' own 404 and 405 stay HTML. Each refusal keeps the headers its status calls for (``Allow``,
``WWW-Authenticate``, ``Retry-After``, ``Sec-WebSocket-Version``).

A database that cannot be reached is refused here, in one place, for every request whatever
reads it: the store's reads and writes say so themselves, but leagues, decks and the stats read
through sessions of their own, and a join's league check ran before any of the store's. So any
SQLAlchemy failure that reaches a request is worded as storage/health.py words it
(``server/unavailable``, ``server/busy``, ...), with one warning line; only what that does not
know (a constraint, a bad statement: a bug) is logged with its traceback."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, request
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from werkzeug.exceptions import HTTPException

from ..errors import ApiError
from ..games.core.errors import RuleViolation
from ..storage.health import failure_of

STATUS_OF_KIND = {"invalid": 422, "forbidden": 403, "conflict": 409, "not_found": 404}
log = logging.getLogger(__name__)


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": message}}


def refusal_of(e: Exception) -> ApiError | None:
    """The refusal an exception stands for: an ApiError itself, a failed database call as
    storage/health.py words it; None for a bug. Logs a database failure's one line."""
    if isinstance(e, ApiError):
        return e
    refusal = failure_of(e)
    if refusal is not None:
        said = e.orig if isinstance(e, DBAPIError) else e  # without the statement
        lines = str(said).strip().splitlines()
        log.warning("%s: the database failed (%s): %s", request.path, refusal.code,
                    lines[0] if lines else type(said).__name__)
    return refusal


def install(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(e: ApiError):  # type: ignore[no-untyped-def]
        return jsonify({"error": e.as_dict()}), e.status, e.headers()

    @app.errorhandler(SQLAlchemyError)
    def storage_failed(e: SQLAlchemyError):  # type: ignore[no-untyped-def]
        refusal = refusal_of(e)
        return unexpected(e) if refusal is None else api_error(refusal)

    @app.errorhandler(RuleViolation)
    def rule_violation(e: RuleViolation):  # type: ignore[no-untyped-def]
        return jsonify({"error": e.as_dict()}), STATUS_OF_KIND[e.kind]

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):  # type: ignore[no-untyped-def]
        if not (request.path == "/api" or request.path.startswith(("/api/", "/ws/"))):
            return e
        code = {404: "http/not_found", 405: "http/method_not_allowed",
                413: "http/too_large", 400: "http/bad_request"}.get(e.code or 500, "http/error")
        kept = [(k, v) for k, v in e.get_headers() if k.lower() != "content-type"]  # Allow, for one
        return jsonify(error_body(code, e.description or e.name)), e.code, kept

    @app.errorhandler(Exception)
    def unexpected(e: Exception):  # type: ignore[no-untyped-def]
        # A bug, not the user's fault: log the traceback here, tell the phone nothing of it.
        log.exception("unhandled error on %s", request.path)
        return jsonify(error_body("server/internal", "something went wrong on the server; "
                                                     "nothing was recorded")), 500
