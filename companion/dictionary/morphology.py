"""Reading the Hungarian dictionary's (magyarispell's) morphological analysis of a word.

hunspell's ``analyze`` gives each analysis as fields: ``st:`` the stem, ``sp:`` a verbal prefix,
``pa:`` each member of a compound hunspell formed itself, ``hy:`` the stem's hyphenation with
its compound boundaries (``víz|szintes``, ``köz-ség``; ``.`` where two letters that look like a
digraph are not one, ``L.yme``; a number is the position of the compound boundary,
``kisasszony hy:3``; or only the letters around a boundary, wherever they stand in the stem,
``nyolcszáz hy:c|sz``), ``po:`` the part of speech (``po:abr`` an abbreviation, ``po:noun_prs``
a proper noun, ``po:part`` a word of a foreign phrase such as *mountain bike*), ``al:`` other
forms of the stem and ``ph:`` a foreign word's pronunciation. Hungarian never splits a digraph
across any of these boundaries, so they are where a letter pair is two tiles.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..games.blanko.words import Analysis

HYPHENATION_MARKS = "-|=."
# Nouns whose stem takes a v before a suffix (kő: kövek, követ): their accusative on the bare
# stem (kőt, lót, alapkőt) is no standard form, though hunspell accepts it; szó keeps szót.
V_STEM_PLURAL = "[aoöüeu]v[aeo]k"
LONG_VOWELS = "óőúűé"
VOWELS = "aáeéiíoóöőuúüű"
SHORTENED = str.maketrans("áéíóőúű", "aeioöuü")
PLURAL = "[aeoö]k"  # the plural ending after a consonant: nyarak, levelek, bokrok, tükrök
LENGTHENED = {"a": "á", "e": "é"}  # a stem's final a or e before a suffix (szoba, szobás)


def analysis_of(word: str, raw: str, cuts_of: Callable[[str], frozenset[int]] = lambda stem: frozenset()
                ) -> Analysis:
    """``word`` in lower case as analysed; ``raw`` one analysis, as hunspell gives it.
    ``cuts_of`` gives the boundaries inside a stem that a suffix was added to: the analysis of
    ``tízszereződik`` names the stem ``tízszerez`` but not that it is tíz|szerez."""
    fields = raw.split()
    members = _members(word, fields)
    cuts: set[int] = set()
    for start, end, tokens in members:
        cuts.add(start)
        at = start  # where the stem begins, after any prefix
        for i, token in enumerate(tokens):
            key, _, value = token.partition(":")
            if key == "sp" and word.startswith(value, at):
                at += len(value)
                cuts.add(at)
            elif key == "st" and not word.startswith(value, at) and _after_numeral(tokens[:i]):
                found = _stem_at(word[:end], value, at + 1)
                if found > 0:
                    at = found
                    cuts.add(at)
            if key == "st" and word.startswith(value, at) and at + len(value) < end:
                cuts |= {at + len(value), *(at + c for c in cuts_of(value))}
            elif key == "hy":
                cuts |= _hyphenation(word[:end], at, value)
    stems = [f[3:] for f in fields if f.startswith("st:")]
    return Analysis(frozenset(cuts - {0, len(word)}), _abbreviation(fields),
                    compound=len(members) > 1, proper="po:noun_prs" in fields,
                    foreign="po:part" in fields,
                    nonstandard=_bare_stem_accusative(word, fields, stems)
                    or _unchanged_stem_accusative(word, members[-1][2]))


def last_stem(raw: str) -> str:
    """The stem of an analysis's last member (the one its suffixes are on), or ''."""
    stems = [f[3:] for f in raw.split() if f.startswith("st:")]
    return stems[-1] if stems else ""


def _after_numeral(before_stem: list[str]) -> bool:
    """hunspell joins a numeral to a word by a rule of its own and names the numeral only by
    its part of speech, before the word's stem (``nyolcszemélyes``: ``po:adj_num  st:személy``):
    the stem then begins after the numeral, and a numeral is a word, so that is a boundary."""
    return bool(before_stem) and all(f.startswith("po:") for f in before_stem)


def _stem_at(word: str, stem: str, start: int) -> int:
    """Where ``stem`` stands in ``word`` from ``start`` on, also as a suffix changes it: its
    final a or e lengthened (szoba in kilencszobás) or its last vowel dropped (szurok in
    tízszurkos, sérelem, sürög); -1 where it does not."""
    forms = [stem]
    if len(stem) > 2 and stem[-1] in LENGTHENED:
        forms.append(stem[:-1] + LENGTHENED[stem[-1]])
    if len(stem) > 3 and stem[-2] in VOWELS:
        forms.append(stem[:-2] + stem[-1])
    return next((i for i in (word.find(f, start) for f in forms) if i >= 0), -1)


