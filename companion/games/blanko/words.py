"""Whether a laid word counts: the dictionary policy of the referee.

The dictionary comes in through :class:`Lexicon` (raw hunspell answers), so rule tests use a
fake. hunspell accepts far more than a BLANKO word: ``2018-ban``, ``alma)``, and any upper-case
string that is a proper noun (``BUDAPEST``). A word therefore counts when it is letters only, at
least two tiles, laid with tiles its spelling allows (reading.py), and its lower-case form is a
word that is not only an abbreviation (``kg``), a foreign word (``mountain``) or a non-standard
form (``kőt``); a word hunspell only knows capitalised is a name, and so is one it knows as a
name and otherwise only builds from other words (Siófok, sió + fok): valid only where the
table's house rules allow names; a table's house list adds words by approval, abbreviations
and foreign words too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .reading import spelling, tiling
from .tiles import JOKER

REASONS = ("dictionary", "house", "proper-noun", "not-a-word", "bad-characters", "too-short",
           "wrong-tiles", "abbreviation", "foreign")
MIN_TILES = 2  # the rulebook: "a meaningful word of at least 2 letters"
BOUNDARY_MARKS = "|-"  # in a WordSet entry: where the dictionary splits the word
COMPOUND_MARK = "|"  # in a WordSet entry: a compound of two words


@dataclass(frozen=True)
class Analysis:
    """One way the dictionary analyses a word: the letter positions where its parts meet
    (compound members, prefix, stem and suffix, syllables); whether it is an abbreviation, a
    compound the dictionary built from words, a proper noun, a foreign word, or a form the
    standard does not use."""
    cuts: frozenset[int] = frozenset()
    abbreviation: bool = False
    compound: bool = False
    proper: bool = False
    foreign: bool = False
    nonstandard: bool = False


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
    An entry marks its parts with ``|`` (a compound of two words, ``sió|fok``) or ``-``
    (``köz-ség``); the same letters listed twice are two analyses; ``abbreviations`` are words
    only as abbreviations."""

    def __init__(self, words: Iterable[str], abbreviations: Iterable[str] = ()) -> None:
        self.entries: dict[str, list[Analysis]] = {}
        for entry in words:
            entry = unicodedata.normalize("NFC", entry)
            word, cuts = _marked(entry)
            self.entries.setdefault(word, []).append(
                Analysis(cuts, compound=COMPOUND_MARK in entry, proper=word[:1].isupper()))
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
    spelt = spelling(word, lexicon)
    if tiles is None:
        laid = spelt.readings[0] if spelt.readings else tiling(word)
    else:
        laid = tuple(t.removeprefix(JOKER) for t in tiles)
    if len(laid) < MIN_TILES:
        return Verdict(False, "too-short")
    if spelt.binding and laid not in spelt.readings:
        return Verdict(False, "wrong-tiles")
    lower = word.lower()
    standing = _standing(lower, lexicon)
    if standing == "dictionary":
        return Verdict(True, standing)
    if lower in {unicodedata.normalize("NFC", h).lower() for h in house}:
        return Verdict(True, "house")
    return Verdict(allow_names and standing == "proper-noun", standing)


def _standing(lower: str, lexicon: Lexicon) -> str:
    """What the dictionary takes the word for, before the table's house rules. An analysis
    flag counts only when every analysis has it: ``ha`` is an abbreviation (hectare) but also
    a word (if), ``tót`` a non-standard accusative of tó but also a word of its own."""
    if not lexicon.has_word(lower):
        return "proper-noun" if lexicon.has_word(lower.capitalize()) else "not-a-word"
    analyses = lexicon.analyses(lower)
    if analyses and all(a.abbreviation for a in analyses):
        return "abbreviation"
    if analyses and all(a.foreign for a in analyses):
        return "foreign"
    if analyses and all(a.nonstandard for a in analyses):
        return "not-a-word"
    if (analyses and all(a.compound for a in analyses)
            and any(a.proper for a in lexicon.analyses(lower.capitalize()))):
        return "proper-noun"  # Siófok, not sió + fok: the word on the board is the name
    return "dictionary"
