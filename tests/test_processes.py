"""Several server processes on one PostgreSQL: one log, one order, every phone told.

Two apps in this process stand for two servers where that is enough (each has its own tables
in memory, its own locks and its own LISTEN connection); the last test runs real processes
and kills one."""

import http.client
import threading
import time

import pytest
from conftest import DaemonThread, PhoneClient, Socket
from test_table_secrets_and_concurrency import SecretCards

pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def same(state):
    """A view less who is looking and the sand left, which runs on between two reads."""
    return {**{k: v for k, v in state.items() if k != "me"},
            "timer": {k: v for k, v in state["timer"].items() if k != "remaining_ms"}}


def test_commands_racing_through_two_servers_are_each_applied_once_in_order(make_app, tables):
    a, b = make_app(), make_app()
    t = tables.create()
    code, host = t["code"], t["host_token"]
    tokens = [tables.join(code, f"P{i}")["token"] for i in range(4)]
    seqs, errors = [], []

    def hammer(app, token, n):
        client = app.test_client()
        for i in range(12):
            r = client.post(f"/api/tables/{code}/commands", headers=auth(token),
                            json={"type": "timer.flip", "cid": f"{n}-{i}"})
            (seqs if r.status_code == 200 else errors).append(r.get_json())

    threads = [threading.Thread(target=hammer, args=(app, tok, n))
               for n, (app, tok) in enumerate([(a, tokens[0]), (b, tokens[1]), (a, tokens[2]),
                                               (b, tokens[3])])]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert sorted(r["seq"] for r in seqs) == list(range(6, 6 + 48))  # created, 4 joins, then 48
    # a phone that had no answer resends its command to the other server: it happened once
    first = a.test_client().post(f"/api/tables/{code}/commands", headers=auth(tokens[0]),
                                 json={"type": "timer.start", "cid": "again"}).get_json()
    resent = b.test_client().post(f"/api/tables/{code}/commands", headers=auth(tokens[0]),
                                  json={"type": "timer.start", "cid": "again"}).get_json()
    assert resent["seq"] == first["seq"] == 54
    histories = [app.test_client().get(f"/api/tables/{code}/history", headers=auth(host)).get_json()
                 for app in (a, b)]
    assert histories[0] == histories[1]
    assert [h["seq"] for h in histories[0]["events"]] == list(range(1, 55))
    states = [app.test_client().get(f"/api/tables/{code}/state", headers=auth(tokens[1])).get_json()
              for app in (a, b)]
    assert states[0] == states[1] and states[0]["seq"] == 54


def test_a_command_on_one_server_reaches_the_phones_of_another_with_their_own_views(
        make_app, serve_app):
    """The notification carries no event: each server reads the log and sends each of its
    phones its own view, so a secret still reaches only its owner."""
    games = {"secret": SecretCards()}
    a, b = make_app(GAMES=games), make_app(GAMES=games)
    on_b = serve_app(b)
    c = a.test_client()
    t = c.post("/api/tables", json={"game": "secret"}).get_json()
    code, host = t["code"], t["host_token"]
    players = [c.post(f"/api/tables/{code}/players", json={"name": n}).get_json() for n in ("A", "B")]
    sockets = {p["player_id"]: on_b.ws(code, p["token"]) for p in players}
    for s in sockets.values():
        assert s.until("ready")["seq"] == 3
    started = time.monotonic()
    c.post(f"/api/tables/{code}/commands", json={"type": "table.start_game"}, headers=auth(host))
    got = {pid: [s.until("event"), s.until("event")] for pid, s in sockets.items()}
    assert time.monotonic() - started < 2  # milliseconds on an idle machine
    deal = a.extensions["companion"].tables.live(code).tail[-1].event
    for pid, (game_started, dealt) in got.items():
        assert game_started["event"]["type"] == "GameStarted"
        card = deal["secrets"][pid]["card"]
        assert dealt["event"] == {"type": "Dealt", "seats": deal["seats"], "card": card}
        assert dealt["state"]["game_state"]["mine"] == card


