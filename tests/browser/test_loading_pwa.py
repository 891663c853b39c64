"""What a phone fetches: versioned, compressed files, and only the game being played."""

import json

from playwright.sync_api import expect


def watch(page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    return seen


def test_a_phone_fetches_only_its_games_module_and_plays(open_page, live, live_tables):
    t = live_tables.create("rankfile")
    code = t["code"]
    page = open_page(f"{live.url}/t/{code}")
    seen = watch(page)
    page.reload()
    page.fill("#name", "Anna")
    page.click("#join")
    expect(page.locator("#status")).to_have_attribute("data-status", "online")
    for name in ("Bela",):
        live_tables.join(code, name)
    live_tables.ok(code, t["host_token"], "table.start_game")
    expect(page.locator("#game")).not_to_be_empty()
    expect(page.locator("#turn")).to_be_visible()
    scripts = [u for u in seen if "/static/js/games/" in u]
    assert any("/games/rankfile.js?v=" in u for u in scripts), scripts
    assert not any(g in u for u in scripts for g in ("/blank.js", "/blanko.js", "/bldng.js")), scripts
    static = [u for u in seen if "/static/" in u]
    assert static and all("?v=" in u for u in static), static
    assert page.errors == []


def test_the_start_page_draws_the_options_of_the_game_chosen(open_page, live):
    page = open_page(live.url + "/", phone=False)
    expect(page.locator("#create")).to_be_visible()
    expect(page.locator("#decks")).to_be_visible()  # BLANK's decks, with BLANK's module
    # A module this page had not loaded: until its options are drawn (which moves Create down),
    # Create waits, so a quick tap neither makes a table of options nobody saw nor lands, once
    # they come, on an option where Create was (likely what lost a test's click, under load).
    waits = page.evaluate("""() => { const game = document.querySelector('#game'); game.value = 'blanko';
      game.dispatchEvent(new Event('change')); return document.querySelector('#create').disabled; }""")
    assert waits is True
    expect(page.locator("#options input, #options select").first).to_be_visible()
    expect(page.locator("#create")).to_be_enabled()
    expect(page.locator("#decks")).to_be_hidden()
    assert page.errors == []


def test_the_first_screen_does_not_wait_for_the_socket(browser, live, live_tables):
    """The first state also comes over HTTP: with the socket open but silent (a slow line's
    handshake, say), the phone and the table's screen are drawn all the same."""
    code, host, tokens, ids = live_tables.seated("rankfile", ["Anna", "Bela"])
    anna = {"player_id": ids["Anna"], "token": tokens["Anna"]}
    hosted = {"token": host, "join_url": f"{live.url}/t/{code}"}
    screens = ((f"tc.player.{code}", anna, f"/t/{code}", "#turn"),
               (f"tc.host.{code}", hosted, f"/?table={code}", "#board"))
    for store, value, path, ready in screens:
        ctx = browser.new_context(locale="en-GB")
        ctx.add_init_script(f"localStorage.setItem({json.dumps(store)}, {json.dumps(json.dumps(value))})")
        sockets: list[str] = []
        ctx.route_web_socket("**/ws/**", lambda ws, opened=sockets: opened.append(ws.url))  # never a word
        page = ctx.new_page()
        page.goto(live.url + path)
        expect(page.locator(ready)).to_be_visible()
        expect(page.locator("#game, #board")).not_to_be_empty()
        assert sockets, "the page opened its socket"
        ctx.close()
