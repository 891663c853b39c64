"""A phone's first tap lands where it was aimed: a phone opened from its seat link, whose first
tap on the page is its screen's main control, sees that control act. The tap's pointerdown
unlocks the sound, and the "sound is off" notice that then goes away moved the page under the
finger (by 44 px, when the page was scrolled to its end) before the click: nothing may appear,
disappear or resize between a pointerdown and its click."""

from __future__ import annotations

import pytest

from .engines import expect
from .test_phones_layout import seated

NAMES = ["Anna", "Bela"]
# Each game's first screen for the player to move: the control tapped (as steps of
# Device.locator), and what shows it acted.
FIRST = {
    "blank": (lambda d: d.locator(".bl-rule-pick").first, ".ce-count", "1/3"),
    "bldng": (lambda d: d.locator(".bd-el.pick").first, ".ce-count", "1/8"),
    "rankfile": (lambda d: d.locator(".rf-row").nth(1).locator(".rf-card").last, ".rf-card.picked", None),
    "blanko": (lambda d: d.locator(".hg-buttons .btn").first, None, None),  # the hourglass's Start
}


def seat_link(live, live_tables, code, host, player_id):
    r = live_tables.client.post(f"/api/tables/{code}/players/{player_id}/handover", json={},
                                headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 201, r.get_json()
    return f"{live.url}/t/{r.get_json()['url'].split('/t/', 1)[1]}"


@pytest.mark.parametrize("game", list(FIRST))
def test_the_first_tap_on_a_phone_lands(open_device, live, live_tables, game):
    """In each engine: a finger's press and release at the control's centre, scrolled to the
    middle of the screen (a scroll is no tap) and out from under the seat link's toast."""
    code, host, tokens, ids = seated(live_tables, game, NAMES)
    phones = [open_device(seat_link(live, live_tables, code, host, ids[n])) for n in NAMES]
    for phone in phones:
        expect(phone.locator("#status")).to_have_attribute("data-status", "online")
    page = phones[0]
    expect(page.locator(".hg-sound.in-card")).to_be_visible()  # nobody has tapped this page yet
    control, shows, text = FIRST[game]
    control(page).click()
    if game == "blanko":
        for phone in phones:
            expect(phone.locator(".hourglass")).to_have_attribute("data-phase", "running")
    elif text:
        expect(page.locator(shows)).to_have_text(text)
    else:
        expect(page.locator(shows)).to_have_count(1)
    # The tap turned the sound on, and the notice went without moving the page under it.
    # Headless Firefox on a machine with no sound device never starts an AudioContext (it stays
    # "suspended"), so there the notice stays, and the tap's landing is what is tested.
    if page.engine != "firefox":
        expect(page.locator(".hg-sound.in-card")).to_be_hidden()
    for phone in phones:
        assert phone.errors == []
