"""Each game's part of the record, and the record's shape as docs/api.md documents it."""

import json
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs" / "api.md"
TYPES = {"object": dict, "array": list, "string": str, "integer": int, "boolean": bool, "null": type(None)}


def _schema():
    text = DOCS.read_text()
    block = re.search(r"```json\n(\{\n  \"\$schema\".*?)\n```", text, re.S)
    assert block, "docs/api.md documents the record's JSON schema"
    return json.loads(block.group(1))


def _check(value, schema, where="record"):
    """The part of JSON Schema the record's schema uses: type, required, properties, items,
    additionalProperties and enum."""
    kinds = schema.get("type")
    if kinds:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        assert any(isinstance(value, TYPES[k]) and not (k == "integer" and isinstance(value, bool))
                   for k in kinds), f"{where}: {value!r} is not {kinds}"
    if "enum" in schema:
        assert value in schema["enum"], f"{where}: {value!r} not in {schema['enum']}"
    if isinstance(value, dict):
        for key in schema.get("required", []):
            assert key in value, f"{where}: {key} is missing"
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                _check(value[key], sub, f"{where}.{key}")
        if isinstance(schema.get("additionalProperties"), dict):
            for key, v in value.items():
                _check(v, schema["additionalProperties"], f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            _check(v, schema["items"], f"{where}[{i}]")


def _record(client, code, token):
    r = client.get(f"/api/tables/{code}/record", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


PROJECT = {"type": "ordered", "elements": [["circle", "red"]] * 8}


def test_bldng_shows_who_built_what_and_projects_only_once_over(tables, client):
    code, host, tokens, ids = tables.seated("bldng", ["Anna", "Bela"])
    for name in ("Anna", "Bela"):
        tables.ok(code, tokens[name], "bldng.set_project", project=PROJECT)
    tables.ok(code, tokens["Anna"], "bldng.draw", card={"kind": "shape", "shape": "circle", "colour": "red"})
    playing = _record(client, code, tokens["Bela"])["games"][0]["details"]
    assert playing["built"][ids["Anna"]]["cards"] == 1 and "project" not in playing["built"][ids["Anna"]]
    tables.ok(code, host, "table.end_game")
    doc = _record(client, code, tokens["Bela"])
    _check(doc, _schema())
    built = doc["games"][0]["details"]["built"]
    assert built[ids["Anna"]]["project"] == PROJECT and built[ids["Anna"]]["hand"][0]["shape"] == "circle"


def test_rank_and_file_keeps_aces_and_the_outcome(tables, client):
    code, host, tokens, ids = tables.seated("rankfile", ["Anna", "Bela"])
    tables.ok(code, tokens["Anna"], "rankfile.guess", player=ids["Bela"], position=0, number=3, correct=False)
    tables.ok(code, host, "table.end_game")
    g = _record(client, code, host)["games"][0]
    assert g["cooperative"] and g["scores"] == {} and g["ended_by"] == "host"
    assert g["details"]["aces_flipped"] == 1
    assert g["details"]["guesses"][ids["Anna"]] == {"right": 0, "wrong": 1}
    assert [t["player"] for t in g["turns"]] == [ids["Anna"]]


def test_blank_keeps_penalties_rules_in_play_and_the_prize(tables, client):
    deck_id = client.post("/api/decks", json={"name": "Ours"}).get_json()["id"]
    code, host, tokens, ids = tables.seated("blank", ["Anna", "Bela"], deck_id=deck_id, rule_cards="app")
    tables.ok(code, host, "blank.first_card", card={"colour": "circle", "number": 3})
    tables.ok(code, tokens["Anna"], "blank.draw")  # no card to play: a penalty
    # A short game: Bela lays all seven cards at once, all circles (the record is folded from
    # the log, so the game has to be won there, not in memory).
    played = tables.ok(code, tokens["Bela"], "blank.play",
                       cards=[{"colour": "circle", "number": n} for n in (1, 2, 3, 4, 5, 6, 6)])
    if played["state"]["game_state"]["going_out"]:  # a rule went off: Anna confirms it was followed
        tables.ok(code, tokens["Anna"], "blank.resolved")
    tables.ok(code, tokens["Bela"], "blank.propose_rule",
              rule={"title": "Six", "trigger": {"kind": "number_played", "number": 6},
                    "target": "next_player", "effect": "draw_card", "text": "the next player draws",
                    "creator": "Bela"})
    tables.ok(code, host, "blank.decide_prize", approved=True)
    doc = _record(client, code, host)
    _check(doc, _schema())
    d = doc["games"][0]["details"]
    assert d["penalties"] == [{"player": ids["Anna"], "reason": "no_match"}]
    assert d["penalty_counts"] == {ids["Anna"]: 1, ids["Bela"]: 0}
    assert len(d["rules_in_play"]) == 3 and d["deck"] == "Ours"
    assert d["winner"] == ids["Bela"] and d["prize"]["rule"]["text"] == "the next player draws"
    assert doc["games"][0]["winners"] == [ids["Bela"]]


def test_blanko_record_matches_the_documented_schema(tables, client):
    code, host, tokens, _ids = tables.seated("blanko", ["Anna", "Bela"], draw_start=False)
    tables.ok(code, tokens["Anna"], "blanko.lay", words=["LESŐ"], placed=4)
    tables.ok(code, tokens["Bela"], "blanko.challenge")
    doc = _record(client, code, host)
    _check(doc, _schema())
    word = doc["games"][0]["details"]["words"][0]
    assert word["word"] == "LESŐ" and word["status"] in ("valid", "rejected")
