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
    expect_nothing_preselected(first, ["Z", "S"])
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


def expect_nothing_preselected(page, letters):
    """While the phone asks one tile or two, no reading is taken for the pair (issue 42 item 5):
    its letters stand apart, undecided, and neither the points nor Lay count with either."""
    slot = page.locator(".bk-word-slot.active")
    expect(slot.locator(".bk-tile.undecided")).to_have_text([f"{x}?" for x in letters])
    expect(slot.locator(".bk-worth")).to_have_text("Points: once you answer the question")
    expect(page.locator("#lay")).to_have_text("Lay · pick the tiles first")
    expect(page.locator("#placed strong")).to_have_text("?")
    expect(slot.locator(".bk-ask button.primary")).to_have_count(0)
    expect(slot.locator(".bk-split")).to_have_count(0)


def test_a_word_both_of_whose_readings_are_words_is_asked_with_nothing_preselected(open_page, live):
    """TŰZSEBESEK is tű + zsebesek or tűz + sebesek in the real dictionary: the table knows
    which it laid, and a player who taps through must not get the one with the ZS tile."""
    table, first, _ = start_game(open_page, live)
    first.locator(".bk-input").fill("tűzsebesek")
    expect(first.locator(".bk-ask")).to_contain_text("One tile ZS or two, Z + S?")
    expect_nothing_preselected(first, ["Z", "S"])
    expect(first.locator("#lay")).to_be_disabled()
    shot(first, "blanko-phone-asks-nothing-preselected", full_page=False)  # a 390 x 844 phone
    first.click(".bk-ask >> text='Z + S'")
    expect(first.locator("#lay")).to_have_text("Lay · 20 points")  # T 1 Ű 7 Z 4 S 1 E 1 B 2 E 1 S 1 E 1 K 1
    for i in (0, 1):  # ten tiles: T and Ű were on the board
        first.locator(".bk-word-slot.active .bk-mark").nth(i).click()
    expect(first.locator("#placed strong")).to_have_text("8")
    first.click("#lay")
    expect(table.locator(".bk-turn").first).to_contain_text("TŰZ.SEBESEK")
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


def test_the_card_form_says_how_to_type_its_words(open_page, live):
    """Issue 34 item 16: the card form has no tile keys, and its hint does not offer any."""
    table, first, _ = start_game(open_page, live)
    first.fill(".bk-input", "szél")
    first.click("#lay")
    first.select_option(".bk-bonus [name=instruction]", "lay_again")
    hint = first.locator("#bk-bonus-hint")
    expect(hint).to_have_text("Type the words with a space between them (e.g. MÉZ.SÖR SZÉL; ?L for an L "
                              "made with the BLANKO Joker)")
    expect(first.locator(".bk-bonus .bk-key")).to_have_count(0)
    shot(first, "blanko-phone-card-hint")
    for page in (table, first):
        assert page.errors == []


def test_the_host_enters_a_blanko_card_nobody_entered_in_its_turn(open_page, live):
    """Issue 34 item 8: the rulebook adds a card's points at the end of the game, so a card
    forgotten in its turn is entered later by the host, for the player, and the history says so."""
    table, first, second = start_game(open_page, live)
    first.fill(".bk-input", "szél")
    first.click("#lay")
    expect(first.locator(".bk-bonus")).to_be_visible()
    expect(table.locator(".late-card")).to_have_count(0)  # in its turn the card is the player's
    second.click("#pass")
    expect(first.locator(".bk-bonus")).to_have_count(0)
    late = table.locator(".bk-turn[data-n='0'] .late-card")
    expect(late).to_have_text("Enter the BLANKO card")
    expect(second.locator(".late-card")).to_have_count(0)  # only the host's screen offers it
    late.click()
    form = table.locator("#late-card")
    expect(form.locator("h3")).to_have_text("Béla's BLANKO card (turn 1)")
    form.locator("[name=card]").select_option("puzzle")
    form.locator("[name=blue_squares]").fill("6")
    form.locator("[name=letters]").fill("5")
    shot(table, "blanko-table-late-card")
    form.locator("#record-bonus").click()
    expect(table.locator(".bk-turn[data-n='0'] .tag", has_text="BLANKO card +5")).to_be_visible()
    expect(table.locator("#late-card")).to_have_count(0)
    expect(table.locator(".late-card")).to_have_count(0)
    bela_row = first.locator(".bk-scores tr", has=first.locator("th", has_text="Béla"))
    expect(bela_row.locator("td").nth(2)).to_have_text("5")  # the Bonus column
    first.click("#history")
    expect(first.locator(".history-list .what", has_text="Béla: BLANKO card (turn 1), entered later by "
                                                         "the host, +5")).to_have_count(1)
    for page in (table, first, second):
        assert page.errors == []


def test_a_card_forgotten_on_an_earlier_lay_stays_open_to_the_host(open_page, live):
    """Issue 42 item 8: Béla covers a BLANKO square twice and enters only the second card; the
    first stays open on the host's screen until the game ends."""
    table, first, second = start_game(open_page, live)
    first.fill(".bk-input", "szél")
    first.click("#lay")
    expect(first.locator(".bk-bonus")).to_be_visible()  # not entered
    second.click("#pass")
    first.fill(".bk-input", "szélek")
    first.locator(".bk-word-slot.active .bk-mark").nth(0).click()  # SZ É L were on the board
    first.locator(".bk-word-slot.active .bk-mark").nth(1).click()
    first.locator(".bk-word-slot.active .bk-mark").nth(2).click()
    first.check("#covered")
    first.click("#lay")
    first.select_option(".bk-bonus [name=instruction]", "swap_one")
    first.click("#record-bonus")
    expect(first.locator(".bk-bonus")).to_have_count(0)
    second.click("#pass")
    expect(table.locator(".bk-turn[data-n='2'] .tag", has_text="BLANKO card")).to_be_visible()
    late = table.locator(".bk-turn[data-n='0'] .late-card")
    expect(late).to_have_text("Enter the BLANKO card")
    late.click()
    form = table.locator("#late-card")
    expect(form.locator("h3")).to_have_text("Béla's BLANKO card (turn 1)")
    form.locator("[name=card]").select_option("puzzle")
    form.locator("[name=blue_squares]").fill("6")
    form.locator("[name=letters]").fill("5")
    form.locator("#record-bonus").click()
    expect(table.locator(".bk-turn[data-n='0'] .tag", has_text="BLANKO card +5")).to_be_visible()
    expect(table.locator(".late-card")).to_have_count(0)
    for page in (table, first, second):
        assert page.errors == []
