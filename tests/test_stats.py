"""Stats across tables, from the log: who played, who won, best scores and words, head to head."""

import json

from sqlalchemy import inspect

from companion.record.admin import key_file
from companion.record.exports import from_csv
from companion.record.people import forget, person_of

KEY = "anna-phone-0123456789"


def _join(client, code, name, identity=None):
    r = client.post(f"/api/tables/{code}/players",
                    json={"name": name, **({"identity": identity} if identity else {})})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _table(tables, client, game, players, **options):
    """A table with ``players`` [(name, identity)], started: (code, host, {name: token})."""
    t = tables.create(game, **options)
    joined = {n: _join(client, t["code"], n, i) for n, i in players}
    tables.ok(t["code"], t["host_token"], "table.start_game")
    return t["code"], t["host_token"], {n: j["token"] for n, j in joined.items()}


def _stats(client, **body):
    r = client.post("/api/stats", json=body)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _evening(tables, client):
    """BLANKO won by Bela (Anna's phone has the identity), then a Rank & File table, and a
    table Anna never sat at."""
    code, host, tok = _table(tables, client, "blanko", [("Anna", KEY), ("Bela", None)], draw_start=False)
    tables.ok(code, tok["Anna"], "blanko.lay", words=["LESŐ"], placed=4)
    tables.ok(code, tok["Bela"], "blanko.lay", words=["RIGÓ", "ÍR"], placed=4)
    tables.ok(code, host, "table.end_game")
    code2, host2, _tok2 = _table(tables, client, "rankfile", [("Anna B", KEY), ("Bela", None)])
    tables.ok(code2, host2, "table.end_game")
    code3, host3, _tok3 = _table(tables, client, "bldng", [("Cili", None), ("Dani", None)])
    tables.ok(code3, host3, "table.end_game")
    return code, host, tok


def test_a_phone_sees_stats_of_the_tables_it_sat_at_only(tables, client):
    _evening(tables, client)
    s = _stats(client, identity=KEY)
    assert s["tables"] == 2 and s["games_played"] == 2 and s["me"] == "me"
    by = {p["name"]: p for p in s["players"]}
    assert set(by) == {"Anna B", "Bela"}  # Anna is one person under both names; no Cili, no Dani
    me = by["Anna B"]
    assert (me["key"], me["games"], me["wins"], me["average"], me["best"]) == ("me", 2, 0, 10.0, 10)
    assert me["best_word"]["word"] == "LESŐ" and by["Bela"]["best_word"] == {
        "word": "RIGÓ", "points": 6, "player": by["Bela"]["key"], "table": me["best_word"]["table"],
        "game_no": 1}
    assert [g["game"] for g in me["by_game"]] == ["blanko", "rankfile"]
    blanko = next(g for g in s["games"] if g["game"] == "blanko")
    assert blanko["best"] == {"player": by["Bela"]["key"], "score": 12}
    # Rank & File is played together: only BLANKO counts head to head.
    assert s["head_to_head"] == [{"a": by["Bela"]["key"], "b": "me", "games": 1, "a_wins": 1, "b_wins": 0}]
    assert s["charts"]["wins"].startswith("<svg") and "Bela: 1/2" in s["charts"]["wins"]
    assert KEY not in json.dumps(s) and person_of(KEY) not in json.dumps(s)
    assert _stats(client, identity="someone-else-9876543210")["tables"] == 0


def test_tokens_show_their_tables_and_the_host_screen_sees_its_tables(tables, client):
    _code, host, tok = _evening(tables, client)
    s = _stats(client, tokens=[host, "not-a-token"])
    assert s["tables"] == 1 and s["me"] is None and {p["name"] for p in s["players"]} == {"Anna", "Bela"}
    assert _stats(client, tokens=[tok["Bela"]])["games_played"] == 1
    r = client.post("/api/stats", json={"identity": "short"})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "table/bad_identity"


def test_by_name_when_the_player_chooses(tables, client):
    code, host, tok = _table(tables, client, "blanko", [("Anna", KEY), ("Bela", None)], draw_start=False)
    tables.ok(code, host, "table.end_game")
    # Anna played on a friend's phone too; that table is visible to her only with its token.
    code2, host2, tok2 = _table(tables, client, "bldng", [("anna", None), ("Cili", None)])
    tables.ok(code2, host2, "table.end_game")
    apart = _stats(client, identity=KEY, name="Anna", tokens=[tok2["anna"]])
    assert next(p for p in apart["players"] if p["key"] == "me")["games"] == 1
    merged = _stats(client, identity=KEY, name="Anna", tokens=[tok2["anna"]], by_name=True)
    assert next(p for p in merged["players"] if p["key"] == "me")["games"] == 2


