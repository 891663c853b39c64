"""A café's venue (#44) on 390×844 phones: a guest scans a tent with nothing going there (starts a
game, and is its host and a player; a second phone joins by the same tent), a tent whose table
has a game (joins it, and a rejoin keeps the seat), a tablet at the tent made the table's screen
with the host phone's consent; the staff's screen shows a game and ends it; and the printed
tents, made a PDF by Chromium and rasterised, decode to the tables' links and the Wi-Fi."""

from __future__ import annotations

import shutil
import subprocess
from urllib.parse import urlsplit

import pytest
from PIL import Image
from playwright.sync_api import expect

from .conftest import ARTIFACTS, shot

# ASCII: zbar reads a code's bytes as Shift JIS where they are not ASCII (a phone's camera reads
# UTF-8); the characters the Wi-Fi format escapes are here
WIFI = {"ssid": "Cafe; Guests", "password": 'pa:ss\\w,o"rd', "security": "WPA"}
TENT = "X-Companion-Tent"


def make_venue(client, tables=("1", "2", "Window"), wifi=None):
    body = {"name": "Kávé & Kocka", "tables": list(tables), **({"wifi": wifi} if wifi else {})}
    r = client.post("/api/venues", json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def on(live, url: str) -> str:
    """A tent's link as the live server's (the test client made it for http://localhost)."""
    parts = urlsplit(url)
    return f"{live.url}{parts.path}#{parts.fragment}"


def secret_of(url: str) -> str:
    return urlsplit(url).fragment.removeprefix("k=")


def staff(venue) -> str:
    """A device of the venue's staff: its token kept as the staff page keeps it."""
    return (f"localStorage.setItem('tc.venue.{venue['id']}', "
            f"JSON.stringify({{token: '{venue['token']}', name: null}}));")


def test_a_guest_starts_a_game_at_a_free_tent_and_a_second_phone_joins_by_it(open_page, live, live_tables):
    venue = make_venue(live_tables.client)
    tent = venue["tables"][0]
    anna = open_page(on(live, tent["url"]))
    expect(anna.locator("#tent-form")).to_be_visible()
    assert "#" not in anna.url  # the tent's secret left the address bar at once
    # a new server has no decks to mix in: no empty box offers them
    expect(anna.locator("#deck")).to_be_visible()
    expect(anna.locator("#deck-mix")).to_have_count(0)
    anna.select_option("#game", "rankfile")
    anna.fill("#name", "Anna")
    shot(anna, "venue-tent-start")
    anna.click("#tent-start")
    expect(anna.locator("#my-name")).to_have_text("Anna")
    code = anna.locator("#table-code").inner_text()
    assert anna.url == f"{live.url}/t/{code}"
    # One phone is enough: the host's phone shows the lobby's QR code (with the table's join
    # secret: it is the host's) and Start.
    expect(anna.locator("#host-qr")).to_have_js_property("complete", True)
    bence = open_page(on(live, tent["url"]))
    expect(bence.locator("#join-form")).to_be_visible()
    assert bence.url == f"{live.url}/t/{code}"
    bence.fill("#name", "Bence")
    bence.click("#join")
    expect(bence.locator("#my-name")).to_have_text("Bence")
    expect(anna.locator("#host-players")).to_contain_text("Bence")
    # Start and End game are two buttons a thumb tells apart, not one block
    start, end = (anna.locator(sel).bounding_box() for sel in ("#host-start", "#host-end"))
    assert end["y"] - (start["y"] + start["height"]) >= 8, (start, end)
    shot(anna, "venue-host-lobby")
    anna.click("#host-start")
    expect(anna.locator("#host-board")).to_be_visible()
    expect(anna.locator("#host-qr")).to_have_count(0)
    expect(anna.locator("#host-end")).to_be_visible()
    shot(anna, "venue-host-playing")
    # the tent now says a game is going there
    r = live_tables.client.get(f"/api/venues/{venue['id']}/tables/1", headers={TENT: secret_of(tent["url"])})
    assert r.get_json()["code"] == code
    assert not anna.errors and not bence.errors


def test_a_tent_whose_table_has_a_game_joins_it_and_a_rejoin_keeps_the_seat(open_page, live, live_tables):
    venue = make_venue(live_tables.client)
    tent = next(tb for tb in venue["tables"] if tb["label"] == "Window")
    made = live_tables.client.post(f"/api/venues/{venue['id']}/tables/Window/games",
                                   json={"game": "rankfile"}, headers={TENT: secret_of(tent["url"])})
    assert made.status_code == 201, made.get_json()
    code = made.get_json()["code"]
    live_tables.join(code, "Csilla")
    phone = open_page(on(live, tent["url"]))
    expect(phone.locator("#join-form")).to_be_visible()
    assert phone.url == f"{live.url}/t/{code}"
    expect(phone.locator("#host")).to_have_count(0)  # the tent gives no host rights
    phone.fill("#name", "Dani")
    phone.click("#join")
    expect(phone.locator("#my-name")).to_have_text("Dani")
    shot(phone, "venue-tent-joined")
    phone.goto(on(live, tent["url"]))  # scanned again
    expect(phone.locator("#my-name")).to_have_text("Dani")
    names = [p["name"] for p in live_tables.state(code, made.get_json()["host_token"])["state"]["players"]]
    assert names == ["Csilla", "Dani"]
    assert not phone.errors


def test_a_tablet_at_the_tent_becomes_the_tables_screen_when_the_host_allows(open_page, live, live_tables):
    venue = make_venue(live_tables.client)
    tent = venue["tables"][1]
    host = open_page(on(live, tent["url"]))
    host.fill("#name", "Emese")
    host.click("#tent-start")
    expect(host.locator("#my-name")).to_have_text("Emese")
    code = host.locator("#table-code").inner_text()
    tablet = open_page(on(live, tent["url"]), phone=False)
    expect(tablet.locator("#screen-offer")).to_be_visible()
    tablet.click("#be-screen")
    expect(tablet.locator("#screen-status")).to_be_visible()
    expect(host.locator(".host-request")).to_be_visible()
    shot(host, "venue-host-screen-request")
    host.click("#screen-allow")
    expect(tablet.locator("#table-code")).to_have_text(code)
    assert tablet.url == f"{live.url}/?table={code}"
    expect(tablet.locator("#players .pname")).to_have_text(["Emese"])
    expect(host.locator(".host-request")).to_have_count(0)
    assert not host.errors and not tablet.errors


def test_the_staff_page_shows_a_game_and_ends_it(open_page, live, live_tables):
    venue = make_venue(live_tables.client)
    tent = venue["tables"][1]
    made = live_tables.client.post(f"/api/venues/{venue['id']}/tables/2/games", json={"game": "rankfile"},
                                   headers={TENT: secret_of(tent["url"])}).get_json()
    for name in ("Anna", "Bence"):
        live_tables.join(made["code"], name)
    page = open_page(f"{live.url}/venue#venue={venue['id']}&token={venue['token']}")
    card = page.locator('.vn-table[data-label="2"]')
    expect(card.locator(".lg-players li")).to_have_count(2)
    expect(card).to_contain_text(made["code"])
    expect(card.locator(".vn-status")).to_have_text("Joining")
    expect(page.locator('.vn-table[data-label="1"] .vn-status')).to_have_text("Free")
    assert venue["token"] not in page.url  # kept on the device, not in the address bar
    # live: the game started at the table shows without a reload
    live_tables.ok(made["code"], made["host_token"], "table.start_game")
    expect(card.locator(".vn-status")).to_have_text("Playing")
    expect(card.locator(".vn-since")).to_have_text("just started")
    shot(page, "venue-staff")
    card.locator("[data-end]").click()
    page.locator(".confirm-yes").click()
    expect(card.locator(".vn-status")).to_have_text("Free")
    expect(card.locator(".lg-players")).to_have_count(0)
    r = live_tables.client.get(f"/api/venues/{venue['id']}/tables/2", headers={TENT: secret_of(tent["url"])})
    assert r.get_json()["code"] is None
    # a new tent: the old link stops working at once
    card.locator("[data-reprint]").click()
    page.locator(".confirm-yes").click()
    expect(card.locator("[data-print]")).to_have_attribute("href",
                                                           f"/venue/print#venue={venue['id']}&label=2")
    r = live_tables.client.get(f"/api/venues/{venue['id']}/tables/2", headers={TENT: secret_of(tent["url"])})
    assert r.status_code == 403
    old = open_page(on(live, tent["url"]))
    expect(old.locator("#tent-problem .error")).to_contain_text("no longer")
    assert old.locator("#tent-problem").inner_text().count("Scan the code on the table again") == 1
    assert not page.errors and not old.errors


@pytest.mark.skipif(not (shutil.which("zbarimg") and shutil.which("pdftoppm")),
                    reason="zbar-tools and poppler-utils are installed by make test")
def test_printed_tents_decode_to_their_tables_and_the_wifi(browser, live, live_tables, tmp_path):
    venue = make_venue(live_tables.client, tables=("1", "2", "Terrace 2"), wifi=WIFI)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    ctx.add_init_script(staff(venue))
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live.url}/venue/print#venue={venue['id']}")
    page.wait_for_selector("body[data-tents=ready]")
    expect(page.locator(".tent")).to_have_count(3)
    # big enough to scan from a chair: 6 cm across the code's modules (its border of 4 is white)
    modules_mm = page.evaluate("""() => [...document.querySelectorAll('.tent-qr')].map((img) => {
      const side = Number(/viewBox="0 0 (\\d+)/.exec(decodeURIComponent(img.src))[1]);
      return img.getBoundingClientRect().width * 25.4 / 96 * (side - 8) / side; })""")
    assert len(modules_mm) == 6 and min(modules_mm) >= 60, modules_mm
    pdf = tmp_path / "tents.pdf"
    page.pdf(path=str(pdf), format="A4", prefer_css_page_size=True, print_background=True)
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(pdf), str(tmp_path / "sheet")], check=True)
    sheets = sorted(tmp_path.glob("sheet*.png"))
    assert len(sheets) == 2  # two tents a sheet
    wifi = 'WIFI:T:WPA;S:Cafe\\; Guests;P:pa\\:ss\\\\w\\,o\\"rd;;'
    links = [on(live, tb["url"]) for tb in venue["tables"]]
    found = []
    for sheet in sheets:
        with Image.open(sheet) as img:
            # each tent is half the sheet: its two faces, each with the table's code and the Wi-Fi's
            for half in (img.crop((0, 0, img.width, img.height // 2)),
                         img.crop((0, img.height // 2, img.width, img.height))):
                path = tmp_path / "half.png"
                half.save(path)
                out = subprocess.run(["zbarimg", "--quiet", "--raw", str(path)],
                                     capture_output=True, text=True)
                found.append(sorted(line for line in out.stdout.splitlines() if line))
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(sheets[0], ARTIFACTS / "venue-tents-sheet.png")
    # the first three halves are the three tents (the fourth is blank); each face is decoded
    assert found[:3] == [sorted([link, link, wifi, wifi]) for link in links], found
    assert found[3] == []
    assert errors == []
    ctx.close()


def test_the_start_page_links_to_the_venue(open_page, live):
    page = open_page(f"{live.url}/")
    expect(page.locator("#venue-link")).to_have_attribute("href", "/venue")
    page.click("#venue-link")
    expect(page.locator("#venue-form")).to_be_visible()
    page.fill("#venue-name", "<img src=x onerror=window.hacked=1>Kávé")
    page.fill("#venue-count", "3")
    page.fill("#venue-labels", "Window, Terrace 2")
    expect(page.locator("#venue-preview")).to_contain_text("5 tables")
    shot(page, "venue-new")
    page.click("#venue-create")
    expect(page.locator(".vn-table")).to_have_count(5)
    # what the staff typed is shown as they typed it, never read as markup
    expect(page.locator("#venue-staff h2")).to_have_text("<img src=x onerror=window.hacked=1>Kávé")
    assert page.evaluate("() => window.hacked") is None
    assert "token" not in page.url and not page.errors


def test_the_staff_set_change_and_clear_the_wifi_and_the_tents_follow(open_page, live, live_tables):
    """The Wi-Fi is the staff's to change after the venue is made (a new router, a new password):
    the tents printed after offer the new network; the password is never shown back."""
    venue = make_venue(live_tables.client)
    page = open_page(f"{live.url}/venue#venue={venue['id']}&token={venue['token']}")
    wifi = page.locator("#venue-wifi")
    expect(wifi.locator("#venue-wifi-now")).to_have_text("No Wi-Fi on the tents")

    def save(ssid: str, password: str) -> None:
        if not wifi.evaluate("(d) => d.open"):
            wifi.locator("summary").click()
        wifi.locator("#venue-wifi-ssid").fill(ssid)
        wifi.locator("#venue-wifi-password").fill(password)
        wifi.locator("#venue-wifi-save").click()

    def printed() -> list[str]:
        tents = open_page(f"{live.url}/venue/print#venue={venue['id']}", init_script=staff(venue))
        tents.wait_for_selector("body[data-tents=ready]")
        assert not tents.errors
        return tents.locator(".tent-ssid").all_inner_texts()

    save("Cafe Guests", "first-password")
    expect(wifi.locator("#venue-wifi-now")).to_have_text("Network: Cafe Guests")
    expect(wifi.locator("#venue-wifi-password")).to_have_value("")
    shot(page, "venue-staff-wifi")
    assert "first-password" not in page.content()
    assert printed() == ["Cafe Guests"] * 6
    # a password the network could not have: said so, and nothing changes
    save("Cafe Two", "short")
    expect(page.locator(".toast-error")).to_contain_text("8 to 63 characters")
    expect(wifi.locator("#venue-wifi-now")).to_have_text("Network: Cafe Guests")
    save("Cafe Two", "second-password")
    expect(wifi.locator("#venue-wifi-now")).to_have_text("Network: Cafe Two")
    assert printed() == ["Cafe Two"] * 6
    wifi.locator("#venue-wifi-clear").click()
    page.locator(".confirm-yes").click()
    expect(wifi.locator("#venue-wifi-now")).to_have_text("No Wi-Fi on the tents")
    assert printed() == []
    r = live_tables.client.get(f"/api/venues/{venue['id']}/wifi.svg",
                               headers={"Authorization": f"Bearer {venue['token']}"})
    assert r.status_code == 404
    assert not page.errors
