"""Scoring and checking a list of words, as the evaluate endpoint and a laid turn need it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import RuleViolation
from . import tiles as letter_set
from .notation import word_of
from .reading import read
from .scoring import word_points
from .words import Lexicon, judge


def laid_word(text: str, lexicon: Lexicon, values: dict[str, int]) -> dict[str, Any]:
    """A word of a turn as the event records it: its letters, the tiles the dictionary reads
    (or the ones typed, where the spelling refuses them: a challenge finds that) and points.
    Raises ``blanko/bad_characters``."""
    tiles = read(text, lexicon).tiles
    return {"word": word_of(tiles), "tiles": [str(t) for t in tiles], "points": word_points(tiles, values)}


def evaluate_word(text: str, lexicon: Lexicon, values: dict[str, int] | None = None,
                  house: Iterable[str] = (), allow_names: bool = False) -> dict[str, Any]:
    """A word's verdict, and ``readings``: the tilings the dictionary allows that keep the
    typist's dots, so that a phone asks only where more than one is a word."""
    values = values or letter_set.values()
    try:
        reading = read(text, lexicon)
    except RuleViolation:
        return {"word": text, "tiles": [], "points": 0, "valid": False, "reason": "bad-characters",
                "readings": []}
    tiles = [str(t) for t in reading.tiles]
    verdict = judge(word_of(reading.tiles), lexicon, house, allow_names, tiles)
    return {"word": word_of(reading.tiles), "tiles": tiles, "points": word_points(reading.tiles, values),
            "valid": verdict.valid, "reason": verdict.reason,
            "readings": [[str(t) for t in r] for r in reading.readings]}


def evaluate_words(words: list[str], lexicon: Lexicon, values: dict[str, int] | None = None,
                   house: Iterable[str] = (), allow_names: bool = False) -> dict[str, Any]:
    house = list(house)
    out = [evaluate_word(w, lexicon, values, house, allow_names) for w in words]
    return {"words": out, "total": sum(w["points"] for w in out)}