def test_stats_come_from_the_log_and_are_stored_nowhere_else(tables, client, app):
    code, host, _tok = _evening(tables, client)
    engine = app.extensions["companion"].store.engine
    kept = inspect(engine).get_table_names()
    assert {"tables", "players", "events"} <= set(kept)
    assert not [n for n in kept if any(w in n for w in ("stat", "record", "score", "person", "identit"))]
    assert _stats(client, identity=KEY)["games_played"] == 2
    tables.ok(code, host, "undo")  # the BLANKO game had not ended after all
    s = _stats(client, identity=KEY)
    assert s["games_played"] == 1 and [g["game"] for g in s["games"]] == ["rankfile"]


def test_the_identity_never_reaches_other_phones(tables, client):
    code, host, tok = _table(tables, client, "rankfile", [("Anna", KEY), ("Bela", None)])
    seen = json.dumps(client.get(f"/api/tables/{code}/history",
                                 headers={"Authorization": f"Bearer {tok['Bela']}"}).get_json())
    seen += json.dumps(client.get(f"/api/tables/{code}/history",
                                  headers={"Authorization": f"Bearer {host}"}).get_json())
    seen += json.dumps(client.get(f"/api/tables/{code}/record",
                                  headers={"Authorization": f"Bearer {tok['Anna']}"}).get_json())
    assert person_of(KEY) not in seen and KEY not in seen


def test_the_servers_host_can_delete_a_players_history(tables, client, app):
    code, host, _tok = _evening(tables, client)
    services = app.extensions["companion"]
    touched = forget(services.store, person=person_of(KEY))
    assert len(touched) == 2 and code in touched
    for c in touched:
        services.tables.evict(c)
    assert _stats(client, identity=KEY)["tables"] == 0
    doc = client.get(f"/api/tables/{code}/record", headers={"Authorization": f"Bearer {host}"}).get_json()
    assert [p["name"] for p in doc["games"][0]["players"]] == ["", "Bela"]
    assert doc["games"][0]["scores"]  # the game stays, for Bela
    history = client.get(f"/api/tables/{code}/history", headers={"Authorization": f"Bearer {host}"})
    assert "Anna" not in history.get_data(as_text=True)
    assert forget(services.store, name="BELA") == touched  # by name, in any case


def test_companion_forget_asks_the_running_server_with_its_key(live, live_tables, tmp_path, capsys):
    from companion.commands.cli import main

    t = live_tables.create("rankfile")
    _join(live_tables.client, t["code"], "Anna", KEY)
    _join(live_tables.client, t["code"], "Bela")
    key = key_file(live.app)
    assert key.stat().st_mode & 0o077 == 0  # the server's host's alone
    r = live_tables.client.post("/api/admin/forget", json={"name": "Anna"},
                                headers={"Authorization": "Bearer guess"})
    assert r.status_code == 401
    assert main(["forget", "--identity", KEY, "--url", live.url, "--key", str(key)]) == 0
    assert t["code"] in capsys.readouterr().out
    names = live_tables.client.get(f"/api/tables/{t['code']}").get_json()["players"]
    assert names == ["", "Bela"]
    assert main(["forget", "--url", live.url, "--key", str(key)]) == 1  # nobody named
    assert main(["forget", "Bela", "--url", live.url, "--key", str(tmp_path / "none")]) == 1


def test_every_visible_game_exports_at_once_for_bg_stats_and_csv(tables, client):
    _evening(tables, client)
    r = client.post("/api/stats/export?format=bgstats&tz=60", json={"identity": KEY})
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    doc = json.loads(r.get_data(as_text=True))
    assert [g["name"] for g in doc["games"]] == ["BLANKO", "Rank & File"] and len(doc["plays"]) == 2
    assert sorted(p["name"] for p in doc["players"]) == ["Anna", "Anna B", "Bela"]  # Bela once
    csv = client.post("/api/stats/export?format=csv", json={"identity": KEY}).get_data(as_text=True)
    rows = from_csv(csv)
    assert len(rows) == 4 and len({row["table"] for row in rows}) == 2
    assert "Cili" not in json.dumps(doc) and all(row["name"] != "Cili" for row in rows)
    r = client.post("/api/stats/export?format=pdf", json={"identity": KEY})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "record/bad_format"
