"""Every failure on /api and /ws as ``{"error": {"code", "message"}}``, never an HTML 500; the
pages' own 404 and 405 stay HTML. Each refusal keeps the headers its status calls for (``Allow``,
``WWW-Authenticate``, ``Retry-After``, ``Sec-WebSocket-Version``)."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from ..errors import ApiError
from ..games.core.errors import RuleViolation

STATUS_OF_KIND = {"invalid": 422, "forbidden": 403, "conflict": 409, "not_found": 404}
log = logging.getLogger(__name__)


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": message}}


def install(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(e: ApiError):  # type: ignore[no-untyped-def]
        return jsonify(error_body(e.code, e.message)), e.status, e.headers()

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
