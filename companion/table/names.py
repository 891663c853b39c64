"""When two players' names would look the same on a phone: the same letters in another case,
width or script ("Anna", "ANNA", "ＡＮＮＡ", Cyrillic "Аnna", Greek "ΑΝΝΑ"), the same accented
letter composed or decomposed ("Åna"), ASCII look-alikes ("PauI", "rnary", "B0b"), or the same
name beside characters that show nothing ("Anna" + a Hangul filler, a braille blank, a
variation selector). The table refuses the second, so nobody can sit down as someone else's
look-alike, and a name of nothing but such characters is no name.

The comparison is a skeleton in the spirit of Unicode's confusable detection (UTS #39): the
name loses what shows nothing, is case-folded and width-folded (NFKC), decomposed, and each
character is replaced by its class's prototype, from the Unicode confusables data that the
confusable-homoglyphs package keeps up to date. That data lists pairs; the classes are what
the pairs join, so "l", "I", "1" and "|" have one prototype whichever pair names them.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, which Python's
# unicodedata does not carry), and the blanks that are not ignorable but show nothing.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
_BLANKS = {"\u2800"}  # braille pattern blank
# Inside an emoji these join or style what shows (👨‍👧, ❤️), so there they stay.
_EMOJI_GLUE = {"\u200d", "\ufe0f"}
_MARKS = "\u200e\u200f"  # the confusables data wraps right-to-left characters in these


def _shows_nothing(ch: str) -> bool:
    cp = ord(ch)
    return ch in _BLANKS or any(lo <= cp <= hi for lo, hi in _IGNORABLE)


def visible(name: str) -> str:
    """The name without the characters that show nothing, but for an emoji's own glue."""
    kept = []
    for i, ch in enumerate(name):
        if _shows_nothing(ch):
            beside = name[i - 1:i] + name[i + 1:i + 2]
            if not (ch in _EMOJI_GLUE and any(unicodedata.category(c) == "So" for c in beside)):
                continue
        kept.append(ch)
    return "".join(kept)


def _preference(ch: str) -> tuple[bool, bool, bool, int]:
    """A class's prototype: a small ASCII letter where there is one ("l" for l, I, 1, |; the
    capital letter "O" for O, 0), so that case-folding after the mapping keeps letters that
    look alike together and those that do not (small i and l) apart."""
    return (not (ch.isascii() and ch.isalpha()), not ch.islower(), not ch.isascii(), ord(ch))


@cache
def _prototypes() -> dict[str, str]:
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.get(ch, ch) != ch:
            ch = parent[ch]
        return ch

    expansions: dict[str, str] = {}
    for ch, alikes in confusables.confusables_data.items():
        for alike in alikes:
            other = alike["c"].strip(_MARKS)
            if len(ch) != 1 or not other:
                continue
            if len(other) == 1:
                a, b = root(ch), root(other)
                if a != b:
                    a, b = sorted((a, b), key=_preference)
                    parent[b] = a
            elif ch.isascii() and ch.isalpha() and other.isascii() and other.isalpha():
                expansions[ch] = other  # "m" shows as "rn"
    mapping = {ch: root(ch) for ch in parent}
    mapping.update(expansions)
    return mapping


def _mapped(text: str) -> str:
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFKD", "".join(prototypes.get(ch, ch) for ch in decomposed))


def skeleton(name: str) -> str:
    """Equal for two names a player could take for each other. Mapped before case-folding
    too, since Greek capitals look Latin ("ΑΝΝΑ") and their small letters do not ("αννα")."""
    plain = "".join(ch for ch in name if not _shows_nothing(ch))
    return _mapped(_mapped(unicodedata.normalize("NFKC", plain)).casefold())


def normalised(name: str) -> str:
    """The form a name is kept in: composed (NFC), as typed otherwise."""
    return unicodedata.normalize("NFC", name)


def shown(typed: str) -> str:
    """A name as every screen shows it, a player's or a league's: composed, without what shows
    nothing and without control characters (NUL, ESC, a bidi override that would turn the rest
    of a row around), single-spaced and trimmed. Empty if nothing of it shows."""
    kept = visible(normalised(typed))
    return " ".join("".join(ch for ch in kept if ch.isprintable() or ch == "\u200d").split())
