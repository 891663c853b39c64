"""A phone behind the documented nginx (docs/deploying.md): TLS and HTTP/2, which lets a phone on
a slow line fetch the page's modules side by side on one connection instead of six at a time,
while its websocket still reaches the table through the same proxy."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from .conftest import PHONE
from .test_phones_layout import catalogue

EN = catalogue("en")


def test_a_phone_behind_nginx_loads_over_http2_and_hears_the_table(browser, proxied_pair):
    nginx, (a, b) = proxied_pair
    site = f"https://127.0.0.1:{nginx.port}"
    t = a.call("/api/tables", {"game": "rankfile"})
    code = t["code"]
    anna = b.call(f"/api/tables/{code}/players", {"name": "Anna"})
    b.call(f"/api/tables/{code}/players", {"name": "Béla"})
    seat = a.call(f"/api/tables/{code}/players/{anna['player_id']}/handover", {}, token=t["host_token"])
    ctx = browser.new_context(**PHONE, ignore_https_errors=True, locale="en-GB")
    page = ctx.new_page()
    link = urlsplit(seat["url"])  # the hand-over link, on the proxy's address
    page.goto(f"{site}{link.path}#{link.fragment}")
    expect(page.locator("#my-name")).to_have_text("Anna")
    expect(page.locator("#me")).to_contain_text(EN["ui"]["lobby"])
    protocols = page.evaluate("""() => [performance.getEntriesByType("navigation")[0].nextHopProtocol,
        ...performance.getEntriesByType("resource").filter((r) => r.name.includes("/static/js/"))
          .map((r) => r.nextHopProtocol)]""")
    assert set(protocols) == {"h2"}, protocols
    a.call(f"/api/tables/{code}/commands", {"type": "table.start_game"}, token=t["host_token"])
    expect(page.locator("#me")).not_to_contain_text(EN["ui"]["lobby"])  # heard over the websocket
    ctx.close()
