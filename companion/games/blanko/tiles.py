"""The BLANKO letter set as data: each tile's value and how many the bag holds.

Rows A–F are the rulebook's table; from G on the values are the standard Hungarian ones and
the counts the standard set plus one each of I K L M N O R S T, so the letters add up to the
rulebook's 110 (see ../shared/BLANKO-LETTERS.md and docs/blanko.md). A table may override
values and counts through its options.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import RuleViolation

JOKER = "?"
JOKER_COUNT = 2
MAX_TILE_COUNT = 50  # of one tile, in a house set: a bag is a hundred tiles, not millions
JOKER_PENALTY = 10
DIGRAPHS = ("CS", "GY", "LY", "NY", "SZ", "TY", "ZS")

# tile: (value, count)
LETTER_SET: dict[str, tuple[int, int]] = {
    "A": (1, 7), "Á": (1, 4), "B": (2, 3), "C": (5, 2), "CS": (7, 1), "D": (2, 3),
    "E": (1, 7), "É": (3, 3), "F": (4, 2), "G": (2, 3), "GY": (4, 2), "H": (3, 2),
    "I": (1, 4), "Í": (5, 1), "J": (4, 2), "K": (1, 7), "L": (1, 5), "LY": (8, 1),
    "M": (1, 4), "N": (1, 5), "NY": (5, 1), "O": (1, 4), "Ó": (2, 3), "Ö": (4, 2),
    "Ő": (7, 1), "P": (4, 2), "R": (1, 5), "S": (1, 4), "SZ": (3, 2), "T": (1, 6),
    "TY": (10, 1), "U": (4, 2), "Ú": (7, 1), "Ü": (4, 2), "Ű": (7, 1), "V": (3, 2),
    "Z": (4, 2), "ZS": (8, 1),
}
ASSUMED_FROM = "G"  # rows from here on are not printed in the rulebook


def values(overrides: dict[str, Any] | None = None) -> dict[str, int]:
    table = {t: v for t, (v, _) in LETTER_SET.items()}
    for tile, value in (overrides or {}).items():
        if tile not in table or not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RuleViolation("blanko/bad_letter_values",
                                f"letter values: {tile!r} must be a known tile with a value ≥ 0")
        table[tile] = value
    return table


def counts(overrides: dict[str, Any] | None = None) -> dict[str, int]:
    table = {t: c for t, (_, c) in LETTER_SET.items()}
    table[JOKER] = JOKER_COUNT
    for tile, count in (overrides or {}).items():
        if (tile not in table or not isinstance(count, int) or isinstance(count, bool)
                or not 0 <= count <= MAX_TILE_COUNT):
            raise RuleViolation("blanko/bad_letter_counts", f"letter counts: {tile!r} must be a "
                                f"known tile with a count from 0 to {MAX_TILE_COUNT}")
        table[tile] = count
    return table
