"""Issue 28 items 6, 7, 9, 10 and 11 on 390×844 phones and a 1280×800 table screen, in English
and Hungarian: a BLANKO word in a few taps with Lay in reach, destructive actions that ask once
in the page, the new prompt brought to the player, the table screen's start and whose turn,
and a hand-over link opened in a tab already on the table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_newcomer_pwa import phone_of
from .test_phones_layout import catalogue
from .test_redraw_pwa import seated

TAPS = """() => { window.taps = 0; window.maxScroll = 0;
  document.addEventListener('pointerdown', () => { window.taps += 1; }, true);
  addEventListener('scroll', () => { window.maxScroll = Math.max(window.maxScroll, scrollY); }); }"""


def in_viewport(page, selector: str) -> bool:
    return page.locator(selector).evaluate("e => { const r = e.getBoundingClientRect();"
                                           " return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }")


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_blanko_five_letter_word_in_seven_taps_without_scrolling(browser, live, live_tables, lang):
    code, host, first, second = seated(live_tables, "blanko")
    ui = catalogue(lang)["ui"]
    page = phone_of(browser, live, code, first, lang=lang)
    other = phone_of(browser, live, code, second, lang=lang)
    expect(page.locator("#lay")).to_be_visible()
    page.evaluate(TAPS)
    assert in_viewport(page, "#lay")
    for key in ("L", "Á", "M", "P", "A"):  # LÁMPA, through an M on the board
        page.locator(f".bk-key >> text='{key}'").first.click()
    page.locator(".bk-tile .bk-mark").nth(2).click()
    expect(page.locator("#placed")).to_have_text(f"{ui['bk_placed']}: 4")
    expect(page.locator(".bk-tile.on-board")).to_have_text(["M1"])
    assert in_viewport(page, "#lay")
    shot(page, f"blanko-one-thumb-{lang}", full_page=False)  # what the player sees, unscrolled
    page.click("#lay")
    expect(other.locator(".bk-turn").first).to_contain_text("LÁMPA")
    assert page.evaluate("window.taps") <= 7
    assert page.evaluate("window.maxScroll") == 0
    turn = live_tables.state(code, host)["state"]["game_state"]["turns"][-1]
    assert (turn["words"][0]["word"], turn["placed"]) == ("LÁMPA", 4)
    for p in (page, other):
        assert p.errors == []  # type: ignore[attr-defined]
