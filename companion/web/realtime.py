"""The websockets: a table's (catch-up with ``since``, live events, commands, and clock sync),
a league room's (``room.changed`` notices for the organiser's screen, realtime/rooms.py) and a
venue's counter's (``moved`` notices for the staff's screen, the same way). All go through the
same cap per address, refusals, reactor and frame handling.

Every bad frame gets an error frame and the socket stays open; an oversized frame is closed
with 1009 (``max_message_size``); a phone that floods is answered with ``rate/limited`` and,
if it keeps on, closed with 1008. The reactor (reactor.py) reads the socket; its frames are
handled here, in order, on the connection's request thread. Every close, a socket refused at
its start included, is the reactor's: a close frame and then the end of the connection.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from flask import abort, current_app, request
from flask_sock import Sock

from ..errors import ApiError, UpgradeRequired
from ..games.core.errors import RuleViolation
from ..loops.reactor import Link, reactor
from ..realtime.hub import Connection
from ..realtime.rooms import ORGANISER, Rooms
from ..services import Services, services
from . import payload
from .errors import error_body, refusal_of
from .ratelimit import RateLimiter
from .security import client_address, guesser, origin_allowed

sock = Sock()
log = logging.getLogger(__name__)
STRIKES_BEFORE_CLOSE = 20
# The page offers both subprotocols; the server selects only PROTOCOL (SOCK_SERVER_OPTIONS), so the
# token is never echoed, and the URL (what proxies write to their access logs) carries none.
PROTOCOL = "companion"
TOKEN_PROTOCOL = "companion.token."


def before_upgrade() -> None:
    """Runs before the upgrade. A page from another site must not ride a visitor's token. And
    the permessage-deflate offer every browser makes is declined (simple-websocket would
    accept it): each accepting socket holds a zlib compressor of about 100 KB for as long as
    the phone is connected (300 phones: +30 MB), to save a kilobyte or two a frame on a LAN."""
    if not request.path.startswith("/ws/"):
        return
    if "websocket" not in request.headers.get("Upgrade", "").lower():
        raise UpgradeRequired("this address is a websocket; open it as one")
    if request.headers.get("Sec-WebSocket-Version") != "13":
        raise UpgradeRequired("this server speaks websocket version 13 only")
    if not origin_allowed(request, current_app.config["ALLOWED_ORIGINS"]):
        abort(403, description="this origin may not open a websocket here")
    request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)


@sock.route("/ws/<code>")
def table_socket(ws: Any, code: str) -> None:
    _held(ws, lambda: _serve(ws, code))


@sock.route("/ws/league/<league_id>")
def room_socket(ws: Any, league_id: str) -> None:
    """The room's screen of a league (the organiser's token): told ``room.changed`` when it
    opens and whenever a table of the league changes or is added, to read the room anew."""
    s = services()
    _held(ws, lambda: _serve_room(ws, league_id, f"league {league_id}", s.leagues.organised, s.rooms))


@sock.route("/ws/venue/<venue_id>")
def counter_socket(ws: Any, venue_id: str) -> None:
    """A venue's counter (the staff's token), as a league's room: told ``moved`` when it opens
    and whenever a table of the venue changes or a game starts at one, to read the venue anew."""
    s = services()
    _held(ws, lambda: _serve_room(ws, venue_id, f"venue {venue_id}", s.venues.staffed, s.counters))


def _held(ws: Any, serve: Callable[[], None]) -> None:
    """``serve`` a socket within its address's cap, and let go of what it held once it is over."""
    address, sockets = client_address(request), services().sockets
    if not sockets.acquire(address):
        _refuse(ws, 1013, "too many connections from this address; try again later")
        _unburden(ws)
        return
    try:
        serve()
    finally:
        sockets.release(address)
        _unburden(ws)


def _serve(ws: Any, code: str) -> None:
    s = services()
    try:
        live, viewer = s.admit(code, guesser(request), socket_token())
        since = _since(request.args.get("since"))
    except Exception as e:  # noqa: BLE001 - a refusal is closed here, anything else raised
        _refused(ws, e, f"table {code}")
        return
    link = _link(ws)
    conn = Connection(link, live.code, viewer)
    _started(link, lambda: s.tables.attach(live.code, conn, since))
    log.debug("table %s: %s's socket opened", live.code, viewer.actor)
    _run(link, Phone(s, conn, _limiter()), lambda: s.tables.detach(conn))
    log.debug("table %s: %s's socket ended", live.code, viewer.actor)


def _serve_room(ws: Any, key: str, what: str, admit: Callable[[str, str | None], Any],
                rooms: Rooms) -> None:
    """A screen of many tables (a league's room, a venue's counter), once ``admit`` let its
    token in: the screen is keyed by ``key``, the league's (venue's) id as its URL gives it."""
    s = services()
    try:
        admit(key, socket_token())
    except Exception as e:  # noqa: BLE001 - a refusal is closed here, anything else raised
        _refused(ws, e, what)
        return
    s.tables.follow()  # its tables may be served by other processes only
    link = _link(ws)
    conn = Connection(link, key, ORGANISER)
    _started(link, lambda: rooms.attach(conn))
    _run(link, Room(s, conn, _limiter()), lambda: rooms.detach(conn))


def _refused(ws: Any, failed: Exception, what: str) -> None:
    """Closed at its start with the error's frame and 4000 + its HTTP status (4401: not this
    token, 4404: no such table or league, 4503: the database is away); 1008 for an error that
    has no status of its own. What is no refusal (a bug) is raised again, for errors.py to log."""
    e = refusal_of(failed)
    if e is None:
        raise failed
    close = 4000 + e.status if e.status < 1000 else 1008
    log.debug("%s: socket refused (%s, %d)", what, e.code, close)
    _refuse(ws, close, e.message, {"type": "error", **error_body(e.code, e.message)})


