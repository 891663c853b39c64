"""Reviewed corrections to the Hungarian dictionary, read from ``dictionaries/``.

hunspell's verdict is wrong for some words in a way its morphology cannot tell: an English
spelling Hungarian writes its own way (meeting for míting), a name it also builds as a word
(Gyöngyi as gyöngy + -i), a dialect form (mindég), a real word it does not know (nyersség).
Each correction is a reviewed line of data with why and a source, never a list in code; the
bench (bench/blanko_words.py) measures the dictionary with them on a held-out list.

Columns (tab-separated, one header line, ``#`` lines are comments):

- ``word``: lower case, letters only;
- ``verdict``: ``refuse`` or ``accept``;
- ``reason``: for ``refuse`` the reason the game gives (``not-a-word``, ``foreign``,
  ``abbreviation``, ``proper-noun``), for ``accept`` ``dictionary``;
- ``forms``: ``word`` (this spelling only) or ``stem`` (every form the dictionary builds on
  this stem too: meetinget, chaten, tajt; not for names, whose letters are also other
  words' forms: gyöngyi is a name, gyöngyöt a word);
- ``why`` and ``source``: what the reviewer found, and where.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..paths import dictionaries_dir

COLUMNS = ("word", "verdict", "reason", "forms", "why", "source")
REASONS = {"refuse": ("not-a-word", "foreign", "abbreviation", "proper-noun"),
           "accept": ("dictionary",)}
FORMS = ("word", "stem")


@dataclass(frozen=True)
class Correction:
    word: str
    verdict: str
    reason: str
    forms: str
    why: str
    source: str


def path(language: str = "hu_HU", folder: Path | None = None) -> Path:
    return (folder or dictionaries_dir()) / f"{language}.corrections.tsv"


def read(file: Path) -> list[Correction]:
    """The corrections in ``file``; a line that breaks the format stops the start, naming it."""
    out: list[Correction] = []
    lines = file.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if number == 1 or not line.strip() or line.startswith("#"):
            continue
        cells = [unicodedata.normalize("NFC", c.strip()) for c in line.split("\t")]
        problem = _problem(cells)
        if problem:
            raise ValueError(f"{file.name}:{number}: {problem}")
        out.append(Correction(*cells))
    return out


def _problem(cells: list[str]) -> str | None:
    if len(cells) != len(COLUMNS):
        return f"a line has {len(COLUMNS)} columns ({', '.join(COLUMNS)}), this one {len(cells)}"
    word, verdict, reason, forms, why, source = cells
    if not word.isalpha() or word != word.lower():
        return f"the word must be lower case letters: {word!r}"
    if verdict not in REASONS:
        return f"the verdict is refuse or accept, not {verdict!r}"
    if reason not in REASONS[verdict]:
        return f"the reason of {verdict} is one of {', '.join(REASONS[verdict])}, not {reason!r}"
    if forms not in FORMS or (forms == "stem" and reason == "proper-noun"):
        return f"the forms are word or stem (a name only word), not {forms!r}"
    if not why or not source:
        return "every correction says why and gives a source"
    return None


class Corrections:
    """The corrections by the word they apply to, and by stem for those that cover its forms."""

    def __init__(self, entries: list[Correction]) -> None:
        self.words = {c.word: c for c in entries}
        self.stems = {c.word: c for c in entries if c.forms == "stem"}

    def of(self, word: str, stems: list[str]) -> Correction | None:
        """The correction for ``word`` (lower case), whose analyses name ``stems`` (the stem
        of each analysis's last member): its own, or one every stem of it is under."""
        if word in self.words:
            return self.words[word]
        found = {self.stems.get(s) for s in stems}
        return found.pop() if stems and len(found) == 1 else None


def load(language: str = "hu_HU", folder: Path | None = None) -> Corrections:
    """The project's reviewed corrections; none when the file is not there (a pinned
    dictionary from elsewhere)."""
    file = path(language, folder)
    return Corrections(read(file) if file.is_file() else [])
