"""Issue 15, one finding at a time, on a 390×844 phone as a Hungarian newcomer would meet it:
BLANKO's typed word (points and Lay follow the typing, bad text says so), the BLANKO card form
and the final rack, no controls left over once a game ends, the sound-off notice after a
reload, the finished-games list, a half-typed word across a reload and the typing hint at
360 px."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, shot
from .test_phones_layout import catalogue, seat

HU = catalogue("hu")["ui"]
HU_RESULT = catalogue("hu")["result"]
NAMES = ["Anna", "Béla"]
LOAD = 15000  # ms: a page's first drawing on a busy machine (2 cores shared) may take a while


def device(browser, live, code, store, value, path, lang="hu", width=390, height=844):
    """A phone (or the table's screen) that already holds a seat or the host token."""
    ctx = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}}, locale="hu-HU")
    ctx.add_init_script(f"if (!localStorage.getItem({json.dumps(store)})) localStorage.setItem("
                        f"{json.dumps(store)}, {json.dumps(json.dumps(value))});"
                        f"if (!localStorage.getItem('tc.lang')) localStorage.setItem('tc.lang', '{lang}');")
    page = ctx.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.goto(live.url + path)
    return page


def phone_of(browser, live, code, seat, **kw):
    page = device(browser, live, code, f"tc.player.{code}", seat, f"/t/{code}", **kw)
    expect(page.locator("#my-name")).to_be_visible(timeout=LOAD)
    return page


def table_of(browser, live, code, host, **kw):
    page = device(browser, live, code, f"tc.host.{code}", {"token": host, "join_url": f"{live.url}/t/{code}"},
                  f"/?table={code}", **kw)
    expect(page.locator("#board")).to_be_visible(timeout=LOAD)
    return page


def blanko_table(live_tables, **options):
    """A started BLANKO table: code, host token, and the seats in turn order."""
    code, host, tokens, ids = live_tables.seated("blanko", NAMES, **options)
    gs = live_tables.state(code, host)["state"]["game_state"]
    order = gs["order"][gs["order"].index(gs["current"]):] + gs["order"][:gs["order"].index(gs["current"])]
    by_id = {ids[n]: n for n in NAMES}
    seats = [{"player_id": pid, "token": tokens[by_id[pid]]} for pid in order]
    return code, host, seats


def test_typed_word_updates_as_you_type(browser, live, live_tables):
    code, host, (first, _) = blanko_table(live_tables)
    page = phone_of(browser, live, code, first)
    box = page.locator(".bk-word-slot.active .bk-input")
    lay = page.locator("#lay")
    # Key by key, as a thumb types: every letter counts at once, and the box keeps the focus.
    box.click()
    box.press_sequentially("há")
    expect(page.locator(".bk-word-slot.active .bk-worth")).to_have_text(HU["bk_points"].replace("{n}", "4"))
    box.press_sequentially("z")
    expect(box).to_have_value(re.compile("^ház$", re.IGNORECASE))
    expect(page.locator(".bk-word-slot.active .bk-tile")).to_have_count(3)
    expect(lay).to_have_text(HU["bk_layButton"].replace("{n}", "8"))  # H 3 + Á 1 + Z 4
    expect(lay).to_be_enabled()
    expect(page.locator("#placed")).to_have_value("3")  # the tiles from the rack follow the word

    # Text that is not of this tile set: the problem in words, no tiles from before, no Lay.
    box.fill("ZÖRK1")
    problem = page.locator(".bk-word-slot.active .bk-problem")
    expect(problem).to_have_text(HU["bk_invalidText"].replace("{char}", "1"))
    expect(page.locator(".bk-word-slot.active .bk-tile")).to_have_count(0)
    expect(lay).to_be_disabled()
    expect(lay).to_have_text(HU["bk_layButton"].replace("{n}", "0"))
    expect(box).to_have_attribute("aria-invalid", "true")
    shot(page, "newcomer-blanko-invalid")
    box.press("Backspace")
    expect(page.locator(".bk-problem")).to_have_count(0)
    expect(lay).to_have_text(HU["bk_layButton"].replace("{n}", "10"))  # Z 4 + Ö 4 + R 1 + K 1
    expect(lay).to_be_enabled()
    assert page.errors == []  # type: ignore[attr-defined]


