"""A phone on the table all evening: its script draws no animation frames, not even while sand
runs (the browser moves the sand), and the sand stops for everyone once the game is decided
(no "Time is up!" after the end)."""

from playwright.sync_api import expect

# Counts the animation frames the page draws, and the alarm's vibrations.
COUNTERS = """
window.__frames = 0;
window.__buzzes = 0;
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => raf((t) => { window.__frames += 1; cb(t); });
navigator.vibrate = () => { window.__buzzes += 1; return true; };
"""


def frames_over(page, ms: int = 3000) -> int:
    before = page.evaluate("window.__frames")
    page.wait_for_timeout(ms)
    return page.evaluate("window.__frames") - before


def moving(page) -> int:
    """How many of the page's script-made animations are playing (the sand's and the bar's;
    CSS's own, such as the stream's fading in, are not counted)."""
    return page.evaluate("document.getAnimations()"
                         ".filter(a => a.constructor === Animation && a.playState === 'running').length")


def joined(open_page, live, code: str, name: str):
    page = open_page(f"{live.url}/t/{code}", init_script=COUNTERS)
    page.fill("#name", name)
    page.click("#join")
    expect(page.locator("#status")).to_have_attribute("data-status", "online")
    return page


def test_a_still_glass_draws_no_frames(open_page, live, live_tables):
    t = live_tables.create()
    code, host = t["code"], t["host_token"]
    page = joined(open_page, live, code, "Anna")
    expect(page.locator(".hourglass")).to_have_attribute("data-phase", "ready")
    assert frames_over(page) == 0
    live_tables.ok(code, host, "timer.start", seconds=60)
    expect(page.locator(".hourglass")).to_have_attribute("data-phase", "running")
    assert moving(page) == 3  # the browser moves the sand and the bar
    assert frames_over(page) == 0  # and the page's script draws no frames for it
    live_tables.ok(code, host, "timer.pause")
    expect(page.locator(".hourglass")).to_have_attribute("data-phase", "paused")
    page.wait_for_timeout(200)
    assert frames_over(page) == 0
    assert moving(page) == 0
    live_tables.ok(code, host, "timer.start", seconds=1)
    expect(page.locator(".hourglass")).to_have_attribute("data-phase", "done")
    assert frames_over(page) == 0
    assert page.evaluate("window.__buzzes") == 1
    assert page.errors == []


def test_the_sand_stops_when_the_host_ends_the_game(open_page, live, live_tables):
    t = live_tables.create()
    code, host = t["code"], t["host_token"]
    phones = [joined(open_page, live, code, name) for name in ("Anna", "Bela")]
    live_tables.ok(code, host, "table.start_game")
    live_tables.ok(code, host, "timer.start", seconds=3)
    for page in phones:
        expect(page.locator(".hourglass")).to_have_attribute("data-phase", "running")
    live_tables.ok(code, host, "table.end_game")
    for page in phones:
        expect(page.locator(".hourglass")).to_have_attribute("data-phase", "stopped")
        expect(page.locator(".hg-buttons button")).to_have_count(0)
        expect(page.locator("#hg-bar")).to_be_hidden()
    phones[0].wait_for_timeout(3500)  # past the moment the sand would have run out
    for page in phones:
        expect(page.locator(".hourglass")).to_have_attribute("data-phase", "stopped")
        expect(page.locator(".hg-status")).to_have_text("")
        assert page.evaluate("window.__buzzes") == 0
        assert frames_over(page, 1000) == 0
        assert page.errors == []
