"""The words on screen come from one catalogue per language (static/i18n/<code>.json), keyed by
the codes the server sends. Engineers add error codes and events all the time: these checks
read the server's source, so a code without words in every language fails here, not on a
Hungarian phone at the table."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from companion.games.blanko import words

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "static"
CATALOGUES = sorted((STATIC / "i18n").glob("*.json"))
CODE = re.compile(r"^[a-z][a-z0-9]*/[a-z0-9_\-]+$")
MIME = ("application/", "audio/", "font/", "image/", "multipart/", "text/", "video/")
EVENT_TYPE = re.compile(r"^[A-Z][a-z]+(?:[A-Z][a-z]+)+$")
# Codes the page itself raises (api.js; a stale screen's refusal, common.js), and the words for
# a code no catalogue knows yet.
CLIENT_CODES = {"net/offline", "net/stale", "unknown"}
REASONS = set(words.REASONS)  # CONTRACT.md
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# The plural categories (CLDR, as Intl.PluralRules names them) of each catalogue's language: a
# value with plural forms names these and no others. A new language adds its own here.
PLURAL_CATEGORIES = {"en": {"one", "other"}, "hu": {"one", "other"}}


def _sources() -> list[ast.AST]:
    return [ast.parse(p.read_text("utf-8")) for p in sorted((ROOT / "companion").rglob("*.py"))]


def error_codes() -> set[str]:
    """Every "area/what" string literal in companion/: the codes of RuleViolation, ApiError,
    require() and error frames, whatever helper raises them."""
    return {n.value for tree in _sources() for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and CODE.match(n.value)
            and not n.value.startswith(MIME)}


def event_types() -> set[str]:
    """The type of every event the rules can record: ``event("Type", ...)`` calls and
    ``{"type": "Type"}`` literals."""
    found = set()
    for tree in _sources():
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Constant):
                name = n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", "")
                if name == "event" and isinstance(n.args[0].value, str):
                    found.add(n.args[0].value)
            if isinstance(n, ast.Dict):
                for k, v in zip(n.keys, n.values, strict=True):
                    if (isinstance(k, ast.Constant) and k.value == "type" and isinstance(v, ast.Constant)
                            and isinstance(v.value, str) and EVENT_TYPE.match(v.value)):
                        found.add(v.value)
    return found


def load(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def forms(value: str | dict) -> list[str]:
    """The texts of a catalogue value: a string, or each of its plural forms."""
    return [value] if isinstance(value, str) else [v for k, v in value.items() if k != "count"]


def placeholders(value: str | dict) -> set[str]:
    return {name for text in forms(value) for name in PLACEHOLDER.findall(text)}


def test_the_source_scan_finds_codes_and_events():
    assert {"table/not_your_turn", "blanko/exchange_needs_20", "auth/removed"} <= error_codes()
    assert {"WordsLaid", "GameEnded", "TurnReinstated", "TimerStarted"} <= event_types()
    assert not any(c.startswith(MIME) for c in error_codes())


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_every_code_and_event_has_words(path):
    cat = load(path)
    assert isinstance(cat["name"], str) and cat["name"]
    missing_errors = sorted((error_codes() | CLIENT_CODES) - set(cat["error"]))
    missing_events = sorted(event_types() - set(cat["event"]))
    missing_reasons = sorted(REASONS - set(cat["reason"]))
    assert not missing_errors, f"{path.name}: add words for these error codes: {missing_errors}"
    assert not missing_events, f"{path.name}: add words for these event types: {missing_events}"
    assert not missing_reasons, f"{path.name}: add words for these reasons: {missing_reasons}"


@pytest.mark.parametrize("path", [p for p in CATALOGUES if p.stem != "en"], ids=lambda p: p.stem)
def test_every_language_says_all_english_says(path):
    english, other = load(CATALOGUES[[p.stem for p in CATALOGUES].index("en")]), load(path)
    for section, entries in english.items():
        if not isinstance(entries, dict):
            continue
        for key, text in entries.items():
            assert key in other.get(section, {}), f"{path.name}: {section}.{key} is missing"
            theirs = other[section][key]
            assert all(form.strip() for form in forms(theirs)), f"{path.name}: {section}.{key} is empty"
            assert placeholders(theirs) == placeholders(text), \
                f"{path.name}: {section}.{key} must use the placeholders of English: {text!r}"
        extra = set(other.get(section, {})) - set(entries)
        assert not extra, f"{path.name}: {section} has keys English lacks: {sorted(extra)}"


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_plural_forms_are_the_languages_own(path):
    """A value that changes with a number lists the forms its language has ("other" always),
    and the figure that picks one (params.n, or the param "count" names) is one it fills in."""
    categories = PLURAL_CATEGORIES.get(path.stem)
    for section, entries in load(path).items():
        for key, value in (entries.items() if isinstance(entries, dict) else ()):
            if isinstance(value, str):
                continue
            where = f"{path.name}: {section}.{key}"
            assert isinstance(value, dict) and "other" in value, f"{where}: plural forms need 'other'"
            assert categories, f"{path.name}: add its language's plural categories to PLURAL_CATEGORIES"
            assert set(value) - {"count"} <= categories, f"{where}: {path.stem} has only {sorted(categories)}"
            assert all(isinstance(v, str) and v.strip() for v in value.values()), f"{where}: a form is empty"
            count = value.get("count", "n")  # n may only pick the form ("Winner"/"Winners")
            assert count == "n" or count in placeholders(value), f"{where}: it counts {count!r}, not a param"


def test_no_card_s_in_any_language():
    """"card(s)": a plural form is the place for a number's words."""
    for path in CATALOGUES:
        for section, entries in load(path).items():
            for key, value in (entries.items() if isinstance(entries, dict) else ()):
                assert not any(re.search(r"\w\((s|ok|ek|ak)\)", f) for f in forms(value)), \
                    f"{path.name}: {section}.{key}"


