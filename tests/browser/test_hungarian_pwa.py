"""A Hungarian evening on 390×844 phones: a BLANKO turn in the rulebook's words (the tiles
the dictionary reads, a look-alike letter named, Lay with its points, the questions of the lay form), a
challenge whose button keeps its word whole, turn numbers that stay true past 12, plural
forms from Intl.PluralRules, the CSV in Hungarian, and no BLANK decks under BLANKO's options."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from playwright.sync_api import expect

from .conftest import shot
from .test_newcomer_pwa import LOAD, blanko_table, device, phone_of, table_of
from .test_phones_layout import catalogue

HU = catalogue("hu")


def fill(text: str, **params) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m[1]]), text)


def test_a_blanko_turn_in_hungarian(browser, live, live_tables):
    ui = HU["ui"]
    code, host, (first, second) = blanko_table(live_tables)
    page = phone_of(browser, live, code, first)
    other = phone_of(browser, live, code, second)
    expect(page.locator(".bk-bag")).to_contain_text(ui["bk_bag"])
    box = page.locator(".bk-word-slot.active .bk-input")
    box.fill("mézsör")
    expect(page.locator(".bk-word-slot.active .bk-tile")).to_have_count(6)  # méz|sör: Z + S, nothing asked
    expect(page.locator(".bk-ask")).to_have_count(0)
    page.click("text=" + ui["bk_addWord"])
    second_box = page.locator(".bk-word-slot.active .bk-input")
    # õ for ő, as a keyboard without the double acute gives it: the letter named, ő offered
    second_box.fill("tõr")
    problem = page.locator(".bk-word-slot.active .bk-problem")
    expect(problem).to_have_text(fill(ui["bk_lookalike"], char="Õ", like="Ő"))
    second_box.fill("tőr")
    expect(page.locator(".bk-problem")).to_have_count(0)
    worth = page.locator(".bk-word-slot.active .bk-worth")
    expect(worth).to_have_text(fill(ui["bk_points"], n=9))  # T 1 + Ő 7 + R 1
    expect(page.locator("#lay")).to_have_text(fill(ui["bk_layButton"], n=23))  # MÉZSÖR 14 + TŐR 9
    expect(page.locator("#placed")).to_contain_text(ui["bk_fromRack"])  # counted from the word's tiles
    expect(page.locator("label", has=page.locator("#covered"))).to_contain_text(ui["bk_covered"])
    expect(page.locator("#exchange")).to_have_text(ui["bk_exchange"])
    page.locator("#lay").scroll_into_view_if_needed()
    shot(page, "hu-phone-lay")
    page.click("#lay")

    # The other phone may challenge: "Vitatom" stays one word on one line.
    challenge = other.locator("#challenge")
    expect(challenge).to_have_text(ui["bk_challenge"])
    lines = challenge.evaluate("b => { const r = document.createRange(); r.selectNodeContents(b); return "
                               "new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }")
    assert lines == 1
    shot(other, "hu-phone-challenge")
    challenge.click()
    expect(page.locator(".bk-turn").first).to_contain_text(ui["bk_valid"])
    assert page.errors == [] and other.errors == []  # type: ignore[attr-defined]


def test_turn_numbers_results_and_plurals(browser, live, live_tables):
    ui = HU["ui"]
    code, host, (first, second) = blanko_table(live_tables)
    table = table_of(browser, live, code, host)
    live_tables.ok(code, first["token"], "blanko.lay", words=["ÁÁÁ"], placed=3)
    live_tables.ok(code, second["token"], "blanko.challenge")  # upheld: the word scores nothing
    expect(table.locator(".bk-turn.rejected .pts")).to_have_text("0")
    for _ in range(6):
        live_tables.ok(code, second["token"], "blanko.pass")
        live_tables.ok(code, first["token"], "blanko.lay", words=["HÁZ"], placed=1)
    live_tables.ok(code, second["token"], "blanko.pass")
    live_tables.ok(code, first["token"], "blanko.exchange")
    live_tables.ok(code, second["token"], "blanko.pass")
    live_tables.ok(code, first["token"], "blanko.pass")  # everybody passed in a row: the final tally
    items = table.locator(".bk-turn")  # 17 turns: the last 12, under their own numbers, and
    # an older lay whose BLANKO card is still to enter: the host may enter it until the end (#42)
    expect(items).to_have_count(13)
    expect(items.first).to_have_attribute("value", "17")  # waits: the count is 12 from turn 12 on
    expect(items.nth(11)).to_have_attribute("value", "6")
    assert int(items.nth(12).get_attribute("value")) < 6
    expect(items.first).to_contain_text(ui["bk_passed"])
    exchange = table.locator(".bk-turn[value='15']")
    expect(exchange).to_have_text(re.compile(rf"{ui['bk_exchanged']} −10"))  # once, no "(−10)" before it
    # The table's screen speaks to everyone; the phone's rack form to its player.
    expect(table.locator(".banner", has_text=ui["bk_finalTable"])).to_be_visible()
    expect(table.locator("#board")).not_to_contain_text(ui["bk_final"])
    shot(table, "hu-table-final-tally")
    phone = phone_of(browser, live, code, first)
    expect(phone.locator(".bk-rack h3")).to_have_text(ui["bk_final"])
    live_tables.ok(code, host, "table.end_game")
    expect(table.locator("#board")).to_have_attribute("data-status", "ended")
    expect(table.locator(".banner", has_text=ui["bk_finalTable"])).to_have_count(0)  # nobody counts now
    expect(table.locator("#board > .banner")).to_have_text(re.compile(r"^[A-ZÁÉÍÓÖŐÚÜŰ]"))  # a sentence
    words = phone.evaluate("""async () => {
        const { t, pluralForm } = await import("/static/js/i18n.js");
        const forms = { one: "{n} lap", other: "{n} lapok", count: "n" };
        return [t("result.blank.won", { winners: "Anna", n: 1 }),
                t("result.blank.won", { winners: "Anna, Béla", n: 2 }),
                pluralForm({ count: "held", one: "one", other: "many" }, { held: 1 }, "en"),
                pluralForm(forms, { n: 3 }, "en"), pluralForm(forms, { n: 1 }, "hu"),
                pluralForm("plain", {}, "hu")];
    }""")
    won = HU["result"]["blank.won"]
    assert words == [won["one"].replace("{winners}", "Anna"), won["other"].replace("{winners}", "Anna, Béla"),
                     "one", "{n} lapok", "{n} lap", "plain"]
    # The record's CSV in the phone's language.
    phone.click("#open-record")
    with phone.expect_download() as download:
        phone.click("#record .rec-exports button >> nth=0")
    text = Path(download.value.path()).read_text("utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:3] == [HU["csv"]["table"], HU["csv"]["game_no"], HU["csv"]["game"]]
    assert rows[1][-1] == HU["result"]["unfinished"]
    shot(phone, "hu-phone-record")
    assert table.errors == [] and phone.errors == []  # type: ignore[attr-defined]


def test_the_setup_shows_blank_decks_only_for_blank(browser, live):
    page = device(browser, live, "", "tc.none", {}, "/")
    expect(page.locator("#game")).to_be_visible(timeout=LOAD)
    page.select_option("#game", "blank")
    expect(page.locator("#decks")).to_be_visible()
    page.select_option("#game", "blanko")
    expect(page.locator("#decks")).to_be_hidden()
    expect(page.locator("#options")).to_contain_text(HU["ui"]["bk_challenge_mode"])
    shot(page, "hu-setup-blanko")
    assert page.errors == []  # type: ignore[attr-defined]


def test_blank_rules_in_hungarian_and_no_clock_after_the_game(browser, live, live_tables):
    """The rulebook's example rules read in Hungarian, as one sentence each; once the host ends
    the game, no turn clock says "Too slow" and no rule is offered to discard."""
    ui = HU["ui"]
    deck = live_tables.client.post("/api/decks", json={"name": "Pakli", "mark": ""}).get_json()
    code, host, _tokens, _ids = live_tables.seated("blank", ["Anna", "Béla"], deck_id=deck["id"])
    live_tables.ok(code, host, "blank.reveal_rules", rules=["r1", "r3", "r5"])  # Cough, Five seconds, Bark
    live_tables.ok(code, host, "blank.first_card", card={"colour": "shield", "number": 3})
    table = table_of(browser, live, code, host)
    cough = table.locator(".bl-rule[data-rule='r1']")
    expect(cough.locator("strong")).to_have_text(ui["bl_ex_cough_title"])
    expect(cough).to_contain_text(fill(ui["bl_ruleLine"], trigger=ui["bl_ex_cough_if"],
                                       target=ui["bl_tg_this_player"], effect=ui["bl_ef_take_cards"]))
    expect(cough).to_contain_text(ui["bl_ex_cough_text"])
    expect(table.locator(".bl-rule[data-rule='r3']")).to_contain_text(fill(ui["bl_secondsShort"], s=5))
    expect(table.locator(".bl-clock")).to_be_visible()
    expect(table.locator(".bl-rules button", has_text=ui["bl_discardRule"])).to_have_count(3)
    shot(table, "hu-table-blank-rules")
    live_tables.ok(code, host, "table.end_game")
    expect(table.locator("#board")).to_have_attribute("data-status", "ended")
    expect(table.locator(".bl-clock")).to_have_count(0)
    expect(table.locator(".bl-rules button", has_text=ui["bl_discardRule"])).to_have_count(0)
    assert table.errors == []  # type: ignore[attr-defined]
