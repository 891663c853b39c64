"""BLDNG with three phones: project cards entered from the table (at the start and after Change
project, through the same entry), a drawn shape, and a shift that every phone is told about."""

from playwright.sync_api import expect

from .conftest import shot
from .test_engines_pwa import BLDNG_ANNA as ANNA
from .test_engines_pwa import enter_project
from .test_newcomer_pwa import phone_of
from .test_platform_pwa import create_table, join


def project_of(page):
    return page.locator("#my-project .bd-el").evaluate_all("els => els.map(e => e.title)")


def test_a_change_and_a_shift_are_told_on_each_phone_in_its_language(open_page, live):
    table, code = create_table(open_page, live, "bldng")
    anna = join(open_page, live, code, "Anna")
    bela = open_page(f"{live.url}/t/{code}", locale="hu-HU")  # a Hungarian phone
    bela.fill("#name", "Béla")
    bela.click("#join")
    expect(bela.locator("#my-name")).to_have_text("Béla")
    table.click("text=Start game")
    enter_project(anna, ANNA)
    enter_project(bela, ["green-square"] * 8)
    # Anna draws Change project: her phone says what to do with the cards and asks for the new one.
    anna.locator("#draw-entry [data-card='change_project']").click()
    expect(anna.locator("#project-change")).to_have_text(
        "You drew Change project: put your project card under the Project deck, "
        "take the top one and enter it here.")
    expect(anna.locator("#project-entry h3")).to_have_text("Change project: your new project card")
    expect(bela.locator("#project-change")).to_have_count(0)
    enter_project(anna, ["yellow-circle"] * 10, size="10")
    expect(anna.locator("#project-news")).to_contain_text(
        "Your new project is in: Ordered, 10 cards. The old one went under the Project deck.")
    expect(anna.locator("#project-change")).to_have_count(0)
    expect(bela.locator("#project-news")).to_have_count(0)  # Béla's project did not change
    shot(anna, "bldng-changed-project-news")
    anna.locator("#project-news button").click()
    # Béla shifts: both phones are told what happened and what they build now.
    bela.locator("#draw-entry [data-card='shift_projects']").click()
    expect(anna.locator("#project-news")).to_have_text(
        "Béla shifted all projects right: you now build the project Béla had: Ordered, 8 cards.OK")
    expect(bela.locator("#project-news")).to_have_text(
        "Béla jobbra léptette a projekteket: most Anna eddigi projektjét építed: "
        "Rendezett, 10 lap.Rendben")
    assert project_of(anna) == ["green square"] * 8
    expect(bela.locator("#my-project .bd-el")).to_have_count(10)
    shot(bela, "bldng-shift-news-hu")
    # A jolly says it is one in words, not only by its colours (issue 28 item 12).
    anna.locator("#project-news button").click()
    anna.locator("#draw-entry [data-card='jolly-all']").click()
    expect(table.locator(".bd-card.jolly_all .bd-jolly")).to_have_text("Jolly")
    expect(bela.locator(".bd-hand .bd-card.jolly_all .bd-jolly")).to_have_text("Jolly")  # as printed
    shot(bela, "bldng-jolly-label-hu")
    # The history names every card drawn, What happens cards too: all of them are public.
    for page, drawn in ((anna, ["Anna drew Jolly 4×4", "Béla drew Shift all projects right",
                                "Anna drew Change project"]),
                        (bela, ["Anna lapot húzott: Jolly 4×4"])):
        page.click("#history")
        for line in drawn:
            expect(page.locator(".history-list .what", has_text=line)).to_have_count(1)
        page.locator("dialog.sheet header button").click()
    for page in (table, anna, bela):
        assert page.errors == []


# -- issue 34 item 14: a steal on the phone, and a builder only once the turn is done -------------

def shape_card(name):
    colour, shape = name.split("-")
    return {"kind": "shape", "shape": shape, "colour": colour}


def bldng_seated(live_tables, names, projects):
    code, host, tokens, ids = live_tables.seated("bldng", names)
    for n in names:
        live_tables.ok(code, tokens[n], "bldng.set_project",
                       project={"type": "ordered", "elements": [k.split("-")[::-1] for k in projects[n]]})
    seat = {n: {"player_id": ids[n], "token": tokens[n]} for n in names}
    return code, host, tokens, seat


