"""The rematch: the same seats and tokens start another game; the finished one stays."""

from companion import create_app


def _ended(tables, game="rankfile", names=("Anna", "Bela"), **options):
    code, host, tokens, ids = tables.seated(game, list(names), **options)
    tables.ok(code, host, "table.end_game")
    return code, host, tokens, ids


def test_a_rematch_keeps_seats_and_tokens_and_starts_the_same_game(tables):
    code, host, tokens, ids = _ended(tables, variant="easy")
    r = tables.ok(code, host, "table.rematch")["state"]
    assert r["status"] == "playing" and r["game"] == "rankfile" and r["seats"] == [ids["Anna"], ids["Bela"]]
    assert r["game_state"]["options"]["variant"] == "easy" and r["game_state"]["aces_flipped"] == 0
    assert r["result"] is None and r["ended_ms"] is None
    # The phones' tokens go on working for the new game: nobody rescans.
    mine = tables.state(code, tokens["Bela"])["state"]
    assert mine["me"]["player_id"] == ids["Bela"] and mine["status"] == "playing"
    tables.ok(code, tokens["Anna"], "rankfile.guess", player=ids["Bela"], position=0, number=2, correct=False)


def test_a_rematch_may_switch_game_and_seat_order(tables):
    code, host, _tokens, ids = _ended(tables)
    seats = [ids["Bela"], ids["Anna"]]
    r = tables.ok(code, host, "table.rematch", game="bldng", options={"direction": "anticlockwise"},
                  seats=seats)["state"]
    assert r["game"] == "bldng" and r["title"] == "BLDNG" and r["seats"] == seats
    assert r["game_state"]["options"] == {"direction": "anticlockwise"}


def test_only_the_host_and_only_once_the_game_is_over(tables):
    code, host, tokens, _ids = tables.seated("rankfile", ["Anna", "Bela"])
    assert tables.command(code, host, "table.rematch").get_json()["error"]["code"] == "table/not_over"
    tables.ok(code, host, "table.end_game")
    r = tables.command(code, tokens["Anna"], "table.rematch")
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "table/host_only"
    r = tables.command(code, host, "table.rematch", game="chess")
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "table/unknown_game"
    r = tables.command(code, host, "table.rematch", game="bldng", options=[1])
    assert r.get_json()["error"]["code"] == "table/bad_options"
    r = tables.command(code, host, "table.rematch", seats=["nobody"])
    assert r.get_json()["error"]["code"] == "table/bad_seats"


def test_a_removed_player_is_not_seated_again_and_counts_are_checked(tables):
    code, host, _tokens, ids = _ended(tables, "bldng", ("Anna", "Bela", "Cili"))
    tables.ok(code, host, "table.remove_player", player_id=ids["Cili"])
    assert tables.ok(code, host, "table.rematch")["state"]["seats"] == [ids["Anna"], ids["Bela"]]
    tables.ok(code, host, "table.end_game")
    tables.ok(code, host, "table.remove_player", player_id=ids["Bela"])
    r = tables.command(code, host, "table.rematch")
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "table/player_count"


def test_undoing_a_rematch_brings_back_the_finished_game(tables):
    code, host, _tokens, _ids = _ended(tables)
    before = tables.state(code, host)["state"]
    tables.ok(code, host, "table.rematch")
    after = tables.ok(code, host, "undo")["state"]
    assert after["status"] == "ended" and after["result"] == before["result"]


def test_a_rematch_survives_a_restart(tables, db_url, clock):
    code, host, tokens, _ids = _ended(tables)
    tables.ok(code, host, "table.rematch", game="bldng")
    before = tables.state(code, tokens["Anna"])
    again = create_app({"DATABASE_URL": db_url, "CLOCK": clock}).test_client()
    after = again.get(f"/api/tables/{code}/state", headers={"Authorization": f"Bearer {tokens['Anna']}"})
    assert after.get_json() == before


def test_a_blank_rematch_features_the_winners_new_rule(tables, client):
    deck_id = client.post("/api/decks", json={"name": "Ours"}).get_json()["id"]
    code, host, tokens, ids = tables.seated("blank", ["Anna", "Bela"], deck_id=deck_id, rule_cards="app")
    tables.ok(code, host, "blank.first_card", card={"colour": "circle", "number": 3})
    live = client.application.extensions["companion"].tables.live(code)
    live.state["game_state"]["hands"][ids["Anna"]] = 1  # a short game: Anna is down to one card
    played = tables.ok(code, tokens["Anna"], "blank.play", cards=[{"colour": "circle", "number": 6}])
    if played["state"]["game_state"]["going_out"]:  # a rule went off: Bela confirms it was followed
        tables.ok(code, tokens["Bela"], "blank.resolved")
    tables.ok(code, tokens["Anna"], "blank.propose_rule",
              rule={"title": "Six", "trigger": {"kind": "number_played", "number": 6},
                    "target": "next_player", "effect": "draw_card", "text": "the next player draws",
                    "creator": "Anna"})
    assert tables.ok(code, host, "blank.decide_prize", approved=True)["state"]["status"] == "ended"
    new_rule = client.get(f"/api/decks/{deck_id}").get_json()["rules"][-1]["id"]
    view = tables.ok(code, host, "table.rematch")["state"]["game_state"]
    assert view["featured"] == new_rule and new_rule in [r["id"] for r in view["rules"]]
    assert view["rules_needed"] == 0  # the rematch kept the table's choice: the app draws the rules
    assert view["hands"] == {ids["Anna"]: 7, ids["Bela"]: 7}


def test_connected_phones_move_to_the_rematch_on_their_sockets(live, live_tables):
    t = live_tables.create("rankfile")
    anna, bela = live_tables.join(t["code"], "Anna"), live_tables.join(t["code"], "Bela")
    live_tables.ok(t["code"], t["host_token"], "table.start_game")
    live_tables.ok(t["code"], t["host_token"], "table.end_game")
    phones = [live.ws(t["code"], p["token"]) for p in (anna, bela)]
    for ws in phones:
        ws.until("ready")
    host = live.ws(t["code"], t["host_token"])
    host.until("ready")
    host.send({"type": "table.rematch", "game": "bldng", "cid": "again"})
    assert host.until("ack")["cid"] == "again"
    for ws, me in zip(phones, (anna, bela), strict=True):
        got = [ws.until("event") for _ in range(3)]  # RematchStarted, GameStarted, the deal
        assert [m["event"]["type"] for m in got[:2]] == ["RematchStarted", "GameStarted"]
        state = got[-1]["state"]
        assert state["game"] == "bldng" and state["game_no"] == 2 and state["status"] == "playing"
        assert state["me"]["player_id"] == me["player_id"]
