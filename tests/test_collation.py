"""Names sort in Hungarian alphabetical order (#43): by code point, "Ágnes" came after
"Péter", "Ödön" after "Pál" and "Zénó" after "Zsuzsa" in the standings."""

import pytest

from companion.league.ratings import standings
from companion.table.collation import collation_key


@pytest.mark.parametrize("names", [
    ["Ágnes", "Péter"],  # Á is A with an accent, not a letter after Z
    ["Olga", "Ödön", "Pál"],  # Ö after O, before P
    ["Cecil", "Cukor", "Csaba", "Dénes"],  # CS is a letter after C
    ["Dániel", "Dzsenifer", "Edit"],  # DZS after D, before E
    ["Gábor", "Gizi", "Győző", "Gyula", "Hanna"],  # GY after G; Ő (Ö) before U
    ["Lajos", "Lujza", "Lyuba", "Márta"],
    ["Nándor", "Nóra", "Nyuszi", "Olivér"],
    ["Sándor", "Sutyi", "Szabolcs", "Tamás"],
    ["Tünde", "Tyúk", "Ubul"],  # TY after T, even after Tü
    ["Zénó", "Zita", "Zoltán", "Zsuzsa"],  # ZS after Z
    ["Adam", "Ádám", "Adél"],  # an accent decides only between otherwise equal names
    ["anna", "Anna"],
    ["Hoszák", "Hosszú"],  # SSZ is SZ twice: H-O-SZ-SZ-Ú after H-O-SZ-Á
    ["Anna 2", "Anna B", "Éva", "Ödön", "Ω"],
])
def test_hungarian_alphabetical_order(names):
    assert sorted(reversed(names), key=collation_key) == names
    assert sorted(names, key=collation_key) == names


def test_tied_players_stand_in_hungarian_order():
    # Two byes each: equal games, wins and rating; only the names tell them apart.
    rows, _ = standings([], ["Péter", "Ágnes", "Zsófi", "Zoli"],
                        {"Péter": "Péter", "Ágnes": "Ágnes", "Zsófi": "Zsófi", "Zoli": "Zoli"})
    assert [r["name"] for r in rows] == ["Ágnes", "Péter", "Zoli", "Zsófi"]
