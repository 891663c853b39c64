"""A league's tables made from the pages, for every game it counts: the start page's "Counts
for league" (from the room's screen, or on a device that keeps a league's token) and the room's
"Next round" in the game the organiser chooses. A club playing BLANK or BLDNG four at a table
had no page that made a table count for its league."""

import json

from playwright.sync_api import expect

from .conftest import PHONE, shot
from .test_league_pwa import PEOPLE, PROJECTOR


def _league(live, **body):
    return live.app.test_client().post("/api/leagues", json={"name": "Thursday club", **body}).get_json()


def _league_of(live, code):
    return live.app.test_client().get(f"/api/tables/{code}").get_json()


def _knows(*leagues):
    """A script that gives a new device the organiser's tokens of ``leagues`` (as the room's
    screen keeps them), before any page of it runs."""
    return "".join(f"localStorage.setItem('tc.league.{lg['id']}', {json.dumps(json.dumps(lg['token']))});"
                   for lg in leagues)


def _create(page):
    page.click("#create")
    expect(page.locator("#table-code")).to_have_text(page.locator("#table-code").inner_text())
    return page.locator("#table-code").inner_text()


def test_the_rooms_screen_opens_a_blank_table_for_its_league(browser, live):
    made = _league(live, games=["blank", "blanko"])
    ctx = browser.new_context(**PROJECTOR)
    room = ctx.new_page()
    room.goto(f"{live.url}/league#league={made['id']}&token={made['token']}")
    link = room.locator("#lg-new-table")
    expect(link).to_be_visible()
    with ctx.expect_page() as opened:
        link.click()
    page = opened.value
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    expect(page.locator("#game")).to_be_visible()
    assert page.url.endswith(f"/?league={made['id']}")
    page.select_option("#game", "blank")
    choice = page.locator("#league")
    # Opened from the league's link: that league is chosen, by its name.
    expect(choice).to_have_value(made["id"])
    expect(choice.locator("option:checked")).to_have_text("Thursday club")
    page.select_option("#game", "bldng")  # a game the league does not count
    expect(page.locator("#league")).to_have_count(0)
    page.select_option("#game", "blank")
    expect(choice).to_have_value(made["id"])
    code = _create(page)
    assert _league_of(live, code)["league"] == made["id"]
    # The table's "New table" opens the start page for the same league again.
    page.get_by_role("button", name="New table").click()
    expect(page.locator("#game")).to_be_visible()
    page.select_option("#game", "blank")
    expect(page.locator("#league")).to_have_value(made["id"])
    assert errors == []
    ctx.close()


