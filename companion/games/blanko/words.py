"""Whether a laid word counts: the dictionary policy of the referee.

The dictionary comes in through :class:`Lexicon` (raw hunspell answers), so rule tests use a
fake. hunspell accepts far more than a BLANKO word: ``2018-ban``, ``alma)``, and any upper-case
string that is a proper noun (``BUDAPEST``). A word therefore counts when it is letters only, at
least two tiles, laid with tiles its spelling allows (reading.py), and its lower-case form is a
word that is not only an abbreviation (``kg``); a word hunspell only knows capitalised is a
name, valid only where the table's house rules allow names; a table's house list adds words by
approval, abbreviations too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .reading import readings, tiling
from .tiles import JOKER

REASONS = ("dictionary", "house", "proper-noun", "not-a-word", "bad-characters", "too-short",
           "wrong-tiles", "abbreviation")
MIN_TILES = 2  # the rulebook: "a meaningful word of at least 2 letters"
BOUNDARY_MARKS = "|-"  # in a WordSet entry: where the dictionary splits the word


@dataclass(frozen=True)
class Analysis:
    """One way the dictionary analyses a word: the letter positions where its parts meet
    (compound members, prefix, stem and suffix, syllables), whether it is an abbreviation, and
    whether it is a compound the dictionary built from words itself."""
    cuts: frozenset[int] = frozenset()
    abbreviation: bool = False
    compound: bool = False


class Lexicon(Protocol):
    def has_word(self, word: str) -> bool: ...

    def analyses(self, word: str) -> list[Analysis]:
        """Every analysis of ``word`` as spelt (none for a word it does not know)."""
        ...


class AcceptAll:
    """The fake for rule tests: every word is in the dictionary, and it says nothing of the
    word's parts, so a word is read as typed."""

    def has_word(self, word: str) -> bool:
        return True

    def analyses(self, word: str) -> list[Analysis]:
        return []


class WordSet:
    """A lexicon from a list of words, exactly as hunspell would answer for them: lower-case
    entries are words, capitalised entries are names (and hunspell accepts names in capitals).
    An entry marks its parts with ``|`` or ``-`` (``köz-ség``); the same letters listed twice
    are two analyses; ``abbreviations`` are words only as abbreviations."""

    def __init__(self, words: Iterable[str], abbreviations: Iterable[str] = ()) -> None:
        self.entries: dict[str, list[Analysis]] = {}
        for entry in words:
            word, cuts = _marked(unicodedata.normalize("NFC", entry))
            self.entries.setdefault(word, []).append(Analysis(cuts))
        for word in abbreviations:
            self.entries.setdefault(word, []).append(Analysis(abbreviation=True))

    def has_word(self, word: str) -> bool:
        word = unicodedata.normalize("NFC", word)
        if word in self.entries:
            return True
        return word.isupper() and word.capitalize() in self.entries

    def analyses(self, word: str) -> list[Analysis]:
        return self.entries.get(unicodedata.normalize("NFC", word), [])


def _marked(entry: str) -> tuple[str, frozenset[int]]:
    word, cuts = "", set()
    for ch in entry:
        if ch in BOUNDARY_MARKS:
            cuts.add(len(word))
        else:
            word += ch
    return word, frozenset(cuts)


@dataclass(frozen=True)
class Verdict:
    valid: bool
    reason: str


def judge(word: str, lexicon: Lexicon, house: Iterable[str] = (), allow_names: bool = False,
          tiles: Sequence[str] | None = None) -> Verdict:
    """``word`` is the letters of a laid word (already parsed from tiles, upper case), and
    ``tiles`` the tiles it was laid with (``"?L"`` for a joker); without them, the word is taken
    as laid the way the dictionary reads it."""
    word = unicodedata.normalize("NFC", word)
    if not word or not all(ch.isalpha() for ch in word):
        return Verdict(False, "bad-characters")
    spelt = readings(word, lexicon)
    if tiles is None:
        laid = spelt[0] if spelt else tiling(word)
    else:
        laid = tuple(t.removeprefix(JOKER) for t in tiles)
    if len(laid) < MIN_TILES:
        return Verdict(False, "too-short")
    if spelt and laid not in spelt:
        return Verdict(False, "wrong-tiles")
    lower = word.lower()
    if lexicon.has_word(lower) and not _only_abbreviation(lexicon.analyses(lower)):
        return Verdict(True, "dictionary")
    if lower in {unicodedata.normalize("NFC", h).lower() for h in house}:
        return Verdict(True, "house")
    if lexicon.has_word(lower):
        return Verdict(False, "abbreviation")
    if lexicon.has_word(lower.capitalize()):
        return Verdict(allow_names, "proper-noun")
    return Verdict(False, "not-a-word")


def _only_abbreviation(analyses: list[Analysis]) -> bool:
    """``kg`` is only an abbreviation; ``ha`` is one (hectare) but also a word (if)."""
    return bool(analyses) and all(a.abbreviation for a in analyses)
