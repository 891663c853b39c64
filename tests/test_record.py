"""The evening's record: every game at a table from its log, as JSON, CSV and BG Stats."""

import json

from companion.record.exports import from_csv


def _blanko_evening(tables, clock):
    """A short BLANKO game ended by the rules, then a Rank & File rematch the host ends."""
    code, host, tokens, ids = tables.seated("blanko", ["Anna", "Bela"], draw_start=False)
    anna, bela = tokens["Anna"], tokens["Bela"]
    clock.advance(60_000)
    tables.ok(code, anna, "blanko.lay", words=["LESŐ"], placed=4)
    clock.advance(60_000)
    tables.ok(code, bela, "blanko.lay", words=["RIGÓ", "ÍR"], placed=4)
    tables.ok(code, anna, "blanko.pass")
    tables.ok(code, bela, "blanko.pass")
    # The referee counts the racks: a player's own entry must hold all 8 letters the app counted.
    tables.ok(code, host, "blanko.rack", player=ids["Anna"], letters="A")
    clock.advance(30_000)
    assert tables.ok(code, host, "blanko.rack", player=ids["Bela"], letters="")["state"]["status"] == "ended"
    tables.ok(code, host, "table.rematch", game="rankfile")
    return code, host, tokens, ids


def _record(client, code, token, **query):
    return client.get(f"/api/tables/{code}/record", query_string=query,
                      headers={"Authorization": f"Bearer {token}"})


def test_the_record_has_every_game_with_scores_turn_by_turn(tables, client, clock):
    code, host, tokens, ids = _blanko_evening(tables, clock)
    anna, bela = ids["Anna"], ids["Bela"]
    r = _record(client, code, tokens["Bela"])
    assert r.status_code == 200
    doc = r.get_json()
    assert doc["code"] == code and [g["game"] for g in doc["games"]] == ["blanko", "rankfile"]
    first, second = doc["games"]
    assert first["players"] == [{"player_id": anna, "name": "Anna", "seat": 0, "removed": False},
                                {"player_id": bela, "name": "Bela", "seat": 1, "removed": False}]
    assert first["duration_ms"] == first["ended_ms"] - first["started_ms"] == 150_000
    assert first["scores"] == {anna: 10 - 1, bela: 12} and first["winners"] == [bela]
    assert first["ended_by"] == "rules"
    assert [t["scores"] for t in first["turns"]] == [
        {anna: 10, bela: 0}, {anna: 10, bela: 12}, {anna: 10, bela: 12}, {anna: 10, bela: 12},
        {anna: 9, bela: 12}, {anna: 9, bela: 12}]
    assert [t["player"] for t in first["turns"][:2]] == [anna, bela]
    words = first["details"]["words"]
    assert [(w["word"], w["points"]) for w in words] == [("LESŐ", 10), ("RIGÓ", 6), ("ÍR", 6)]
    assert first["details"]["racks"][anna] == {"tiles": ["A"], "deduction": 1}
    assert second["ended_ms"] is None and second["winners"] == [] and second["turns"] == []
    assert second["details"]["aces_flipped"] == 0
    # The host's table screen reads the same record.
    assert _record(client, code, host).get_json() == doc


def test_only_the_tables_own_tokens_read_its_record(tables, client, clock):
    code, _host, _tokens, _ids = _blanko_evening(tables, clock)
    other = tables.create("rankfile")
    assert client.get(f"/api/tables/{code}/record").status_code == 401
    r = _record(client, code, other["host_token"])
    assert r.status_code == 401 and r.get_json()["error"]["code"] == "auth/bad_token"
    r = _record(client, code, _host, format="xml")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "record/bad_format"


def test_csv_and_bg_stats_exports_round_trip(tables, client, clock):
    code, host, _tokens, ids = _blanko_evening(tables, clock)
    doc = _record(client, code, host).get_json()
    r = _record(client, code, host, format="csv")
    assert r.mimetype == "text/csv" and "attachment" in r.headers["Content-Disposition"]
    rows = from_csv(r.get_data(as_text=True))
    assert len(rows) == 4  # a row per player per game
    for g in doc["games"]:
        mine = [row for row in rows if row["game_no"] == str(g["no"])]
        assert [row["player_id"] for row in mine] == [p["player_id"] for p in g["players"]]
        assert {row["player_id"]: row["score"] for row in mine} == {
            p["player_id"]: str(g["scores"][p["player_id"]]) if g["scores"] else "" for p in g["players"]}
        assert [row["player_id"] for row in mine if row["winner"] == "1"] == g["winners"]
    bg = json.loads(_record(client, code, host, format="bgstats", tz=60).get_data(as_text=True))
    assert [x["name"] for x in bg["games"]] == ["BLANKO", "Rank & File"]
    assert sorted(p["name"] for p in bg["players"]) == ["Anna", "Bela"]
    play = bg["plays"][0]
    names = {p["id"]: p["name"] for p in bg["players"]}
    assert {names[s["playerRefId"]]: (s["score"], s["winner"]) for s in play["playerScores"]} == {
        "Anna": ("9", False), "Bela": ("12", True)}
    assert play["durationMin"] == 2 and bg["plays"][1]["ignored"] is True  # still being played
    assert _record(client, code, host, format="bgstats", tz=9999).status_code == 400


def test_a_name_that_looks_like_a_formula_is_defused_in_csv(tables, client):
    code, host, _tokens, _ids = tables.seated("rankfile", ["=1+2", "Bela"])
    tables.ok(code, host, "table.end_game")
    rows = from_csv(_record(client, code, host, format="csv").get_data(as_text=True))
    assert rows[0]["name"] == "'=1+2"


def test_the_score_chart_is_svg_with_names_escaped(tables, client, clock):
    code, host, _tokens, _ids = tables.seated("blanko", ["<b>Anna</b>", "Bela"], draw_start=False)
    tables.ok(code, _tokens["<b>Anna</b>"], "blanko.lay", words=["LESŐ"], placed=4)
    r = client.get(f"/api/tables/{code}/record/1/chart.svg", headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    svg = r.get_data(as_text=True)
    assert "<b>" not in svg and "&lt;b&gt;Anna&lt;/b&gt;: 10" in svg
    tables.ok(code, host, "table.end_game")
    tables.ok(code, host, "table.rematch", game="rankfile")  # no scores: no chart
    r = client.get(f"/api/tables/{code}/record/2/chart.svg", headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "record/no_chart"


def test_the_record_survives_kill_9_and_restart(db_url, serve):
    server = serve(db_url)
    t = server.call("/api/tables", {"game": "rankfile"})
    code, host = t["code"], t["host_token"]
    for name in ("Anna", "Bela"):
        server.call(f"/api/tables/{code}/players", {"name": name})
    for kind in ("table.start_game", "table.end_game", "table.rematch", "table.end_game"):
        server.call(f"/api/tables/{code}/commands", {"type": kind}, host)
    before = server.call(f"/api/tables/{code}/record", token=host)
    server.kill()
    server = serve(db_url)
    after = server.call(f"/api/tables/{code}/record", token=host)
    assert after == before and len(after["games"]) == 2
    assert all(g["ended_ms"] is not None for g in after["games"])
