"""Look-alike names at one table (#30 item 8): kept composed, and refused where a phone would
show the same name twice."""

from __future__ import annotations

import pytest

from companion.table.names import skeleton


@pytest.mark.parametrize("other", ["ANNA", "anna", "Аnna", "ＡＮＮＡ", "ΑΝΝΑ", " Anna ", "Аnnа"])
def test_a_look_alike_of_a_seated_name_is_refused(tables, other):
    code = tables.create("rankfile")["code"]
    tables.join(code, "Anna")
    r = tables.client.post(f"/api/tables/{code}/players", json={"name": other})
    assert r.status_code == 409, other
    assert r.get_json()["error"]["code"] == "table/name_taken"


def test_a_name_is_kept_composed_and_its_decomposed_twin_refused(tables):
    code = tables.create("rankfile")["code"]
    tables.join(code, "A\u030ana")  # Å as A + combining ring
    names = tables.client.get(f"/api/tables/{code}").get_json()["players"]
    assert names == ["\u00c5na"]
    r = tables.client.post(f"/api/tables/{code}/players", json={"name": "\u00c5na"})
    assert r.status_code == 409


@pytest.mark.parametrize("a, b", [("Béla", "Bela"), ("Ödön", "Odon"), ("Zsófi", "Zsofi"), ("Anna", "Ana"),
                                  ("Kati", "Katie")])
def test_different_names_stay_different(a, b):
    """Accents are letters in Hungarian: Béla and Bela are two people."""
    assert skeleton(a) != skeleton(b)


# Characters that show nothing (#35 item 4): a Hangul filler, a braille blank, a combining
# grapheme joiner, a variation selector, a zero-width space, a soft hyphen.
INVISIBLE = ["\u3164", "\u2800", "\u034f", "\ufe0f", "\u200b", "\u00ad", "\u2060", "\ufeff"]


@pytest.mark.parametrize("blank", INVISIBLE)
def test_a_name_beside_an_invisible_character_is_the_same_name(tables, blank):
    code = tables.create("rankfile")["code"]
    tables.join(code, "Anna")
    for other in (f"Anna{blank}", f"An{blank}na", f"{blank}Anna"):
        r = tables.client.post(f"/api/tables/{code}/players", json={"name": other})
        assert r.status_code == 409, repr(other)
        assert r.get_json()["error"]["code"] == "table/name_taken"


@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800", "\u034f\ufe0f", " \u200b ", "\u3164 \u2800"])
def test_a_name_of_only_invisible_characters_is_no_name(tables, name):
    code = tables.create("rankfile")["code"]
    r = tables.client.post(f"/api/tables/{code}/players", json={"name": name})
    assert r.status_code == 422, repr(name)
    assert r.get_json()["error"]["code"] == "table/bad_name"


def test_invisible_characters_at_a_names_ends_are_not_kept(tables):
    code = tables.create("rankfile")["code"]
    tables.join(code, "\u2800Béla\u3164")
    assert tables.client.get(f"/api/tables/{code}").get_json()["players"] == ["Béla"]


def test_an_emoji_keeps_its_joiners():
    """A joiner or a variation selector inside an emoji is part of what shows."""
    from companion.table.rules import clean_name

    assert clean_name("Kati \u2764\ufe0f") == "Kati \u2764\ufe0f"
    assert clean_name("Apa \U0001f468\u200d\U0001f467") == "Apa \U0001f468\u200d\U0001f467"


@pytest.mark.parametrize("a, b", [("PauI", "Paul"), ("rnary", "mary"), ("Pau1", "Paul"), ("B0b", "Bob"),
                                  ("Ili", "lli")])
def test_ascii_look_alikes_are_the_same_name(a, b):
    assert skeleton(a) == skeleton(b)


@pytest.mark.parametrize("a, b", [("Pali", "Paii"), ("Lili", "Liii"), ("Arnold", "Arnoid")])
def test_small_letters_that_differ_stay_different(a, b):
    """Capital I looks like small l; small i does not."""
    assert skeleton(a) != skeleton(b)
