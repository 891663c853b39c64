"""Issue 42 items 10 and 11, on a 390×844 phone: the hourglass's Start is within reach on a
fresh page of every game's screen (four players, in Hungarian, whose words are the longest),
and the button a finger lands on stays where it is when the glass starts, so a second tap
aimed at Pause lands on Pause."""

from __future__ import annotations

import pytest

from .conftest import shot
from .engines import expect
from .test_first_tap_pwa import seat_link
from .test_newcomer_pwa import phone_of
from .test_phones_layout import catalogue, seated

NAMES = ["Anna", "Béla Kovácsné", "Cili", "Dénes"]
# A screen of each game a phone shows before anyone has turned the glass, the longest of its
# two (as it starts, with the cards or letters to enter, or as it is played once they are in):
# the glass's Start is in the header's bar on every one, so the shorter adds nothing but time.
SCREENS = ["blank-start", "blanko-start", "bldng", "rankfile"]
START = ".hourglass .hg-buttons .btn >> nth=0"


def table_at(live_tables, screen: str):
    """A started table of four showing ``screen``, its glass never turned: code and the seats
    (player id and token), in turn order from the player to move."""
    game, _, phase = screen.partition("-")
    code, host, tokens, ids = seated(live_tables, game, NAMES)
    if phase != "start":
        if game == "blank":
            live_tables.ok(code, host, "blank.reveal_rules", draw=True)
            live_tables.ok(code, host, "blank.first_card", card={"colour": "shield", "number": 3})
        if game == "bldng":
            for name in NAMES:
                live_tables.ok(code, tokens[name], "bldng.set_project", draw=True)
        if game == "blanko":  # the letters drawn for the start: the first seat's is highest
            for name in NAMES:
                letter = "TY" if name == NAMES[0] else "A"
                live_tables.ok(code, tokens[name], "blanko.start_letter", letter=letter)
    gs = live_tables.state(code, host)["state"]["game_state"]
    order = [ids[n] for n in NAMES]
    first = order.index(gs.get("current") or order[0])
    by_id = {ids[n]: n for n in NAMES}
    return code, [{"player_id": pid, "token": tokens[by_id[pid]]} for pid in order[first:] + order[:first]]


# The glass's Start buttons, on its card and in the header's bar, that a finger could hit
# where the page stands: inside the window and not under anything; their boxes.
STARTS_IN_REACH = """(word) => [...document.querySelectorAll('.hg-buttons .btn, #hg-bar .hg-bar-button')]
  .filter((b) => b.textContent === word).map((b) => {
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const reach = r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && hit !== null && b.contains(hit);
    return { where: b.closest('#hg-bar') ? 'bar' : 'card', top: r.top, bottom: r.bottom, reach };
  })"""


@pytest.mark.parametrize("screen", SCREENS)
def test_the_glass_start_is_in_reach_without_scrolling(browser, live, live_tables, screen):
    code, seats = table_at(live_tables, screen)
    word = catalogue("hu")["ui"]["startTimer"]
    for i, seat in enumerate(seats[:2]):  # the player to move, and one waiting
        page = phone_of(browser, live, code, seat, lang="hu")
        expect(page.locator(".hourglass")).to_have_attribute("data-phase", "ready")
        expect(page.locator("#game > *").first).to_be_visible()
        assert page.evaluate("scrollY") == 0
        starts = page.evaluate(STARTS_IN_REACH, word)
        shot(page, f"glass-in-reach-{screen}-{i}", full_page=False)
        reach = [s for s in starts if s["reach"]]
        assert reach, f"{screen}, seat {i}: no Start of the glass's in reach without scrolling: {starts}"
        page.locator("#hg-bar .hg-bar-button" if reach[0]["where"] == "bar" else START).click()
        expect(page.locator(".hourglass")).to_have_attribute("data-phase", "running")
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()
        live_tables.ok(code, seat["token"], "timer.reset")


# The button's box in the window, once the page has stood still for two frames.
STILL_BOX = """const frame = () => new Promise((ok) => requestAnimationFrame(() => ok()));
await frame(); await frame();
const r = document.querySelector(q.css).getBoundingClientRect();
return { x: r.x, y: r.y, width: r.width, height: r.height };"""
BUTTONS = {"card": ".hourglass .hg-buttons .btn", "bar": "#hg-bar .hg-bar-button"}


@pytest.mark.parametrize("where", list(BUTTONS))
def test_the_glass_button_stays_under_the_finger_when_the_glass_starts(open_device, live, live_tables, where):
    """In each engine, Rank & File for four in Hungarian, a fresh phone's first tap: on the
    card's Start scrolled to the middle of the window (the page then stands at its end), or on
    the bar's with the page scrolled to its end. The glass starts, the sound comes on (its
    notice goes), and the button, now Pause, is where it was: a second tap there pauses."""
    code, host, tokens, ids = seated(live_tables, "rankfile", NAMES)
    current = live_tables.state(code, host)["state"]["game_state"]["current"]
    page = open_device(seat_link(live, live_tables, code, host, current))
    expect(page.locator("#my-name")).to_be_visible()  # the seat is kept: the language may be set
    page.run("localStorage.setItem('tc.lang', 'hu');")
    page.reload()
    ui = catalogue("hu")["ui"]
    expect(page.locator(".hourglass")).to_have_attribute("data-phase", "ready")
    # as test_first_tap: the tap is the first once the phone is live (a tap while its socket
    # still connects is another matter; under load that wait let the tap go unanswered)
    expect(page.locator("#status")).to_have_attribute("data-status", "online")
    expect(page.locator(".hg-sound.in-card")).to_be_visible()  # nobody has tapped this page yet
    css = BUTTONS[where]
    page.run("const b = document.querySelector(q.css);"
             "if (q.where === 'card') b.scrollIntoView({ block: 'center', behavior: 'instant' });"
             "else scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });",
             css=css, where=where)
    before = page.run(STILL_BOX, css=css)
    expect(page.locator(css).first).to_have_text(ui["startTimer"])
    page.locator(css).first.click()
    expect(page.locator(".hourglass")).to_have_attribute("data-phase", "running")
    if page.engine != "firefox":  # headless Firefox has no sound device: the notice stays (test_first_tap)
        expect(page.locator(".hg-sound.in-card")).to_be_hidden()
    expect(page.locator(css).first).to_have_text(ui["pause"])
    after = page.run(STILL_BOX, css=css)
    page.screenshot(f"glass-button-{where}-after-start")
    moved = {k: round(after[k] - before[k]) for k in before if abs(after[k] - before[k]) > 2}
    assert not moved, f"{where}: the button moved under the finger: {before} → {after}"
    page.tap(round(before["x"] + before["width"] / 2), round(before["y"] + before["height"] / 2))
    expect(page.locator(".hourglass")).to_have_attribute("data-phase", "paused")
    assert page.errors == []