def test_half_typed_word_survives_a_reload_and_the_hint_fits(browser, live, live_tables):
    code, host, (first, second) = blanko_table(live_tables)
    page = phone_of(browser, live, code, first, width=360, height=740)
    box = page.locator(".bk-word-slot.active .bk-input")
    box.click()
    box.press_sequentially("méz.s")
    page.click("text=" + HU["bk_addWord"])
    page.locator(".bk-key >> text='SZ'").click()
    page.reload()
    expect(page.locator(".bk-word-slot")).to_have_count(2, timeout=LOAD)
    first_box = page.locator(".bk-word-slot .bk-input").first
    expect(first_box).to_have_value(re.compile(r"^méz\.s$", re.IGNORECASE))
    expect(page.locator(".bk-word-slot")).to_have_count(2)
    expect(page.locator(".bk-word-slot.active .bk-tile")).to_have_text(["SZ3÷"])
    # The hint is read whole, not cut off by the box's edge.
    hint = page.locator(".bk-hint").first
    expect(hint).to_have_text(HU["bk_typeHint"])
    fits = hint.evaluate("el => el.scrollWidth <= el.clientWidth"
                         " && el.getBoundingClientRect().right <= innerWidth")
    assert fits
    # Once laid, the draft is gone: the next turn starts empty, after a reload too.
    page.locator(".bk-word-slot").first.locator(".bk-input").fill("méz")
    page.locator(".bk-word-slot").nth(1).locator(".bk-input").fill("")
    page.click("#lay")
    expect(page.locator("#turn")).not_to_have_class(re.compile("mine"))
    live_tables.ok(code, second["token"], "blanko.pass")
    expect(page.locator("#turn")).to_have_class(re.compile("mine"))
    page.reload()
    expect(page.locator(".bk-word-slot .bk-input")).to_have_value("", timeout=LOAD)
    assert page.errors == []  # type: ignore[attr-defined]


def visible_fields(section) -> list[str]:
    """The names of the form's visible fields, each of which must have a label of its own."""
    return section.evaluate("""s => [...s.querySelectorAll('input, select')].filter(el => el.offsetParent)
        .map(el => { if (!el.labels.length || !el.labels[0].textContent.trim())
                         throw new Error(el.name + ' has no label');
                     return el.name; })""")


@pytest.mark.parametrize("card, instruction, fields", [
    ("luck", "lay_again", ["card", "instruction", "words", "placed"]),
    ("luck", "draw_one", ["card", "instruction", "words", "placed"]),
    ("luck", "swap_one", ["card", "instruction"]),
    ("luck", "previous_round", ["card", "instruction"]),
    ("luck", "blanko_word", ["card", "instruction", "succeeded"]),
    ("puzzle", None, ["card", "letters", "filled"]),
    ("letter", None, ["card", "letters", "bonus_letter_used", "squares", "filled"]),
])
def test_card_form_shows_what_the_card_needs(browser, live, live_tables, card, instruction, fields):
    code, host, (first, _) = blanko_table(live_tables)
    live_tables.ok(code, first["token"], "blanko.lay", words=["HÁZ"], placed=3, covered_blanko=True)
    page = phone_of(browser, live, code, first)
    form = page.locator(".bk-bonus")
    expect(form).to_be_visible(timeout=LOAD)
    form.locator("[name=card]").select_option(card)
    if instruction:
        form.locator("[name=instruction]").select_option(instruction)
    expect(form.locator("[name=card]")).to_have_value(card)  # a re-render keeps the choice
    assert visible_fields(form) == fields
    if card == "letter":  # 4 letters + the printed one, on 2 BLANKO squares, all filled: 5 × 2 + 2
        form.locator("[name=letters]").fill("4")
        form.locator("[name=bonus_letter_used]").check()
        form.locator("[name=squares]").fill("2")
        form.locator("[name=filled]").check()
        form.locator("#record-bonus").click()
        expect(page.locator(".bk-turn .tag", has_text=f"{HU['bk_card']} +12")).to_be_visible()
        expect(page.locator(".bk-bonus")).to_have_count(0)
    assert page.errors == []  # type: ignore[attr-defined]


