"""A short BLANKO game on two phones: lay, a luck card's second lay, challenge, pass out,
count whole racks, see the winner; and the question "one tile or two?", asked only where the
dictionary has two readings of the word."""

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


# Made-up words with two readings each, as the real dictionary has almost none: MÉZSÖR as one
# word with a ZS (m-ézsör: a boundary that splits no pair, since an entry without any says
# nothing against one with them) and as méz|sör; MÉZSÖRHÁZSOR with a ZS at either place or
# none. KÖZSÉG is köz|ség only.
TWO_READINGS = WordSet(["m-ézsör", "méz|sör", "szél", "m-ézsörházsor", "méz|sörházsor", "méz|sörház|sor",
                        "köz-ség"])


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


def test_the_phone_shows_what_a_joker_stands_for(open_page, two_readings):
    """A joker is one tile: typed before a letter pair, the spelling decides whether it stands
    for the pair or for its first letter, and the phone says which before Lay (issue 34)."""
    table, first, _ = start_game(open_page, two_readings)
    box = first.locator(".bk-input")
    box.fill("kö?zség")  # köz|ség: the joker is a Z, and the S is a tile of its own
    expect(first.locator(".bk-word-slot.active .bk-tile")).to_have_count(6)
    expect(first.locator(".bk-joker")).to_have_text("BLANKO Joker = Z")
    expect(first.locator("#lay")).to_have_text("Lay · 11 points")  # K 1 Ö 4 ?Z 0 S 1 É 3 G 2
    shot(first, "blanko-phone-joker")
    box.fill("?szél")  # SZÉL keeps its SZ: the joker is the SZ
    expect(first.locator(".bk-joker")).to_have_text("BLANKO Joker = SZ")
    expect(first.locator(".bk-word-slot.active .bk-tile")).to_have_count(3)
    box.fill("kö?zség")
    expect(first.locator(".bk-joker")).to_have_text("BLANKO Joker = Z")
    first.click("#lay")
    expect(table.locator(".bk-turn").first).to_contain_text("KÖ?Z.SÉG")
    for page in (table, first):
        assert page.errors == []
