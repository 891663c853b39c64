"""When two players' names would look the same on a phone: the same letters in another case,
width or script ("Anna", "ANNA", "ＡＮＮＡ", Cyrillic "Аnna", Greek "ΑΝΝΑ"), or the same
accented letter composed or decomposed ("Åna"). The table refuses the second, so nobody can
sit down as someone else's look-alike.

The comparison is a skeleton in the spirit of Unicode's confusable detection (UTS #39): the
name is case-folded and width-folded (NFKC), decomposed, and each character is replaced by
the plainest one it can be taken for, from the Unicode confusables data that the
confusable-homoglyphs package keeps up to date.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables


@cache
def _plainest(ch: str) -> str:
    """The look-alike with the lowest code point: ASCII where there is one."""
    data = confusables.confusables_data.get(ch)
    if not data:
        return ch
    return min([ch, *(alike["c"] for alike in data if len(alike["c"]) == 1)])


def _mapped(text: str) -> str:
    return unicodedata.normalize("NFKD", "".join(_plainest(ch) for ch in unicodedata.normalize("NFKD", text)))


def skeleton(name: str) -> str:
    """Equal for two names a player could take for each other. Mapped before case-folding
    too, since Greek capitals look Latin ("ΑΝΝΑ") and their small letters do not ("αννα")."""
    return _mapped(_mapped(unicodedata.normalize("NFKC", name)).casefold())


def normalised(name: str) -> str:
    """The form a name is kept in: composed (NFC), as typed otherwise."""
    return unicodedata.normalize("NFC", name)
