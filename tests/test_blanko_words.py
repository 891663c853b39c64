"""BLANKO notation, scoring and the dictionary policy, with the rulebook's examples."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dictionary.hunspell_lexicon import DictionaryMissing, find, load
from companion.games.blanko import tiles as letter_set
from companion.games.blanko.evaluate import evaluate_words
from companion.games.blanko.notation import Tile, notation_of, parse, parse_rack
from companion.games.blanko.scoring import rack_deduction, word_points
from companion.games.blanko.words import AcceptAll, WordSet, judge
from companion.games.core.errors import RuleViolation

VALUES = letter_set.values()


def test_letter_set_has_110_letters_and_2_jokers():
    counts = letter_set.counts()
    assert sum(c for t, c in counts.items() if t != "?") == 110 and counts["?"] == 2


@pytest.mark.parametrize("words, total", [
    (["LESŐ"], 10), (["ZAVAROS"], 12), (["RIGÓ", "ÍR", "TI"], 14), (["KISBABÁT", "BARÁT"], 16),
])
def test_rulebook_examples(words, total):
    assert sum(word_points(parse(w), VALUES) for w in words) == total


@pytest.mark.parametrize("text, tiles", [
    ("MÉZSÖR", ["M", "É", "ZS", "Ö", "R"]),
    ("MÉZ.SÖR", ["M", "É", "Z", "S", "Ö", "R"]),
    ("mézsör", ["M", "É", "ZS", "Ö", "R"]),
    ("?LABDA", ["?L", "A", "B", "D", "A"]),
    ("?SZÉL", ["?SZ", "É", "L"]),
    ("LÁNYOK", ["L", "Á", "NY", "O", "K"]),
    ("CSÚCS", ["CS", "Ú", "CS"]),
    ("EDZ", ["E", "D", "Z"]),  # DZ is not a tile in this set
])
def test_notation(text, tiles):
    assert [str(t) for t in parse(text)] == tiles


@pytest.mark.parametrize("text", ["2018-BAN", "ALMA)", "ALMA-KÖRTE", "", ".ALMA", "AL..MA", "ALMA.",
                                  "?", "QUIZ", "ALMA KÖRTE"])
def test_bad_notation(text):
    with pytest.raises(RuleViolation) as e:
        parse(text)
    assert e.value.code == "blanko/bad_characters"


def test_joker_counts_zero_and_costs_ten_on_the_rack():
    assert word_points(parse("?LABDA"), VALUES) == 1 + 2 + 2 + 1
    assert rack_deduction(parse_rack("A?K"), VALUES, 10) == 1 + 10 + 1
    assert parse_rack("") == []


tile_lists = st.lists(st.builds(Tile, st.sampled_from(sorted(letter_set.LETTER_SET)), st.booleans()),
                      min_size=1, max_size=12)


@given(tile_lists)
def test_notation_round_trips(tiles):
    assert parse(notation_of(tiles)) == tiles


@given(st.lists(tile_lists, min_size=1, max_size=4))
def test_points_add_up_over_words(words):
    total = sum(word_points(w, VALUES) for w in words)
    assert total == word_points([t for w in words for t in w], VALUES)
    assert total == sum(VALUES[t.letter] for w in words for t in w if not t.joker)


FAKE = WordSet(["alma", "leső", "Budapest", "Pécs", "mézsör"])


@pytest.mark.parametrize("word, valid, reason", [
    ("ALMA", True, "dictionary"), ("LESŐ", True, "dictionary"), ("BUDAPEST", False, "proper-noun"),
    ("PÉCS", False, "proper-noun"), ("XYZ", False, "not-a-word"), ("ALMA2", False, "bad-characters"),
])
def test_policy_with_a_fake_lexicon(word, valid, reason):
    assert (judge(word, FAKE).valid, judge(word, FAKE).reason) == (valid, reason)


def test_house_rules_accept_names_and_house_words():
    assert judge("BUDAPEST", FAKE, allow_names=True).valid
    assert judge("SZIA", FAKE, house=["szia"]).reason == "house"
    assert judge("ANYTHING", AcceptAll()).valid


# -- the real dictionary (Debian's hunspell-hu, installed by make) -------------------------

@pytest.fixture(scope="module")
def hu():
    return load()


@pytest.mark.parametrize("word, valid, reason", [
    ("LESŐ", True, "dictionary"), ("ZAVAROS", True, "dictionary"), ("KISBABÁT", True, "dictionary"),
    ("RIGÓ", True, "dictionary"), ("BUDAPEST", False, "proper-noun"), ("PÉCS", False, "proper-noun"),
    ("ASDFG", False, "not-a-word"),
])
def test_policy_with_hunspell(hu, word, valid, reason):
    v = judge(word, hu)
    assert (v.valid, v.reason) == (valid, reason)


def test_hunspell_quirks_are_refused(hu):
    # hunspell itself accepts all of these; a laid word must not.
    for raw in ("2018-ban", "alma)", "alma-körte"):
        assert hu.has_word(raw)
    result = evaluate_words(["2018-BAN", "ALMA)", "ALMA-KÖRTE"], hu)
    assert [w["reason"] for w in result["words"]] == ["bad-characters"] * 3


def test_nfc_and_nfd_give_the_same_verdict(hu):
    nfd = unicodedata.normalize("NFD", "LESŐ")
    assert nfd != "LESŐ"
    a, b = evaluate_words(["LESŐ"], hu), evaluate_words([nfd], hu)
    assert a == b and a["words"][0]["valid"]


def test_missing_dictionary_names_the_package(tmp_path):
    with pytest.raises(DictionaryMissing, match="hunspell-hu"):
        find(dirs=(tmp_path,))


def test_evaluate_endpoint(client):
    r = client.post("/api/blanko/evaluate", json={"words": ["RIGÓ", "ÍR", "TI"]})
    assert r.status_code == 200
    body = r.get_json()
    assert body["total"] == 14 and all(w["valid"] and w["reason"] == "dictionary" for w in body["words"])
    assert body["words"][0] == {"word": "RIGÓ", "tiles": ["R", "I", "G", "Ó"], "points": 6, "valid": True,
                                "reason": "dictionary"}
    r = client.post("/api/blanko/evaluate", json={"words": ["MÉZ.SÖR", "?LABDA", "budapest", "x-y"]})
    words = r.get_json()["words"]
    assert words[0]["tiles"] == ["M", "É", "Z", "S", "Ö", "R"]
    assert words[1]["points"] == 6 and words[1]["word"] == "LABDA"
    assert words[2]["reason"] == "proper-noun" and not words[2]["valid"]
    assert words[3]["reason"] == "bad-characters"


@pytest.mark.parametrize("body", [{}, {"words": "ALMA"}, {"words": []}, {"words": [1]},
                                  {"words": ["A" * 41]}])
def test_evaluate_refuses_bad_input(client, body):
    r = client.post("/api/blanko/evaluate", json=body)
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "blanko/bad_words"
