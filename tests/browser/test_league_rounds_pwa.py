"""A league's rounds as a director runs them on the room's screen (1280×800, #43 items 10, 11):
asked before a round is made over one still on, two players swapped before the tables are
made, "Start all", a round paired again, and two phones at a round's board that starts as
soon as both have sat down."""

from conftest import Tables
from playwright.sync_api import Error, expect

from .conftest import shot
from .test_league_pwa import PEOPLE, PROJECTOR
from .test_platform_pwa import join


def _league(live):
    return live.app.test_client().post("/api/leagues", json={"name": "Thursday club"}).get_json()


def _round(live, made, present):
    r = live.app.test_client().post(f"/api/leagues/{made['id']}/rounds",
                                    headers={"Authorization": f"Bearer {made['token']}"},
                                    json={"present": present, "options": {"draw_start": False}})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _sit(live, code, name):
    r = live.app.test_client().post(f"/api/tables/{code}/players", json={"name": name})
    assert r.status_code == 201, r.get_json()


def _room(browser, live, made):
    page = browser.new_context(**PROJECTOR).new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live.url}/league#league={made['id']}&token={made['token']}")
    expect(page.locator("body")).to_have_attribute("data-room", "online")
    return page, errors


def test_start_all_then_a_swapped_round_made_over_the_one_still_on(browser, live):
    made = _league(live)
    first, second = _round(live, made, PEOPLE[:4])["tables"]  # Anna–Bence, Csilla–Dani
    _sit(live, first["code"], "Anna")  # Bence is late
    for name in ("Zoltán", "Csilla", "Dani"):  # a third at the board: it waits for the director
        _sit(live, second["code"], name)
    page, errors = _room(browser, live, made)
    page.click("#lg-start-all")
    said = page.locator("#lg-start-said li")
    expect(said).to_have_text([f"Started: {second['code']}", f"{first['code']} waits for Bence"])
    expect(page.locator(f'.lg-table[data-code="{second["code"]}"] .lg-turn')).to_contain_text("Zoltán")
    shot(page, "league-rounds-start-all", full_page=False)

    # The next round, seen first: the Swiss pairing, then Bence and Csilla swapped by tapping.
    page.click("#lg-next summary")
    for name in PEOPLE[:4]:
        page.fill("#lg-add-name", name)
        page.press("#lg-add-name", "Enter")
    page.click("#lg-see-pairs")
    pairs = page.locator(".lg-preview-pairs li")
    expect(pairs).to_have_count(2)
    before = [t.replace("\u00a0", " ") for t in pairs.all_inner_texts()]
    assert sorted(before) == sorted(["Anna – Csilla", "Bence – Dani"]), before  # no rematch
    page.click('.lg-swap[data-name="Bence"]')
    expect(page.locator('.lg-swap[data-name="Bence"]')).to_have_attribute("aria-pressed", "true")
    page.click('.lg-swap[data-name="Csilla"]')
    expect(pairs).to_have_text(["Anna – Bence", "Csilla – Dani"])
    expect(page.locator("#lg-make-round")).to_have_text("Make the tables as shown")
    shot(page, "league-rounds-swapped", full_page=False)
    # Round 1 is still on: asked, in the page, before anything is made.
    page.click("#lg-make-round")
    question = page.locator("#lg-unfinished .confirm-q")
    expect(question).to_contain_text("Round 1 is not over")
    expect(question).to_contain_text(first["code"])
    shot(page, "league-rounds-asked", full_page=False)
    rounds = live.app.test_client().get(f"/api/leagues/{made['id']}").get_json()["rounds"]
    assert [r["no"] for r in rounds] == [1]  # nothing made yet
    page.click("#lg-over-yes")
    expect(page.locator("#lg-round h3")).to_have_text("Round 2")
    expect(page.locator(".lg-pair")).to_have_text(["Anna – Bence", "Csilla – Dani"])
    assert errors == []


def test_a_round_nobody_began_is_paired_again_and_deleted(browser, live):
    made = _league(live)
    old = _round(live, made, PEOPLE)  # five: Emese sits out
    page, errors = _room(browser, live, made)
    expect(page.locator(".lg-board")).to_have_count(2)
    page.click("#lg-repair")
    expect(page.locator("#lg-round-actions .confirm-q")).to_have_text("Pair round 1 again? Its tables close.")
    page.click("#lg-repair-yes")
    # Taken back, and "Next round" opens on its five with the new pairing to see (and swap).
    expect(page.locator("#lg-next")).to_have_attribute("open", "")
    expect(page.locator(".lg-present input:checked")).to_have_count(5)
    expect(page.locator(".lg-preview-pairs li")).to_have_count(2)
    expect(page.locator(".lg-preview-bye")).to_contain_text("Emese")
    page.click('.lg-swap[data-name="Emese"]')
    page.click('.lg-swap[data-name="Anna"]')
    expect(page.locator(".lg-preview-bye")).to_contain_text("Anna")
    page.click("#lg-make-round")
    expect(page.locator(".lg-bye")).to_contain_text("Anna")
    boards = page.locator(".lg-board")
    expect(boards).to_have_count(2)
    assert not {b.get_attribute("data-code") for b in boards.all()} & {t["code"] for t in old["tables"]}
    expect(page.locator("#lg-round h3")).to_have_text("Round 1")
    for t in old["tables"]:  # closed: off the tables playing
        expect(page.locator(f'.lg-table[data-code="{t["code"]}"]')).to_have_count(0)
    page.click("#lg-delete-round")
    page.click("#lg-delete-round-yes")
    expect(page.locator("#lg-no-round")).to_be_visible()
    expect(page.locator(".lg-table")).to_have_count(0)
    assert errors == []


