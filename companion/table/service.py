"""Tables as the server runs them: the log in the database, the state folded in memory.

Commands to one table are serialised in a process by that table's lock; inside it a command is
decided, its events are committed, and only then is the in-memory state replaced and every
phone told, so a crash between steps loses nothing that was acknowledged and publishes nothing
that was not stored. State is folded from the effective log on load and after an undo.

Several processes may serve one table (PostgreSQL). Each folds its own copy, always a prefix
of the log. A command decided on a copy that another process has moved past takes a seq that
is in the log already; the database refuses it (storage/store.py), the copy catches up, and the
command is decided again (optimistic concurrency): applied once, in order, acknowledged only
after its commit. What other processes commit reaches this one's phones through ``pull``
(realtime/fanout.py), and authenticating first reads the log's tail, so what a phone did through one
process is in what it then reads through another.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import random
import secrets
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..clock import Clock
from ..errors import ApiError
from ..games.core.context import Context
from ..games.core.events import Event
from ..realtime.fanout import Fanout
from ..realtime.hub import Connection, Hub
from ..storage.store import PlayerRow, Store
from . import turns
from .log import Record
from .names import skeleton
from .rules import TableRules, TableState, clean_name, created
from .turns import Turns
from .turns import busy as _busy
from .views import Viewer, history_view, record_view, table_view

log = logging.getLogger(__name__)
CODE_ALPHABET = "ACDEFHJKMNPRTWXY34679"  # no 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V look-alikes
CODE_LENGTH = 5
CATCH_UP_LIMIT = 500
# Records a table keeps in memory. The rest of its log is read from the database when it is
# needed (history, an undo, a phone that slept through more), so a long evening's memory is
# bounded by the number of tables, not by how much they played.
MEMORY_TAIL = 64
TOKEN_TTL_MS = 7 * 24 * 3600 * 1000  # a finished table's tokens work this long for its history
MAX_CID = 64
MIN_JOIN_CID = 16  # a join's cid stands for the seat's token until the answer arrives
MAX_ATTEMPTS = 20  # deciding again after losing a race: each loss means another command went in


AfterCommit = Callable[[TableState, list[Event], int], None]
# What a command needs from outside the pure rules, filled in before it is decided (a BLANK
# rematch's deck as the deck store now has it).
Prepare = Callable[[TableState, dict[str, Any], Viewer], dict[str, Any]]
# Told a table's code whenever it changed, here or in another process (the league rooms, web/realtime.py).
Changed = Callable[[str], None]
# What the league says of a gathering table (a round's board: whom it waits for), or None: the
# table itself knows nothing of leagues, and its phones are told as data, not in words.
BoardNote = Callable[[str, list[str]], dict[str, Any] | None]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def holds(token: Any, token_hash: str) -> bool:
    """Whether ``token`` is the one whose hash is on record (a league organiser's, a venue's
    staff's), in constant time; what is not text, or empty, is no token at all."""
    return isinstance(token, str) and bool(token) and hmac.compare_digest(hash_token(token), token_hash)


def join_key(cid: Any) -> str | None:
    """What the log keeps of a join's cid: its hash, so the database never holds what makes
    the seat's token (``join_token``). None for a join without one."""
    if cid is None:
        return None
    if not isinstance(cid, str) or not MIN_JOIN_CID <= len(cid) <= MAX_CID:
        raise ApiError("table/bad_cid",
                       f"a join's 'cid' is {MIN_JOIN_CID} to {MAX_CID} random characters")
    return "join:" + hashlib.sha256(cid.encode()).hexdigest()[:40]


def join_token(cid: str, code: str, player_id: str) -> str:
    """The token of a seat joined with a cid, made from it, so that the join resent with
    the same cid (its answer lost on the way) gets the same token from any server process,
    with nothing but the token's hash stored."""
    mac = hmac.new(cid.encode(), f"{code}:{player_id}".encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def normalise_code(code: str) -> str:
    return code.strip().upper()


@dataclass
class LiveTable:
    code: str
    tail: list[Record]  # the log's last records (at most MEMORY_TAIL; never empty)
    state: TableState
    command_ids: dict[tuple[str, str], int] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    turns: Turns = field(default_factory=Turns)  # commands wait for ``lock`` through it
    # The last seq this process is committing just now: the database announces it to every
    # process, this one included, before ``tail`` has it (realtime/fanout.py need not pull it back).
    claimed: int = 0

    @property
    def seq(self) -> int:
        return self.tail[-1].seq


class TableService:
    def __init__(self, store: Store, rules: TableRules, clock: Clock, hub: Hub,
                 after_commit: list[AfterCommit] | None = None,
                 prepare: list[Prepare] | None = None) -> None:
        self.store = store
        self.after_commit = after_commit or []
        self.prepare = prepare or []
        self.rules = rules
        self.clock = clock
        self.hub = hub
        self._live: dict[str, LiveTable] = {}
        self._live_lock = threading.Lock()
        self._loading: dict[str, threading.RLock] = {}  # a lock for each table being loaded
        self.changed: list[Changed] = []
        self.board_note: BoardNote = lambda code, seated: None
        self.fanout = Fanout(store.engine.url, self) if store.shared else None

    def close(self) -> None:
        if self.fanout is not None:
            self.fanout.close()

    # -- tables and players ------------------------------------------------------------
    def create(self, game_name: Any, raw_options: Any) -> tuple[str, str]:
        game = self.rules.games.get(game_name) if isinstance(game_name, str) else None
        if game is None:
            raise ApiError("table/unknown_game",
                           f"game must be one of {', '.join(sorted(self.rules.games))}")
        if raw_options is None:
            raw_options = {}
        if not isinstance(raw_options, dict):
            raise ApiError("table/bad_options", "options must be an object")
        options = game.options(raw_options)
        now = self.clock.now_ms()
        token = secrets.token_urlsafe(16)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.store.table(code) is None:
                break
        first = Record(1, 1, "host", now, created(code, game.name, options, now))
        self.store.create_table(code, game.name, hash_token(token), first)
        return code, token

    def join(self, code: str, name: Any, person: str | None = None,
             cid: Any = None) -> tuple[str, str]:
        """A new seat; with a ``cid``, the seat that cid already made, if it did."""
        key = join_key(cid)
        live = self.live(code)
        with live.lock:
            if key is not None and (again := self._joined_before(live, key, cid, name)):
                return again
            for _ in range(MAX_ATTEMPTS):
                now = self.clock.now_ms()
                player_id = "p" + secrets.token_hex(5)
                token = secrets.token_urlsafe(16) if cid is None else join_token(cid, live.code, player_id)
                e = self.rules.join(live.state, player_id, name, now, person)
                record = Record(live.seq + 1, live.seq + 1, player_id, now, e)
                row = PlayerRow(id=player_id, table_code=live.code, token_hash=hash_token(token),
                                name=e["name"], joined_ms=now)
                if self._stored(live, [record], player=row, command_id=key):
                    self._keep(live, [(record, None)], self.rules.evolved(live.state, [e]))
                    self._publish(live, [record])
                    return player_id, token
        raise _busy()

    def _joined_before(self, live: LiveTable, key: str, cid: str, name: Any) -> tuple[str, str] | None:
        """The seat and token of an earlier join with this cid, while that seat is still the
        one it made (not removed, not handed to another phone). Under ``live.lock``."""
        seat = self.store.joined_with(live.code, key)
        if seat is None:
            return None
        player_id, token_hash = seat
        player = live.state["players"].get(player_id)
        if player is None or player["removed"]:
            return None
        if skeleton(player["name"]) != skeleton(clean_name(name)):
            raise ApiError("table/cid_reused",
                           "this cid joined under another name; a new join needs a new cid", 409)
        token = join_token(cid, live.code, player_id)
        return (player_id, token) if hmac.compare_digest(hash_token(token), token_hash) else None

    def hand_over(self, code: str, viewer: Viewer, player_id: Any) -> str:
        """A new token for a seat, for a phone that lost its storage (or a new phone): the host
        shows it as a QR code. The old token stops working and its sockets are closed; the
        seat, its name and everything of the game stay as they are (no event: nothing in the
        game happened, and so there is nothing to undo)."""
        if not viewer.is_host:
            raise ApiError("table/host_only", "only the host can hand a seat to another phone", 403)
        live = self.live(code)
        with live.lock:
            player = live.state["players"].get(player_id) if isinstance(player_id, str) else None
            if player is None or player["removed"]:
                raise ApiError("table/unknown_player", "no such player at this table", 404)
            token = secrets.token_urlsafe(16)
            self.store.replace_token(live.code, player_id, hash_token(token))
            for conn in self.hub.close_viewer(live.code, player_id):
                conn.close("this seat was handed to another phone", code="auth/handed_over")
        return token

    def token_owner(self, token: str) -> tuple[str, str | None] | None:
        """(table code, player id, None for the host) of a token on record: a hash lookup, what
        every check of a token starts with (the server's reserve asks only this)."""
        return self.store.token_owner(hash_token(token))

    def authenticate(self, code: str, token: str | None) -> Viewer:
        if not token:
            raise ApiError("auth/missing_token", "this needs your table token", 401)
        live = self.live(code)
        owner = self.token_owner(token)
        if owner is None and self.store.handed_over(hash_token(token)):
            raise ApiError("auth/handed_over", "the host handed this seat to another phone", 401)
        if owner is None or owner[0] != live.code:
            raise ApiError("auth/bad_token", "this token is not valid for this table", 401)
        if self.store.shared:  # what this token did through another process is seen here
            with live.lock:
                self._catch_up(live)
        state = live.state
        if state["ended_ms"] and self.clock.now_ms() - state["ended_ms"] > TOKEN_TTL_MS:
            raise ApiError("auth/expired", "this table finished long ago; its tokens expired", 401)
        viewer = Viewer(None, True) if owner[1] is None else Viewer(owner[1], False)
        _require_seated(state, viewer)
        return viewer

    def live(self, code: str) -> LiveTable:
        """The table in memory, loaded and folded from its log on first use. Each table is
        loaded under a lock of its own, so that tables loaded at once (every phone coming back
        after a restart) wait for the database side by side, not one after another; a load of
        the same table that takes longer than a turn is answered busy (turns.py)."""
        code = normalise_code(code) if isinstance(code, str) else ""
        if self.fanout is not None:
            self.fanout.ensure_running()
        with self._live_lock:
            live = self._live.get(code)
            if live is not None:
                return live
            loading = self._loading.setdefault(code, threading.RLock())
        if not loading.acquire(timeout=turns.WAIT_S):
            raise _busy()
        try:
            with self._live_lock:
                live = self._live.get(code)
            if live is None:
                if not code or self.store.table(code) is None:
                    raise ApiError("table/unknown", f"there is no table {code!r}", 404)
                rows = self.store.records(code)
                live = LiveTable(code, [], self.rules.fold([r for r, _ in rows]))
                self._keep(live, rows, live.state)
                with self._live_lock:
                    live = self._live.setdefault(code, live)
            return live
        finally:
            loading.release()
            with self._live_lock:
                if self._loading.get(code) is loading:
                    del self._loading[code]

    def evict(self, code: str) -> None:
        """Let go of a table's folded state, so its next use folds it anew from the log (which
        deleting a player's history has rewritten)."""
        with self._live_lock:
            self._live.pop(normalise_code(code), None)

    # -- commands ------------------------------------------------------------------------
    def queued(self, code: str) -> AbstractContextManager[None]:
        """A place in the queue for the table's turn, taken before a command's token is checked
        (turns.py): a flood at one table is answered ``table/busy`` at once. A table not in
        memory has no queue yet (checking the token loads it), and nothing is said of a table
        whose queue is not full, so this tells a guesser of codes nothing it could use."""
        with self._live_lock:
            live = self._live.get(normalise_code(code) if isinstance(code, str) else "")
        return live.turns.queued() if live is not None else nullcontext()

    def execute_and_view(self, code: str, viewer: Viewer, command: Any) -> tuple[int, dict[str, Any]]:
        """``execute``, and the sender's view right after it (an HTTP command's answer)."""
        live = self.live(code)
        with live.turns.turn(live.lock):
            return self.execute(code, viewer, command), self.view(live, viewer)

    def execute(self, code: str, viewer: Viewer, command: Any) -> int:
        """Decide, store, then publish; returns the seq the command brought the table to."""
        if not isinstance(command, dict):
            raise ApiError("table/bad_command", "a command is a JSON object with a 'type'")
        cid = command.get("cid")
        if cid is not None and (not isinstance(cid, str) or len(cid) > MAX_CID):
            raise ApiError("table/bad_command", f"'cid' must be text of at most {MAX_CID} characters")
        live = self.live(code)
        with live.turns.turn(live.lock):
            for _ in range(MAX_ATTEMPTS):
                if cid and (viewer.actor, cid) in live.command_ids:
                    # The phone resent a command it had no answer to: it happened once already.
                    return live.command_ids[(viewer.actor, cid)]
                _require_seated(live.state, viewer)  # perhaps removed since authenticating
                now = self.clock.now_ms()
                ctx = Context(actor=viewer.player_id, is_host=viewer.is_host, now_ms=now,
                              rng=random.Random(secrets.randbits(64)))
                prepared = command  # filled in anew on each attempt: the state may have moved
                for fill_in in self.prepare:
                    prepared = fill_in(live.state, prepared, viewer)
                # Only an undo looks back further than the state (rules.py).
                past = self.log(live) if prepared.get("type") == "undo" else live.tail
                events, after = self.rules.decide(live.state, past, prepared, ctx)
                records = self._number(live, events, viewer.actor, now)
                state = after if after is not None else self.rules.fold(past + records)
                if not self._stored(live, records, command_id=cid or None,
                                    table_update=_row_update(live.state, state)):
                    continue
                self._keep(live, [(r, (cid or None) if r.seq == r.batch else None) for r in records], state)
                for hook in self.after_commit:  # before phones hear of it: what they see is done
                    try:
                        hook(state, [r.event for r in records], now)
                    except Exception:  # noqa: BLE001 - the events are stored: the command happened
                        log.exception("after-commit hook %r failed", hook)
                self._publish(live, records)
                return live.seq
        raise _busy()

    def _stored(self, live: LiveTable, records: list[Record], **writes: Any) -> bool:
        """Commit the records; False if another process had taken their seqs first, in
        which case ``live`` has caught up with the log and the caller decides again."""
        live.claimed = records[-1].seq
        try:
            self.store.append(live.code, records, **writes)
        except IntegrityError:
            live.claimed = 0
            if self._catch_up(live):
                return False
            cid = writes.get("command_id")
            seq = self.store.command_seq(live.code, records[0].actor, cid) if cid else None
            if seq is None:
                raise  # neither a lost race nor a resent command
            live.command_ids[(records[0].actor, cid)] = seq  # resent long after: memory forgot it
            return False
        except BaseException:
            live.claimed = 0
            raise
        return True

    def _catch_up(self, live: LiveTable) -> bool:
        """Fold in what other processes appended to the log and tell this one's phones;
        False if there was nothing. Under ``live.lock``."""
        rows = self.store.records(live.code, after=live.seq)
        if not rows:
            return False
        records = [r for r, _ in rows]
        if any(r.event["type"] == "CommandUndone" for r in records):
            state = self.rules.fold(self.log(live) + records)
        else:
            state = self.rules.evolved(live.state, [r.event for r in records])
        self._keep(live, rows, state)
        self._publish(live, records)
        return True

    # -- following other processes (fanout.Follower) -------------------------------------
    def behind(self, code: str, seq: int) -> bool:
        live = self._live.get(code)
        return live is not None and live.seq < seq and live.claimed < seq

    def pull(self, code: str) -> None:
        live = self._live.get(code)
        if live is not None:
            with live.lock:
                self._catch_up(live)

    def loaded(self) -> list[str]:
        with self._live_lock:
            return list(self._live)

    def follow(self) -> None:
        """Hear of other processes' commits from now on, though no table is loaded here (a
        league room's socket): once this returns, the listener is listening (or, the database
        away, reported not ready), so nothing committed after it goes unheard."""
        if self.fanout is not None:
            self.fanout.ready_soon()

    def noticed(self, code: str, seq: int) -> None:
        """Another process appended to a table this one has not loaded (a loaded one is pulled,
        and published, instead): only its listeners hear of it. Not its creation (seq 1),
        which comes before the table is counted for a league (web/api.py)."""
        if seq > 1 and code not in self._live:
            self._changed(code)

    def screen_asked(self, code: str) -> None:
        """A device asks to be the table's screen (screen_requests.py): its phones in this
        process are told that one waits, and nothing else; the host's phone then asks which."""
        self.hub.broadcast(code, lambda _viewer: [{"type": "screen.asked"}])

    def _changed(self, code: str) -> None:
        for listener in self.changed:
            try:
                listener(code)
            except Exception:  # noqa: BLE001 - the events are stored and sent: the command happened
                log.exception("change listener %r failed", listener)

    @staticmethod
    def _number(live: LiveTable, events: list[Event], actor: str, now: int) -> list[Record]:
        first = live.seq + 1
        return [Record(first + i, first, actor, now, e) for i, e in enumerate(events)]

    @staticmethod
    def _keep(live: LiveTable, rows: list[tuple[Record, str | None]], state: TableState) -> None:
        """The stored events (with their batches' command ids) become the table's in memory;
        what falls out of the tail is forgotten here and stays in the database."""
        live.tail.extend(r for r, _ in rows)
        live.command_ids.update({(r.actor, cid): r.seq for r, cid in rows if cid})
        live.state = state
        if len(live.tail) > MEMORY_TAIL:
            del live.tail[:len(live.tail) - MEMORY_TAIL]
            first = live.tail[0].seq
            live.command_ids = {k: seq for k, seq in live.command_ids.items() if seq >= first}

    def log(self, live: LiveTable) -> list[Record]:
        """The whole log as this process has folded it (under ``live.lock``): what the
        database holds up to ``live.seq``; another process may have appended more."""
        return [r for r, _ in self.store.records(live.code) if r.seq <= live.seq]

    def _publish(self, live: LiveTable, records: list[Record]) -> None:
        """Every phone of this process gets the stored records as it may see them; a removed
        player's phones are then closed."""
        board = self._board(live)  # the same for every viewer: read once, not a phone at a time

        def messages(viewer: Viewer) -> list[dict[str, Any]]:
            out = [{"type": "event", **record_view(r, viewer)} for r in records]
            out[-1]["state"] = self._view(live, viewer, board)
            return out

        self.hub.broadcast(live.code, messages)
        for r in records:
            if r.event["type"] == "PlayerRemoved":
                for conn in self.hub.close_viewer(live.code, r.event["player_id"]):
                    conn.close("the host removed you from this table")
        self._changed(live.code)

    # -- reading -------------------------------------------------------------------------
    def view(self, live: LiveTable, viewer: Viewer) -> dict[str, Any]:
        """The table as ``viewer`` sees it; while it gathers, with what its league says of it
        (``board``: a round's board starts by itself once its two players sit, and the phones
        say whom it waits for, not "waiting for the host")."""
        return self._view(live, viewer, self._board(live))

    def _board(self, live: LiveTable) -> dict[str, Any] | None:
        state = live.state
        if state["status"] != "lobby":
            return None
        return self.board_note(live.code, [p["name"] for p in state["players"].values() if not p["removed"]])

    def _view(self, live: LiveTable, viewer: Viewer, board: dict[str, Any] | None) -> dict[str, Any]:
        state = live.state
        view = table_view(state, self.rules.games[state["game"]], viewer, self.clock.now_ms())
        view["board"] = board
        return view

    def state(self, code: str, viewer: Viewer) -> tuple[int, dict[str, Any]]:
        live = self.live(code)
        with live.lock:
            return live.seq, self.view(live, viewer)

    def history(self, code: str, viewer: Viewer) -> list[dict[str, Any]]:
        live = self.live(code)
        with live.lock:
            return history_view(self.log(live), viewer)

    def catch_up(self, live: LiveTable, viewer: Viewer, since: int | None) -> list[dict[str, Any]]:
        """What a (re)connecting phone is sent: the events after ``since`` in order, the last
        carrying the state, or a snapshot when it is too far behind or ahead of the log."""
        seq = live.seq
        if since is None or since > seq or seq - since > CATCH_UP_LIMIT:
            return [{"type": "snapshot", "seq": seq, "state": self.view(live, viewer)}]
        first = live.tail[0].seq
        after = live.tail[since - first + 1:] if since >= first - 1 else [
            r for r, _ in self.store.records(live.code, after=since) if r.seq <= seq]
        missed = [{"type": "event", **record_view(r, viewer)} for r in after]
        if missed:
            missed[-1]["state"] = self.view(live, viewer)
        return missed

    def attach(self, code: str, conn: Connection, since: int | None) -> None:
        """Send the catch-up and register for live events atomically, so no event falls
        between the two."""
        live = self.live(code)
        with live.lock:
            for m in self.catch_up(live, conn.viewer, since):
                conn.send(m)
            conn.send({"type": "ready", "seq": live.seq})
            self.hub.register(conn)
        for earlier in self.hub.earlier_of(conn):
            earlier.ws.probe()
        self.announce_presence(live.code)

    def detach(self, conn: Connection) -> None:
        self.hub.unregister(conn)
        self.announce_presence(conn.code)

    def announce_presence(self, code: str) -> None:
        online = self.hub.online(code)
        self.hub.broadcast(code, lambda _v: [{"type": "presence", "online": online}])

    def finished(self) -> list[dict[str, Any]]:
        return [{"code": t.code, "game": t.game, "ended_ms": t.ended_ms,
                 "result": json.loads(t.result_json or "null"), "names": json.loads(t.names_json)}
                for t in self.store.finished()]


def _require_seated(state: TableState, viewer: Viewer) -> None:
    if viewer.player_id is not None and state["players"][viewer.player_id]["removed"]:
        raise ApiError("auth/removed", "the host removed you from this table", 403)


def _row_update(before: TableState, after: TableState) -> dict[str, Any] | None:
    if before["status"] == after["status"]:
        return None
    names = {pid: p["name"] for pid, p in after["players"].items()}
    return {"status": after["status"], "ended_ms": after["ended_ms"],
            "result_json": json.dumps(after["result"], ensure_ascii=False),
            "names_json": json.dumps(names, ensure_ascii=False)}
