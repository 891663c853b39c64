"""A short BLANKO game on two phones: lay, a luck card's second lay, challenge, pass out,
count whole racks, see the winner."""

from playwright.sync_api import expect

from .conftest import shot
from .test_platform_pwa import join


def test_short_blanko_game(open_page, live):
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
    expect(anna.locator("#start-again")).to_have_text("A tie: Anna, Béla draw again.")
    shot(bela, "blanko-phone-start-letter")
    shot(table, "blanko-table-start-letter")
    anna.locator(".bk-start .bk-key >> text='E'").click()
    anna.click("#enter-start")
    bela.locator(".bk-start .bk-key >> text='TY'").click()
    bela.click("#enter-start")
    expect(bela.locator("#turn")).to_have_text("Your turn")  # TY is worth 10, E 1
    expect(table.locator("#start-letters")).to_have_count(0)
    first, second = bela, anna

    # Typed without a dot, MÉZSÖR could be ZS or Z+S: the phone asks before it can be laid.
    first.fill(".bk-input", "mézsör")
    first.locator(".bk-input").dispatch_event("change")
    expect(first.locator(".bk-ask")).to_contain_text("Two tiles or one?")
    expect(first.locator("#lay")).to_be_disabled()
    first.click(".bk-ask >> text='Z + S'")
    expect(first.locator(".bk-word-slot.active .bk-tile")).to_have_count(6)
    expect(first.locator(".bk-ask")).to_have_count(0)
    first.click("text=+ crossing word")
    for key in ("SZ", "É", "L"):
        first.locator(f".bk-key >> text='{key}'").click()
    expect(first.locator("#lay")).to_have_text("Lay words (21)")  # MÉZSÖR 1+3+4+1+4+1=14, SZÉL 3+3+1=7
    shot(first, "blanko-phone-lay")
    expect(first.locator("#covered")).to_be_checked()  # the first word covers a BLANKO square
    first.click("#lay")
    expect(table.locator(".bk-turn").first).to_contain_text("MÉZSÖR + SZÉL")
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
    for phone in (first, second):  # every letter of the rack, as many as the app counted
        expect(phone.locator("#rack-count")).to_have_text("0 of 8 letters entered")
        for _ in range(7):
            phone.locator(".bk-rack .bk-key >> text='A'").click()
        expect(phone.locator("#count-rack")).to_be_disabled()
        phone.locator(".bk-rack .bk-key >> text='A'").click()
        phone.click("#count-rack")
    expect(table.locator(".banner.won")).to_contain_text("Winner")
    expect(table.locator(".bk-chart polyline")).to_have_count(2)
    shot(table, "blanko-table")
    for page in (table, first, second):
        assert page.errors == []
