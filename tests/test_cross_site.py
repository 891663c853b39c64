"""Writes to the API from another site's page: a visitor's browser must not take seats or open
tables at a code it was shown (#30 item 5)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("content_type, data", [
    ("text/plain", '{"name": "Mallory"}'),
    ("application/x-www-form-urlencoded", "name=Mallory"),
    ("multipart/form-data; boundary=x",
     '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nM\r\n--x--\r\n'),
    (None, '{"name": "Mallory"}'),
])
def test_a_join_that_is_not_json_is_refused(client, tables, content_type, data):
    code = tables.create("rankfile")["code"]
    headers = {"Content-Type": content_type} if content_type else {}
    r = client.post(f"/api/tables/{code}/players", data=data, headers=headers)
    assert r.status_code == 415
    assert r.get_json()["error"]["code"] == "http/not_json"
    r = client.post("/api/tables", data='{"game": "rankfile"}', headers=headers)
    assert r.status_code == 415


def test_a_write_from_another_origin_is_refused(client, tables):
    code = tables.create("rankfile")["code"]
    evil = {"Origin": "http://evil.example"}
    r = client.post(f"/api/tables/{code}/players", json={"name": "Mallory"}, headers=evil)
    assert r.status_code == 403
    assert r.get_json()["error"]["code"] == "http/cross_origin"
    assert client.post("/api/tables", json={"game": "rankfile"}, headers=evil).status_code == 403


def test_the_servers_own_pages_and_tools_still_write(client, tables):
    code = tables.create("rankfile")["code"]
    own = {"Origin": "http://localhost"}  # the test client's host
    assert client.post(f"/api/tables/{code}/players", json={"name": "Anna"}, headers=own).status_code == 201
    assert client.post(f"/api/tables/{code}/players", json={"name": "Bela"}).status_code == 201  # curl


def test_a_tokened_write_without_a_body_needs_no_json(client, tables):
    """The host's hand-over carries its token: a header no cross-site form can send."""
    t = tables.create("rankfile")
    seat = tables.join(t["code"], "Anna")
    r = client.post(f"/api/tables/{t['code']}/players/{seat['player_id']}/handover",
                    headers={"Authorization": f"Bearer {t['host_token']}"})
    assert r.status_code == 201
