"""A join resent with the same client id (#35 item 5): a phone whose join timed out (the
answer was lost, or the database was slow) and that sends it again gets the seat the first
one made, with the same token, and not `name_taken` for a seat nobody holds."""

from __future__ import annotations

import pytest

CID = "c0ffee" * 4


def post_join(tables, code, name, cid=CID):
    return tables.client.post(f"/api/tables/{code}/players", json={"name": name, "cid": cid})


@pytest.mark.both_backends
def test_a_resent_join_gets_the_same_seat_and_token(tables):
    code = tables.create("rankfile")["code"]
    first = post_join(tables, code, "Anna")
    assert first.status_code == 201
    again = post_join(tables, code, "Anna")
    assert again.status_code == 201, again.get_json()
    assert again.get_json() == first.get_json()
    assert tables.client.get(f"/api/tables/{code}").get_json()["players"] == ["Anna"]
    state = tables.state(code, again.get_json()["token"])
    assert state["state"]["me"]["player_id"] == first.get_json()["player_id"]


def test_a_join_resent_after_a_restart_gets_the_same_seat(tables, make_app):
    code = tables.create("rankfile")["code"]
    first = post_join(tables, code, "Anna").get_json()
    other = make_app().test_client()  # another process, or this one restarted: memory is empty
    again = other.post(f"/api/tables/{code}/players", json={"name": "Anna", "cid": CID})
    assert again.status_code == 201 and again.get_json() == first


def test_each_phone_gets_its_own_seat(tables):
    code = tables.create("rankfile")["code"]
    a = post_join(tables, code, "Anna", cid="a" * 20).get_json()
    b = post_join(tables, code, "Béla", cid="b" * 20).get_json()
    assert a["player_id"] != b["player_id"] and a["token"] != b["token"]
    assert post_join(tables, code, "Cili", cid="c" * 20).status_code == 201


def test_the_same_cid_with_another_name_is_refused(tables):
    code = tables.create("rankfile")["code"]
    post_join(tables, code, "Anna")
    r = post_join(tables, code, "Béla")
    assert r.status_code == 409
    assert r.get_json()["error"]["code"] == "table/cid_reused"
    assert tables.client.get(f"/api/tables/{code}").get_json()["players"] == ["Anna"]


def test_a_seat_handed_over_is_not_given_back_to_the_first_phone(tables):
    t = tables.create("rankfile")
    first = post_join(tables, t["code"], "Anna").get_json()
    r = tables.client.post(f"/api/tables/{t['code']}/players/{first['player_id']}/handover",
                           headers={"Authorization": f"Bearer {t['host_token']}"})
    assert r.status_code == 201
    again = post_join(tables, t["code"], "Anna")
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "table/name_taken"


@pytest.mark.parametrize("cid", ["short", 7, "x" * 65, ["a" * 20]])
def test_a_join_cid_is_long_random_text(tables, cid):
    """It stands for the seat's token until the answer arrives, so it is as hard to guess."""
    code = tables.create("rankfile")["code"]
    r = post_join(tables, code, "Anna", cid=cid)
    assert r.status_code == 400
    assert r.get_json()["error"]["code"] == "table/bad_cid"
    assert tables.client.get(f"/api/tables/{code}").get_json()["players"] == []


def test_a_join_without_cid_works_as_before(tables):
    code = tables.create("rankfile")["code"]
    tables.join(code, "Anna")
    r = tables.client.post(f"/api/tables/{code}/players", json={"name": "Anna"})
    assert r.status_code == 409
