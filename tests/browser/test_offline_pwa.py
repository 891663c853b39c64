"""Issue 33 item 3: when the Wi-Fi drops, the table stays on screen. A phone (and the table's
screen, and the start page) reloaded without a network shows what it last saw of its table at
once, read-only and marked as not live, with the hourglass running on from its deadline; a tap
on a control there says it will work when the table is back and sends nothing, then or later;
back online, the live table replaces it and the controls work again.

The service worker serves the page offline only where it runs (localhost and HTTPS): the live
server's 127.0.0.1 is such a place. Playwright's offline mode cuts the page's requests, the
worker's and new websockets alike."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from .conftest import shot
from .test_newcomer_pwa import phone_of, table_of
from .test_phones_layout import catalogue

EN = catalogue("en")
NOT_LIVE = EN["ui"]["notLive"]
LATER = EN["error"]["net/stale"]
NAMES = ["Anna", "Béla"]


def bldng_mid_game(live_tables):
    """A BLDNG table where both players have their project and sand is running."""
    code, host, tokens, ids = live_tables.seated("bldng", NAMES)
    for name in NAMES:
        live_tables.ok(code, tokens[name], "bldng.set_project", draw=True)
    live_tables.ok(code, host, "timer.start", seconds=180)
    current = live_tables.state(code, host)["state"]["game_state"]["current"]
    first = next(n for n in NAMES if ids[n] == current)
    seats = {n: {"player_id": ids[n], "token": tokens[n], "game": "bldng", "name": n} for n in NAMES}
    return code, host, seats[first], seats[next(n for n in NAMES if n != first)]


def under_the_worker(page) -> None:
    """Waits until the service worker controls the page (it claims it once installed)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15_000)


def seq_of(live_tables, code, host) -> int:
    return live_tables.state(code, host)["seq"]


def sent_commands(page) -> list:
    """Every command the page puts on a websocket or POSTs from now on."""
    sent: list = []
    keep = lambda frame: sent.append(frame) if '"cid"' in str(frame) else None  # noqa: E731
    page.on("websocket", lambda ws: ws.on("framesent", keep))
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    return sent


def offline_reload(page) -> None:
    page.context.set_offline(True)
    page.evaluate("() => window.dispatchEvent(new Event('offline'))")
    page.reload()


def back_online(page) -> None:
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")


def expect_sand_runs(page) -> None:
    expect(page.locator(".hourglass")).to_have_attribute("data-phase", "running")
    shown = page.locator(".hg-digits").inner_text()
    expect(page.locator(".hg-digits")).not_to_have_text(shown)  # the digits count on


def expect_refused(page, control) -> None:
    page.locator("#toasts").evaluate("t => t.replaceChildren()")
    control.click()
    expect(page.locator("#toasts .toast").last).to_have_text(LATER)


def test_a_phone_reloaded_offline_shows_its_game_not_live_and_sends_nothing(browser, live, live_tables):
    code, host, first, second = bldng_mid_game(live_tables)
    anna = phone_of(browser, live, code, first, lang="en")
    bela = phone_of(browser, live, code, second, lang="en")
    expect(anna.locator("#my-project")).to_be_visible()
    expect(anna.locator("#draw-entry")).to_be_visible()
    project = anna.locator("#my-project .bd-el").evaluate_all("els => els.map(e => e.title)")
    under_the_worker(anna)
    seq = seq_of(live_tables, code, host)

    sent = sent_commands(anna)
    offline_reload(anna)
    # Its own game, at once, as it last saw it: marked not live, read-only.
    expect(anna.locator("#stale")).to_have_text(NOT_LIVE)
    expect(anna.locator("#my-project .bd-el")).to_have_count(len(project))
    assert anna.locator("#my-project .bd-el").evaluate_all("els => els.map(e => e.title)") == project
    expect(anna.locator("#my-name")).to_have_text(first["name"])
    expect_sand_runs(anna)
    # A tap on a game control, the hourglass or Undo: it says so, and nothing goes out.
    expect_refused(anna, anna.locator("#draw-entry [data-card='red-circle']"))
    expect_refused(anna, anna.locator(".hg-buttons button").first)
    expect_refused(anna, anna.locator("#undo"))
    assert sent == []
    shot(anna, "offline-phone-not-live", full_page=False)

    back_online(anna)
    expect(anna.locator("#stale")).to_be_hidden()
    expect(anna.locator("#status")).to_have_attribute("data-status", "online")
    # Nothing tapped while stale went out when the table came back; the controls work now.
    assert seq_of(live_tables, code, host) == seq
    anna.locator("#draw-entry [data-card='red-circle']").click()
    expect(bela.locator(".bd-player").first.locator(".bd-card")).to_have_count(1)
    expect(anna.locator(".hourglass")).to_have_attribute("data-phase", "running")
    assert not any('"timer.pause"' in str(f) or '"undo"' in str(f) for f in sent)
    for page in (anna, bela):
        assert page.errors == []


