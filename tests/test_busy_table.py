"""A busy table or a full pool answers within a second (#35 item 7): commands queued for one
table's lock wait their turn at most a second, a flood beyond a short queue is answered at
once, and tables loaded while the pool is full are not loaded one after another."""

from __future__ import annotations

import threading
import time

from conftest import Tables


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


def test_commands_queued_at_a_busy_table_are_answered_within_a_second(live_app):
    t = Tables(live_app.test_client()).create()
    live = live_app.extensions["companion"].tables.live(t["code"])
    held, release = threading.Event(), threading.Event()

    def long_command() -> None:  # as a commit that waits for the database
        with live.lock:
            held.set()
            release.wait(10)

    threading.Thread(target=long_command).start()
    held.wait()
    try:
        answers = at_once([lambda: live_app.test_client().post(
            f"/api/tables/{t['code']}/commands", json={"type": "timer.start"},
            headers={"Authorization": f"Bearer {t['host_token']}"})] * 100)
    finally:
        release.set()
    assert {(status, code) for status, code, _ in answers} == {(503, "table/busy")}
    assert max(s for _, _, s in answers) < 3  # a second's wait, on a shared machine


def test_tables_loaded_while_the_pool_is_full_are_answered_side_by_side(live_app):
    tables = Tables(live_app.test_client())
    created = [tables.create() for _ in range(8)]
    s = live_app.extensions["companion"]
    for t in created:
        s.tables.evict(t["code"])  # as after a restart: each is loaded on its first use
    held = []
    try:
        while len(held) < 100:
            held.append(s.store.engine.raw_connection())
    except Exception:  # noqa: BLE001 - the pool's timeout: every connection is taken
        pass
    try:
        answers = at_once([lambda t=t: live_app.test_client().get(
            f"/api/tables/{t['code']}/state", headers={"Authorization": f"Bearer {t['host_token']}"})
            for t in created])
    finally:
        for c in held:
            c.close()
    assert {(status, code) for status, code, _ in answers} == {(503, "server/busy")}
    assert max(s for _, _, s in answers) < 4  # one pool timeout each, side by side (not 8 s)
