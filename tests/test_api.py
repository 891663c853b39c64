"""The HTTP surface of CONTRACT.md, including every way a request can be wrong."""

import shutil
import subprocess

import pytest

from companion.table.service import CODE_ALPHABET, CODE_LENGTH


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.get_json() == {"ok": True}


def test_create_join_state(tables, client):
    t = tables.create("rankfile")
    assert len(t["code"]) == CODE_LENGTH and set(t["code"]) <= set(CODE_ALPHABET)
    assert t["join_url"].split("#")[0].endswith(f"/t/{t['code']}")  # the fragment: test_qr_join.py
    assert len(t["host_token"]) >= 22  # 128 bits, URL-safe base64
    j = tables.join(t["code"], "Anna")
    st = tables.state(t["code"], j["token"])
    assert st["game"] == "rankfile" and st["seq"] == 2
    assert st["state"]["me"] == {"player_id": j["player_id"], "is_host": False}
    assert [p["name"] for p in st["state"]["players"]] == ["Anna"]
    assert st["state"]["timer"] == {"running": False, "duration_ms": 60000, "remaining_ms": 60000,
                                    "ends_at_ms": None, "phase": "ready"}


def test_codes_are_case_insensitive(tables):
    t = tables.create()
    j = tables.join(t["code"].lower(), "Anna")
    assert tables.state(t["code"].lower(), j["token"])["seq"] == 2


@pytest.mark.parametrize("body, code", [
    ({"game": "chess"}, "table/unknown_game"),
    ({}, "table/unknown_game"),
    ({"game": "rankfile", "options": []}, "table/bad_options"),
    ({"game": "rankfile", "options": {"variant": "hard"}}, "rankfile/bad_variant"),
])
def test_create_refuses_bad_input(client, body, code):
    r = client.post("/api/tables", json=body)
    assert 400 <= r.status_code < 500 and r.get_json()["error"]["code"] == code


