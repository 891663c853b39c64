"""#43 item 16: the pairings and the standings print on A4 as a club posts them on the wall: the
latest round's pairings (board, players, table code) and the standings, large, with none of the
screen's buttons, QR codes or chart. Chromium prints the room's screen to a PDF (Playwright's
page.pdf, A4), and poppler's pdftotext reads it back."""

import re
import shutil
import subprocess

import pytest
from playwright.sync_api import expect

from . import test_league_pwa as league
from .conftest import ARTIFACTS
from .test_league_pwa import PROJECTOR, _club_nights

pytestmark = pytest.mark.skipif(not shutil.which("pdftotext"),
                                reason="poppler-utils is installed by make test")
club = league.club  # the fixture: a server whose clock the test moves
PEOPLE = [f"Player {n:02d}" for n in range(17)]


def _pages(pdf) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          timeout=60, check=True).stdout
    return text.rstrip("\f").split("\f")


@pytest.mark.parametrize("locale, words", [("en-GB", ("Round 2", "Board", "Code", "Standings", "Bye")),
                                           ("hu-HU", ("2. forduló", "Asztal", "Kód", "Tabella", "Erőnyerő"))])
def test_the_pairings_and_standings_print_on_a4(browser, club, locale, words):
    live, app, clock = club
    made, rnd, _playing, _seats = _club_nights(app, clock, PEOPLE)
    ctx = browser.new_context(**PROJECTOR, locale=locale)
    ctx.add_init_script("window.print = () => { window.printed = (window.printed || 0) + 1; };")
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live.url}/league#league={made['id']}&token={made['token']}")
    expect(page.locator("#lg-standings tbody tr")).to_have_count(len(PEOPLE))
    expect(page.locator(".lg-board")).to_have_count(8)
    page.click("#lg-print")
    assert page.evaluate("window.printed") == 1
    ARTIFACTS.mkdir(exist_ok=True)
    pdf = ARTIFACTS / f"league-print-{locale}.pdf"
    page.pdf(path=str(pdf), format="A4")
    pages = _pages(pdf)
    # The round on the first sheet, the standings on the second: two sheets for the wall.
    assert len(pages) == 2, [p[:200] for p in pages]
    pairings, table = pages
    for word in words[:3]:
        assert word in pairings
    for board, tb in enumerate(rnd["tables"], start=1):
        a, b = tb["players"]
        assert re.search(rf"^\s*{board}\s+{a}\s+–\s+{b}\s+{tb['code']}\s*$", pairings, re.M), (board, tb)
    assert re.search(rf"{words[4]}.*{rnd['bye']}", pairings)
    assert words[3] in table
    standings = app.test_client().get(f"/api/leagues/{made['id']}").get_json()["standings"]
    for row in standings:
        line = (rf"^\s*{row['rank']}\.\s+{row['name']}\s+{row['games']}\s+{row['wins']}\s+\S+\s+"
                rf"{row['rating']:.1f}\s*$")
        assert re.search(line, table, re.M), row
    # None of the screen's controls, codes or chart.
    for screen_only in ("Next round", "Games and corrections", "Tables playing", "New table", "Print",
                        "Következő forduló", "Ezeknél az asztaloknál", "Nyomtatás"):
        assert screen_only not in "".join(pages)
    # Large: the standings' rows at least 12 pt on paper.
    page.emulate_media(media="print")
    # (read in one go: the room is drawn anew whenever a table moves)
    size = page.evaluate("getComputedStyle(document.querySelector('#lg-standings tbody td')).fontSize")
    assert float(size.removesuffix("px")) >= 16
    expect(page.locator(".lg-board img.qr").first).to_be_hidden()
    expect(page.locator("#lg-chart")).to_be_hidden()
    assert errors == []
    ctx.close()