def test_the_table_screen_and_start_page_offline_show_the_table_not_live(browser, live, live_tables):
    code, host, _first, _second = bldng_mid_game(live_tables)
    table = table_of(browser, live, code, host, lang="en")
    expect(table.locator("#players .pname")).to_have_count(2)
    under_the_worker(table)
    table.goto(live.url + "/")  # the start page, seen once online
    expect(table.locator("#create")).to_be_visible()
    table.goto(f"{live.url}/?table={code}")
    expect(table.locator("#board .bd-players")).to_be_visible()
    seq = seq_of(live_tables, code, host)

    sent = sent_commands(table)
    offline_reload(table)
    expect(table.locator("#stale")).to_have_text(NOT_LIVE)
    expect(table.locator("#board .bd-player")).to_have_count(2)
    expect(table.locator("#players .pname")).to_have_count(2)
    expect_sand_runs(table)
    expect_refused(table, table.locator("#controls button", has_text=EN["ui"]["undo"]))
    expect_refused(table, table.locator(".hg-buttons button").first)
    assert sent == []
    shot(table, "offline-table-not-live", full_page=False)

    # The start page, offline: its form as last seen, not live; Create waits for the server.
    table.goto(live.url + "/")
    expect(table.locator("#stale")).to_have_text(NOT_LIVE)
    expect(table.locator("#create")).to_be_visible()
    expect_refused(table, table.locator("#create"))
    assert sent == []

    back_online(table)
    expect(table.locator("#stale")).to_be_hidden()
    table.goto(f"{live.url}/?table={code}")
    expect(table.locator("#status")).to_have_attribute("data-status", "online")
    expect(table.locator("#stale")).to_be_hidden()
    assert seq_of(live_tables, code, host) == seq
    table.locator("#controls button", has_text=EN["ui"]["lock"]).click()
    expect(table.locator("#controls button", has_text=EN["ui"]["unlock"])).to_be_visible()
    assert table.errors == []


def test_a_stored_copy_is_per_seat_bounded_and_goes_with_the_seat(browser, live, live_tables):
    """What the phone keeps: its own view only, one copy per table and seat, the newest few
    tables' only, and none once the seat is gone (removed by the host)."""
    code, host, first, _second = bldng_mid_game(live_tables)
    anna = phone_of(browser, live, code, first, lang="en")
    expect(anna.locator("#my-project")).to_be_visible()
    kept = anna.evaluate("""() => Object.keys(localStorage).filter((k) => k.startsWith('tc.view.'))""")
    assert kept == [f"tc.view.{code}.{first['player_id']}"]
    copy = json.loads(anna.evaluate(f"() => localStorage.getItem('{kept[0]}')"))
    assert copy["state"]["me"]["player_id"] == first["player_id"]
    # Old tables' copies go: a phone keeps the newest few.
    anna.evaluate("""() => { for (let i = 0; i < 12; i += 1) localStorage.setItem(`tc.view.OLD${i}.p1`,
        JSON.stringify({ saved_ms: i, state: {} })); }""")
    anna.reload()
    anna.wait_for_function("() => localStorage.getItem('tc.view.OLD8.p1') === null")
    left = anna.evaluate("""() => Object.keys(localStorage).filter((k) => k.startsWith('tc.view.'))""")
    assert sorted(left) == sorted([kept[0], "tc.view.OLD11.p1", "tc.view.OLD10.p1", "tc.view.OLD9.p1"])
    live_tables.ok(code, host, "table.remove_player", player_id=first["player_id"])
    expect(anna.locator("#main .error")).to_be_visible()
    anna.wait_for_function(f"() => localStorage.getItem('{kept[0]}') === null")


def test_an_answer_cut_short_is_no_connection_not_a_broken_page(open_page, live, live_tables):
    """A 200 whose body does not arrive whole (the Wi-Fi dropped half-way) was read as {}: the
    join screen then failed on `info.players is undefined` (seen once in Firefox)."""
    code, *_ = live_tables.seated("rankfile", NAMES)
    phone = open_page(live.url + "/healthz")
    phone.route(f"**/api/tables/{code}", lambda route: route.fulfill(
        status=200, content_type="application/json", body='{"code": "' + code))
    phone.goto(f"{live.url}/t/{code}")
    expect(phone.locator("#main .error")).to_have_text(EN["error"]["net/offline"])
    assert phone.errors == []
