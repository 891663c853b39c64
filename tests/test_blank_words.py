"""The rulebook's example Rule Cards and Game Card effects, which every new BLANK deck offers,
are worded on the phone in its language: the deck names each by a stable key, the catalogues
hold the words."""

import json
from pathlib import Path

import pytest

from companion.games.blank.deck import example_effects, keyed_examples, new_deck, validate_deck

CATALOGUES = sorted((Path(__file__).resolve().parents[1] / "static" / "i18n").glob("*.json"))


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_every_example_has_words_in_every_language(path):
    ui = json.loads(path.read_text("utf-8"))["ui"]
    rules = [r for r in new_deck("D", "", 0)["rules"] if r["example"]]
    assert len(rules) == 5 and all(r["key"] for r in rules)
    for r in rules:
        assert {f"bl_ex_{r['key']}_title", f"bl_ex_{r['key']}_text"} <= set(ui), r["key"]
        if r["trigger"]["kind"] == "other":  # its trigger is words too
            assert f"bl_ex_{r['key']}_if" in ui, r["key"]
    for e in example_effects():
        assert {f"bl_exfx_{e['key']}_title", f"bl_exfx_{e['key']}_text"} <= set(ui), e["key"]


def test_an_exported_deck_keeps_its_examples_keys():
    deck = new_deck("D", "", 0)
    again = validate_deck(json.loads(json.dumps(deck)))
    assert [r.get("key") for r in again["rules"]] == [r["key"] for r in deck["rules"]]
    deck["rules"][0].update(key="not-an-example", title="Mine")  # a file names no key of its own
    assert "key" not in validate_deck(deck)["rules"][0]


def test_a_deck_made_before_the_keys_gets_them_by_title():
    deck = new_deck("D", "", 0)
    old = {**deck, "rules": [{k: v for k, v in r.items() if k != "key"} for r in deck["rules"]]}
    assert keyed_examples(old)["rules"] == deck["rules"]
    imported = validate_deck(json.loads(json.dumps(old)))
    assert [r.get("key") for r in imported["rules"]] == [r["key"] for r in deck["rules"]]
    written = {**old["rules"][0], "example": False}  # a rule a person wrote with the same title stays theirs
    assert "key" not in keyed_examples({**old, "rules": [written]})["rules"][0]
