"""The typed notation for BLANKO words (CONTRACT.md): greedy digraphs, ``.`` to split,
``?X`` for a joker standing for tile X.

``MÉZSÖR`` reads as M É ZS Ö R; ``MÉZ.SÖR`` as M É Z S Ö R. Where typed CS, SZ or ZS could be
two tiles, the phone asks which was meant before the word is sent (static/js/games/blanko.js).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ..core.errors import RuleViolation
from .tiles import DIGRAPHS, JOKER, LETTER_SET


@dataclass(frozen=True)
class Tile:
    letter: str
    joker: bool = False

    def __str__(self) -> str:
        return JOKER + self.letter if self.joker else self.letter


def normalise(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip().upper()


def parse(text: str) -> list[Tile]:
    """Tiles of a word in notation; raises ``blanko/bad_characters`` for anything else."""
    s = normalise(text)
    tiles: list[Tile] = []
    i = 0
    split_ok = False
    while i < len(s):
        ch = s[i]
        if ch == ".":
            if not split_ok or i + 1 >= len(s) or s[i + 1] == ".":
                raise _bad(text, "a '.' goes between two letters")
            split_ok = False
            i += 1
            continue
        joker = ch == JOKER
        if joker:
            i += 1
            if i >= len(s) or s[i] not in LETTER_SET and s[i:i + 2] not in DIGRAPHS:
                raise _bad(text, "'?' must be followed by the letter the joker stands for")
        pair = s[i:i + 2]
        if pair in DIGRAPHS:
            tiles.append(Tile(pair, joker))
            i += 2
        elif s[i] in LETTER_SET:
            tiles.append(Tile(s[i], joker))
            i += 1
        else:
            raise _bad(text, f"{s[i]!r} is not a BLANKO letter")
        split_ok = True
    if not tiles:
        raise _bad(text, "type a word")
    return tiles


def parse_rack(text: str) -> list[Tile]:
    """Letters left on a rack: as a word, except that a ``?`` is a bare joker (on a rack it
    stands for nothing). An empty rack is ``""``."""
    s = normalise(text).replace(" ", "").replace(",", "")
    tiles: list[Tile] = []
    for chunk in s.split(JOKER):
        if chunk:
            tiles += parse(chunk)
        tiles.append(Tile("", True))
    return tiles[:-1]


def word_of(tiles: list[Tile]) -> str:
    return "".join(t.letter for t in tiles)


def notation_of(tiles: list[Tile]) -> str:
    """The shortest notation that parses back to exactly these tiles."""
    out = ""
    for t in tiles:
        piece = str(t)
        if out and not t.joker and (out[-1] + t.letter[0]) in DIGRAPHS:
            out += "."
        out += piece
    return out


def _bad(text: str, why: str) -> RuleViolation:
    return RuleViolation("blanko/bad_characters", f"{text!r}: {why}")
