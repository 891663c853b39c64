"""The host hands a seat to a new phone: a phone that lost its storage gets its seat back, the
old token stops working and its sockets are closed, and nothing of the game is lost."""

from __future__ import annotations


def hand_over(client, code, host_token, player_id):
    return client.post(f"/api/tables/{code}/players/{player_id}/handover",
                       headers={"Authorization": f"Bearer {host_token}"})


def test_the_new_phone_plays_on_and_the_old_token_stops(live, live_tables):
    code, host, tokens, ids = live_tables.seated("blanko", ["Anna", "Béla"])
    live_tables.ok(code, tokens["Anna"], "timer.start", seconds=60)
    before = live_tables.state(code, host)
    old = live.ws(code, tokens["Béla"])
    old.until("ready")

    r = hand_over(live_tables.client, code, host, ids["Béla"])
    assert r.status_code == 201
    seat = r.get_json()
    assert seat["player_id"] == ids["Béla"]
    assert seat["url"].endswith(f"/t/{code}#seat={seat['token']}&game=blanko")  # the game: fetched at once
    assert seat["qr_svg"].lstrip().startswith("<?xml") or "<svg" in seat["qr_svg"]

    err = old.until("error")
    assert err["error"]["code"] == "auth/handed_over"
    assert live_tables.client.get(f"/api/tables/{code}/state", headers={
        "Authorization": f"Bearer {tokens['Béla']}"}).get_json()["error"]["code"] == "auth/handed_over"
    again = live.ws(code, tokens["Béla"])  # a phone that missed the closing message is told too
    assert again.until("error")["error"]["code"] == "auth/handed_over"

    after = live_tables.state(code, seat["token"])
    assert after["state"]["me"]["player_id"] == ids["Béla"]
    assert after["seq"] == before["seq"]  # nothing happened in the game
    assert after["state"]["game_state"]["scores"] == before["state"]["game_state"]["scores"]
    assert [p["name"] for p in after["state"]["players"]] == ["Anna", "Béla"]
    new = live.ws(code, seat["token"])
    assert new.until("snapshot")["state"]["me"]["player_id"] == ids["Béla"]


def test_only_the_host_hands_over_and_only_a_seated_player(live_tables):
    code, host, tokens, ids = live_tables.seated("rankfile", ["Anna", "Béla"])
    r = hand_over(live_tables.client, code, tokens["Anna"], ids["Béla"])
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "table/host_only"
    r = hand_over(live_tables.client, code, host, "nobody")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "table/unknown_player"
    live_tables.ok(code, host, "table.remove_player", player_id=ids["Béla"])
    assert hand_over(live_tables.client, code, host, ids["Béla"]).status_code == 404
    # Anna's token is untouched by all of this.
    assert live_tables.state(code, tokens["Anna"])["state"]["me"]["player_id"] == ids["Anna"]
