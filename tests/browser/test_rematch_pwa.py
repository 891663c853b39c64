"""After the game with two phones: the rematch moves both phones on, the record and stats."""

from playwright.sync_api import expect

from .conftest import shot
from .test_platform_pwa import create_table, join


def _token(page, code):
    return page.evaluate(f"JSON.parse(localStorage.getItem('tc.player.{code}')).token")


def _host(page, code):
    return page.evaluate(f"JSON.parse(localStorage.getItem('tc.host.{code}')).token")


def test_rematch_with_two_phones(open_page, live, live_tables):
    table, code = create_table(open_page, live, "blanko")
    anna = join(open_page, live, code, "Anna")
    bela = join(open_page, live, code, "Béla")
    table.click("text=Start game")
    expect(anna.locator("#turn")).to_be_visible()
    tokens = {"Anna": _token(anna, code), "Béla": _token(bela, code)}
    host = _host(table, code)
    # Two turns, entered as the phones would: whoever was drawn to start lays first.
    state = live_tables.state(code, host)["state"]
    names = {p["id"]: p["name"] for p in state["players"]}
    first = names[state["game_state"]["current"]]
    second = "Béla" if first == "Anna" else "Anna"
    live_tables.ok(code, tokens[first], "blanko.lay", words=["LESŐ"], placed=4)
    live_tables.ok(code, tokens[second], "blanko.lay", words=["RIGÓ"], placed=4)
    live_tables.ok(code, tokens[first], "blanko.lay", words=["ALMA"], placed=4)
    table.on("dialog", lambda d: d.accept())
    table.click("text=End game")
    expect(table.locator("#rematch-panel")).to_be_visible()
    expect(anna.locator(".banner")).to_contain_text("Game over")
    shot(table, "rematch-table-ended")

    table.click("#rematch")
    for phone in (anna, bela):  # nobody rescans: each phone is in the new game already
        expect(phone.locator("#turn")).to_be_visible()
        expect(phone.locator(".banner")).to_have_count(0)
    expect(table.locator("#rematch-panel")).to_have_count(0)
    assert live_tables.state(code, tokens["Anna"])["state"]["game_no"] == 2

    # The record keeps the finished game, with its chart, on a phone.
    bela.click("#open-record")
    sheet = bela.locator("#record")
    expect(sheet.locator(".rec-game")).to_have_count(2)
    finished = sheet.locator(".rec-game[data-no='1']")
    expect(finished.locator(".rec-scores li")).to_have_count(2)
    expect(finished.locator(".rec-scores li.won")).to_contain_text(first)
    expect(finished.locator("img.chart")).to_be_visible()
    expect(finished).to_contain_text("Best word: LESŐ (10)")
    shot(bela, "rematch-phone-record")
    sheet.locator("button", has_text="Close").click()

    # Stats on the phone, in Hungarian: both players, Anna's own row marked.
    anna.click("#stats-link")
    expect(anna.locator(".players-table")).to_be_visible()
    anna.click("#lang")
    expect(anna.locator(".players-table tr.me th")).to_contain_text("Anna (te)")
    expect(anna.locator("img.chart")).to_be_visible()
    shot(anna, "stats-phone-hu")
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390  # tables scroll, the page does not
    # The table screen's stats are the group's: every table it hosted, also as one file.
    table.click("#stats-link")
    expect(table.locator(".players-table tbody tr")).to_have_count(2)
    expect(table.locator(".h2h tbody tr")).to_have_count(1)
    with table.expect_download() as got:
        table.click("#export-all [data-format=bgstats]")
    assert got.value.suggested_filename == "table-companion.bgstats.json"
    assert not anna.errors and not bela.errors and not table.errors
