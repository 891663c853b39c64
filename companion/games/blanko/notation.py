"""The typed notation for BLANKO words (CONTRACT.md): greedy digraphs, ``.`` to split,
``?X`` for a joker standing for tile X.

On its own the notation reads ``MÉZSÖR`` as M É ZS Ö R and ``MÉZ.SÖR`` as M É Z S Ö R. What a
typed word was laid with is then decided by the dictionary (reading.py): the notation says
only where the typist fixed the tiles, with a ``.`` or a joker.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

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


@dataclass
class Typed:
    """A word as typed: its tiles read greedily, and what the typist fixed: ``cuts`` are letter
    positions where a tile must end (a ``.``, either side of a joker). Inside a joker typed
    before a letter pair nothing is fixed: ``?ZS`` is a joker for ZS, or for Z before an S."""
    tiles: list[Tile] = field(default_factory=list)
    cuts: set[int] = field(default_factory=set)


def parse(text: str) -> list[Tile]:
    """Tiles of a word in notation; raises ``blanko/bad_characters`` for anything else."""
    return parse_typed(text).tiles


def parse_typed(text: str) -> Typed:
    s = normalise(text)
    typed = Typed()
    at = 0  # letters so far
    i = 0
    split_ok = False
    while i < len(s):
        ch = s[i]
        if ch == ".":
            if not split_ok or i + 1 >= len(s) or s[i + 1] == ".":
                raise _bad(text, "a '.' goes between two letters")
            typed.cuts.add(at)
            split_ok = False
            i += 1
            continue
        joker = ch == JOKER
        if joker:
            i += 1
            if i >= len(s) or s[i] not in LETTER_SET and s[i:i + 2] not in DIGRAPHS:
                raise _bad(text, "'?' must be followed by the letter the joker stands for")
        pair = s[i:i + 2]
        letter = pair if pair in DIGRAPHS else s[i]
        if letter not in LETTER_SET:
            raise _bad(text, f"{s[i]!r} is not a BLANKO letter")
        typed.tiles.append(Tile(letter, joker))
        if joker:
            typed.cuts |= {at, at + len(letter)}
        at += len(letter)
        i += len(letter)
        split_ok = True
    if not typed.tiles:
        raise _bad(text, "type a word")
    return typed


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
