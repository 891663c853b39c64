"""A table screen added later (#44 item 4): a device at the table asks, the host's phone is told
over the table's socket and allows or refuses, and the device collects the host's token once,
with its request's secret. Nobody but the host answers; a wrong secret is a wrong guess; a
request lapses."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_qr_join import exhaust, secret_of

from companion.table.screen_requests import PER_TABLE, TTL_MS

SECRET_HEADER = "X-Companion-Screen"


@pytest.fixture
def roomy_app(make_app):
    """An app for many examples' tables and requests (the creations' limit is out of reach)."""
    return make_app(CREATIONS_PER_MINUTE=100_000)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ask(client, table, **credentials):
    body = credentials or {"join_secret": secret_of(table["join_url"])}
    return client.post(f"/api/tables/{table['code']}/screens", json=body)


def collect(client, code, asked, secret=None):
    return client.get(f"/api/tables/{code}/screens/{asked['id']}",
                      headers={SECRET_HEADER: secret or asked["secret"]})


def test_a_device_allowed_by_the_host_collects_the_host_token_once(client, tables):
    table = tables.create()
    asked = ask(client, table)
    assert asked.status_code == 201
    asked = asked.get_json()
    assert collect(client, table["code"], asked).get_json() == {"status": "waiting"}
    waiting = client.get(f"/api/tables/{table['code']}/screens", headers=bearer(table["host_token"]))
    assert [r["id"] for r in waiting.get_json()["requests"]] == [asked["id"]]
    r = client.post(f"/api/tables/{table['code']}/screens/{asked['id']}", json={"allow": True},
                    headers=bearer(table["host_token"]))
    assert r.get_json() == {"id": asked["id"], "allowed": True}
    got = collect(client, table["code"], asked).get_json()
    assert got["status"] == "allowed" and got["host_token"] == table["host_token"]
    assert got["game"] == "rankfile" and got["join_url"] == table["join_url"]
    # the screen is the host: its token runs the table
    tables.ok(table["code"], got["host_token"], "table.lock")
    # handed out once, then forgotten
    assert collect(client, table["code"], asked).status_code == 404
    assert client.get(f"/api/tables/{table['code']}/screens",
                      headers=bearer(table["host_token"])).get_json() == {"requests": []}


def test_a_refused_device_is_told_so_and_gets_nothing(client, tables):
    table = tables.create()
    asked = ask(client, table).get_json()
    r = client.post(f"/api/tables/{table['code']}/screens/{asked['id']}", json={"allow": False},
                    headers=bearer(table["host_token"]))
    assert r.get_json() == {"id": asked["id"], "allowed": False}
    assert collect(client, table["code"], asked).get_json() == {"status": "refused"}
    # answered once
    again = client.post(f"/api/tables/{table['code']}/screens/{asked['id']}", json={"allow": True},
                        headers=bearer(table["host_token"]))
    assert again.status_code == 404


def test_only_the_host_sees_and_answers_the_requests(client, tables):
    table = tables.create()
    seat = tables.join(table["code"], "Anna")
    asked = ask(client, table).get_json()
    for r in (client.get(f"/api/tables/{table['code']}/screens", headers=bearer(seat["token"])),
              client.post(f"/api/tables/{table['code']}/screens/{asked['id']}", json={"allow": True},
                          headers=bearer(seat["token"]))):
        assert r.status_code == 403 and r.get_json()["error"]["code"] == "table/host_only"
    r = client.post(f"/api/tables/{table['code']}/screens/{asked['id']}", json={"allow": True})
    assert r.status_code == 401
    assert collect(client, table["code"], asked).get_json() == {"status": "waiting"}


@pytest.mark.parametrize("answer", [None, "yes", 1, [], {"x": 1}])
def test_an_answer_must_be_true_or_false(client, tables, answer):
    table = tables.create()
    asked = ask(client, table).get_json()
    r = client.post(f"/api/tables/{table['code']}/screens/{asked['id']}", json={"allow": answer},
                    headers=bearer(table["host_token"]))
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "screen/bad_answer"


def test_a_wrong_secret_or_request_is_unknown_and_a_guess(client, tables):
    table = tables.create()
    asked = ask(client, table).get_json()
    for r in (collect(client, table["code"], asked, secret="not-it"),
              collect(client, table["code"], {**asked, "id": "nope"}),
              client.get(f"/api/tables/{table['code']}/screens/{asked['id']}"),
              collect(client, "QQQQQ", asked)):
        assert r.status_code == 404 and r.get_json()["error"]["code"] == "screen/unknown"
    for _ in range(40):  # the guesses run out (WRONG_CODES_PER_MINUTE)
        r = collect(client, table["code"], asked, secret="not-it")
        if r.status_code == 429:
            break
    assert r.status_code == 429


def test_a_request_lapses(client, tables, clock):
    table = tables.create()
    asked = ask(client, table).get_json()
    clock.advance(TTL_MS)
    assert collect(client, table["code"], asked).status_code == 404


def test_a_table_has_few_open_requests(client, tables, clock):
    table = tables.create()
    for _ in range(PER_TABLE):
        assert ask(client, table).status_code == 201
    r = ask(client, table)
    assert r.status_code == 429 and r.get_json()["error"]["code"] == "screen/too_many"
    clock.advance(TTL_MS)
    assert ask(client, table).status_code == 201


def test_asking_without_the_qr_secret_is_a_guess(client, tables):
    table = tables.create()
    assert client.post(f"/api/tables/{table['code']}/screens", json={}).status_code == 201
    r = client.post("/api/tables/QQQQQ/screens", json={})
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "table/unknown"
    exhaust(client)
    assert client.post(f"/api/tables/{table['code']}/screens", json={}).status_code == 429
    assert ask(client, table).status_code == 201  # the QR code's secret is no guess


def test_a_finished_table_takes_no_screen(client, tables):
    table = tables.create()
    tables.ok(table["code"], table["host_token"], "table.end_game")
    r = ask(client, table)
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "screen/table_over"


@pytest.mark.parametrize("raw", [b"", b"[]", b"nope", b'"x"'])
def test_a_bad_body_is_a_400(client, tables, raw):
    table = tables.create()
    r = client.post(f"/api/tables/{table['code']}/screens", data=raw, content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "http/bad_json"


# the app is shared by the examples: each makes its own table, and the creations' limit is off
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                         lambda inner: (st.lists(inner, max_size=3)
                                        | st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                         max_leaves=8),
       request_id=st.text(min_size=1, max_size=30).filter(lambda s: "/" not in s and s.strip() == s))
def test_no_body_or_request_id_makes_a_5xx(roomy_app, body, request_id):
    client = roomy_app.test_client()
    made = client.post("/api/tables", json={"game": "rankfile"}).get_json()
    code, host = made["code"], made["host_token"]
    for r in (client.post(f"/api/tables/{code}/screens", json=body),
              client.post(f"/api/tables/{code}/screens/{request_id}", json=body, headers=bearer(host)),
              client.get(f"/api/tables/{code}/screens/{request_id}", headers={SECRET_HEADER: "x"})):
        assert r.status_code < 500, r.get_json()


def test_the_tables_phones_are_told_a_device_waits(live_app, serve_app):
    server = serve_app(live_app)
    client = live_app.test_client()
    table = client.post("/api/tables", json={"game": "rankfile"}).get_json()
    seat = client.post(f"/api/tables/{table['code']}/players", json={"name": "Anna"}).get_json()
    ws = server.ws(table["code"], seat["token"])
    ws.until("ready")
    assert ask(client, table).status_code == 201
    assert ws.until("screen.asked") == {"type": "screen.asked"}


def test_the_tents_secret_lets_a_device_ask_where_guesses_ran_out(client):
    venue = client.post("/api/venues", json={"name": "Kávé", "tables": ["1"]}).get_json()
    tent = secret_of(venue["tables"][0]["url"])
    made = client.post(f"/api/venues/{venue['id']}/tables/1/games", json={"game": "rankfile"},
                       headers={"X-Companion-Tent": tent}).get_json()
    exhaust(client)
    assert client.post(f"/api/tables/{made['code']}/screens", json={}).status_code == 429
    r = client.post(f"/api/tables/{made['code']}/screens", json={}, headers={"X-Companion-Tent": tent})
    assert r.status_code == 201
    asked = r.get_json()
    client.post(f"/api/tables/{made['code']}/screens/{asked['id']}", json={"allow": True},
                headers=bearer(made["host_token"]))
    assert collect(client, made["code"], asked).get_json()["host_token"] == made["host_token"]


@pytest.mark.both_backends
def test_a_request_is_answered_and_collected_through_any_server_process(backend, make_app, serve_app, clock):
    """The hosted mode (docs/deploying.md): several processes behind a balancer with no sticky
    sessions, so the tablet's asking, the host phone's socket, its answer and the tablet's
    collecting each reach whichever process. On PostgreSQL two apps that share nothing but the
    database stand for two processes."""
    apps = [make_app() for _ in range(2 if backend == "postgresql" else 1)]
    one, other = apps[0].test_client(), apps[-1].test_client()
    table = one.post("/api/tables", json={"game": "rankfile"}).get_json()
    seat = one.post(f"/api/tables/{table['code']}/players", json={"name": "Anna"}).get_json()
    ws = serve_app(apps[-1]).ws(table["code"], seat["token"])  # the host's phone, on the other
    ws.until("ready")
    asked = ask(one, table).get_json()
    assert ws.until("screen.asked") == {"type": "screen.asked"}
    waiting = other.get(f"/api/tables/{table['code']}/screens", headers=bearer(table["host_token"]))
    assert [r["id"] for r in waiting.get_json()["requests"]] == [asked["id"]]
    assert collect(one, table["code"], asked).get_json() == {"status": "waiting"}
    r = one.post(f"/api/tables/{table['code']}/screens/{asked['id']}", json={"allow": True},
                 headers=bearer(table["host_token"]))
    assert r.get_json() == {"id": asked["id"], "allowed": True}
    assert other.post(f"/api/tables/{table['code']}/screens/{asked['id']}", json={"allow": False},
                      headers=bearer(table["host_token"])).status_code == 409
    got = collect(other, table["code"], asked).get_json()
    assert got["status"] == "allowed" and got["host_token"] == table["host_token"]
    assert collect(one, table["code"], asked).status_code == 404  # once, whichever process
    # refused through one, told through the other
    refused = ask(other, table).get_json()
    other.post(f"/api/tables/{table['code']}/screens/{refused['id']}", json={"allow": False},
               headers=bearer(table["host_token"]))
    assert collect(one, table["code"], refused).get_json() == {"status": "refused"}
    # the cap and the lapse count every process's requests
    for client in (one, other, one):
        assert ask(client, table).status_code == 201
    r = ask(other, table)
    assert r.status_code == 429 and r.get_json()["error"]["code"] == "screen/too_many"
    clock.advance(TTL_MS)
    assert ask(other, table).status_code == 201


@pytest.mark.both_backends
def test_the_database_holds_neither_the_requests_secret_nor_the_host_token(backend, make_app):
    """A request is kept in the database now (so that any process answers it): what it keeps is
    the secret's hash, and the host's token sealed with that secret, which only the device that
    asked has. A copy of the database opens nobody's table."""
    from sqlalchemy import text

    app = make_app()
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "rankfile"}).get_json()
    asked = ask(client, table).get_json()
    client.post(f"/api/tables/{table['code']}/screens/{asked['id']}", json={"allow": True},
                headers=bearer(table["host_token"]))
    with app.extensions["companion"].store.engine.connect() as conn:
        rows = [tuple(map(str, row)) for row in conn.execute(text("SELECT * FROM screen_requests"))]
    assert len(rows) == 1
    kept = " ".join(rows[0])
    assert asked["secret"] not in kept and table["host_token"] not in kept
    assert collect(client, table["code"], asked).get_json()["host_token"] == table["host_token"]


@pytest.mark.both_backends
@pytest.mark.parametrize("request_id", ["%00", "a%00b", "x" * 300, "%C3%A9"])
def test_a_request_id_no_request_could_have_is_unknown_on_every_database(backend, client, tables, request_id):
    """PostgreSQL refuses a NUL in text: such an id must not reach it (a 5xx), only be unknown."""
    table = tables.create()
    for r in (client.post(f"/api/tables/{table['code']}/screens/{request_id}", json={"allow": True},
                          headers=bearer(table["host_token"])),
              client.get(f"/api/tables/{table['code']}/screens/{request_id}", headers={SECRET_HEADER: "x"})):
        assert r.status_code == 404 and r.get_json()["error"]["code"] == "screen/unknown", r.get_json()
    r = client.get(f"/api/tables/{request_id}/screens/x", headers={SECRET_HEADER: "x"})
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "screen/unknown", r.get_json()
