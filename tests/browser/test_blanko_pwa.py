"""A short BLANKO game on two phones: lay, a luck card's second lay, challenge, pass out,
count whole racks, see the winner; and the question "one tile or two?", asked only where the
dictionary has two readings of the word."""

import re

import pytest
from playwright.sync_api import expect

from companion.games.blanko.words import WordSet

from .conftest import shot
from .test_platform_pwa import join


def start_game(open_page, live):
    table = open_page(live.url + "/", phone=False)
    table.select_option("#game", "blanko")
    table.click("#create")
    code = table.locator("#table-code").inner_text()
    anna, bela = join(open_page, live, code, "Anna"), join(open_page, live, code, "Béla")
    table.click("text=Start game")
    # Each phone enters the letter its player drew from the bank; a tie draws again.
    expect(table.locator("#start-waiting")).to_have_text("Still to draw: Anna, Béla")
    anna.locator(".bk-start .bk-key >> text='A'").click()
    anna.click("#enter-start")
    expect(table.locator(".bk-start-letters li")).to_have_text(["Anna A"])
    expect(anna.locator("#enter-start")).to_have_count(0)
    bela.locator(".bk-start .bk-key >> text='CS'").click()
    bela.locator(".bk-start .bk-key >> text='A'").click()  # a second key replaces the first
    expect(bela.locator("#enter-start")).to_have_text("I drew A")
    bela.click("#enter-start")
    expect(anna.locator("#start-again")).to_have_text("A tie (Anna A, Béla A): Anna, Béla draw again.")
    shot(bela, "blanko-phone-start-letter")
    shot(table, "blanko-table-start-letter")
    anna.locator(".bk-start .bk-key >> text='E'").click()
    anna.click("#enter-start")
    bela.locator(".bk-start .bk-key >> text='TY'").click()
    bela.click("#enter-start")
    expect(bela.locator("#turn")).to_have_text("Your turn")  # TY is worth 10, E 1
    expect(table.locator("#start-letters")).to_have_count(0)
    return table, bela, anna


def test_short_blanko_game(open_page, live):
    table, first, second = start_game(open_page, live)

    # The dictionary reads MÉZSÖR as méz|sör: Z and S are two tiles, and nothing is asked.
    first.fill(".bk-input", "mézsör")
    first.locator(".bk-input").dispatch_event("change")
    expect(first.locator(".bk-word-slot.active .bk-tile")).to_have_count(6)
    expect(first.locator(".bk-ask")).to_have_count(0)
    first.click("text=+ another word")
    for key in ("SZ", "É", "L"):
        first.locator(f".bk-key >> text='{key}'").click()
    expect(first.locator("#lay")).to_have_text("Lay · 21 points")  # MÉZSÖR 1+3+4+1+4+1=14, SZÉL 3+3+1=7
    shot(first, "blanko-phone-lay")
    expect(first.locator("#covered")).to_be_checked()  # the first word covers a BLANKO square
    first.click("#lay")
    expect(table.locator(".bk-turn").first).to_contain_text("MÉZ.SÖR + SZÉL")  # the split, as laid
    expect(table.locator("#bag")).to_have_text(str(112 - 16 - 6))

    # Its BLANKO card says "lay again": one more tile leaves the rack, and the bank refills it.
    expect(second.locator("#record-bonus")).to_have_count(0)
    first.select_option(".bk-bonus [name=instruction]", "lay_again")
    first.fill(".bk-bonus [name=words]", "SZÉLES")
    first.fill(".bk-bonus [name=placed]", "2")
    first.click("#record-bonus")
    expect(table.locator("#bag")).to_have_text(str(112 - 16 - 6 - 2))
    expect(table.locator(".bk-turn .tag", has_text="BLANKO card +9")).to_be_visible()
    shot(first, "blanko-phone-luck")

    # The other phone challenges: both are Hungarian words, so the challenge fails.
    second.click("#challenge")
    expect(table.locator(".bk-turn .tag.valid").first).to_be_visible()

    second.click("#pass")
    first.click("#pass")  # everybody passed in a row: the final tally
    expect(table.locator(".banner").first).to_contain_text("Final tally")
    # The table's screen is everyone's: it names no one rack as "your" rack.
    expect(table.locator("#board")).not_to_contain_text(re.compile(r"\byour?\b", re.IGNORECASE))
    expect(first.locator(".bk-rack h3")).to_contain_text("your rack")
    for phone in (first, second):  # every letter of the rack, as many as the app counted
        expect(phone.locator("#rack-count")).to_have_text("0 of 8 letters entered")
        for _ in range(7):
            phone.locator(".bk-rack .bk-key >> text='A'").click()
        expect(phone.locator("#count-rack")).to_be_disabled()
        phone.locator(".bk-rack .bk-key >> text='A'").click()
        phone.click("#count-rack")
    # One line says who won and with how many points (not "Winner: Béla" under it again).
    expect(table.locator(".banner.won")).to_contain_text("Béla won with")
    for page in (table, first, second):
        expect(page.locator(".banner", has_text="Béla")).to_have_count(1)
    expect(table.locator(".bk-chart polyline")).to_have_count(2)
    shot(table, "blanko-table")
    for page in (table, first, second):
        assert page.errors == []


