"""A league's round at a venue's tables (issue 44 item 7), on the room's screen: each board
says which table to go to, the label its tent shows."""

from playwright.sync_api import expect

from .conftest import shot
from .test_league_pwa import PROJECTOR, club  # noqa: F401 - the fixture


def test_the_rooms_boards_say_which_table_to_go_to(browser, club):  # noqa: F811 - the fixture
    live, app, _clock = club
    client = app.test_client()
    league = client.post("/api/leagues", json={"name": "Thursday club"}).get_json()
    cafe = client.post("/api/venues", json={"name": "Kockás Café",
                                            "tables": ["1", "Window", "Terrace 2"]}).get_json()
    r = client.post(f"/api/leagues/{league['id']}/rounds",
                    headers={"Authorization": f"Bearer {league['token']}"},
                    json={"present": ["Anna", "Bence", "Csilla", "Dani"], "options": {"draw_start": False},
                          "venue": {"id": cafe["id"], "token": cafe["token"]},
                          "tables": ["Terrace 2", "Window"]})
    assert r.status_code == 201, r.get_json()
    page = browser.new_page(**PROJECTOR)
    page.goto(f"{live.url}/league#league={league['id']}&token={league['token']}")
    expect(page.locator(".lg-board .lg-place")).to_have_text(["Table Terrace 2", "Table Window"])
    shot(page, "league-round-at-venue-tables", full_page=False)
    page.close()
