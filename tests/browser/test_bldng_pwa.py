"""BLDNG with three phones: hidden projects, a drawn shape, and a shift that moves projects."""

from playwright.sync_api import expect

from .conftest import shot
from .test_platform_pwa import create_table, join


def project_of(page):
    return page.locator("#my-project .bd-el").evaluate_all("els => els.map(e => e.title)")


def test_shift_moves_projects_between_phones(open_page, live):
    table, code = create_table(open_page, live, "bldng")
    phones = [join(open_page, live, code, n) for n in ("Anna", "Béla", "Cili")]
    table.click("text=Start game")
    for p in phones:
        p.click("#draw-project")
        expect(p.locator("#my-project")).to_be_visible()
    before = [project_of(p) for p in phones]
    # Nobody else's screen shows a project: not the table, not the other phones.
    expect(table.locator("#my-project")).to_have_count(0)
    anna = phones[0]
    anna.locator("[data-pick='red-circle']").click()
    expect(table.locator(".bd-player").first.locator(".bd-card")).to_have_count(1)
    phones[1].select_option("#effect", "shift_projects")
    phones[1].click("#play-effect")
    for i, p in enumerate(phones):
        expect(p.locator("#my-project .bd-el")).to_have_count(len(before[(i + 1) % 3]))
        assert project_of(p) == before[(i + 1) % 3]
    expect(table.locator(".bd-recent li").first).to_contain_text("Shift all projects right")
    expect(phones[2].locator("#turn")).to_have_text("Your turn")
    shot(phones[2], "bldng-phone")
    shot(table, "bldng-table")
    for page in (table, *phones):
        assert page.errors == []
