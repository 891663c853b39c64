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
