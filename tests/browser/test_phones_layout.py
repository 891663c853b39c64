"""Every game's phone and table screen on small phones (360×740 and 390×844), in English and
Hungarian, while the hourglass runs: nothing wider than the screen, the time left in sight
wherever the page is scrolled, not one English string on the Hungarian page, no game symbol
the phone's fonts cannot draw, and axe-core finds no serious or critical problem (contrast,
labels, names). One page per screen: the language is switched and the viewport resized on it,
as a person would, rather than opening it again."""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .conftest import shot

STATIC = Path(__file__).resolve().parents[2] / "static"
SIZES = [(390, 844), (360, 740)]
GAMES = ["blank", "blanko", "blanko-start", "bldng", "rankfile"]  # blanko-start: the start letters
NAMES = ["Anna", "Béla Kovácsné"]


def catalogue(lang: str) -> dict:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))


def strings(cat: dict) -> dict[str, str]:
    """Every text of a catalogue by its key; a value with plural forms gives one per form."""
    out = {}
    for s, e in cat.items():
        for k, v in (e.items() if isinstance(e, dict) else ()):
            out.update({f"{s}.{k}.{form}": text for form, text in v.items() if form != "count"}
                       if isinstance(v, dict) else {f"{s}.{k}": v})
    return out


@cache
def english_fragments() -> list[str]:
    """The English texts that differ from their Hungarian, as the fixed parts between
    placeholders; any of them on a Hungarian page is a string the catalogue did not word."""
    en, hu = strings(catalogue("en")), strings(catalogue("hu"))
    hungarian = " ".join(hu.values())
    found = set()
    for key, text in en.items():
        if hu.get(key) == text:
            continue
        for part in re.split(r"\{\w+\}", text):
            part = part.strip(" :·,.()—–-+/…!?")
            words = len(re.sub(r"[^A-Za-z]", "", part)) >= 4
            if words and not re.search(rf"\b{re.escape(part)}\b", hungarian):
                found.add(part)
    return sorted(found, key=len, reverse=True)


@cache
def font_has(char: str) -> bool:
    out = subprocess.run(["fc-list", f":charset={ord(char):x}", "family"], capture_output=True, text=True)
    return bool(out.stdout.strip())


def symbols(text: str) -> set[str]:
    """Characters beyond letters, digits and common punctuation: the ones a font may lack."""
    common = "–—…„”“’‘−"
    return {c for c in text if ord(c) > 0x17F and unicodedata.category(c)[0] in "SPN" and c not in common}


def seated(live_tables, game: str, names: list[str]):
    """A started table of ``game`` for ``names`` (live_tables.seated); a BLANK table plays a
    fresh deck of its own."""
    options = {}
    if game == "blank":
        deck = live_tables.client.post("/api/decks", json={"name": "Pakli", "mark": ""}).get_json()
        options = {"deck_id": deck["id"]}
    return live_tables.seated(game, names, **options)


def seat(live_tables, game: str):
    """A started table of ``game`` with the hourglass running; returns code, host token and
    the seat (id, token) of the player whose turn it is (BLANKO's first seat while the start
    letters are still to be entered, for ``blanko-start``)."""
    entering = game == "blanko-start"
    game = game.removesuffix("-start")
    code, host, tokens, ids = seated(live_tables, game, NAMES)
    if game == "blank":
        live_tables.command(code, host, "blank.first_card", card={"colour": "shield", "number": 3})
    if game == "bldng":
        for name in NAMES:
            live_tables.command(code, tokens[name], "bldng.set_project", draw=True)
    if game == "blanko" and not entering:  # the letters drawn for the start: the first seat's is highest
        for name in NAMES:
            letter = "TY" if name == NAMES[0] else "A"
            live_tables.command(code, tokens[name], "blanko.start_letter", letter=letter)
    live_tables.ok(code, host, "timer.start", seconds=600)
    current = live_tables.state(code, host)["state"]["game_state"].get("current") or ids[NAMES[0]]
    name = next(n for n in NAMES if ids[n] == current)
    return code, host, {"player_id": current, "token": tokens[name]}


def open_screen(browser, live, code, host, me, screen):
    if screen == "phone":
        store, url = f"tc.player.{code}", f"{live.url}/t/{code}"
        value = me
    else:
        store, url = f"tc.host.{code}", f"{live.url}/?table={code}"
        value = {"token": host, "join_url": f"{live.url}/t/{code}"}
    ctx = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]}, device_scale_factor=2,
                              is_mobile=True, has_touch=True, locale="en-GB")
    ctx.add_init_script(f"localStorage.setItem({json.dumps(store)}, {json.dumps(json.dumps(value))});"
                        "if (!localStorage.getItem('tc.lang')) localStorage.setItem('tc.lang', 'en');")
    page = ctx.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.goto(url)
    expect(page.locator("#hg-bar")).to_be_visible(timeout=15000)
    expect(page.locator("#game, #board").locator("> *").first).to_be_visible()
    return ctx, page


