"""#43 item 12: nothing led to a league. The start page offers "Club night / league": a new
league, or the leagues this device organises (it keeps their organiser's tokens), and the
stats; /stats leads back to the start page."""

from playwright.sync_api import expect

from .conftest import PHONE, shot
from .test_league_tables_pwa import _knows, _league


def test_the_start_page_opens_the_leagues_this_device_organises(open_page, live):
    made = _league(live)
    other = _league(live, name="Friday club")
    gone = {"id": "l000000000000", "token": "nothing"}  # a league this server does not know
    page = open_page(f"{live.url}/", init_script=_knows(made, other, gone))
    card = page.locator("#leagues-card")
    expect(card).to_contain_text("Club night / league")
    links = card.locator("a.lg-open")
    expect(links).to_have_text(["Friday club", "Thursday club"])  # by name, the unknown one left out
    assert links.nth(1).get_attribute("href") == f"/league#league={made['id']}"
    assert page.locator("#stats-link").get_attribute("href") == "/stats"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    shot(page, "league-start-phone")
    links.nth(1).click()
    # The room's screen, the organiser's (the token is on the device, not in the link).
    expect(page.locator("#lg-next")).to_be_attached()
    expect(page.locator("h2").first).to_contain_text("Thursday club")
    assert page.errors == []


def test_the_start_page_makes_a_league_and_the_stats_lead_back(open_page, live):
    page = open_page(f"{live.url}/", locale="hu-HU")
    card = page.locator("#leagues-card")
    expect(card).to_contain_text("Klubest / bajnokság")
    expect(card.locator("a.lg-open")).to_have_count(0)
    card.locator("#lg-new-link").click()
    page.fill("#league-name", "Csütörtöki klub")
    page.click("#league-create")
    expect(page.locator("#lg-next")).to_be_attached()
    page.goto(f"{live.url}/")
    expect(page.locator("#leagues-card a.lg-open")).to_have_text(["Csütörtöki klub"])
    page.click("#stats-link")
    expect(page).to_have_url(f"{live.url}/stats")
    back = page.locator("#start-link")
    expect(back).to_have_text("Kezdőlap")
    back.click()
    expect(page.locator("#leagues-card")).to_be_visible()
    assert page.errors == []
