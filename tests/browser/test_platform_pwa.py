"""A table screen and two phones on one table: joining, live updates, reloads, the timer."""

import re
from pathlib import Path

from playwright.sync_api import expect

from . import engines
from .conftest import shot

STATIC = Path(__file__).resolve().parents[2] / "static"


def create_table(open_page, live, game="rankfile"):
    table = open_page(live.url + "/", phone=False)
    table.select_option("#game", game)
    table.click("#create")
    expect(table.locator("#table-code")).to_have_text(table.locator("#table-code").inner_text())
    code = table.locator("#table-code").inner_text()
    assert len(code) == 5
    return table, code


def join(open_page, live, code, name, **page_options):
    """A phone opens the table's link (the QR code's), and its owner types a name and joins:
    a Playwright page (``open_page``, its ``locale``), or a phone of the engine walks
    (``open_device``, its ``lang``), whose waits engines.expect serves alike."""
    phone = open_page(f"{live.url}/t/{code}", **page_options)
    phone.fill("#name", name)
    phone.click("#join")
    engines.expect(phone.locator("#my-name")).to_have_text(name)
    engines.expect(phone.locator("#status")).to_have_attribute("data-status", "online")
    return phone


def test_two_phones_join_act_and_reload(open_page, live):
    table, code = create_table(open_page, live)
    expect(table.locator("img.qr")).to_be_visible()
    anna = join(open_page, live, code, "Anna")
    bela = join(open_page, live, code, "<img src=x onerror=1>")
    expect(table.locator("#players .pname")).to_have_text(["Anna", "<img src=x onerror=1>"])
    expect(table.locator("#players .dot.on")).to_have_count(2)

    # One phone acts; the other phone and the table see it (how soon is bench/broadcast.py's to
    # measure: on a loaded 2-core machine a second is not always enough).
    anna.locator(".hg-buttons button").first.click()
    expect(bela.locator(".hourglass")).to_have_attribute("data-phase", "running")
    expect(table.locator(".hourglass")).to_have_attribute("data-phase", "running")

    # A reload keeps the same player (token in localStorage) and catches up.
    bela.reload()
    expect(bela.locator("#my-name")).to_have_text("<img src=x onerror=1>")
    expect(bela.locator(".hourglass")).to_have_attribute("data-phase", "running")
    expect(table.locator("#players li")).to_have_count(2)

    table.click("text=Start game")
    expect(anna.locator("#turn")).to_have_text("Your turn")
    expect(bela.locator("#turn")).to_contain_text("Anna")
    shot(table, "table-screen")
    shot(anna, "phone-390x844")
    for page in (table, anna, bela):
        assert page.errors == []


def test_phone_offline_then_back_catches_up(open_page, live):
    table, code = create_table(open_page, live)
    anna = join(open_page, live, code, "Anna")
    anna.context.set_offline(True)
    anna.evaluate("() => window.dispatchEvent(new Event('offline'))")
    table.locator(".hg-presets button").nth(1).click()
    expect(table.locator(".hourglass")).to_have_attribute("data-phase", "running")
    anna.context.set_offline(False)
    # The socket was not really cut by set_offline (Chromium keeps open sockets); force it.
    anna.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(anna.locator(".hourglass")).to_have_attribute("data-phase", "running")


def test_language_switch(open_page, live):
    page = open_page(live.url + "/", phone=False, locale="hu-HU")
    expect(page.locator("#create")).to_have_text("Asztal létrehozása")
    description = page.locator('meta[name="description"]')
    expect(description).to_have_attribute("content", re.compile("^Játékvezető"))
    page.click("#lang")
    expect(page.locator("#lang")).to_have_text("Magyar")
    # the page says what it is in the language it now speaks
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(description).to_have_attribute("content", re.compile("^Referee"))


def test_service_worker_caches_the_shell(open_page, live, live_app):
    page = open_page(live.url + "/", phone=False)
    cached = page.evaluate("""async () => {
        await navigator.serviceWorker.ready;
        const names = await caches.keys();
        const cache = await caches.open(names[0]);
        return { names, count: (await cache.keys()).length };
    }""")
    cache_name = f"companion-{live_app.extensions['assets'].version}"
    assert cached["names"] == [cache_name] and cached["count"] > 20
    manifest = page.evaluate("() => fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["icons"]
