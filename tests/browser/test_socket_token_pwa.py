"""The page's websocket carries its token as a subprotocol: its URL, which proxies log, has none."""

from playwright.sync_api import expect

from .test_platform_pwa import create_table


def test_the_phone_connects_without_its_token_in_the_url(open_page, live):
    table, code = create_table(open_page, live)
    phone = open_page(f"{live.url}/t/{code}")
    urls: list[str] = []
    phone.on("websocket", lambda ws: urls.append(ws.url))
    phone.fill("#name", "Anna")
    phone.click("#join")
    expect(phone.locator("#status")).to_have_attribute("data-status", "online")
    phone.reload()  # reconnects with ?since=
    phone.on("websocket", lambda ws: urls.append(ws.url))
    expect(phone.locator("#status")).to_have_attribute("data-status", "online")
    expect(table.locator("#players .dot.on")).to_have_count(1)
    assert urls and all("token" not in u for u in urls), urls
    assert phone.errors == [] and table.errors == []