def test_a_phone_that_keeps_a_leagues_token_offers_it_for_the_games_it_counts(open_page, live):
    made = _league(live, games=["blank", "bldng", "rankfile"])
    gone = {"id": "l000000000000", "token": "nothing"}  # a league this server does not know
    page = open_page(f"{live.url}/", init_script=_knows(made, gone))
    page.select_option("#game", "bldng")
    choice = page.locator("#league")
    # "none" unless the page came from a league's link; the unknown league is left out quietly.
    expect(choice.locator("option")).to_have_text(["None", "Thursday club"])
    expect(choice).to_have_value("")
    page.select_option("#game", "blanko")  # not counted by this league
    expect(page.locator("#league")).to_have_count(0)
    page.select_option("#game", "bldng")
    page.select_option("#league", made["id"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    shot(page, "league-table-phone", full_page=False)
    code = _create(page)
    assert _league_of(live, code)["league"] == made["id"]
    assert page.errors == []


def test_a_table_made_with_none_counts_for_no_league(open_page, live):
    made = _league(live)
    page = open_page(f"{live.url}/", init_script=_knows(made))
    page.select_option("#game", "blanko")
    expect(page.locator("#league")).to_have_value("")
    code = _create(page)
    assert _league_of(live, code)["league"] is None


def test_no_league_choice_on_a_device_that_knows_none(open_page, live):
    _league(live)  # on the server, but not on this device
    page = open_page(f"{live.url}/")
    for game in ("blank", "blanko", "bldng", "rankfile"):
        page.select_option("#game", game)
        expect(page.locator("#options")).to_be_attached()
        expect(page.locator("#league")).to_have_count(0)


def test_a_leagues_link_turns_the_form_to_a_game_it_counts(open_page, live):
    made = _league(live, games=["bldng"])
    page = open_page(f"{live.url}/?league={made['id']}")
    expect(page.locator("#league")).to_have_value(made["id"])
    expect(page.locator("#game")).to_have_value("bldng")
    code = _create(page)
    assert (_league_of(live, code)["game"], _league_of(live, code)["league"]) == ("bldng", made["id"])


def test_a_link_to_an_unknown_league_says_so_and_the_form_still_makes_tables(open_page, live):
    page = open_page(f"{live.url}/?league=l000000000000", locale="hu-HU")
    expect(page.locator("#league-error")).to_have_text("Nincs ilyen bajnokság.")
    shot(page, "league-table-unknown-hu", full_page=False)
    page.select_option("#game", "rankfile")
    expect(page.locator("#league")).to_have_count(0)
    code = _create(page)
    assert _league_of(live, code)["league"] is None


def test_the_next_round_is_made_in_the_game_the_organiser_chooses(browser, live):
    made = _league(live)
    ctx = browser.new_context(**PROJECTOR)
    page = ctx.new_page()
    page.goto(f"{live.url}/league#league={made['id']}&token={made['token']}")
    page.click("#lg-next summary")
    game = page.locator("#lg-round-game")
    # The league's rated games, BLANKO first (Rank & File is played together: no pairs).
    expect(game.locator("option")).to_have_text(["BLANKO", "BLANK", "BLDNG"])
    expect(game).to_have_value("blanko")
    for name in PEOPLE[:2]:
        page.fill("#lg-add-name", name)
        page.press("#lg-add-name", "Enter")
    # A game whose module this page has not loaded: Make round waits until its options are
    # drawn (they push the button down when they come), as the start page's Create does.
    waits = page.evaluate("""() => { const game = document.querySelector('#lg-round-game');
      game.value = 'bldng'; game.dispatchEvent(new Event('change'));
      return document.querySelector('#lg-make-round').disabled; }""")
    assert waits is True
    expect(page.locator("#lg-make-round")).to_be_enabled()
    page.click("#lg-make-round")
    board = page.locator(".lg-board")
    expect(board).to_have_count(1)
    code = board.get_attribute("data-code")
    table = _league_of(live, code)
    assert (table["game"], table["league"]) == ("bldng", made["id"])
    expect(page.locator(f'.lg-table[data-code="{code}"]')).to_contain_text("BLDNG")
    # The choice stays for the next round, through the screen's redraws.
    page.click("#lg-next summary")
    expect(page.locator("#lg-round-game")).to_have_value("bldng")
    shot(page, "league-round-game", full_page=False)
    ctx.close()


def test_a_league_that_rates_one_game_makes_its_rounds_in_it(browser, live):
    made = _league(live, games=["blank", "rankfile"])
    ctx = browser.new_context(**PROJECTOR)
    page = ctx.new_page()
    page.goto(f"{live.url}/league#league={made['id']}&token={made['token']}")
    page.click("#lg-next summary")
    expect(page.locator("#lg-round-game option")).to_have_text(["BLANK"])
    expect(page.locator("#lg-next #deck")).to_be_visible()  # BLANK's options: the round's deck
    for name in PEOPLE[:2]:
        page.fill("#lg-add-name", name)
        page.press("#lg-add-name", "Enter")
    shot(page, "league-round-blank", full_page=False)
    page.click("#lg-make-round")
    expect(page.locator(".lg-board")).to_have_count(1)
    code = page.locator(".lg-board").get_attribute("data-code")
    assert _league_of(live, code)["game"] == "blank"
    ctx.close()
