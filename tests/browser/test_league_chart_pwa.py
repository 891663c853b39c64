"""#43 item 13: the rating chart drew only 10 of 16 players (a 10-colour palette), equal lines
lay one over another, its axis labels were ~8 px on a projector, and it appeared only from the
second evening. Now every player has a line named where it ends (labels kept apart, no legend
to match), every word of it is at least 16 px on the 1280×800 projector, and a club's first
evening is charted game by game."""

from conftest import Tables
from playwright.sync_api import expect

from . import test_league_pwa as league
from .conftest import shot
from .test_league_pwa import PEOPLE, PROJECTOR, _club_nights, _finish, _fits

club = league.club  # the fixture: a server whose clock the test moves

# What the chart drew, as the screen shows it: each text's size in screen pixels (its font
# size times the drawing's scale), each label's box, each line's colour.
MEASURED = """() => {
  const chart = document.querySelector('#lg-chart');
  const svg = chart?.querySelector('svg');
  if (!svg) return null;  // the room drawn anew: its chart is drawn once laid out
  const scale = svg.getScreenCTM().a;
  const px = (e) => parseFloat(getComputedStyle(e).fontSize) * (e instanceof SVGElement ? scale : 1);
  return {
    sizes: [...chart.querySelectorAll('text, figcaption')].map((e) => [e.textContent, px(e)]),
    labels: [...chart.querySelectorAll('.lg-label')].map((e) => {
      const r = e.getBoundingClientRect();
      return { name: e.textContent, x: r.x, y: r.y, w: r.width, h: r.height };
    }),
    lines: [...chart.querySelectorAll('.lg-line')].map((g) => ({
      name: g.dataset.name, colour: g.querySelector('circle').getAttribute('fill'),
      // a line of one game is its end's dot
      points: g.querySelector('polyline')?.getAttribute('points').split(' ').length || 1 })),
    box: svg.getBoundingClientRect().toJSON(),
  };
}"""


def _overlaps(a, b) -> bool:
    return (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


def _check(drawn, names):
    small = [(text, size) for text, size in drawn["sizes"] if size < 16]
    assert not small, f"text under 16 px: {small}"
    assert sorted(label["name"] for label in drawn["labels"]) == sorted(names)
    assert sorted(line["name"] for line in drawn["lines"]) == sorted(names)
    labels = drawn["labels"]
    crowded = [(a["name"], b["name"]) for i, a in enumerate(labels) for b in labels[i + 1:]
               if _overlaps(a, b)]
    assert not crowded, f"labels over one another: {crowded}"
    box = drawn["box"]
    for label in labels:  # inside the chart, not cut off at its edge
        assert box["x"] <= label["x"] and label["x"] + label["w"] <= box["x"] + box["width"] + 0.5, label
        assert box["y"] <= label["y"] and label["y"] + label["h"] <= box["y"] + box["height"] + 0.5, label


def test_sixteen_players_each_have_a_named_line_at_projector_size(browser, club):
    live, app, clock = club
    people = [f"Player {n:02d}" for n in range(16)]
    made, _rnd, _playing, _seats = _club_nights(app, clock, people)
    page = browser.new_page(**PROJECTOR)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live.url}/league#league={made['id']}&token={made['token']}")
    expect(page.locator("#lg-chart .lg-label")).to_have_count(16)
    drawn = page.wait_for_function(MEASURED).json_value()
    _check(drawn, people)
    assert len(drawn["lines"]) == 16 and all(line["points"] == 2 for line in drawn["lines"])  # two evenings
    assert len({line["colour"] for line in drawn["lines"]}) == 16
    shot(page, "league-chart-sixteen", full_page=False)
    _fits(page)
    assert errors == []
    page.close()


def test_the_first_evening_is_charted_game_by_game(browser, club):
    live, app, clock = club
    client, tables = app.test_client(), Tables(app.test_client())
    made = client.post("/api/leagues", json={"name": "Thursday club"}).get_json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    rnd = client.post(f"/api/leagues/{made['id']}/rounds", headers=auth,
                      json={"present": PEOPLE[:4], "options": {"draw_start": False}}).get_json()
    for table in rnd["tables"]:
        _finish(tables, table, {n: tables.join(table["code"], n) for n in table["players"]})
        clock.advance(30 * 60_000)
    for locale, caption in (("en-GB", "Ratings game by game"), ("hu-HU", "Értékszámok játszmáról játszmára")):
        ctx = browser.new_context(**PROJECTOR, locale=locale)
        page = ctx.new_page()
        page.goto(f"{live.url}/league#league={made['id']}&token={made['token']}")
        expect(page.locator("#lg-chart figcaption")).to_have_text(caption)
        expect(page.locator("#lg-chart .lg-label")).to_have_count(4)
        drawn = page.wait_for_function(MEASURED).json_value()
        _check(drawn, PEOPLE[:4])
        # The first table's pair from the first game on, the second's from the second.
        assert sorted(line["points"] for line in drawn["lines"]) == [1, 1, 2, 2]
        shot(page, f"league-chart-first-evening-{locale}", full_page=False)
        ctx.close()


def test_a_phone_shows_every_line_named(browser, club):
    live, app, clock = club
    made, _rnd, _playing, _seats = _club_nights(app, clock)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(f"{live.url}/league#league={made['id']}")
    expect(page.locator("#lg-chart .lg-label")).to_have_count(4)  # Emese has had only a bye
    drawn = page.wait_for_function(MEASURED).json_value()
    _check(drawn, PEOPLE[:4])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "league-chart-phone")
    ctx.close()
