"""Scoring and checking a list of words, as the evaluate endpoint and a laid turn need it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import RuleViolation
from . import tiles as letter_set
from .notation import parse, word_of
from .scoring import word_points
from .words import Lexicon, judge


def evaluate_word(text: str, lexicon: Lexicon, values: dict[str, int] | None = None,
                  house: Iterable[str] = (), allow_names: bool = False) -> dict[str, Any]:
    values = values or letter_set.values()
    try:
        tiles = parse(text)
    except RuleViolation:
        return {"word": text, "tiles": [], "points": 0, "valid": False, "reason": "bad-characters"}
    verdict = judge(word_of(tiles), lexicon, house, allow_names)
    return {"word": word_of(tiles), "tiles": [str(t) for t in tiles],
            "points": word_points(tiles, values), "valid": verdict.valid, "reason": verdict.reason}


def evaluate_words(words: list[str], lexicon: Lexicon, values: dict[str, int] | None = None,
                   house: Iterable[str] = (), allow_names: bool = False) -> dict[str, Any]:
    house = list(house)
    out = [evaluate_word(w, lexicon, values, house, allow_names) for w in words]
    return {"words": out, "total": sum(w["points"] for w in out)}
