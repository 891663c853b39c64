"""pyhunspell behind the pure ``Lexicon`` protocol, found in ``dictionaries/`` or the system.

Only raw lookups happen here; what counts as a valid BLANKO word (letters only, lower case,
proper nouns, house words) is rule logic and lives in ``games/blanko/words.py``.
"""

from __future__ import annotations

import threading
import unicodedata
from pathlib import Path

from ..paths import dictionaries_dir

SYSTEM_DIRS = (Path("/usr/share/hunspell"), Path("/usr/share/myspell"),
               Path("/usr/share/myspell/dicts"))


class DictionaryMissing(RuntimeError):
    pass


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


class HunspellLexicon:
    """Thread-safe lookups: one hunspell handle is shared by every request thread, and the C
    library keeps per-call scratch state, so calls go through a lock."""

    def __init__(self, dic: Path, aff: Path) -> None:
        import hunspell  # imported here so that only a real lookup needs the C extension

        self._h = hunspell.HunSpell(str(dic), str(aff))
        self._lock = threading.Lock()
        self.source = str(dic)

    def has_word(self, word: str) -> bool:
        word = unicodedata.normalize("NFC", word)
        with self._lock:
            return bool(self._h.spell(word))


def load(language: str = "hu_HU") -> HunspellLexicon:
    return HunspellLexicon(*find(language))
