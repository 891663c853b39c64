"""Rank & File with four phones: a right guess, a wrong guess flips an ace, all see it."""

from playwright.sync_api import expect

from .conftest import shot
from .test_platform_pwa import create_table, join


def test_four_phones_play_rank_and_file(open_page, live):
    table, code = create_table(open_page, live, "rankfile")
    phones = [join(open_page, live, code, n) for n in ("Anna", "Béla", "Cili", "Dani")]
    table.click("text=Start game")
    anna, bela = phones[0], phones[1]
    expect(anna.locator("#turn")).to_have_text("Your turn")
    # Anna points at Béla's first card, says 2, the table says right, and she shows her first.
    bela_row = anna.locator(".rf-row").nth(1)
    bela_row.locator(".rf-card").first.click()
    anna.locator(".numpad .btn", has_text="2").first.click()
    anna.click("text=Right")
    anna.locator(".rf-row").first.locator(".rf-card").first.click()
    for page in [table, *phones]:
        expect(page.locator(".rf-row").nth(1).locator(".rf-card").first).to_have_text("2")
    # Béla guesses wrong: an ace flips on every screen.
    expect(bela.locator("#turn")).to_have_text("Your turn")
    bela.locator(".rf-row").nth(2).locator(".rf-card").nth(8).click()
    bela.locator(".numpad .btn", has_text="3").first.click()
    bela.click("text=Wrong")
    for page in [table, *phones]:
        expect(page.locator(".rf-ace.flipped")).to_have_count(1)
    # An impossible claim is refused with its reason: Cili says Dani's last card is a 2.
    cili = phones[2]
    cili.locator(".rf-row").nth(3).locator(".rf-card").nth(8).click()
    cili.locator(".numpad .btn", has_text="2").first.click()
    cili.click("text=Right")
    cili.locator(".rf-row").nth(2).locator(".rf-card").nth(0).click()
    expect(cili.locator(".toast")).to_contain_text("could hold no card")
    shot(table, "rankfile-table")
    shot(cili, "rankfile-phone")
