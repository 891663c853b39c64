"""Whether a request carries a seat's or the host's token that is on record, for the server's
last connection slots (server.py): the token is found where the routes find it (a bearer
header; a websocket's subprotocol or query) and looked up by its hash, as every check of a token
starts. A made-up token, or a path under /ws/ with none, is not let in."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from sqlalchemy.exc import SQLAlchemyError

from ..errors import ApiError
from ..services import services
from .api import bearer
from .realtime import socket_token


def on_record(app: Flask, environ: dict[str, Any]) -> bool:
    with app.request_context(environ):
        token = bearer() or (socket_token() if request.path.startswith("/ws/") else None)
        if not token:
            return False
        try:
            return services().tables.token_owner(token) is not None
        except (ApiError, SQLAlchemyError):  # the database is busy or away: not vouched for
            return False
