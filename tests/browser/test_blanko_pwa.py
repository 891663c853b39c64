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
    expect(anna.locator("#turn")).to_be_visible()
    first, second = (anna, bela) if anna.locator("#turn").inner_text() == "Your turn" else (bela, anna)

    # Typed without a dot, MÉZSÖR could be ZS or Z+S: the phone asks before it can be laid.
    first.fill(".bk-input", "mézsör")
    first.locator(".bk-input").dispatch_event("change")
    expect(first.locator(".bk-ask")).to_contain_text("One tile or two?")
    expect(first.locator("#lay")).to_be_disabled()
    first.click(".bk-ask >> text='Z + S'")
    expect(first.locator(".bk-word-slot.active .bk-tile")).to_have_count(6)
    expect(first.locator(".bk-ask")).to_have_count(0)
    first.click("text=+ another word")
    for key in ("SZ", "É", "L"):
        first.locator(f".bk-key >> text='{key}'").click()
    expect(first.locator("#lay")).to_have_text("Lay · 21 points")  # MÉZSÖR 1+3+4+1+4+1=14, SZÉL 3+3+1=7
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
