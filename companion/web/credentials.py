"""Whether a request carries a token that is on record (a seat's, a table's host's, a league's
organiser's, whose room's screen the whole room watches, or a venue's staff's, whose counter
watches every table), for the server's last connection slots (server.py): the token is found
where the routes find it (a bearer header; a websocket's subprotocol or query) and looked up by
its hash, as every check of a token starts. A made-up token, or a path under /ws/ with none, is
not let in."""

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
            s = services()
            return (s.tables.token_owner(token) is not None or s.leagues.organiser_of(token) is not None
                    or s.venues.staff_of(token) is not None)
        except (ApiError, SQLAlchemyError):  # the database is busy or away: not vouched for
            return False
