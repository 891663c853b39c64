"""The one rate-limit policy: guessing is slow, a valid token is never limited by anyone's
guessing, the client address behind a proxy comes only from the trusted hops, and making
tables and decks has a ceiling."""

from __future__ import annotations

import pytest

from companion import create_app
from companion.games.blank.deck import MAX_RULES


def guess_until_limited(client, app, **kw) -> None:
    for i in range(app.config["WRONG_CODES_PER_MINUTE"]):
        assert client.get(f"/api/tables/QQQ{i:02d}", **kw).status_code == 404
    assert client.get("/api/tables/QQQ99", **kw).status_code == 429


def test_a_valid_token_is_never_limited_by_guessing_from_its_address(tables, client, app):
    t = tables.create()
    anna = tables.join(t["code"], "Anna")
    guess_until_limited(client, app)
    assert tables.state(t["code"], anna["token"])["seq"] >= 2
    assert tables.command(t["code"], t["host_token"], "timer.start").status_code == 200
    assert client.get(f"/api/tables/{t['code']}/history",
                      headers={"Authorization": f"Bearer {anna['token']}"}).status_code == 200
    # while guesses from there learn nothing: a known code or an unknown one, a wrong token
    wrong = {"Authorization": "Bearer wrong"}
    assert client.get(f"/api/tables/{t['code']}/state", headers=wrong).status_code == 429
    assert client.get("/api/tables/QQQ77/state", headers=wrong).status_code == 429
    assert client.get(f"/api/tables/{t['code']}").status_code == 429


def test_wrong_tokens_count_as_guesses(tables, client, app):
    t = tables.create()
    statuses = [client.get(f"/api/tables/{t['code']}/state", headers={"Authorization": f"Bearer w{i}"})
                .status_code for i in range(app.config["WRONG_CODES_PER_MINUTE"] + 1)]
    assert statuses[:-1] == [401] * app.config["WRONG_CODES_PER_MINUTE"] and statuses[-1] == 429


def test_a_phone_reconnects_its_websocket_from_an_address_that_guessed(live, live_app, live_tables):
    t = live_tables.create()
    anna = live_tables.join(t["code"], "Anna")
    guess_until_limited(live_tables.client, live_app)  # the test client and the socket: 127.0.0.1
    ws = live.ws(t["code"], anna["token"])
    assert ws.recv()["type"] == "snapshot"
    ws.close()


@pytest.fixture
def proxied(db_url, clock):
    return create_app({"DATABASE_URL": db_url, "CLOCK": clock, "TESTING": True, "TRUSTED_PROXY_HOPS": 1})


def test_behind_a_trusted_proxy_one_guesser_does_not_lock_out_the_room(proxied):
    client = proxied.test_client()
    t = client.post("/api/tables", json={"game": "rankfile"}).get_json()
    guess_until_limited(client, proxied, headers={"X-Forwarded-For": "10.0.0.66"})
    other = {"X-Forwarded-For": "10.0.0.7"}  # another phone, through the same proxy
    assert client.get(f"/api/tables/{t['code']}", headers=other).status_code == 200
    assert client.post(f"/api/tables/{t['code']}/players", json={"name": "Anna"},
                       headers=other).status_code == 201


def test_without_trusted_hops_a_forwarded_for_header_is_ignored(client, app):
    for i in range(app.config["WRONG_CODES_PER_MINUTE"]):
        client.get(f"/api/tables/QQQ{i:02d}", headers={"X-Forwarded-For": f"10.0.1.{i}"})
    assert client.get("/api/tables/QQQ99", headers={"X-Forwarded-For": "10.0.2.1"}).status_code == 429


def test_tables_and_decks_from_one_address_have_a_ceiling(client, app, clock):
    limit = app.config["CREATIONS_PER_MINUTE"]
    statuses = [client.post("/api/tables", json={"game": "rankfile"}).status_code for _ in range(limit + 1)]
    assert statuses[:-1] == [201] * limit
    r = client.post("/api/tables", json={"game": "rankfile"})
    assert r.status_code == 429 and r.get_json()["error"]["code"] == "rate/limited"
    assert client.post("/api/decks", json={"name": "Ours"}).status_code == 201  # decks count apart
    other = client.post("/api/tables", json={"game": "rankfile"}, environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert other.status_code == 201
    clock.advance(60_000)
    assert client.post("/api/tables", json={"game": "rankfile"}).status_code == 201


RULE = {"trigger": {"kind": "card_played"}, "target": "other", "effect": "other", "text": "x",
        "creator": "Bo"}


def test_a_deck_holds_a_few_hundred_rules_and_says_so_when_full(client):
    deck_id = client.post("/api/decks", json={"name": "Ours"}).get_json()["id"]
    made = client.get(f"/api/decks/{deck_id}").get_json()
    cap = MAX_RULES
    full = {**made, "rules": made["rules"] + [RULE] * (cap - len(made["rules"]))}
    r = client.post("/api/decks/import", json=full)
    assert r.status_code == 201, r.get_json()
    owner = {"Authorization": f"Bearer {r.get_json()['owner_token']}"}
    refused = client.post(f"/api/decks/{r.get_json()['id']}/rules", headers=owner, json=RULE)
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "deck/full"
    assert refused.get_json()["error"]["params"] == {"max": cap}
    assert len(client.get(f"/api/decks/{r.get_json()['id']}").get_json()["rules"]) == cap
    over = client.post("/api/decks/import", json={**full, "rules": full["rules"] + [RULE]})
    assert over.status_code == 409 and over.get_json()["error"]["code"] == "deck/full"


def test_deck_writes_per_owner_token_have_a_ceiling(client, app, clock):
    limit = app.config["DECK_WRITES_PER_MINUTE"]
    mine, theirs = (client.post("/api/decks", json={"name": n}).get_json() for n in ("Ours", "Theirs"))
    owner = {"Authorization": f"Bearer {mine['owner_token']}"}
    rules = f"/api/decks/{mine['id']}/rules"
    statuses = [client.post(rules, headers=owner, json=RULE).status_code for _ in range(limit)]
    assert statuses == [201] * limit
    r = client.post(rules, headers=owner, json=RULE)
    assert r.status_code == 429 and r.get_json()["error"]["code"] == "rate/limited"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    card = client.post(f"/api/decks/{mine['id']}/cards/g2", headers=owner, json={"illustrated": True})
    assert card.status_code == 429  # a Game Card's effect is a deck write too
    # another owner at the same address (the same café) writes on
    other = {"Authorization": f"Bearer {theirs['owner_token']}"}
    assert client.post(f"/api/decks/{theirs['id']}/rules", headers=other, json=RULE).status_code == 201
    clock.advance(60_000)
    # someone without the token spends nothing of the owner's bucket
    wrong = {"Authorization": "Bearer wrong"}
    assert {client.post(rules, headers=wrong, json=RULE).status_code for _ in range(limit + 1)} == {401, 429}
    assert client.post(rules, headers=owner, json=RULE).status_code == 201