def test_every_key_the_pages_name_is_in_the_catalogue():
    english = load(STATIC / "i18n" / "en.json")
    flat = set(english["ui"]) | {f"{section}.{key}" for section, entries in english.items()
                                 if isinstance(entries, dict) and section != "ui" for key in entries}
    used = set()
    for js in (STATIC / "js").rglob("*.js"):
        used |= set(re.findall(r"""\bt\(\s*["']([^"']+)["']""", js.read_text("utf-8")))
    assert not sorted(used - flat), f"keys used by the pages but not in en.json: {sorted(used - flat)}"


def test_no_words_outside_the_catalogue():
    """Strings tables in the scripts would be a second catalogue a translator cannot find."""
    for js in (STATIC / "js").rglob("*.js"):
        text = js.read_text("utf-8")
        assert "addStrings(" not in text, f"{js.name}: move its strings into static/i18n/*.json"


def test_the_offline_shell_lists_every_script():
    from companion.web.assets import Assets

    assets = Assets(STATIC)
    build = assets.build
    scripts = {assets.url(p.relative_to(STATIC).as_posix()) for p in (STATIC / "js").rglob("*.js")}
    assert scripts <= set(build["shell"]) and "/" in build["shell"]
    assert build["version"] == assets.version


def test_the_figures_for_the_words_travel_with_the_code():
    from companion.games.core.errors import RuleViolation

    assert RuleViolation("rankfile/too_many", "m").as_dict() == {"code": "rankfile/too_many", "message": "m"}
    e = RuleViolation("rankfile/impossible", "with a 7 there...", params={"number": 7})
    assert e.as_dict()["params"] == {"number": 7}


def test_the_server_lists_the_languages_it_has(client):
    langs = client.get("/api/languages").get_json()["languages"]
    assert langs[0] == {"code": "en", "name": "English"}
    assert {lang["code"] for lang in langs} == {p.stem for p in CATALOGUES}
    assert {"code": "hu", "name": "Magyar"} in langs


# The Hungarian glossary (docs/architecture.md, "Hungarian terms"): one term per thing, and the
# words it retired. A retired word is a stem (`elszámol-` also catches `elszámolva`) or, without
# the dash, a whole word (`Ok`, which reads as English OK).
DOCS = ROOT / "docs" / "architecture.md"


def glossary() -> list[tuple[str, str, list[str]]]:
    """The rows of the glossary table: (thing, term, retired words)."""
    text = DOCS.read_text("utf-8")
    section = text.split("### Hungarian terms", 1)[1].split("\n#", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] and not set(cells[0]) <= set("-: ") and cells[0] != "Thing":
            rows.append((cells[0], cells[1], re.findall(r"`([^`]+)`", cells[2])))
    return rows


def retired_pattern(word: str) -> re.Pattern[str]:
    if word.endswith("-"):
        return re.compile(rf"(?<!\w){re.escape(word[:-1])}", re.IGNORECASE)
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")


def hungarian_texts() -> list[tuple[str, str]]:
    hu = load(STATIC / "i18n" / "hu.json")
    return [(f"{section}.{key}", text) for section, entries in hu.items() if isinstance(entries, dict)
            for key, value in entries.items() for text in forms(value)]


def test_the_glossary_names_the_terms_and_what_they_retired():
    rows = glossary()
    things = {thing for thing, _, _ in rows}
    assert {"tile (BLANKO)", "rack", "turn (one player's)", "discard pile", "match (a card)",
            "count the rack", "go out (BLANK)", "tie (starting draw)", "the player an effect names",
            "customised card"} <= things
    assert all(term for _, term, _ in rows)
    retired = {w for _, _, words in rows for w in words}
    assert {"elszámol-", "döntetlen-", "célpont-", "illeszked-", "Ok", "kiszáll-", "testreszab-"} <= retired


def test_no_retired_word_in_hungarian():
    texts = hungarian_texts()
    found = {word: keys for word in sorted({w for _, _, words in glossary() for w in words})
             if (keys := [key for key, text in texts if retired_pattern(word).search(text)])}
    assert not found, f"hu.json: retired words (docs/architecture.md, Hungarian terms): {found}"


def test_hungarian_says_things_as_a_player_would():
    """No 'lett rögzítve' passive (the server saved nothing, not nothing 'became saved'), and no
    chain of possessives ending in a verbal noun ('paklijainak bekeverése')."""
    passive = re.compile(r"\blett \w+(?:va|ve)\b")
    chain = re.compile(r"\w+(?:ainak|einek|jainak|jeinek|ának|ének) \w+(?:ása|ése)\b")
    for key, text in hungarian_texts():
        assert not passive.search(text), f"hu.json {key}: {text!r}"
        assert not chain.search(text), f"hu.json {key}: {text!r}"


def test_a_blank_rule_line_agrees_in_each_language():
    """"If {trigger}: {target} {effect}": the effects are worded for one player or thing
    ("draws a card", "lapot húz"), so every target is a singular subject ("every player", not
    "all players discards cards"; "minden kijátszott lap", not "a kijátszott lapok … cserél")."""
    plural = {"en": re.compile(r"^(?:all|both)\b|\b(?:players|cards|piles)\b"),
              "hu": re.compile(r"\w(?:ok|ek|ök|ak|ák|ék)$")}
    for path in CATALOGUES:
        ui = load(path)["ui"]
        targets = {k: v for k, v in ui.items() if k.startswith("bl_tg_")}
        assert len(targets) == 8
        bad = {k: v for k, v in targets.items() if plural[path.stem].search(v)}
        assert not bad, f"{path.name}: plural targets before a singular effect: {bad}"