@pytest.mark.parametrize("data", [b"{not json", b"[1, 2]", b"\xff\xfe"])
def test_bad_json_is_a_clear_400(client, data):
    r = client.post("/api/tables", data=data, content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "http/bad_json"


def test_oversized_body_is_413(client):
    r = client.post("/api/tables", data=b"{" + b" " * 70_000 + b"}", content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "http/too_large"


def test_unknown_table(client):
    r = client.get("/api/tables/ZZZZZ/state", headers={"Authorization": "Bearer x"})
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "table/unknown"


@pytest.mark.parametrize("headers, code", [
    ({}, "auth/missing_token"),
    ({"Authorization": "Bearer nope"}, "auth/bad_token"),
    ({"Authorization": "Basic abc"}, "auth/missing_token"),
])
def test_tokens_are_required(tables, client, headers, code):
    t = tables.create()
    r = client.get(f"/api/tables/{t['code']}/state", headers=headers)
    assert r.status_code == 401 and r.get_json()["error"]["code"] == code


def test_one_tables_token_cannot_touch_another(tables):
    a, b = tables.create(), tables.create()
    pa = tables.join(a["code"], "Anna")
    for token in (pa["token"], a["host_token"]):
        r = tables.command(b["code"], token, "timer.start")
        assert r.status_code == 401


def test_player_cannot_act_as_host(tables):
    t = tables.create()
    p = tables.join(t["code"], "Anna")
    for cmd in ("table.lock", "table.start_game", "table.end_game"):
        r = tables.command(t["code"], p["token"], cmd)
        assert r.status_code == 403 and r.get_json()["error"]["code"] == "table/host_only"


@pytest.mark.parametrize("body, status, code", [
    ({"type": "table.dance"}, 422, "table/unknown_command"),
    ({"type": "chess.move"}, 422, "table/unknown_command"),
    ({"nope": 1}, 422, "table/missing_field"),
    ({"type": 7}, 422, "table/missing_field"),
    ({"type": "timer.start", "seconds": "ten"}, 422, "table/bad_field"),
    ({"type": "timer.start", "seconds": 0}, 422, "table/bad_field"),
    ({"type": "timer.pause"}, 409, "timer/not_running"),
    ({"type": "rankfile.guess"}, 409, "table/not_started"),
    ({"type": "timer.start", "cid": ["x"]}, 400, "table/bad_command"),
])
def test_bad_commands_get_clear_errors(tables, body, status, code):
    t = tables.create()
    p = tables.join(t["code"], "Anna")
    r = tables.client.post(f"/api/tables/{t['code']}/commands", json=body,
                           headers={"Authorization": f"Bearer {p['token']}"})
    assert r.status_code == status, r.get_json()
    assert r.get_json()["error"]["code"] == code
    assert tables.state(t["code"], p["token"])["seq"] == 2  # nothing was recorded


def test_out_of_turn_is_a_conflict(tables):
    code, _host, tokens, ids = tables.seated("rankfile", ["Anna", "Bela"])
    r = tables.command(code, tokens["Bela"], "rankfile.guess", player=ids["Anna"], position=0,
                       number=2, correct=False)
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "table/not_your_turn"


@pytest.mark.parametrize("name, code", [("", "table/bad_name"), ("   ", "table/bad_name"),
                                        ("x" * 25, "table/bad_name"), (42, "table/bad_name")])
def test_join_refuses_bad_names(tables, client, name, code):
    t = tables.create()
    r = client.post(f"/api/tables/{t['code']}/players", json={"name": name})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == code


def test_names_are_cleaned_and_unique(tables, client):
    t = tables.create()
    j = tables.join(t["code"], "  Anna \u200b\n Kovács ")
    st = tables.state(t["code"], j["token"])["state"]
    assert st["players"][0]["name"] == "Anna Kovács"
    r = client.post(f"/api/tables/{t['code']}/players", json={"name": "anna kovács"})
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "table/name_taken"


def test_lock_remove_and_end(tables, client):
    t = tables.create()
    code, host = t["code"], t["host_token"]
    anna, bela = tables.join(code, "Anna"), tables.join(code, "Bela")
    tables.ok(code, host, "table.lock")
    r = client.post(f"/api/tables/{code}/players", json={"name": "Cili"})
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "table/locked"
    tables.ok(code, host, "table.unlock")
    tables.join(code, "Cili")
    tables.ok(code, host, "table.remove_player", player_id=bela["player_id"])
    r = client.get(f"/api/tables/{code}/state", headers={"Authorization": f"Bearer {bela['token']}"})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "auth/removed"
    tables.ok(code, host, "table.start_game")
    st = tables.ok(code, host, "table.end_game")["state"]
    assert st["status"] == "ended" and st["result"]["outcome"] == "unfinished"
    games = client.get("/api/history").get_json()["games"]
    assert games[0]["code"] == code and games[0]["names"][anna["player_id"]] == "Anna"


@pytest.mark.both_backends
def test_undo_by_author_and_host(tables):
    t = tables.create()
    code, host = t["code"], t["host_token"]
    anna, bela = tables.join(code, "Anna"), tables.join(code, "Bela")
    tables.ok(code, anna["token"], "timer.start", seconds=30)
    r = tables.command(code, bela["token"], "undo")
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "table/undo_not_yours"
    st = tables.ok(code, anna["token"], "undo")["state"]
    assert st["timer"]["phase"] == "ready"
    r = tables.command(code, anna["token"], "undo")  # joins are not undone
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "table/nothing_to_undo"
    tables.ok(code, bela["token"], "timer.start", seconds=30)
    tables.ok(code, host, "undo")
    hist = tables.client.get(f"/api/tables/{code}/history",
                             headers={"Authorization": f"Bearer {anna['token']}"}).get_json()
    kinds = [(h["event"]["type"], h.get("undone")) for h in hist["events"]]
    assert kinds[-4:] == [("TimerStarted", True), ("CommandUndone", False),
                          ("TimerStarted", True), ("CommandUndone", False)]


@pytest.mark.both_backends
def test_undo_brings_back_an_ended_game(tables):
    code, host, _tokens, _ids = tables.seated("rankfile", ["Anna", "Bela"])
    tables.ok(code, host, "table.end_game")
    st = tables.ok(code, host, "undo")["state"]
    assert st["status"] == "playing" and st["result"] is None


def test_resent_command_is_applied_once(tables):
    t = tables.create()
    p = tables.join(t["code"], "Anna")
    first = tables.ok(t["code"], p["token"], "timer.start", cid="c-1")
    again = tables.ok(t["code"], p["token"], "timer.start", cid="c-1")
    assert first["seq"] == again["seq"] == 3
    assert tables.state(t["code"], p["token"])["seq"] == 3


def test_wrong_codes_are_rate_limited(client, app):
    limit = app.config["WRONG_CODES_PER_MINUTE"]
    codes = [client.get(f"/api/tables/QQQ{i:02d}").status_code for i in range(limit + 3)]
    assert codes[:limit] == [404] * limit and codes[-1] == 429
    assert client.get("/api/tables/QQQ00").get_json()["error"]["code"] == "rate/limited"


def test_joins_are_rate_limited(tables, client, app):
    t = tables.create()
    statuses = [client.post(f"/api/tables/{t['code']}/players", json={"name": f"P{i}"}).status_code
                for i in range(app.config["JOINS_PER_MINUTE"] + 1)]
    assert 429 in statuses


def test_security_headers(client):
    with client.get("/") as r:
        r.get_data()
    csp = r.headers["Content-Security-Policy"]  # noqa: F821 - r lives on after the with
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbar-tools is installed by make test")
def test_qr_png_decodes_to_join_url(tables, client, tmp_path):
    t = tables.create()
    png = client.get(f"/api/tables/{t['code']}/qr.png")
    assert png.mimetype == "image/png"
    (tmp_path / "qr.png").write_bytes(png.data)
    out = subprocess.run(["zbarimg", "--quiet", "--raw", str(tmp_path / "qr.png")],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == t["join_url"].split("#")[0]  # without the host's token, no join secret
    svg = client.get(f"/api/tables/{t['code']}/qr.svg")
    assert svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
