"""The table's QR code is the key (#35 item 2), on a 390×844 phone: at an address where a
guesser spent every new device and code guess, the link the table screen's QR code encodes
(with its join secret in the fragment) still joins, and leaves the address bar at once; the
code typed in gets "too many tries"."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from playwright.sync_api import expect
from test_qr_join import exhaust

from .conftest import shot

pytestmark = pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbar-tools is installed by make test")


def scanned(page, tmp_path) -> str:
    """What a phone's camera reads off the table screen's QR code."""
    picture = tmp_path / "qr.png"
    page.locator("img.qr").screenshot(path=str(picture))
    return subprocess.run(["zbarimg", "--quiet", "--raw", str(picture)],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_the_qr_codes_link_joins_where_a_guesser_spent_the_address(open_page, live, live_tables, tmp_path):
    table = open_page(live.url + "/", phone=False)
    table.select_option("#game", "rankfile")
    table.click("#create")
    code = table.locator("#table-code").inner_text()
    expect(table.locator("img.qr")).to_have_js_property("complete", True)
    link = scanned(table, tmp_path)
    assert link.startswith(f"{live.url}/t/{code}#k="), link
    # what the screen writes out is for typing: the plain join URL
    expect(table.locator(".join-panel .join-url")).to_have_text(f"{live.url}/t/{code}")

    exhaust(live_tables.client)
    typed = open_page(f"{live.url}/t/{code}")
    expect(typed.locator(".error")).to_have_text("Too many tries: wait a minute.")

    phone = open_page(link)
    expect(phone.locator("#name")).to_be_visible()
    assert phone.url == f"{live.url}/t/{code}"  # the secret left the address bar at once
    phone.reload()  # kept with the seat to be: a reload (or a retry) of the join still has it
    expect(phone.locator("#join")).to_be_visible()
    phone.fill("#name", "Anna")
    phone.click("#join")
    expect(phone.locator("#my-name")).to_have_text("Anna")
    expect(table.locator("#players .pname")).to_have_text(["Anna"])
    assert phone.url == f"{live.url}/t/{code}" and not phone.errors
    shot(phone, "qr-join-phone")
    shot(table, "qr-join-table")
