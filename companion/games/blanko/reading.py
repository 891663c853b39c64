"""Which tiles a typed word was laid with: the dictionary's analysis of the word decides.

A CS, GY, LY, NY, SZ, TY or ZS is one tile unless the dictionary puts its two letters in
different parts of the word (compound members, prefix, stem and suffix, syllables): KÖZSÉG is
köz|ség, so K Ö Z S É G, while MACSKA keeps its CS. A word the dictionary analyses more than one
way can have more than one reading; typed text then chooses with a ``.`` (two tiles here), and
without one takes the reading with the most two-letter tiles. An analysis that names no
boundary at all says nothing against one that does (the dictionary leaves them out of many
entries). A tiling with a letter no tile has (KERTYARD as kert|yard leaves a lone Y) is no
reading. A joker is one tile: typed before a letter pair (``KÖ?ZSÉG``) it stands for the pair
or for its first letter, as the spelling takes it. A word the dictionary does not know (a
house word, a typo) is read as typed.
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


def readings(letters: str, lexicon: Lexicon) -> list[Reading]:
    """Every tiling of ``letters`` (upper case) into tiles of the set that one of the
    dictionary's analyses allows; a name's analyses when the word is only a name."""
    lower = letters.lower()
    analyses = lexicon.analyses(lower) or lexicon.analyses(lower.capitalize())
    if any(a.cuts for a in analyses):
        analyses = [a for a in analyses if a.cuts]
    out: list[Reading] = []
    for analysis in analyses:
        reading = tiling(letters, analysis.cuts)
        if reading not in out and all(t in LETTER_SET for t in reading):
            out.append(reading)
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
    spelt = readings("".join(letters), lexicon)
    agree = sorted((r for r in spelt if typed.cuts <= edges(r)), key=len)
    if not agree:
        return Read(typed.tiles, not spelt, [])
    jokers = {at for at, t in zip(starts(letters), typed.tiles, strict=True) if t.joker}
    marked = [[Tile(t, at in jokers) for at, t in zip(starts(r), r, strict=True)] for r in agree]
    return Read(marked[0], True, marked)
