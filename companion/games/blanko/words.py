"""Whether a laid word counts: the dictionary policy of the referee.

The dictionary comes in through :class:`Lexicon` (raw hunspell answers), so rule tests use a
fake. hunspell accepts far more than a BLANKO word: ``2018-ban``, ``alma)``, and any upper-case
string that is a proper noun (``BUDAPEST``). A word therefore counts when it is letters only and
its lower-case form is a word; a word hunspell only knows capitalised is a name, valid only
where the table's house rules allow names; a table's house list adds words by approval.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

REASONS = ("dictionary", "house", "proper-noun", "not-a-word", "bad-characters")


class Lexicon(Protocol):
    def has_word(self, word: str) -> bool: ...


class AcceptAll:
    """The fake for rule tests: every word is in the dictionary."""

    def has_word(self, word: str) -> bool:
        return True


class WordSet:
    """A lexicon from a list of words, exactly as hunspell would answer for them: lower-case
    entries are words, capitalised entries are names (and hunspell accepts names in capitals)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = {unicodedata.normalize("NFC", w) for w in words}

    def has_word(self, word: str) -> bool:
        word = unicodedata.normalize("NFC", word)
        if word in self.words:
            return True
        return word.isupper() and word.capitalize() in self.words


@dataclass(frozen=True)
class Verdict:
    valid: bool
    reason: str


def judge(word: str, lexicon: Lexicon, house: Iterable[str] = (), allow_names: bool = False
          ) -> Verdict:
    """``word`` is the letters of a laid word (already parsed from tiles, upper case)."""
    word = unicodedata.normalize("NFC", word)
    if not word or not all(ch.isalpha() for ch in word):
        return Verdict(False, "bad-characters")
    lower = word.lower()
    if lexicon.has_word(lower):
        return Verdict(True, "dictionary")
    if lower in {unicodedata.normalize("NFC", h).lower() for h in house}:
        return Verdict(True, "house")
    if lexicon.has_word(lower.capitalize()):
        return Verdict(allow_names, "proper-noun")
    return Verdict(False, "not-a-word")