def still_phone(browser, live, code, seat):
    """A phone that brings a new prompt into view at once (reduced motion), so that a tap is
    never made on a page still scrolling smoothly to it after a move made through the API."""
    page = phone_of(browser, live, code, seat, lang="en")
    page.emulate_media(reduced_motion="reduce")
    return page


def draw(live_tables, code, token, card):
    live_tables.ok(code, token, "bldng.draw",
                   card=card if isinstance(card, dict) else shape_card(card))


def test_a_steal_offers_only_the_cards_of_its_shape_in_the_other_players_rows(browser, live, live_tables):
    names = ["Anna", "Béla", "Cili"]
    code, _, tokens, seat = bldng_seated(live_tables, names, {n: ANNA for n in names})
    for n, card in zip(names, ("red-circle", "blue-circle", "green-square"), strict=True):
        draw(live_tables, code, tokens[n], card)
    anna = still_phone(browser, live, code, seat["Anna"])
    draw(live_tables, code, tokens["Anna"], {"kind": "what_happens", "effect": "steal_circle"})
    expect(anna.locator("#take-hint")).to_have_text("Tap a circle in another player's row to take it")
    rows = anna.locator(".bd-players .bd-player")
    expect(rows.nth(1).locator(".bd-card")).to_be_enabled()  # Béla's circle
    expect(rows.nth(2).locator(".bd-card")).to_be_disabled()  # Cili's square is no circle
    expect(rows.nth(0).locator(".bd-card")).to_be_disabled()  # nor is Anna's own circle to take
    # Béla holds a circle: "nothing to take" is not offered, beside him or anyone.
    expect(anna.locator("#take-nothing, [data-nothing]")).to_have_count(0)
    shot(anna, "bldng-steal-hint")
    rows.nth(1).locator(".bd-card").click()
    expect(rows.nth(0).locator(".bd-card")).to_have_count(2)

    bela = still_phone(browser, live, code, seat["Béla"])
    draw(live_tables, code, tokens["Béla"], {"kind": "what_happens", "effect": "steal_triangle"})
    expect(bela.locator("#take-hint")).to_have_text("Nobody else holds a triangle: there is nothing to take.")
    expect(bela.locator(".bd-players .bd-card:enabled")).to_have_count(0)
    bela.locator("#take-nothing").click()
    expect(bela.locator("#take-hint")).to_have_count(0)
    expect(bela.locator("#turn")).not_to_have_text("Your turn")
    for page in (anna, bela):
        assert page.errors == []


def test_taking_the_discard_that_completes_the_project_asks_for_the_discard_first(browser, live, live_tables):
    bela_project = ["blue-triangle"] * 8
    code, _, tokens, seat = bldng_seated(live_tables, ["Anna", "Béla"], {"Anna": ANNA, "Béla": bela_project})
    mine = ANNA[:7] + ["blue-circle"]  # every shape but a yellow rectangle, and a card not needed
    for card in mine:
        draw(live_tables, code, tokens["Anna"], card)
        draw(live_tables, code, tokens["Béla"], "green-circle")
    draw(live_tables, code, tokens["Anna"], "red-square")  # at her count: a draw, then a discard
    live_tables.ok(code, tokens["Anna"], "bldng.discard", index=8)
    draw(live_tables, code, tokens["Béla"], "yellow-rectangle")
    live_tables.ok(code, tokens["Béla"], "bldng.discard", index=8)  # the one Anna still needs
    anna = still_phone(browser, live, code, seat["Anna"])
    anna.locator("#take-discard").click()
    expect(anna.locator("#step")).to_have_text("Discard a card")
    expect(anna.locator("#complete")).to_have_text(
        "Every shape is in place: discard what the project does not need, and you are a builder!")
    shot(anna, "bldng-complete-discard-owed")
    anna.locator(".bd-players .bd-player").nth(0).locator(".bd-card").nth(7).click()  # the blue circle
    expect(anna.locator("#complete")).to_have_text("Complete — you are a builder!")
    assert anna.errors == []