# Made-up words with two readings each, as the real dictionary has almost none: MÉZSÖR as one
# word with a ZS and as méz|sör; MÉZSÖRHÁZSOR with a ZS at either place or none.
TWO_READINGS = WordSet(["mézsör", "méz|sör", "szél", "mézsörházsor", "méz|sörházsor", "méz|sörház|sor"])


@pytest.fixture
def two_readings(make_app, serve_app):
    return serve_app(make_app(LEXICON=TWO_READINGS, CLOCK=None))  # the real clock, as `live` has


def test_the_phone_asks_one_tile_or_two_only_where_both_are_words(open_page, two_readings):
    table, first, _ = start_game(open_page, two_readings)
    box = first.locator(".bk-input")

    box.fill("szél")  # one reading: nothing to ask
    expect(first.locator("#lay")).to_be_enabled()
    expect(first.locator(".bk-ask")).to_have_count(0)

    box.fill("mézsör")
    ask = first.locator(".bk-ask")
    expect(ask).to_have_count(1)
    expect(ask).to_contain_text("One tile ZS or two, Z + S?")
    expect(ask.locator("button")).to_have_text(["ZS", "Z + S"])  # in the order asked
    expect(first.locator("#lay")).to_be_disabled()
    shot(first, "blanko-phone-one-or-two")
    ask.locator("text='ZS'").click()
    expect(first.locator(".bk-ask")).to_have_count(0)
    expect(first.locator(".bk-word-slot.active .bk-tile")).to_have_count(5)
    expect(first.locator("#lay")).to_have_text("Lay · 17 points")  # M 1 É 3 ZS 8 Ö 4 R 1

    # A dot in one place answers there only: the other pair is still asked.
    first.locator(".bk-input").fill("méz.sörházsor")
    expect(first.locator(".bk-ask")).to_have_count(1)
    expect(first.locator(".bk-ask")).to_contain_text("One tile ZS or two, Z + S?")
    first.click(".bk-ask >> text='Z + S'")
    expect(first.locator(".bk-ask")).to_have_count(0)
    expect(first.locator(".bk-input")).to_have_value("MÉZ.SÖRHÁZ.SOR")
    expect(first.locator(".bk-word-slot.active .bk-tile")).to_have_count(12)

    # One tile is no word: Lay stays off.
    first.locator(".bk-input").fill("zs")
    expect(first.locator(".bk-word-slot.active .bk-problem")).to_have_text("A word needs at least 2 tiles")
    expect(first.locator("#lay")).to_be_disabled()

    first.locator(".bk-input").fill("mézsör")
    first.click(".bk-ask >> text='Z + S'")
    first.click("#lay")
    expect(table.locator(".bk-turn").first).to_contain_text("MÉZ.SÖR")
    for page in (table, first):
        assert page.errors == []