def test_two_phones_at_a_rounds_board_see_it_start_when_both_sit(browser, open_page, live):
    """The first to sit is told the board starts by itself and whom it waits for, by name (it
    said "Waiting for the host to start the game", and no host was coming)."""
    made = _league(live)
    board, other = _round(live, made, PEOPLE[:4])["tables"]
    first, second = board["players"]
    anna = join(open_page, live, board["code"], first)
    expect(anna.locator("#turn")).to_have_count(0)  # gathering: one of two
    expect(anna.locator("#lobby")).to_have_text(
        f"A league board (round 1): the game starts by itself once both players sit. Waiting for {second}.")
    shot(anna, "league-rounds-board-waiting")
    a, b = other["players"]
    hungarian = join(open_page, live, other["code"], a, locale="hu-HU")
    expect(hungarian.locator("#lobby")).to_have_text(
        "Bajnoki asztal (1. forduló): a játék magától indul, amint mindkét játékos leül. "
        f"Még nem ült le: {b}.")
    bence = join(open_page, live, board["code"], second)
    expect(anna.locator("#turn")).to_have_text("Your turn")  # the first seat begins
    expect(bence.locator("#turn")).to_contain_text(first)
    expect(anna.locator("#lobby")).to_have_count(0)
    shot(bence, "league-rounds-board-started")


def _seen_pairing(browser, live, made):
    """The room's screen with the next round's pairing of five seen, once the room has read
    what it reads on opening (no drawing is then due but the one the test causes)."""
    page, errors = _room(browser, live, made)
    page.click("#lg-next summary")
    for name in PEOPLE:
        page.fill("#lg-add-name", name)
        page.press("#lg-add-name", "Enter")
    page.click("#lg-see-pairs")
    expect(page.locator(".lg-preview-pairs li")).to_have_count(2)
    # Out of the form, as in WebKit, where a tapped button takes no focus (a form with the
    # focus keeps the room from drawing anew under the director's typing).
    page.evaluate("() => document.activeElement.blur()")
    page.wait_for_load_state("networkidle")
    return page, errors


def _into_view(chip) -> None:
    """Scroll a chip into view: a drawing of the room (its socket's first word, a table moving)
    may replace it between finding and scrolling, and the new one is then scrolled."""
    for _ in range(5):
        try:
            chip.scroll_into_view_if_needed()
            return
        except Error:
            continue
    chip.scroll_into_view_if_needed()


def test_a_tap_is_not_lost_to_a_redraw_of_the_room(browser, live):
    """The room's screen is drawn again at every move of its tables: one drawn between a press
    and its release put the release on another element, and the tap was no click (a swap's chip
    in WebKit, where a pointer's press and release come apart, lost the player tapped). A
    drawing waits until the finger is up."""
    made = _league(live)
    page, errors = _seen_pairing(browser, live, made)
    chip = page.locator('.lg-swap[data-name="Emese"]')
    expect(chip).to_have_attribute("aria-pressed", "false")
    _into_view(chip)
    box = chip.bounding_box()
    # As WebKit presses a button: without focusing it (Chromium's focus on the press kept the
    # room from drawing while a form of it had the focus, which hid the loss).
    page.evaluate("() => document.addEventListener('mousedown', (e) => {"
                  " if (e.target.closest('button')) e.preventDefault(); }, true)")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # A table of the league is made meanwhile (a host's, on the start page): the room reads anew.
    with page.expect_response(lambda r: r.url.endswith("/room")):
        Tables(live.app.test_client()).create("blanko", league=made["id"])
    page.evaluate("() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
    page.mouse.up()
    expect(chip).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".lg-table")).to_have_count(1)  # and drawn once the finger was up
    assert errors == []


def test_the_rooms_columns_keep_their_scroll_when_the_room_is_drawn_anew(browser, live):
    """A column the director scrolled (the next round's pairing, below its options) jumped back
    to its top at every move of the league's tables, and the tap aimed at a player's chip
    landed on the name box above it (WebKit, between scrolling and tapping)."""
    made = _league(live)
    page, errors = _seen_pairing(browser, live, made)
    chip = page.locator('.lg-swap[data-name="Emese"]')
    _into_view(chip)
    column = page.locator(".lg-room > .lg-col").nth(1)
    scrolled = column.evaluate("(c) => c.scrollTop")
    assert scrolled > 0  # the pairing is below the fold on 1280×800
    chip.evaluate("(b) => { b.dataset.drawn = 'before'; }")
    Tables(live.app.test_client()).create("blanko", league=made["id"])  # the room reads anew
    expect(page.locator(".lg-table")).to_have_count(1)
    expect(chip).not_to_have_attribute("data-drawn", "before")  # drawn anew
    assert column.evaluate("(c) => c.scrollTop") == scrolled
    assert errors == []
