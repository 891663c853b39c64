"""A phone that lost its storage gets its seat back: the host hands the seat over on the table
screen, the new phone scans the QR code's link and plays on; the old phone is told."""

from playwright.sync_api import expect

from .test_platform_pwa import create_table, join


def test_the_host_hands_a_seat_to_a_new_phone(open_page, live):
    table, code = create_table(open_page, live)
    anna, bela = join(open_page, live, code, "Anna"), join(open_page, live, code, "Béla")
    said: list[str] = []  # what the old phone's browser reports of its socket's end
    bela.on("console", lambda m: said.append(m.text))
    table.click("text=Start game")
    expect(bela.locator("#my-name")).to_have_text("Béla")
    table.locator("[data-hand-over] >> nth=1").click()
    table.locator(".confirm-yes").click()  # asked in the page, once
    expect(table.locator("#handover img.qr")).to_be_visible()
    url = table.locator("#handover .join-url").inner_text()
    assert f"/t/{code}#seat=" in url
    expect(bela.locator(".error")).to_contain_text("handed this seat to another phone")
    # A socket refused at its start (it has no token) ends clean too, after the old one did.
    refused = bela.evaluate("() => new Promise((done) => { const s = new WebSocket(location.origin.replace("
                            "'http', 'ws') + '/ws/NOPE7'); s.onclose = (e) => done([e.code, e.wasClean]); })")
    assert refused == [4401, True]
    assert not [m for m in said if "Invalid frame header" in m or "WebSocket" in m], said
    again = open_page(url, locale="hu-HU")
    expect(again.locator("#my-name")).to_have_text("Béla")
    expect(again.locator(".toast")).to_contain_text("ezen a telefonon")
    assert "#seat=" not in again.url
    again.reload()  # the seat is this phone's now
    expect(again.locator("#my-name")).to_have_text("Béla")
    expect(table.locator("#players")).to_contain_text("Béla")
    for page in (table, anna, bela, again):
        assert page.errors == []
