"""A join whose answer is lost on the way (#35 item 5): the server made the seat, the phone
saw a network error; the player taps Join again and sits in that seat, not refused as a
look-alike of themselves."""

from __future__ import annotations

from playwright.sync_api import expect


def test_a_join_whose_answer_was_lost_is_seated_on_the_next_tap(open_page, live, live_tables):
    code = live_tables.create("rankfile")["code"]
    page = open_page(f"{live.url}/t/{code}")
    lost = []

    def lose_the_first_answer(route):
        if not lost:
            route.fetch()  # the server makes the seat...
            lost.append(True)
            route.abort("connectionreset")  # ...and its answer never reaches the phone
        else:
            route.continue_()

    page.route(f"**/api/tables/{code}/players", lose_the_first_answer)
    page.get_by_label("Your name").fill("Anna")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("button", name="Join")).to_be_enabled()
    assert lost
    page.get_by_role("button", name="Join").click()
    expect(page.locator("#my-name")).to_have_text("Anna")
    assert live_tables.client.get(f"/api/tables/{code}").get_json()["players"] == ["Anna"]
    assert page.errors == []