def test_a_league_room_on_one_server_is_told_of_its_tables_on_another(make_app, serve_app):
    """The room's socket on b; the tables served by a. A table b has not loaded is told through
    the database's notice alone; one b has loaded (it read the room) through its pull."""
    a, b = make_app(), make_app()
    on_b, c = serve_app(b), a.test_client()
    made = c.post("/api/leagues", json={"name": "Thursday club"}).get_json()
    ours = c.post("/api/tables", json={"game": "blanko", "options": {"league": made["id"]}}).get_json()
    theirs = c.post("/api/tables", json={"game": "blanko"}).get_json()
    room = Socket(PhoneClient(on_b.url.replace("http", "ws") + f"/ws/league/{made['id']}",
                              subprotocols=["companion", f"companion.token.{made['token']}"],
                              headers={"Origin": on_b.url}, thread_class=DaemonThread))
    on_b.sockets.append(room)
    assert room.recv() == {"type": "room.changed"}
    c.post(f"/api/tables/{theirs['code']}/players", json={"name": "Bela"})
    c.post(f"/api/tables/{ours['code']}/players", json={"name": "Anna"})
    assert room.recv() == {"type": "room.changed"}  # b has not loaded the table
    assert ours["code"] not in b.extensions["companion"].tables.loaded()
    r = b.test_client().get(f"/api/leagues/{made['id']}/room", headers=auth(made["token"]))
    assert [t["code"] for t in r.get_json()["tables"]] == [ours["code"]]
    c.post(f"/api/tables/{ours['code']}/players", json={"name": "Cili"})
    assert room.recv() == {"type": "room.changed"}  # b has, and pulls it
    assert room.drain(0.5) == []  # once: not by the notice and the pull both, nor for theirs


def test_two_processes_one_killed(db_url, serve):
    """Commands through both processes, phones on both; one is killed with kill -9. Its
    phone reconnects to the other with ``since`` and ends with the same state; nothing that
    was acknowledged is lost, and the survivor's phones were told everything in order."""
    a, b = serve(db_url), serve(db_url)
    t = a.call("/api/tables", {"game": "rankfile"})
    code, host = t["code"], t["host_token"]
    anna = a.call(f"/api/tables/{code}/players", {"name": "Anna"})
    bela = b.call(f"/api/tables/{code}/players", {"name": "Bela"})
    phones = {"anna@a": a.ws(code, anna["token"]), "bela@b": b.ws(code, bela["token"]),
              "host@b": b.ws(code, host)}
    ready = {name: p.until("ready")["seq"] for name, p in phones.items()}
    acked = []

    def play(server, token, n):
        for i in range(10):
            kind = ("timer.start", "timer.flip", "timer.pause", "timer.resume")[i % 4]
            try:
                acked.append(server.call(f"/api/tables/{code}/commands",
                                         {"type": kind, "cid": f"{n}{i}"}, token)["seq"])
            except (OSError, http.client.HTTPException):  # killed under this command
                return

    players = [threading.Thread(target=play, args=args)
               for args in ((a, anna["token"], "a"), (b, bela["token"], "b"), (b, host, "h"))]
    for th in players:
        th.start()
    time.sleep(0.3)
    a.kill()
    for th in players:
        th.join(30)
    for _ in range(3):  # the table goes on without the killed process
        acked.append(b.call(f"/api/tables/{code}/commands", {"type": "timer.flip"}, bela["token"])["seq"])
    final = b.call(f"/api/tables/{code}/state", token=host)
    assert len(acked) == len(set(acked)) and max(acked) <= final["seq"]
    history = b.call(f"/api/tables/{code}/history", token=host)["events"]
    assert [h["seq"] for h in history] == list(range(1, final["seq"] + 1))
    # Anna's phone lost its process; it reconnects to the other with the last seq it had
    had = max([ready["anna@a"]] + [m["seq"] for m in phones.pop("anna@a").drain(0.2) if m["type"] == "event"])
    again = b.ws(code, anna["token"], since=had)
    missed = []
    while (m := again.recv())["type"] != "ready":
        missed.append(m)
    assert [m["seq"] for m in missed] == list(range(had + 1, final["seq"] + 1))
    mine = b.call(f"/api/tables/{code}/state", token=anna["token"])
    assert same(missed[-1]["state"]) == same(mine["state"])
    for name, phone in phones.items():
        got = [m for m in phone.drain(0.5) if m["type"] == "event"]
        assert [m["seq"] for m in got] == list(range(ready[name] + 1, final["seq"] + 1)), name
        assert same(got[-1]["state"]) == same(final["state"])


def test_a_lost_database_is_retried_reported_and_caught_up(postgres, tables, make_app, serve_app):
    code, host, tokens, _ = tables.seated("rankfile", ["Anna", "Bela"])
    other = make_app()
    on_other = serve_app(other)
    phone = on_other.ws(code, tokens["Bela"])
    phone.until("ready")
    postgres.stop()
    try:
        r = tables.command(code, tokens["Anna"], "timer.start")  # retried with backoff, then told
        assert r.status_code == 503 and r.get_json()["error"]["code"] == "server/unavailable"
        health = tables.client.get("/healthz")
        assert health.status_code == 503 and health.get_json()["database"] is False
    finally:
        postgres.start()
    deadline = time.monotonic() + 20
    while other.test_client().get("/healthz").status_code != 200:  # its listener is back
        assert time.monotonic() < deadline, "the fan-out did not reconnect"
        time.sleep(0.2)
    seq = tables.ok(code, tokens["Anna"], "timer.start")["seq"]
    assert phone.until("event")["seq"] == seq
