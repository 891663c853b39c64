"""BLDNG with three phones: project cards entered from the table (at the start and after Change
project, through the same entry), a drawn shape, and a shift that every phone is told about."""

from playwright.sync_api import expect

from .conftest import shot
from .test_platform_pwa import create_table, join

ANNA = ["red-circle"] * 2 + ["blue-square"] * 2 + ["green-triangle"] * 2 + ["yellow-rectangle"] * 2


def project_of(page):
    return page.locator("#my-project .bd-el").evaluate_all("els => els.map(e => e.title)")


def expect_project(page, titles):
    """Waits for the phone to show ``titles`` as its project: its number of cards alone may be
    the old project's too (the app draws a project of 8 or 10)."""
    els = page.locator("#my-project .bd-el")
    expect(els).to_have_count(len(titles))
    for i, title in enumerate(titles):
        expect(els.nth(i)).to_have_attribute("title", title)


def enter_project(page, keys, size="8"):
    entry = page.locator("#project-entry")
    entry.locator(f"[data-choice='size-{size}']").click()
    for key in keys:
        entry.locator(f".ce-palette [data-card='{key}']").click()
    expect(entry.locator(".ce-count")).to_have_text(f"{len(keys)}/{size}")
    entry.locator("[data-enter='project-entry']").click()
    expect(page.locator("#my-project")).to_be_visible()


def test_projects_entered_changed_and_shifted_on_the_phones(open_page, live):
    table, code = create_table(open_page, live, "bldng")
    phones = [join(open_page, live, code, n) for n in ("Anna", "Béla", "Cili")]
    table.click("text=Start game")
    anna, bela, cili = phones
    # Anna enters the card she holds; a mistap comes off again with one tap on its slot.
    anna.locator("#project-entry .ce-palette [data-card='blue-circle']").click()
    anna.locator("#project-entry .ce-chosen [data-slot='0']").click()
    enter_project(anna, ANNA)
    assert project_of(anna) == ["red circle"] * 2 + ["blue square"] * 2 + ["green triangle"] * 2 + \
        ["yellow rectangle"] * 2
    for p in (bela, cili):  # a group without project cards lets the app draw
        p.click("[data-draw='project-entry']")
        expect(p.locator("#my-project")).to_be_visible()
    before = [project_of(p) for p in phones]
    # Nobody else's screen shows a project: not the table, not the other phones.
    expect(table.locator("#my-project")).to_have_count(0)
    anna.locator("#draw-entry [data-card='red-circle']").click()
    expect(table.locator(".bd-player").first.locator(".bd-card")).to_have_count(1)

    bela.locator("#draw-entry [data-card='change_project']").click()
    # Béla's old card went under the deck: he enters the new one as at the start.
    expect(bela.locator("#project-entry h3")).to_have_text("Change project: your new project card")
    expect(bela.locator("#step")).to_have_text("Enter your new project card")
    expect(table.locator("#board-step")).to_contain_text("Béla: Enter your new project card")
    shot(bela, "bldng-change-project")
    enter_project(bela, ["blue-triangle"] * 10, size="10")
    expect(bela.locator("#project-news")).to_contain_text("Your new project is in: Ordered, 10 cards.")
    bela.locator("#project-news button").click()
    expect(bela.locator("#project-news")).to_have_count(0)
    before[1] = project_of(bela)
    assert before[1] == ["blue triangle"] * 10

    cili.locator("#draw-entry [data-card='shift_projects']").click()
    for i, p in enumerate(phones):
        expect_project(p, before[(i + 1) % 3])
    # Every phone is told, in words from the catalogue, whose project it now builds.
    expect(anna.locator("#project-news")).to_have_text(
        "Cili shifted all projects right: you now build the project Béla had: Ordered, 10 cards.OK")
    expect(cili.locator("#project-news")).to_contain_text("the project Anna had")
    expect(table.locator("#project-news")).to_have_count(0)
    expect(table.locator(".bd-recent li").first).to_contain_text("Shift all projects right")
    expect(anna.locator("#turn")).to_have_text("Your turn")
    shot(anna, "bldng-phone")
    shot(table, "bldng-table")
    anna.reload()  # a seen notice stays dismissed; an unseen one comes back
    expect(anna.locator("#project-news")).to_be_visible()
    anna.locator("#project-news button").click()
    anna.reload()
    expect(anna.locator("#my-project")).to_be_visible()
    expect(anna.locator("#project-news")).to_have_count(0)
    # A group without the cards lets the app draw; the phone shows what came.
    anna.click("[data-draw='draw-entry']")
    expect(anna.locator("#app-drew")).to_contain_text("The app drew for you:")
    expect(table.locator("#draw-pile")).to_have_text("85")
    for page in (table, *phones):
        assert page.errors == []


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