def _members(word: str, fields: list[str]) -> list[tuple[int, int, list[str]]]:
    """(start, end, fields) of each member of a compound hunspell formed (``pa:`` fields), or
    of the whole word when it did not form one (or its members do not spell the word)."""
    members: list[tuple[str, list[str]]] = []
    for f in fields:
        if f.startswith("pa:"):
            members.append((f[3:], []))
        elif members:
            members[-1][1].append(f)
    if not members or "".join(m for m, _ in members) != word:
        return [(0, len(word), fields)]
    out, at = [], 0
    for member, tokens in members:
        out.append((at, at + len(member), tokens))
        at += len(member)
    return out


def _hyphenation(word: str, at: int, hy: str) -> set[int]:
    """The boundaries a ``hy:`` field marks in ``word`` (up to the member's end), its stem
    beginning at ``at``: the whole stem (``köz-ség``), the stem before its vowel changed
    (``víz|su-gár`` in vízsugarak: the boundaries before the change stand), or the letters
    around a boundary wherever they stand (``c|sz`` in nyolcszáz, ezernyolcszázas)."""
    if hy.isdigit():
        return {at + int(hy)}
    marks, letters = [], ""
    for ch in hy:
        if ch in HYPHENATION_MARKS:
            marks.append(len(letters))
        else:
            letters += ch.lower()
    if word.startswith(letters, at):
        return {at + m for m in marks}
    found = [i for i in range(at, len(word)) if word.startswith(letters, i)]
    if found:
        return {i + m for i in found for m in marks}
    same = 0  # letters of the stem still as the field spells them
    while at + same < len(word) and same < len(letters) and word[at + same] == letters[same]:
        same += 1
    return {at + m for m in marks if 0 < m < same} if same >= 2 else set()


def _bare_stem_accusative(word: str, fields: list[str], stems: list[str]) -> bool:
    """kőt for követ: an accusative on the bare stem of a noun whose plural has the v-stem."""
    if "is:ACC" not in fields or not stems:
        return False
    stem = stems[-1]
    if not word.endswith(stem + "t") or stem[-1:] not in LONG_VOWELS or stem.endswith("szó"):
        return False
    plural = re.compile(re.escape(stem[:-1]) + V_STEM_PLURAL)
    return any(f.startswith("al:") and plural.fullmatch(f[3:]) for f in fields)


def _unchanged_stem_accusative(word: str, fields: list[str]) -> bool:
    """tükört for tükröt, nyárt for nyarat, pehelyt for pelyhet: an accusative on the stem as
    the dictionary lists it, of a noun whose own plural there (``al:tükrök``, ``al:nyarak``,
    ``al:pelyhek``) shows that the stem drops its last vowel (and may swap the consonants
    around it) or shortens it before a vowel; the accusative takes the same stem. ``fields``
    are those of the word's last member (the member the suffix is on)."""
    stems = [f[3:] for f in fields if f.startswith("st:")]
    if "is:ACC" not in fields or not stems or stems[-1][-1:] in VOWELS:
        return False
    stem = stems[-1]
    if not word.endswith(stem + "t"):
        return False
    vowels = [i for i, ch in enumerate(stem) if ch in VOWELS]
    if not vowels:
        return False
    last = vowels[-1]
    dropped = stem[:last] + stem[last + 1:]  # tükör: tükr-
    shortened = stem[:last] + stem[last].translate(SHORTENED) + stem[last + 1:]  # nyár: nyar-
    kept = max(last - 1, 0)  # the letters before the change, which a swap leaves
    plurals = [f[3:-2] for f in fields if f.startswith("al:") and re.fullmatch(PLURAL, f[-2:])]
    return any(p != stem and (p == shortened or p == dropped
                              # pehely: pelyh-, teher: terh-: the same letters, moved
                              or (sorted(p) == sorted(dropped) and p[:kept] == stem[:kept]))
               for p in plurals)


def _abbreviation(fields: list[str]) -> bool:
    """Tagged ``po:abr`` (kg, cm), or a noun written as abbreviations are: suffixes join it
    with a hyphen (``al:tv-vel``, ``al:sms-sel``). Foreign words do that too, but come with
    their pronunciation (``show ph:só``) or end in a silent e (``joule-lal``)."""
    if "po:abr" in fields:
        return True
    stems = [f[3:] for f in fields if f.startswith("st:")]
    return (bool(stems) and "po:noun" in fields and f"al:{stems[0]}-" in fields
            and not stems[0].endswith("e") and not any(f.startswith("ph:") for f in fields))
