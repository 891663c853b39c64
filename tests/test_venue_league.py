"""A league's round at a venue's named tables (issue 44 item 7): each board is bound to a free
physical table, so its tent opens that board's game, and the room's screen says where to sit.
Anything wrong about the venue is refused before anything is made."""

import pytest
from test_league_api import PEOPLE, Club, made_tables
from test_venue_api import Cafe, error


def round_at(client, club, cafe, present=PEOPLE, token=None, **extra):
    return client.post(f"/api/leagues/{club.id}/rounds", headers=club.auth(),
                       json={"present": list(present), "options": {"draw_start": False},
                             "venue": {"id": cafe.id, "token": token or cafe.token}, **extra})


def test_a_rounds_boards_are_played_at_the_venues_free_tables(client, tables, clock):
    club, cafe = Club(client, tables, clock), Cafe(client, tables=["1", "2", "Window"])
    made = round_at(client, club, cafe)
    assert made.status_code == 201, made.get_json()
    boards = made.get_json()["tables"]
    assert [b["place"] for b in boards] == ["1", "2"]  # the venue's order
    for b in boards:  # the tent at the board's place opens the board's game
        assert cafe.look(b["place"]).get_json()["code"] == b["code"]
        assert cafe.join(b["code"], b["players"][0], b["place"]).status_code == 201
    room = client.get(f"/api/leagues/{club.id}/room", headers=club.auth()).get_json()
    placed = [(b["code"], b["place"]) for b in boards]
    assert [(t["code"], t["place"]) for t in room["round"]["tables"]] == placed
    staff = cafe.board()
    assert staff["1"]["code"] == boards[0]["code"] and staff["Window"]["code"] is None


def test_the_organiser_names_the_tables_and_busy_ones_are_passed_over(client, tables, clock):
    club, cafe = Club(client, tables, clock), Cafe(client, tables=["1", "2", "Window"])
    cafe.started("Window")  # a guest's game is going there
    made = round_at(client, club, cafe, tables=["window", "2", "1"])
    assert made.status_code == 201, made.get_json()
    assert [b["place"] for b in made.get_json()["tables"]] == ["2", "1"]


def test_without_a_venue_a_board_has_no_place(client, tables, clock):
    club = Club(client, tables, clock)
    made = club.round(list(PEOPLE))
    assert all("place" not in b for b in made["tables"])


@pytest.mark.parametrize("change, status, code", [
    ({"tables": ["1"]}, 409, "venue/no_free_table"),  # two boards, one table named
    ({"tables": ["1", "9"]}, 404, "venue/unknown"),
    ({"tables": ["1", "1"]}, 400, "venue/same_label"),
    ({"tables": "1,2"}, 400, "venue/bad_tables"),
    ({"venue": "cafe"}, 400, "venue/bad_venue"),
    ({"venue": {"id": "vnothere", "token": "x"}}, 404, "venue/unknown"),
    ({"token": "made-up"}, 403, "venue/not_staff"),
    ({"venue": {"id": "{cafe}"}}, 401, "auth/missing_token"),
])
def test_a_bad_venue_makes_no_round(client, tables, clock, change, status, code):
    club, cafe = Club(client, tables, clock), Cafe(client, tables=["1", "2"])
    before = made_tables(client.application)
    extra = dict(change)
    if isinstance(extra.get("venue"), dict) and extra["venue"].get("id") == "{cafe}":
        extra["venue"] = {"id": cafe.id}
    r = round_at(client, club, cafe, **extra)
    assert error(r) == (status, code), r.get_json()
    assert made_tables(client.application) == before
    assert client.get(f"/api/leagues/{club.id}").get_json()["rounds"] == []
    assert all(t["code"] is None for t in cafe.board().values())


def test_a_round_needs_as_many_free_tables_as_boards(client, tables, clock):
    club, cafe = Club(client, tables, clock), Cafe(client, tables=["1", "2"])
    cafe.started("2")
    r = round_at(client, club, cafe)
    assert error(r) == (409, "venue/no_free_table")
    assert client.get(f"/api/leagues/{club.id}").get_json()["rounds"] == []
