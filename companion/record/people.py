"""Players across tables: the identity a browser keeps, the seats it took, and forgetting.

A phone's browser keeps a random identity key of its own (the user may rename or forget it);
on joining, the server writes only a hash of it into the player's ``PlayerJoined`` event, in
the player's own ``secrets`` envelope, so no other phone ever sees it. Which tables a person
sat at is read from those events when asked: there is no second copy to keep in step.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from sqlmodel import Session, col, select

from ..errors import ApiError
from ..storage.store import EventRow, PlayerRow, Store, TableRow
from ..table.log import Record

KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
JOINED = '{"type":"PlayerJoined"'  # how the store writes a join's payload (compact JSON)


def person_of(key: Any) -> str | None:
    """The hash the log keeps for an identity key (None for a phone that sent none)."""
    if key is None:
        return None
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise ApiError("table/bad_identity", "identity is 16 to 64 letters, digits, '-' or '_'")
    return hashlib.sha256(("table-companion/person/" + key).encode()).hexdigest()[:32]


def person_in(e: dict[str, Any]) -> str | None:
    """The person a PlayerJoined event names in its player's envelope."""
    return e.get("secrets", {}).get(e["player_id"], {}).get("person")


def persons(records: list[Record]) -> dict[str, str]:
    """Player id -> person, for the players of one table who joined with an identity."""
    out = {}
    for r in records:
        if r.event["type"] == "PlayerJoined" and (p := person_in(r.event)):
            out[r.event["player_id"]] = p
    return out


def seats_of(store: Store, person: str) -> list[tuple[str, str]]:
    """(table code, player id) of every seat the person took, oldest first."""
    with Session(store.engine) as s:
        rows = s.exec(select(EventRow.table_code, EventRow.payload)
                      .where(col(EventRow.payload).startswith(JOINED, autoescape=True))
                      .where(col(EventRow.payload).contains(person, autoescape=True))
                      .order_by(col(EventRow.ts_ms))).all()
    out = []
    for code, payload in rows:
        e = json.loads(payload)
        if person_in(e) == person:
            out.append((code, e["player_id"]))
    return out


def forget(store: Store, name: str | None = None, person: str | None = None) -> list[str]:
    """Delete a player's history, for the server's host: every seat taken under ``name``
    (any case) or by ``person`` loses its name and identity, in the log too. The games stay,
    for the other players at those tables, with an unnamed seat. Returns the tables touched,
    which the caller must fold again."""
    wanted = name.casefold() if name else None
    touched: set[str] = set()
    with store.write_lock, Session(store.engine) as s:
        rows = s.exec(select(EventRow).where(col(EventRow.payload).startswith(JOINED, autoescape=True))).all()
        for row in rows:
            e = json.loads(row.payload)
            if not ((wanted and e["name"].casefold() == wanted) or (person and person_in(e) == person)):
                continue
            pid = e["player_id"]
            e["name"] = ""
            e.pop("secrets", None)
            row.payload = json.dumps(e, ensure_ascii=False, separators=(",", ":"))
            s.add(row)
            player = s.get(PlayerRow, pid)
            if player is not None:
                player.name = ""
                s.add(player)
            table = s.get(TableRow, row.table_code)
            if table is not None:  # named '' even if the row had no name for the seat yet: a
                # league keeps the tables' folded logs while their last seq and names stand
                names = json.loads(table.names_json)
                names[pid] = ""
                table.names_json = json.dumps(names, ensure_ascii=False)
                s.add(table)
            touched.add(row.table_code)
        s.commit()
    return sorted(touched)