def test_final_rack_shows_the_running_deduction(browser, live, live_tables):
    code, host, (first, second) = blanko_table(live_tables)
    for seat_ in (first, second):  # everybody passes in a row: the final tally
        live_tables.ok(code, seat_["token"], "blanko.pass")
    page = phone_of(browser, live, code, first)
    rack = page.locator(".bk-rack")
    expect(rack).to_be_visible(timeout=LOAD)
    expect(page.locator("#turn")).to_have_count(0)  # everybody counts at once: nobody's turn
    expect(page.locator("#rack-deduction")).to_have_text(HU["bk_deduction"].replace("{points}", "0"))
    rack.locator(".bk-key >> text='?'").click()
    expect(rack.locator(".bk-tile.joker sub")).to_have_text("10")  # a joker left over costs 10
    expect(page.locator("#rack-deduction")).to_have_text(HU["bk_deduction"].replace("{points}", "10"))
    rack.locator(".bk-key >> text='TY'").click()
    expect(page.locator("#rack-deduction")).to_have_text(HU["bk_deduction"].replace("{points}", "20"))
    for _ in range(6):
        rack.locator(".bk-key >> text='A'").click()
    expect(page.locator("#rack-deduction")).to_have_text(HU["bk_deduction"].replace("{points}", "26"))
    shot(page, "newcomer-blanko-rack")
    page.click("#count-rack")
    expect(page.locator(".bk-rack")).to_have_count(0)
    state = live_tables.state(code, host)["state"]["game_state"]
    assert state["scores"][first["player_id"]]["rack"] == -26
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["blank", "blanko", "bldng", "rankfile"])
def test_no_controls_are_left_once_the_game_ends(browser, live, live_tables, game):
    if game == "blanko":
        # A rejected word (the host could accept it as a house word) and one waiting for a
        # challenge: neither may be offered once the game is over.
        code, host, (me, second) = blanko_table(live_tables)
        live_tables.ok(code, me["token"], "blanko.lay", words=["ZÖRK"], placed=4)
        live_tables.ok(code, second["token"], "blanko.challenge")
        live_tables.ok(code, second["token"], "blanko.lay", words=["HÁZ"], placed=3)
    else:
        code, host, me = seat(live_tables, game)
    live_tables.ok(code, host, "table.end_game")
    phone = phone_of(browser, live, code, me)
    table = table_of(browser, live, code, host)
    expect(phone.locator("#my-name + *, .banner").first).to_be_visible(timeout=LOAD)
    expect(table.locator("#board .banner").first).to_be_visible(timeout=LOAD)
    for page, area in ((phone, "#game"), (table, "#board")):
        expect(page.locator("#turn")).to_have_count(0)
        expect(page.locator("#challenge")).to_have_count(0)
        # reading the rules out loud is for after the game too
        live_buttons = page.locator(f"{area} button:not([disabled]), {area} input:not([disabled]),"
                                    f" {area} select:not([disabled])").filter(has_not_text=HU["bl_read"])
        assert live_buttons.count() == 0, [b.evaluate("e => e.outerHTML.slice(0, 160)")
                                           for b in live_buttons.all()]
        assert page.errors == []  # type: ignore[attr-defined]
    shot(phone, f"newcomer-{game}-ended-phone")


def test_sound_off_after_a_reload_until_tapped(browser, live, live_tables):
    code, host, me = seat(live_tables, "rankfile")  # the sand is running
    page = phone_of(browser, live, code, me)
    for _ in range(2):  # a fresh page, then the same page reloaded: no sound until a tap
        bar, card = page.locator(".hg-sound.in-bar"), page.locator(".hg-sound.in-card")
        expect(bar).to_be_visible(timeout=LOAD)
        expect(bar).to_have_attribute("aria-label", HU["soundOff"])
        expect(card).to_have_text(HU["soundOff"])
        expect(page.locator(".hourglass")).to_have_attribute("data-sound", "off")
        shot(page, "newcomer-sound-off")
        card.click()
        expect(page.locator(".hourglass")).to_have_attribute("data-sound", "on", timeout=LOAD)
        expect(bar).to_be_hidden()
        expect(card).to_be_hidden()
        page.reload()
        expect(page.locator("#hg-bar")).to_be_visible(timeout=LOAD)
    assert page.errors == []  # type: ignore[attr-defined]


def test_finished_games_keep_their_pieces_apart(browser, live, live_tables):
    code, host, (first, second) = blanko_table(live_tables)
    live_tables.ok(code, first["token"], "blanko.lay", words=["HÁZ"], placed=3)
    live_tables.ok(code, host, "table.end_game")
    page = device(browser, live, code, f"tc.host.{code}", {"token": host, "join_url": ""}, "/")
    game = page.locator(".past-game", has_text=code)
    expect(game).to_be_visible(timeout=LOAD)
    text = game.inner_text()
    # each piece on its own: the game and its code, when, the result, every score
    lines = text.splitlines()
    assert lines[:3] == [f"BLANKO · {code}", lines[1], HU_RESULT["unfinished"]], lines
    assert re.fullmatch(r"[\d. :]+", lines[1]), lines
    assert lines[3:5] == ["Anna: 8", "Béla: 0"] or lines[3:5] == ["Béla: 8", "Anna: 0"], lines
    shot(page, "newcomer-past-games")
    assert page.errors == []  # type: ignore[attr-defined]
