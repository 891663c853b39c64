"""Players' names in Hungarian alphabetical order, where lists of names are sorted.

By code point, "Ágnes" came after "Péter" and "Zénó" after "Zsuzsa" (#43), and the machines
a club runs on may have no hu_HU locale for ``locale.strxfrm``, so the order is spelled out
here. The Hungarian alphabet: a á b c cs d dz dzs e é f g gy h i í j k l ly m n ny o ó ö ő p
(q) r s sz t ty u ú ü ű v (w x y) z zs. The digraphs and trigraph are letters of their own
(CS after C, ZS after Z), and a doubled one counts twice (SSZ is SZ SZ). A long vowel is its
short one (Á is A, Ő is Ö) unless the names are otherwise equal, when the short comes first;
then lower case before upper. Letters of other alphabets keep their code point's order after
the Hungarian ones, and what is not a letter (digits, spaces) comes before all letters.
"""

from __future__ import annotations

import unicodedata

ALPHABET = ("a b c cs d dz dzs e f g gy h i j k l ly m n ny o ö p q r s sz t ty u ü v w x y z zs"
            .split())
_RANK = {letter: i for i, letter in enumerate(ALPHABET)}
_LONG = {"á": "a", "é": "e", "í": "i", "ó": "o", "ő": "ö", "ú": "u", "ű": "ü"}
_MULTI = sorted((letter for letter in ALPHABET if len(letter) > 1), key=len, reverse=True)
Key = tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...], str]


def collation_key(name: str) -> Key:
    """The key that sorts names in Hungarian alphabetical order (``sorted(names, key=...)``)."""
    primary: list[tuple[int, int]] = []
    accents: list[int] = []
    cases: list[int] = []
    text = unicodedata.normalize("NFC", name)
    low = text.lower()
    i = 0
    while i < len(low):
        letter, width = _letter_at(low, i)
        cases.append(int(text[i] != low[i]))
        accent = 0
        if letter in _LONG:
            letter, accent = _LONG[letter], 1
        elif letter not in _RANK and letter.isalpha():
            base = unicodedata.normalize("NFD", letter)[0]
            if base in _RANK:  # a Latin letter with an accent Hungarian has not: after its base
                letter, accent = base, 2
        if letter in _RANK:
            primary.append((1, _RANK[letter]))
        else:
            primary.append((2 if letter.isalpha() else 0, ord(letter[0])))
        accents.append(accent)
        i += width
    return tuple(primary), tuple(accents), tuple(cases), text


def _letter_at(low: str, i: int) -> tuple[str, int]:
    """The letter of the alphabet at ``i`` and how many characters it took; a doubled digraph
    (ssz, ggy, ddzs) gives its first half, taking only its first character."""
    for letter in _MULTI:
        if low.startswith(letter, i):
            return letter, len(letter)
        if low[i] == letter[0] and low.startswith(letter, i + 1):
            return letter, 1
    return low[i], 1
