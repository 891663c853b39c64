"""A table keeps only its log's tail in memory, so a whole evening's memory does not grow with
how much the tables played: what falls out of the tail is read from the database when it is
needed, and nothing a phone sees changes."""

from __future__ import annotations

import pytest

from companion.table.service import MEMORY_TAIL


@pytest.mark.both_backends
def test_a_long_game_keeps_a_bounded_tail_and_loses_nothing(live, live_tables, live_app):
    code, host, tokens, _ = live_tables.seated("blanko", ["Anna", "Béla"])
    anna = tokens["Anna"]
    first = live_tables.state(code, anna)["seq"]
    for i in range(MEMORY_TAIL * 2):
        live_tables.ok(code, anna, "timer.start", seconds=10 + i, cid=f"c{i}")
    service = live_app.extensions["companion"].tables
    table = service.live(code)
    assert len(table.tail) == MEMORY_TAIL and len(table.command_ids) <= MEMORY_TAIL
    seq = live_tables.state(code, anna)["seq"]

    # A command resent long after it was applied is still applied once.
    again = live_tables.ok(code, anna, "timer.start", seconds=10, cid="c0")
    assert again["seq"] == first + 1 and live_tables.state(code, anna)["seq"] == seq

    # History has every event, a phone that slept since the start gets exactly what it missed.
    history = live_tables.client.get(f"/api/tables/{code}/history",
                                     headers={"Authorization": f"Bearer {anna}"}).get_json()["events"]
    assert [e["seq"] for e in history] == list(range(1, seq + 1))
    phone = live.ws(code, tokens["Béla"], since=first)
    missed = [phone.until("event") for _ in range(seq - first)]
    assert [m["seq"] for m in missed] == list(range(first + 1, seq + 1))
    assert missed[-1]["state"]["timer"]["duration_ms"] == (10 + MEMORY_TAIL * 2 - 1) * 1000
    assert phone.until("ready")["seq"] == seq

    # An undo still folds the whole log; what is in memory matches a fold of the database.
    live_tables.ok(code, anna, "undo")
    assert live_tables.state(code, anna)["state"]["timer"]["duration_ms"] == (10 + MEMORY_TAIL * 2 - 2) * 1000
    assert service.rules.fold(service.log(table)) == table.state
