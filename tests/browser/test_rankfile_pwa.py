"""Rank & File with four phones: a right guess, a wrong guess flips an ace, all see it."""

import re

from playwright.sync_api import expect

from .conftest import shot
from .test_platform_pwa import join


def cards(page, row):
    return page.locator(".rf-row").nth(row).locator(".rf-card")


def guess(page, row, pos, number, verdict):
    cards(page, row).nth(pos).click()
    page.locator(".numpad .btn", has_text=str(number)).first.click()
    page.click(f"text={verdict}")


def test_king_joker_wrong_marks_and_the_end_on_two_phones(open_page, live):
    table = open_page(live.url + "/", phone=False)
    table.select_option("#game", "rankfile")
    table.check("[name=kings]")
    table.check("[name=joker]")
    table.click("#create")
    code = table.locator("#table-code").inner_text()
    anna, bela = (join(open_page, live, code, n) for n in ("Anna", "Béla"))
    table.click("text=Start game")
    expect(anna.locator("#turn")).to_have_text("Your turn")
    # The Joker is declared by whoever holds it, not only by the player to play.
    bela.click("#declare-joker")
    for page in (table, anna, bela):
        expect(cards(page, 1)).to_have_count(19)
    expect(bela.locator("#declare-joker")).to_have_count(0)

    # Anna plays her King: two of Béla's cards, then one number for both.
    anna.click("text=Play King")
    cards(anna, 1).nth(0).click()
    expect(anna.locator(".numpad")).to_have_count(0)
    expect(anna.locator("#rf-prompt")).to_contain_text("1/2")
    expect(cards(anna, 1).nth(0)).to_have_class(re.compile("picked"))
    cards(anna, 1).nth(1).click()
    anna.locator(".numpad .btn", has_text="2").first.click()
    anna.click("text=Right: Béla #2")
    cards(anna, 0).nth(1).click()  # her own 2
    for page in (table, anna, bela):
        expect(cards(page, 1).nth(1)).to_have_text("2")
        expect(cards(page, 0).nth(1)).to_have_text("2")
    expect(anna.locator("text=Play King")).to_have_count(0)

    # Anna's first card lies left of her 2: it can only be a 2, so "wrong" is a misread card.
    guess(bela, 0, 0, 2, "Wrong")
    expect(bela.locator(".toast")).to_contain_text("can only be a 2")
    expect(table.locator(".rf-ace.flipped")).to_have_count(0)
    guess(bela, 0, 17, 3, "Wrong")
    for page in (table, anna, bela):  # the wrong guess stays written on the card
        expect(cards(page, 0).nth(17).locator(".rf-wrong")).to_have_text("✗3")
        expect(page.locator(".rf-ace.flipped")).to_have_count(1)

    # Right, and "none of mine" is refused while Anna's first card must be a 2; she taps it.
    guess(anna, 1, 0, 2, "Right")
    anna.click("text=I have no other face-down 2")
    expect(anna.locator(".toast")).to_contain_text("must include a 2")
    guess(anna, 1, 0, 2, "Right")
    cards(anna, 0).nth(0).click()
    expect(cards(table, 0).nth(0)).to_have_text("2")

    # Béla is right about a 10 and holds no other face-down 10: only Anna's card flips.
    guess(bela, 0, 16, 10, "Right")
    bela.click("text=I have no other face-down 10")
    expect(cards(table, 0).nth(16)).to_have_text("10")
    expect(cards(table, 1).locator(".rf-face", has_text="10")).to_have_count(0)

    for page, row, pos in ((anna, 1, 18), (bela, 0, 15), (anna, 1, 17)):
        expect(page.locator("#turn")).to_have_text("Your turn")
        guess(page, row, pos, 3, "Wrong")
    for page in (anna, bela):
        expect(page.locator("#result")).to_have_text("Game over. The team lost: 4 of 4 aces flipped")
        expect(page.locator("#turn")).to_have_count(0)
        expect(page.locator(".rf-controls")).to_have_count(0)
    shot(anna, "rankfile-over")
    for page in (table, anna, bela):
        assert page.errors == []
