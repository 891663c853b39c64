"""pyhunspell behind the pure ``Lexicon`` protocol, found in ``dictionaries/`` or the system.

Only lookups happen here (and reading the dictionary's analysis format, morphology.py); what
counts as a valid BLANKO word (letters only, lower case, proper nouns, house words) is rule
logic and lives in ``games/blanko/words.py``.
"""

from __future__ import annotations

import functools
import threading
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..games.blanko.tiles import DIGRAPHS
from ..games.blanko.words import Analysis
from ..paths import dictionaries_dir
from . import corrections
from .corrections import Corrections
from .morphology import analysis_of, last_stem

SYSTEM_DIRS = (Path("/usr/share/hunspell"), Path("/usr/share/myspell"),
               Path("/usr/share/myspell/dicts"))


class DictionaryMissing(RuntimeError):
    """The dictionary cannot be used: not installed, or its reviewed corrections are malformed.
    The server does not start without it, and says which."""


def find(language: str = "hu_HU", dirs: tuple[Path, ...] | None = None) -> tuple[Path, Path]:
    """The .dic/.aff pair: the project's ``dictionaries/`` first, then the system's folders."""
    search = dirs if dirs is not None else (dictionaries_dir(), *SYSTEM_DIRS)
    for d in search:
        dic, aff = d / f"{language}.dic", d / f"{language}.aff"
        if dic.is_file() and aff.is_file():
            return dic, aff
    raise DictionaryMissing(
        f"no {language} hunspell dictionary in {', '.join(map(str, search))}: install Debian's "
        "'hunspell-hu' package (make run and make test do), or put hu_HU.dic and hu_HU.aff in "
        "dictionaries/")


_handles: dict[tuple[str, str, int, int], tuple[Any, threading.Lock]] = {}
_handles_lock = threading.Lock()


def _handle(dic: Path, aff: Path) -> tuple[Any, threading.Lock]:
    """One hunspell handle per dictionary in a process, with the lock its calls go through:
    loading the Hungarian one takes a tenth of a second and it is never changed, and an app
    per test loaded it again each time. Loaded again when either file changed."""
    import hunspell  # imported here so that only a real lookup needs the C extension

    key = (str(dic), str(aff), dic.stat().st_mtime_ns, aff.stat().st_mtime_ns)
    with _handles_lock:
        if key not in _handles:
            _handles[key] = (hunspell.HunSpell(str(dic), str(aff)), threading.Lock())
        return _handles[key]


class HunspellLexicon:
    """Thread-safe lookups: one hunspell handle is shared by every request thread, and the C
    library keeps per-call scratch state, so calls go through a lock. The reviewed corrections
    (corrections.py) amend its answers for a lower-case word: a refused name is no word, a
    refused word's analyses say not-a-word or foreign, an accepted word is one."""

    def __init__(self, dic: Path, aff: Path, corrected: Corrections | None = None) -> None:
        self._h, self._lock = _handle(dic, aff)
        self._encoding = self._h.get_dic_encoding()  # of analyze()'s answers, which come as bytes
        # a word is read, then judged, then its points counted: the same analyses each time
        self._cached = functools.lru_cache(maxsize=4096)(self._analyses)
        self.source = str(dic)
        self._corrections = corrected or Corrections([])

    def has_word(self, word: str) -> bool:
        word = unicodedata.normalize("NFC", word)
        c = self._corrections.words.get(word)
        if c is not None:
            return c.verdict == "accept" or c.reason != "proper-noun"
        with self._lock:
            return bool(self._h.spell(word))

    def analyses(self, word: str) -> list[Analysis]:
        return self._cached(word)

    def _analyses(self, word: str) -> list[Analysis]:
        """Distinct analyses, each with the boundaries the words that ``word`` begins with have
        inside them (``_inner_cuts``)."""
        word = unicodedata.normalize("NFC", word)
        with self._lock:
            raw = self._h.analyze(word)
        inner = self._inner_cuts(word.lower()) if raw else frozenset()
        texts = [a.decode(self._encoding) for a in raw]
        c = self._corrections.of(word, [last_stem(t) for t in texts])
        out: list[Analysis] = []
        for text in texts:
            analysis = analysis_of(word.lower(), text, self._cuts_of)
            analysis = replace(analysis, cuts=analysis.cuts | inner)
            if c is not None:
                analysis = replace(analysis, **_flags(c))
            if analysis not in out:
                out.append(analysis)
        if not out and c is not None and c.verdict == "refuse":
            out.append(Analysis(**_flags(c)))
        return out

    def _cuts_of(self, stem: str) -> frozenset[int]:
        """The boundaries inside a stem, by its own analyses (a stem is shorter than the word
        it was found in, so this ends)."""
        return frozenset().union(*(a.cuts for a in self.analyses(stem)))

    def _inner_cuts(self, word: str) -> frozenset[int]:
        """Where a word that ``word`` begins with splits one of its letter pairs: the
        dictionary lists igazságtalankodik as one stem, but igazság as igaz|ság. A derived
        word keeps the boundaries of the word it was derived from. Only what the dictionary
        lists counts, not a compound it builds itself: any letters make some compound (kaszab
        as kas + zab, though kaszabol keeps its SZ). The prefixes are shorter than the word,
        so this ends."""
        out = set()
        for p in range(1, len(word) - 1):
            if word[p - 1:p + 1].upper() not in DIGRAPHS:
                continue
            for end in range(p + 2, len(word)):
                if any(p in a.cuts for a in self.analyses(word[:end]) if not a.compound):
                    out.add(p)
                    break
        return frozenset(out)


def _flags(c: corrections.Correction) -> dict[str, bool]:
    """What a correction makes of each analysis of its word."""
    if c.verdict == "accept":
        return {"nonstandard": False, "foreign": False, "abbreviation": False}
    return {"nonstandard": c.reason == "not-a-word", "foreign": c.reason == "foreign",
            "abbreviation": c.reason == "abbreviation"}


def load(language: str = "hu_HU") -> HunspellLexicon:
    try:
        corrected = corrections.load(language)
    except ValueError as e:
        raise DictionaryMissing(f"the dictionary's reviewed corrections are malformed: {e}") from None
    return HunspellLexicon(*find(language), corrected)