def page_text(page) -> str:
    """What the page says, in words and in attributes, less what people wrote (.user-text:
    rule cards, names), which is in whatever language its author used."""
    return page.evaluate("""() => {
        const theirs = [...document.querySelectorAll('.user-text')].filter(el => !el.hidden);
        theirs.forEach(el => { el.hidden = true; });
        const attrs = [...document.querySelectorAll('[aria-label],[placeholder],[title],[alt]')]
            .filter(el => !el.closest('.user-text'))
            .flatMap(el => ['aria-label', 'placeholder', 'title', 'alt']
                .map(a => el.getAttribute(a)).filter(Boolean));
        const text = [document.body.innerText, document.title, ...attrs].join('\\n');
        theirs.forEach(el => { el.hidden = false; });
        return text;
    }""")


def check_layout(page, width: int, label: str) -> None:
    # A phone zooms out to show a page wider than itself (innerWidth grows with it), so the
    # page is measured against the screen, naming what sticks out.
    wide = page.evaluate("""(w) => [document.documentElement.scrollWidth,
        [...document.querySelectorAll('body *')].filter(el => el.getBoundingClientRect().right > w + 0.5)
          .map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '.' + el.className)
          .slice(0, 6)]""", width)
    assert wide[0] <= width and not wide[1], \
        f"{label}: the page is {wide[0]} px wide on a {width} px screen: {wide[1]}"
    for where in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"() => window.scrollTo(0, {where})")
        box = page.evaluate("""() => { const r = document.getElementById('hg-bar').getBoundingClientRect();
            const digits = document.querySelector('.hg-bar-digits').textContent;
            return [r.top, r.bottom, window.innerHeight, digits]; }""")
        assert box[0] >= 0 and box[1] <= box[2], f"{label}: the time left is off screen ({box})"
        assert re.fullmatch(r"\d+:\d\d", box[3]), f"{label}: the bar shows {box[3]!r}"
    page.evaluate("() => window.scrollTo(0, 0)")


def check_words(page, lang: str, label: str) -> None:
    text = page_text(page)
    missing = [c for c in symbols(text) if not font_has(c)]
    assert not missing, f"{label}: no installed font draws {missing}"
    if lang == "hu":
        english = [f for f in english_fragments() if re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", text)]
        assert not english, f"{label}: English on the Hungarian page: {english}"


def check_axe(page, label: str) -> None:
    results = Axe().run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{label}: axe finds {bad}"


@pytest.mark.parametrize("game", GAMES)
def test_small_phones_in_both_languages(browser, live, live_tables, game):
    code, host, me = seat(live_tables, game)
    for screen in ("phone", "table"):
        ctx, page = open_screen(browser, live, code, host, me, screen)
        try:
            for lang in ("en", "hu"):
                if lang == "hu":
                    page.click("#lang")
                    expect(page.locator("html")).to_have_attribute("lang", "hu")
                for width, height in SIZES:
                    page.set_viewport_size({"width": width, "height": height})
                    label = f"{game} {screen} {lang} {width}×{height}"
                    check_layout(page, width, label)
                    check_words(page, lang, label)
                    if width == SIZES[0][0]:
                        check_axe(page, label)
                shot(page, f"layout-{game}-{screen}-{lang}")
            assert page.errors == []  # type: ignore[attr-defined]
        finally:
            ctx.close()


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_the_header_bar_keeps_its_sand_with_the_sound_off(browser, live, live_tables, lang):
    """The header's bar with everything it can show at once on a 390 px phone (time's up, its
    button and the sound-off icon, in the longer language too): the sand bar keeps its room."""
    t = live_tables.create("blanko", draw_start=False)
    code, host = t["code"], t["host_token"]
    anna = live_tables.join(code, "Anna")
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                              is_mobile=True, has_touch=True, locale="en-GB")
    ctx.add_init_script(f"localStorage.setItem('tc.player.{code}', {json.dumps(json.dumps(anna))});"
                        f"localStorage.setItem('tc.lang', '{lang}');")
    page = ctx.new_page()
    page.goto(f"{live.url}/t/{code}")
    expect(page.locator("#status")).to_have_attribute("data-status", "online")
    try:
        for phase in ("running", "done"):
            if phase == "running":
                live_tables.ok(code, host, "timer.start", seconds=600)
            else:
                live_tables.ok(code, host, "timer.start", seconds=1)
            expect(page.locator("#hg-bar")).to_have_attribute("data-phase", phase)
            expect(page.locator("#hg-bar .hg-sound")).to_be_visible()  # nobody tapped yet
            track = page.locator(".hg-bar-track").bounding_box()
            bar = page.locator("#hg-bar").bounding_box()
            shot(page, f"header-bar-{lang}-{phase}", full_page=False)
            assert track["width"] >= 100, f"{lang} {phase}: the sand bar is {track['width']:.0f} px"
            assert bar["x"] + bar["width"] <= 390
    finally:
        ctx.close()
