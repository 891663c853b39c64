"""The record's files in a person's language: a CSV's headers and each game's result, worded
from the catalogues that word the pages (static/i18n/<lang>.json), so a spreadsheet says what
the phone said. The phone names its language (``?lang=hu``); without one, a file keeps the
stable machine names a script reads."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from ..errors import ApiError
from ..paths import static_root

CATALOGUES = static_root() / "i18n"
LANGUAGE = re.compile(r"^[a-z]{2,3}$")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Words:
    """One language's words for the record's files (English behind any key it lacks)."""

    def __init__(self, lang: str, strings: dict[str, Any], english: dict[str, Any]) -> None:
        self.lang, self.strings, self.english = lang, strings, english

    @staticmethod
    def of(lang: str) -> Words:
        if not LANGUAGE.match(lang) or not (CATALOGUES / f"{lang}.json").is_file():
            raise ApiError("record/bad_lang", "lang is the code of one of /api/languages, e.g. hu")
        return Words(lang, _catalogue(lang), _catalogue("en"))

    def has(self, key: str) -> bool:
        return key in self.strings or key in self.english

    def t(self, key: str, params: dict[str, Any]) -> str:
        """The catalogue's text as the pages' t() gives it: its plural form, filled in."""
        value = self.strings.get(key, self.english.get(key, key))
        if isinstance(value, dict):  # plural forms, picked by params.n or the param "count" names
            value = value.get(_category(params.get(value.get("count", "n"))), value["other"])
        return PLACEHOLDER.sub(lambda m: _filled(m, params), value)

    def header(self, column: str) -> str:
        return self.t(f"csv.{column}", {})

    def summary(self, g: dict[str, Any]) -> str:
        """A game's result as the pages word it (common.js resultText)."""
        outcome = g["summary"]
        names = {p["player_id"]: p["name"] for p in g["players"]}
        winners = [names.get(pid, "?") for pid in g["winners"]]
        key = next((k for k in (f"result.{g['game']}.{outcome}", f"result.{outcome}") if self.has(k)), None)
        params = {**g.get("result", {}), "winners": ", ".join(winners), "n": len(winners)}
        return self.t(key, params) if key else outcome


def _filled(m: re.Match[str], params: dict[str, Any]) -> str:
    """As the pages fill a placeholder: a missing param leaves it showing, None fills nothing."""
    if m[1] not in params:
        return m[0]
    return "" if params[m[1]] is None else str(params[m[1]])


@cache
def _catalogue(lang: str) -> dict[str, Any]:
    """A catalogue flattened as the pages flatten it: "ui" keys bare, others "section.key"."""
    doc = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
    return {(key if section == "ui" else f"{section}.{key}"): text
            for section, entries in doc.items() if isinstance(entries, dict) for key, text in entries.items()}


def _category(n: Any) -> str:
    """The plural category of n in the catalogues' languages (English and Hungarian both say
    "one" for 1 and "other" for any other number); a form a language lacks falls to "other"."""
    return "one" if n == 1 else "other"
