"""Issue 28 items 6, 7, 9, 10 and 11 on 390×844 phones and a 1280×800 table screen, in English
and Hungarian: a BLANKO word in a few taps with Lay in reach, destructive actions that ask once
in the page, the new prompt brought to the player, the table screen's start and whose turn,
and a hand-over link opened in a tab already on the table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_newcomer_pwa import LOAD, device, phone_of, table_of
from .test_phones_layout import catalogue
from .test_redraw_pwa import blank_on_a_circle_3, seated

TAPS = """() => { window.taps = 0; window.maxScroll = 0;
  document.addEventListener('pointerdown', () => { window.taps += 1; }, true);
  addEventListener('scroll', () => { window.maxScroll = Math.max(window.maxScroll, scrollY); }); }"""


def open_tab(browser, live, path: str, lang: str):
    """A device with no seat, showing ``path``."""
    page = device(browser, live, "", "tc.none", {}, path, lang=lang)
    expect(page.locator("#main")).not_to_have_attribute("aria-busy", "true", timeout=LOAD)
    return page


def in_viewport(page, selector: str) -> bool:
    return page.locator(selector).evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0"
                                           " && r.bottom <= innerHeight && r.left >= 0"
                                           " && r.right <= innerWidth; }")


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
    expect(page.locator("#placed")).to_have_text(f"{ui['bk_fromRack']}: 4")
    expect(page.locator(".bk-tile.on-board")).to_have_text(["M1"])
    assert in_viewport(page, "#lay")
    shot(page, f"blanko-one-thumb-{lang}", full_page=False)  # what the player sees, unscrolled
    assert page.evaluate("window.maxScroll") == 0  # (after Lay the BLANKO card's form is brought in)
    page.click("#lay")
    expect(other.locator(".bk-turn").first).to_contain_text("LÁMPA")
    assert page.evaluate("window.taps") <= 7
    turn = live_tables.state(code, host)["state"]["game_state"]["turns"][-1]
    assert (turn["words"][0]["word"], turn["placed"]) == ("LÁMPA", 4)
    for p in (page, other):
        assert p.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_exchange_asks_once_in_the_page_and_undo_stays(browser, live, live_tables, lang):
    code, host, first, second = seated(live_tables, "blanko")
    for _ in range(2):  # 20 points collected: the exchange is open
        live_tables.ok(code, first["token"], "blanko.lay", words=["ZÖRK"], placed=4)
        live_tables.ok(code, second["token"], "blanko.pass")
    ui = catalogue(lang)["ui"]
    page = phone_of(browser, live, code, first, lang=lang)
    other = phone_of(browser, live, code, second, lang=lang)
    page.click("#exchange")
    expect(page.locator(".confirm-q")).to_have_text(ui["bk_exchangeConfirm"])
    expect(page.locator("#exchange-yes")).to_be_focused()
    other.locator(".hg-buttons button").first.click()  # a redraw leaves the question up
    expect(page.locator(".hourglass")).to_have_attribute("data-phase", "running")
    expect(page.locator("#exchange-yes")).to_be_visible()
    page.locator(".confirm-no").click()  # Cancel: nothing was sent
    expect(page.locator("#exchange")).to_have_text(ui["bk_exchange"])
    assert live_tables.state(code, host)["state"]["game_state"]["turns"][-1]["kind"] == "pass"
    page.click("#exchange")
    shot(page, f"blanko-exchange-confirm-{lang}", full_page=False)
    page.click("#exchange-yes")
    expect(other.locator("#turn")).to_have_class(re.compile("mine"))
    assert live_tables.state(code, host)["state"]["game_state"]["turns"][-1]["kind"] == "exchange"
    page.click("#undo")  # undo still takes it back
    expect(page.locator("#turn")).to_have_class(re.compile("mine"))
    assert live_tables.state(code, host)["state"]["game_state"]["turns"][-1]["kind"] == "pass"
    for p in (page, other):
        assert p.errors == []  # type: ignore[attr-defined]


def test_forget_me_asks_once_in_the_page(browser, live):
    ui = catalogue("en")["ui"]
    me = {"key": "ab" * 18, "name": "Anna", "byName": False}
    page = device(browser, live, "", "tc.me", me, "/stats", lang="en")
    dialogs = []  # window.confirm would stop the page: none may open

    def dialog(d):
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    identity = "() => localStorage.getItem('tc.me')"
    expect(page.locator("#me-name")).to_have_value("Anna", timeout=LOAD)
    page.click("#forget-me")
    expect(page.locator(".confirm-q")).to_have_text(ui["st_confirmForget"])
    expect(page.locator("#forget-me-yes")).to_be_focused()
    page.locator(".confirm-no").click()  # Cancel: the identity stays
    expect(page.locator("#forget-me")).to_have_text(ui["st_forget"])
    assert page.evaluate(identity) is not None
    page.click("#forget-me")
    shot(page, "stats-forget-confirm", full_page=False)
    page.click("#forget-me-yes")
    expect(page.locator("#me-card")).to_have_count(0)
    assert page.evaluate(identity) is None
    assert dialogs == []
    assert page.errors == []  # type: ignore[attr-defined]


def scrolled_away(page) -> None:
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("() => scrollY > 300")


def brought_in(page, selector: str) -> None:
    """The prompt has the focus, and its top is near the top of the screen and not under the header."""
    expect(page.locator(selector)).to_be_focused()
    page.wait_for_function("(s) => { const top = document.querySelector(s).getBoundingClientRect().top;"
                           " const header = document.querySelector('.app-header').getBoundingClientRect();"
                           " return top >= header.bottom - 1 && top < innerHeight / 4; }", arg=selector)


def test_the_new_prompt_is_brought_to_the_player(browser, live, live_tables):
    # BLANKO: the other player lays; my turn's form comes into view while I was reading the scores.
    code, host, first, second = seated(live_tables, "blanko")
    for _ in range(6):  # a page longer than the screen: a list of turns below the scores
        live_tables.ok(code, first["token"], "blanko.lay", words=["HÁZ"], placed=3)
        live_tables.ok(code, second["token"], "blanko.pass")
    page = phone_of(browser, live, code, second, lang="en")
    scrolled_away(page)
    live_tables.ok(code, first["token"], "blanko.lay", words=["HÁZ"], placed=3)
    brought_in(page, ".bk-lay")
    expect(page.locator(".bk-keys")).to_be_in_viewport(ratio=1)

    # BLANK: another phone entered the Rule Cards; the first card to enter is brought to this one.
    deck = live_tables.client.post("/api/decks", json={"name": "Pakli", "mark": ""}).get_json()
    code, host, first, second = seated(live_tables, "blank", deck_id=deck["id"])
    page = phone_of(browser, live, code, first, lang="en")
    expect(page.locator("#blank-rules")).to_be_visible()
    scrolled_away(page)
    # Cough, Two or more and Bark: the seven circles below set off the last two. (Three cards the
    # app drew were Cough, Five seconds and We Are Not Amused 1 time in 10: no rule went off, and
    # the last card won at once, with no question to bring in.)
    live_tables.ok(code, second["token"], "blank.reveal_rules", rules=["r1", "r2", "r5"])
    brought_in(page, "[data-prompt='first-card']")

    # BLANK: a player put down their last card; the other phone is asked whether it was followed.
    live_tables.ok(code, host, "blank.first_card", card={"colour": "circle", "number": 3})
    other = phone_of(browser, live, code, second, lang="en")
    scrolled_away(other)
    circles = [{"colour": "circle", "number": n} for n in (1, 2, 3, 4, 5, 6, 1)]
    live_tables.ok(code, first["token"], "blank.play", cards=circles)
    expect(other.locator(".bl-going-out")).to_be_focused()
    expect(other.locator("#resolved")).to_be_in_viewport(ratio=1)
    for p in (page, other):
        assert p.errors == []  # type: ignore[attr-defined]


def test_a_card_drawn_in_blank_is_brought_to_the_player(browser, live, live_tables):
    # No match: the player taps Draw below the cards; the card to enter opens above it.
    code, host, first, second = blank_on_a_circle_3(live_tables)
    page = phone_of(browser, live, code, first, lang="en")
    scrolled_away(page)
    page.click("#draw")
    brought_in(page, ".bl-drawn")
    expect(page.locator("#blank-drawn")).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_bldng_turn_is_brought_to_the_player(browser, live, live_tables):
    # The player before me draws a shape, which ends their turn: my step comes into view.
    code, host, tokens, ids = live_tables.seated("bldng", ["Anna", "Béla", "Cili"])
    token_of = {ids[n]: tokens[n] for n in ids}
    for token in tokens.values():
        live_tables.ok(code, token, "bldng.set_project", draw=True)
    *shapes, last = ([{"kind": "shape", "shape": s, "colour": c} for c in ("red", "blue", "green")
                      for s in ("circle", "square", "triangle", "rectangle")] * 2)[:21]

    def current() -> str:
        return live_tables.state(code, host)["state"]["game_state"]["current"]

    for shape in shapes:  # a page longer than the screen: rows of shapes below my project
        live_tables.ok(code, token_of[current()], "bldng.draw", card=shape)
    before = current()
    order = live_tables.state(code, host)["state"]["game_state"]["order"]
    me = order[(order.index(before) + 1) % len(order)]
    page = phone_of(browser, live, code, {"player_id": me, "token": token_of[me]}, lang="en")
    scrolled_away(page)
    live_tables.ok(code, token_of[before], "bldng.draw", card=last)
    brought_in(page, "#step")
    expect(page.locator("#draw-entry")).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_rankfile_turn_is_brought_to_the_player(browser, live, live_tables):
    # The other player guesses wrong at my row, which ends their turn: mine comes into view.
    code, host, first, second = seated(live_tables, "rankfile")
    page = phone_of(browser, live, code, second, lang="en")
    scrolled_away(page)
    live_tables.ok(code, first["token"], "rankfile.guess", player=second["player_id"], position=0, number=2,
                   correct=False)
    brought_in(page, ".rankfile [data-prompt]")
    expect(page.locator(".rf-controls .prompt")).to_be_in_viewport(ratio=1)
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_hand_over_link_opened_in_a_tab_on_the_table_takes_effect_at_once(browser, live, live_tables, lang):
    code, host, first, second = seated(live_tables, "rankfile")
    old = phone_of(browser, live, code, second, lang=lang)  # the seat's phone, about to be replaced
    tab = open_tab(browser, live, f"/t/{code}", lang)  # the new phone, already on the table's page
    expect(tab.locator("#join-form")).to_be_visible()
    name = old.locator("#my-name").inner_text()
    r = live_tables.client.post(f"/api/tables/{code}/players/{second['player_id']}/handover",
                                headers={"Authorization": f"Bearer {host}"})
    fragment = r.get_json()["url"].split("#", 1)[1]
    tab.evaluate("(f) => { location.hash = f; }", fragment)  # what opening the link in this tab does
    ui = catalogue(lang)["ui"]
    expect(tab.locator("#my-name")).to_have_text(name)
    expect(tab.locator(".toast")).to_contain_text(ui["seatMoved"])
    assert "#seat=" not in tab.url
    expect(old.locator(".error")).to_be_visible()  # the old phone is told, and stops
    for p in (tab, old):
        assert p.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_table_screen_start_in_sight_and_blanko_turn_in_words(browser, live, live_tables, lang):
    ui = catalogue(lang)["ui"]
    code, host = (t := live_tables.create("blanko", start="drawn"))["code"], t["host_token"]
    ids = {n: live_tables.join(code, n)["player_id"] for n in ("Anna", "Béla", "Cili")}
    table = table_of(browser, live, code, host, lang=lang, width=1280, height=800)  # a tablet on the table
    expect(table.locator("#players .pname")).to_have_count(3, timeout=LOAD)
    start = table.locator("#controls button", has_text=ui["start"])
    assert in_viewport(table, "#controls button.primary")
    shot(table, f"table-screen-lobby-{lang}", full_page=False)
    start.click()
    expect(table.locator("#board-turn")).to_be_visible()  # the click's command has been answered
    current = live_tables.state(code, host)["state"]["game_state"]["current"]
    name = next(n for n, pid in ids.items() if pid == current)
    expect(table.locator("#board-turn")).to_have_text(f"{ui['turnOf']}: {name}")
    assert table.errors == []  # type: ignore[attr-defined]
