"""A phone's first tap lands where it was aimed: a phone opened from its seat link, whose first
tap on the page is its screen's main control, sees that control act. The tap's pointerdown
unlocks the sound, and the "sound is off" notice that then goes away moved the page under the
finger (by 44 px, when the page was scrolled to its end) before the click: nothing may appear,
disappear or resize between a pointerdown and its click."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE

NAMES = ["Anna", "Bela"]
# Each game's first screen for the player to move: the control tapped, and what shows it acted.
FIRST = {
    "blank": (".bl-rule-pick >> nth=0", ".ce-count", "1/3"),
    "bldng": (".bd-el.pick >> nth=0", ".ce-count", "1/8"),
    "rankfile": (".rf-row >> nth=1 >> .rf-card >> nth=-1", ".rf-card.picked", None),
    "blanko": (".hg-buttons .btn >> nth=0", None, None),  # the hourglass's Start
}


def seat_link(live, live_tables, code, host, player_id):
    r = live_tables.client.post(f"/api/tables/{code}/players/{player_id}/handover", json={},
                                headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 201, r.get_json()
    return f"{live.url}/t/{r.get_json()['url'].split('/t/', 1)[1]}"


def fresh_phone(browser, url):
    page = browser.new_context(**PHONE, locale="en-GB").new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.goto(url)
    expect(page.locator("#status")).to_have_attribute("data-status", "online")
    return page


def tap(page, selector):
    """A finger's tap at the control's centre, after scrolling it to the middle of the screen
    (a scroll is no tap), and out of the way of the seat link's toast."""
    target = page.locator(selector)
    expect(target).to_be_enabled()
    expect(page.locator(".toast")).to_have_count(0)
    target.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(100)
    box = target.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


@pytest.mark.parametrize("game", list(FIRST))
def test_the_first_tap_on_a_phone_lands(browser, live, live_tables, game):
    options = {}
    if game == "blank":
        deck = live_tables.client.post("/api/decks", json={"name": "Pakli", "mark": ""}).get_json()
        options = {"deck_id": deck["id"]}
    code, host, tokens, ids = live_tables.seated(game, NAMES, **options)
    phones = [fresh_phone(browser, seat_link(live, live_tables, code, host, ids[n])) for n in NAMES]
    page = phones[0]
    expect(page.locator(".hg-sound.in-card")).to_be_visible()  # nobody has tapped this page yet
    control, shows, text = FIRST[game]
    tap(page, control)
    if game == "blanko":
        for phone in phones:
            expect(phone.locator(".hourglass")).to_have_attribute("data-phase", "running")
    elif text:
        expect(page.locator(shows)).to_have_text(text)
    else:
        expect(page.locator(shows)).to_have_count(1)
    expect(page.locator(".hg-sound.in-card")).to_be_hidden()  # the tap turned the sound on
    for phone in phones:
        assert phone.errors == []  # type: ignore[attr-defined]
