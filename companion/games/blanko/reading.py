"""Which tiles a typed word was laid with: the dictionary's analysis of the word decides.

A CS, GY, LY, NY, SZ, TY or ZS is one tile unless the dictionary puts its two letters in
different parts of the word (compound members, prefix, stem and suffix, syllables): KÖZSÉG is
köz|ség, so K Ö Z S É G, while MACSKA keeps its CS. A word the dictionary analyses more than one
way can have more than one reading; typed text then chooses with a ``.`` (two tiles here), and
without one takes the reading with the most two-letter tiles. An analysis that names no
boundary at all says nothing against one that does (the dictionary leaves them out of many
entries). Where no analysis names a boundary, the words the dictionary lists that the word is
made of are readings too (nyolc + személyes), after the analysis's own; a word the dictionary
does not know (a house word, a typo) is read by them first (MÉZSÁRGA as méz + sárga), else as
typed, and none of its tilings is wrong. A tiling with a letter no tile has (KERTYARD as
kert|yard leaves a lone Y) is no reading. A joker is one tile: typed before a letter pair
(``KÖ?ZSÉG``) it stands for the pair or for its first letter, as the spelling takes it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .notation import Tile, parse_typed
from .tiles import DIGRAPHS, LETTER_SET

if TYPE_CHECKING:  # words.py judges with the readings made here
    from .words import Lexicon

Reading = tuple[str, ...]
MIN_PART = 2  # letters of each word a decomposition finds: no one-letter word joins another


@dataclass(frozen=True)
class Read:
    tiles: list[Tile]
    fits: bool  # the spelling allows these tiles, or the dictionary cannot tell
    readings: list[list[Tile]]  # the dictionary's readings that keep what the typist fixed, best first


def tiling(letters: str, cuts: Collection[int] = ()) -> Reading:
    """Greedy digraphs, except where a cut falls between the two letters."""
    out: list[str] = []
    i = 0
    while i < len(letters):
        size = 2 if letters[i:i + 2] in DIGRAPHS and i + 1 not in cuts else 1
        out.append(letters[i:i + size])
        i += size
    return tuple(out)


@dataclass(frozen=True)
class Spelling:
    readings: list[Reading]  # best first
    binding: bool  # the dictionary analyses the word: a tiling outside ``readings`` is wrong


def spelling(letters: str, lexicon: Lexicon) -> Spelling:
    """The tilings of ``letters`` (upper case) into tiles of the set that one of the
    dictionary's analyses allows (a name's analyses when the word is only a name). Where no
    analysis names a boundary, or the dictionary does not know the word, the words it is made
    of (``decompositions``) give readings too: after the analysis's own for a word the
    dictionary knows (KASZABOL keeps its SZ first, though kas and zabol are words), before the
    tiles as typed for one it does not (a house word, MÉZSÁRGA as méz + sárga)."""
    lower = letters.lower()
    analyses = lexicon.analyses(lower) or lexicon.analyses(lower.capitalize())
    split = [a for a in analyses if a.cuts]
    # of the analyses' readings, the one with the most two-letter tiles first
    found = sorted((tiling(letters, a.cuts) for a in split or analyses), key=len)
    if not split:
        parts = [tiling(letters, {p}) for p in decompositions(lower, lexicon)]
        found = found + parts if analyses else parts + [tiling(letters)]
    out: list[Reading] = []
    for reading in found:
        if reading not in out and all(t in LETTER_SET for t in reading):
            out.append(reading)
    return Spelling(out, bool(analyses) and bool(out))


def decompositions(word: str, lexicon: Lexicon) -> list[int]:
    """The letter pairs of ``word`` (lower case) between whose letters it splits into a word
    the dictionary lists on its own (not a compound it builds, not an abbreviation) and a word
    it accepts: the dictionary's own compounding, stem + stem (méz|sárga, nyolc|személyes)."""
    out = []
    for p in range(MIN_PART, len(word) - MIN_PART + 1):
        if word[p - 1:p + 1].upper() not in DIGRAPHS:
            continue
        head, rest = word[:p], word[p:]
        if (any(not (a.compound or a.abbreviation) for a in lexicon.analyses(head))
                and lexicon.has_word(rest)
                and any(not (a.abbreviation or a.foreign) for a in lexicon.analyses(rest))):
            out.append(p)
    return out


def starts(tiles: Sequence[str]) -> list[int]:
    """The letter position where each tile begins."""
    out, at = [], 0
    for t in tiles:
        out.append(at)
        at += len(t)
    return out


def edges(tiles: Sequence[str]) -> set[int]:
    """The letter positions where the tiles begin and end."""
    return {*starts(tiles), sum(map(len, tiles))}


def read(text: str, lexicon: Lexicon) -> Read:
    """Raises ``blanko/bad_characters`` for text that is not notation."""
    typed = parse_typed(text)
    letters = [t.letter for t in typed.tiles]
    spelt = spelling("".join(letters), lexicon)
    agree = [r for r in spelt.readings if typed.cuts <= edges(r)]
    if not agree:
        return Read(typed.tiles, not spelt.binding, [])
    jokers = {at for at, t in zip(starts(letters), typed.tiles, strict=True) if t.joker}
    marked = [[Tile(t, at in jokers) for at, t in zip(starts(r), r, strict=True)] for r in agree]
    return Read(marked[0], True, marked)
