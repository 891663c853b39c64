"""A busy table or a full pool is told so (#35 item 7, #41 item 10): commands queued for one
table's lock wait their turn at most a second, a flood beyond a short queue is refused before
it costs anything, and tables loaded while the pool is full are not loaded one after another."""

from __future__ import annotations

import threading
import time
from collections import Counter

from conftest import Tables

from companion.errors import ApiError
from companion.table import turns


def at_once(sends: list) -> list[tuple[int, str | None, float]]:  # type: ignore[type-arg]
    """Each of ``sends`` called on a thread of its own, all at once: (status, error code,
    seconds) of each answer."""
    answers, go = [], threading.Event()

    def one(send) -> None:  # type: ignore[no-untyped-def]
        go.wait()
        started = time.monotonic()
        r = send()
        answers.append((r.status_code, (r.get_json() or {}).get("error", {}).get("code"),
                        time.monotonic() - started))

    threads = [threading.Thread(target=one, args=(send,)) for send in sends]
    for t in threads:
        t.start()
    go.set()
    for t in threads:
        t.join(30)
    return answers


def holding(live) -> threading.Event:  # type: ignore[no-untyped-def]
    """Hold a table's lock on a thread, as a commit that waits for the database would, until
    the returned event is set."""
    held, release = threading.Event(), threading.Event()

    def long_command() -> None:
        with live.lock:
            held.set()
            release.wait(30)

    threading.Thread(target=long_command).start()
    held.wait()
    return release


def taking_the_pool(store) -> list:  # type: ignore[no-untyped-def]
    """Every connection of the pool, held (give them back with ``close``)."""
    held = []
    try:
        while len(held) < 100:
            held.append(store.engine.raw_connection())
    except Exception:  # noqa: BLE001 - the pool's timeout: every connection is taken
        pass
    return held


def test_commands_at_a_busy_table_are_told_so_and_none_is_applied(live_app):
    """What this checks is what, not how fast (bench/busy_table_http.py measures that): 100
    commands while the table is held are each answered busy and none is applied; those beyond
    the queue are refused before anything else. One in the queue checks its token first, with
    a connection of the pool, and on a loaded machine the pool may keep it past its timeout:
    ``server/busy`` is then its true answer (the cause of the failure in a busy ``make test``,
    when all 100 checked their tokens, 15 connections for 100 threads)."""
    t = Tables(live_app.test_client()).create()
    live = live_app.extensions["companion"].tables.live(t["code"])
    seq = live.seq
    release = holding(live)
    try:
        answers = at_once([lambda: live_app.test_client().post(
            f"/api/tables/{t['code']}/commands", json={"type": "timer.start"},
            headers={"Authorization": f"Bearer {t['host_token']}"})] * 100)
    finally:
        release.set()
    codes = Counter(code for status, code, _ in answers if status == 503)
    assert sum(codes.values()) == len(answers) == 100, answers
    assert set(codes) <= {"table/busy", "server/busy"}
    assert codes["table/busy"] >= 100 - turns.MAX_WAITING  # beyond the queue: never a pool wait
    assert live.seq == seq


def test_a_command_beyond_a_full_queue_is_refused_before_its_token_costs_a_database_read(
        live_app, monkeypatch):
    """A flood at one table is answered at once: the refusal is decided before the token's
    check, so it waits neither for the table nor for the pool (every connection here is taken:
    checking the token first, it was ``server/busy`` after the pool's timeout)."""
    t = Tables(live_app.test_client()).create()
    s = live_app.extensions["companion"]
    live = s.tables.live(t["code"])
    monkeypatch.setattr(turns, "MAX_WAITING", 0)  # the queue is full
    release = holding(live)
    held = taking_the_pool(s.store)
    try:
        r = live_app.test_client().post(f"/api/tables/{t['code']}/commands", json={"type": "timer.start"},
                                        headers={"Authorization": f"Bearer {t['host_token']}"})
    finally:
        for c in held:
            c.close()
        release.set()
    assert (r.status_code, r.get_json()["error"]["code"]) == (503, "table/busy")


def test_tables_loaded_while_the_pool_is_full_are_answered_side_by_side(live_app):
    tables = Tables(live_app.test_client())
    created = [tables.create() for _ in range(8)]
    s = live_app.extensions["companion"]
    for t in created:
        s.tables.evict(t["code"])  # as after a restart: each is loaded on its first use
    held = taking_the_pool(s.store)
    try:
        answers = at_once([lambda t=t: live_app.test_client().get(
            f"/api/tables/{t['code']}/state", headers={"Authorization": f"Bearer {t['host_token']}"})
            for t in created])
    finally:
        for c in held:
            c.close()
    assert {(status, code) for status, code, _ in answers} == {(503, "server/busy")}
    assert max(s for _, _, s in answers) < 4  # one pool timeout each, side by side (not 8 s)


def test_a_place_in_the_queue_is_given_up_when_the_turn_comes_or_the_command_leaves(monkeypatch):
    """A command that took a place before its token was checked holds it only while it waits:
    the one running, or one refused by its token, is not counted against the next."""
    monkeypatch.setattr(turns, "MAX_WAITING", 1)
    queue, lock = turns.Turns(), threading.RLock()
    others: list[str] = []

    def another() -> None:
        try:
            with queue.queued():
                others.append("queued")
        except ApiError as e:
            others.append(e.code)

    with queue.queued():
        with queue.turn(lock):
            other = threading.Thread(target=another)
            other.start()
            other.join(10)
    try:
        with queue.queued():
            raise ApiError("auth/bad_token", "refused by its token", 401)
    except ApiError:
        pass
    another()
    assert others == ["queued", "queued"]
