"""A short BLANK game on two phones: a new deck, a play that wins, a new rule for the deck."""

from playwright.sync_api import expect

from .conftest import shot
from .test_platform_pwa import join


def test_short_blank_game_adds_a_rule_to_the_deck(open_page, live, live_tables):
    table = open_page(live.url + "/", phone=False)
    table.select_option("#game", "blank")
    table.fill("#deck-name", "Kitchen <b>deck</b>")
    table.click("#create")
    code = table.locator("#table-code").inner_text()
    anna, bela = join(open_page, live, code, "Anna"), join(open_page, live, code, "Béla")
    table.click("text=Start game")
    expect(table.locator(".bl-rule")).to_have_count(3)
    anna.locator("[data-pick='circle-3']").click()  # the first card of the draw pile
    expect(table.locator(".bl-status .bl-card")).to_have_attribute("title", "circle 3")
    for n in (1, 2, 3, 4, 5, 6, 1):  # seven circles at once: all one colour, the first matches
        anna.locator(f"[data-pick='circle-{n}']").click()
    anna.click("#play")
    # Anna is out; if her last card set off a rule, she wins once another phone confirms it.
    expect(table.locator(".banner.won, .bl-going-out")).to_be_visible()
    if table.locator(".bl-going-out").count():
        expect(anna.locator("#resolved")).to_have_count(0)
        bela.click("#resolved")
    expect(table.locator(".banner.won")).to_contain_text("Anna")
    anna.fill(".bl-prize [name=text]", "everyone says <script>hi</script>")
    anna.select_option(".bl-prize [name=trigger]", "card_drawn")
    anna.click("#propose-rule")
    table.click("#approve-prize")
    expect(table.locator("#board")).to_have_attribute("data-status", "ended")
    decks = live_tables.client.get("/api/decks").get_json()["decks"]
    deck = live_tables.client.get(f"/api/decks/{decks[0]['id']}").get_json()
    assert deck["name"] == "Kitchen <b>deck</b>"
    assert deck["rules"][-1]["text"] == "everyone says <script>hi</script>"
    assert deck["wins"] == {"Anna": 1}
    shot(table, "blank-table")
    # The start screen lists the deck with its win and its history.
    table.goto(live.url + "/")
    expect(table.locator("#decks")).to_contain_text("Anna: 1")
    table.locator("#decks summary", has_text="Deck history").click()
    expect(table.locator("#decks ol li").last).to_contain_text("everyone says")
    for page in (table, anna, bela):
        assert page.errors == []