def _started(link: Link, attach: Callable[[], None]) -> None:
    """``attach`` (what the socket is sent first, and its registration), then the link is read."""
    try:
        attach()
    except BaseException:
        reactor.start(link)  # a link goes through the reactor to its end, even one never read
        _end(link)
        raise
    reactor.start(link)


def _run(link: Link, frames: Frames, detach: Callable[[], None]) -> None:
    """Every frame in order, until the link is let go; then ``detach``."""
    try:
        while (frame := link.receive()) is not None:
            frames.on_frame(frame)
    finally:
        _end(link)
        detach()


def _limiter() -> RateLimiter:
    config = current_app.config
    return RateLimiter(services().clock, config["WS_FRAMES_PER_SECOND"], config["WS_FRAME_BURST"])


def _link(ws: Any) -> Link:
    config = current_app.config
    return reactor.adopt(ws, config["SOCK_SERVER_OPTIONS"]["max_message_size"],
                         config["WS_PING_INTERVAL_S"], config["WS_PING_TIMEOUT_S"])


def _refuse(ws: Any, code: int, reason: str, error: dict[str, Any] | None = None) -> None:
    """Close a socket at its start, with ``error`` as its one frame: through the reactor, as
    every close, so that it is the closing handshake and then the end of the connection."""
    link = _link(ws)
    if error is not None:
        link.send(json.dumps(error))
    link.close(code, reason)
    reactor.start(link)
    _end(link)


def _end(link: Link) -> None:
    link.close()
    while link.receive() is not None:  # until the reactor let go (None, which stays):
        pass                            # only then may the server reuse the socket's number


def _unburden(ws: Any) -> None:
    """Let go of what the finished websocket holds: the WSGI environ (the request, its socket
    and buffers), its wsproto state. flask-sock answers every websocket with a response class
    of its own, made per request around this object; a class is always in a reference cycle,
    so without this each phone's request would stay in memory until the cyclic collector's
    next full pass, which on a busy evening comes every few thousand connections (bench/soak.py:
    RSS 20 MB up). What flask-sock reads after the route (``mode``, ``connected``) stays."""
    for name in ("environ", "sock", "ws", "thread", "event", "input_buffer"):
        setattr(ws, name, None)
    ws.connected = False


class Frames:
    """One connection's frames, in the order they came: a flood is answered with
    ``rate/limited`` and then closed, a frame that is not JSON with a 'type' gets an error
    frame, ``time.ping`` its pong; what else a frame may ask is ``command``'s."""

    def __init__(self, s: Services, conn: Connection, limiter: RateLimiter) -> None:
        self.s = s
        self.conn = conn
        self.limiter = limiter
        self.strikes = 0

    def on_frame(self, frame: str | bytes) -> None:
        if not self.conn.alive:
            return
        if not self.limiter.allow("frames"):
            self.strikes += 1
            self.conn.send({"type": "error", **error_body("rate/limited", "slow down: too many messages")})
            if self.strikes >= STRIKES_BEFORE_CLOSE:
                self.conn.ws.close(1008, "too many messages")
            return
        reply = self.reply(frame)
        if reply is not None:
            self.conn.send(reply)

    def reply(self, frame: str | bytes) -> dict[str, Any] | None:
        if isinstance(frame, bytes):
            return _error("ws/binary", "send JSON text frames, not binary")
        try:
            msg = payload.loads(frame)
        except payload.BadJson as e:
            return _error("ws/bad_json", f"that frame is not JSON this server takes: {e}")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return _error("ws/bad_frame", "a frame is a JSON object with a 'type'")
        if msg["type"] == "time.ping":
            return {"type": "time.pong", "t0": msg.get("t0"), "server_ms": self.s.clock.now_ms()}
        return self.command(msg)

    def command(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        raise NotImplementedError


class Phone(Frames):
    """A table's phone or screen: its frames are the table's commands."""

    def command(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        cid = msg.get("cid")
        try:
            seq = self.s.tables.execute(self.conn.code, self.conn.viewer, msg)
        except RuleViolation as e:
            return {"type": "error", "cid": cid, "command": msg["type"], "error": e.as_dict()}
        except Exception as e:  # noqa: BLE001 - a bug must not cost the phone its connection
            if (refusal := refusal_of(e)) is not None:  # an ApiError, or the database away
                return {"type": "error", "cid": cid, "command": msg["type"], "error": refusal.as_dict()}
            log.exception("command %r failed", msg["type"])
            return {"type": "error", "cid": cid, "command": msg["type"],
                    **error_body("server/internal", "something went wrong; nothing was recorded")}
        return {"type": "ack", "cid": cid, "seq": seq}


class Room(Frames):
    """A league room's screen: it listens, and asks nothing but the time."""

    def command(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        return _error("ws/room_listens", "the room's socket only tells of changes: "
                      "send time.ping or nothing")


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", **error_body(code, message)}


def socket_token() -> str | None:
    """The token from ``Sec-WebSocket-Protocol``, or from ``?token=`` (pages from before)."""
    for offered in request.headers.get("Sec-WebSocket-Protocol", "").split(","):
        if (offered := offered.strip()).startswith(TOKEN_PROTOCOL):
            return offered.removeprefix(TOKEN_PROTOCOL)
    return request.args.get("token")


def _since(raw: str | None) -> int | None:
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ApiError("ws/bad_since", "'since' must be a whole number") from None
    return value if value >= 0 else None
