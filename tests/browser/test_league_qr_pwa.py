"""#43 item 14: a round board's QR code was ~80 px wide on a 1280 px projector, too small to
scan from a seat. A tap on a board shows its code alone, most of the screen's height (a phone
2 m away reads it), until a tap or Escape closes it; zbar reads the screenshot as the board's
join link, secret fragment and all."""

import shutil
import subprocess
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from . import test_league_pwa as league
from .conftest import ARTIFACTS, shot
from .test_league_pwa import PROJECTOR, _club_nights

club = league.club  # the fixture: a server whose clock the test moves

pytestmark = pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbar-tools is installed by make test")


def _decoded(page, name: str) -> str:
    ARTIFACTS.mkdir(exist_ok=True)
    picture = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(picture))
    return subprocess.run(["zbarimg", "--quiet", "--raw", str(picture)],
                          capture_output=True, text=True, timeout=30).stdout.strip()


def test_a_tapped_board_shows_its_qr_code_big_enough_to_scan_from_a_seat(browser, club):
    live, app, clock = club
    made, rnd, _playing, _seats = _club_nights(app, clock)
    page = browser.new_page(**PROJECTOR)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live.url}/league#league={made['id']}&token={made['token']}")
    expect(page.locator(".lg-board")).to_have_count(2)
    big = page.locator("#lg-qr-big")
    for i, board in enumerate(rnd["tables"]):
        # A tap on the board's names (its code links to the table's own screen on this device).
        page.locator(f'.lg-board[data-code="{board["code"]}"] .lg-pair').click()
        expect(big).to_be_visible()
        img = big.locator("img.qr")
        page.wait_for_function("() => { const i = document.querySelector('#lg-qr-big img.qr');"
                               " return i && i.complete && i.naturalWidth > 0; }")
        box = img.bounding_box()
        assert box["height"] >= 0.75 * PROJECTOR["viewport"]["height"], box
        assert abs(box["width"] - box["height"]) < 2, box
        expect(big).to_contain_text(" – ".join(board["players"]))
        expect(big).to_contain_text(board["code"])
        shot(page, f"league-qr-big-{i}", full_page=False)
        # The link as this server names itself (the API's was read through a test client).
        link = urlsplit(board["join_url"])
        assert _decoded(page, f"league-qr-big-{i}-scan") == f"{live.url}{link.path}#{link.fragment}"
        if i == 0:
            page.keyboard.press("Escape")
        else:
            big.click()
        expect(big).to_be_hidden()
    # The board's small code opens it too, from the keyboard as well.
    page.locator(".lg-board .lg-qr-open").first.focus()
    page.keyboard.press("Enter")
    expect(big).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#lg-qr-big")).to_have_count(0)
    assert errors == []
    page.close()
