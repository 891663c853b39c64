"""The record's CSV in the phone's language (``?lang=``): headers and results worded from the
catalogues that word the screens; without a language, the stable machine names of before."""

import json
from pathlib import Path

from companion.record.exports import CSV_COLUMNS, from_csv

CATALOGUES = Path(__file__).resolve().parents[1] / "static" / "i18n"
HU = json.loads((CATALOGUES / "hu.json").read_text("utf-8"))


def _evening(tables, clock):
    """A BLANKO game Bela wins, then a Rank & File rematch still being played."""
    code, host, tokens, ids = tables.seated("blanko", ["Anna", "Bela"], draw_start=False)
    tables.ok(code, tokens["Anna"], "blanko.lay", words=["LESŐ"], placed=4)
    tables.ok(code, tokens["Bela"], "blanko.lay", words=["RIGÓ", "ÍR"], placed=4)
    tables.ok(code, tokens["Anna"], "blanko.pass")
    tables.ok(code, tokens["Bela"], "blanko.pass")
    tables.ok(code, host, "blanko.rack", player=ids["Anna"], letters="A")
    tables.ok(code, host, "blanko.rack", player=ids["Bela"], letters="")
    tables.ok(code, host, "table.rematch", game="rankfile")
    return code, host


def _csv(client, code, token, **query):
    r = client.get(f"/api/tables/{code}/record", query_string={"format": "csv", **query},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.get_json()
    return r.get_data(as_text=True)


def test_a_hungarian_phone_gets_a_hungarian_csv(tables, client, clock):
    code, host = _evening(tables, clock)
    text = _csv(client, code, host, lang="hu")
    assert text.splitlines()[0].split(",") == [HU["csv"][c] for c in CSV_COLUMNS]
    rows = list(csv_rows(text))
    assert [r[-1] for r in rows] == ["Bela nyert, 12 ponttal"] * 2 + ["Félbemaradt; 0/4 ász fordult fel"] * 2
    # every game the stats page counts, in one file: the same words
    every = client.post("/api/stats/export?format=csv&lang=hu", json={"tokens": [host]})
    assert every.get_data(as_text=True) == text


def test_english_words_and_the_machine_names_without_a_language(tables, client, clock):
    code, host = _evening(tables, clock)
    english = list(csv_rows(_csv(client, code, host, lang="en")))
    assert english[0][-1] == "Bela won with 12 points"
    assert english[2][-1] == "Left unfinished: 0 of 4 aces flipped"
    rows = from_csv(_csv(client, code, host))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [r["summary"] for r in rows] == ["final"] * 2 + ["unfinished"] * 2


def test_the_winners_agree_with_their_verb(tables, client):
    """"Anna nyert", "Anna, Bela nyertek": the plural form is picked by the number of winners."""
    from companion.record.words import Words

    players = [{"player_id": "a", "name": "Anna"}, {"player_id": "b", "name": "Bela"}]
    won = {"game": "blank", "summary": "won", "result": {"outcome": "won"}, "players": players}
    hu = Words.of("hu")
    assert hu.summary({**won, "winners": ["a"]}) == "Anna nyert"
    assert hu.summary({**won, "winners": ["a", "b"]}) == "Anna, Bela nyertek"
    assert Words.of("en").summary({**won, "winners": ["a", "b"]}) == "Anna, Bela won"


def test_an_unknown_language_is_refused_by_code(tables, client, clock):
    code, host = _evening(tables, clock)
    for lang in ("xx", "../hu", "HU!"):
        r = client.get(f"/api/tables/{code}/record", query_string={"format": "csv", "lang": lang},
                       headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 400 and r.get_json()["error"]["code"] == "record/bad_lang"


def csv_rows(text):
    import csv
    import io

    return list(csv.reader(io.StringIO(text)))[1:]


def test_the_live_and_the_record_charts_share_one_palette():
    """A player's colour on the table screen's live chart is theirs in the record too: both
    draw from static/js/palette.js, and no chart keeps colours of its own."""
    import re

    from companion.record import charts

    static = Path(__file__).resolve().parents[1] / "static" / "js"
    listed = re.findall(r'"(#[0-9A-Fa-f]{6})"', (static / "palette.js").read_text("utf-8"))
    assert charts.PALETTE == tuple(listed) and len(listed) >= 4
    live = (static / "games" / "blanko.js").read_text("utf-8")
    assert 'from "../palette.js"' in live and not re.search(r"#[0-9A-Fa-f]{6}", live)
