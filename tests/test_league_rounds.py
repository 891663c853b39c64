"""A league's rounds as a director runs them (#43 items 10 and 11): asked before a round is
made over one still being played, a round nobody has started deleted (or paired again), two
players swapped by hand before the tables are made, and a round's tables started as soon as
their two players sit (or all at once from the room's screen). On SQLite and PostgreSQL, but
for the refusals of bad input, which no database reaches."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import json_values, texts
from test_league_api import PEOPLE, Club, made_tables

FIVE = [*PEOPLE, "Emese"]


def make(club, present, **body):
    return club.client.post(f"/api/leagues/{club.id}/rounds", headers=club.auth(),
                            json={"present": present, "options": {"draw_start": False}, **body})


def error(r):
    return r.status_code, r.get_json()["error"]["code"]


def status(club, code):
    return club.client.get(f"/api/tables/{code}").get_json()["status"]


def sit(club, code, name):
    r = club.client.post(f"/api/tables/{code}/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def history(club, code, token):
    r = club.client.get(f"/api/tables/{code}/history", headers={"Authorization": f"Bearer {token}"})
    return [(e["actor"], e["event"]["type"]) for e in r.get_json()["events"]]


# -- item 10: a round over an unfinished one is asked for --------------------------------------

@pytest.mark.both_backends
def test_a_round_over_one_still_on_is_asked_for_and_made_only_when_the_director_says(client, tables, clock):
    club = Club(client, tables, clock)
    first = club.round(list(PEOPLE))
    boards = sorted(t["code"] for t in first["tables"])
    before = made_tables(client.application)
    r = make(club, list(PEOPLE))
    assert error(r) == (409, "league/round_unfinished")
    assert r.get_json()["error"]["params"] == {"round": 1, "tables": boards}
    assert all(code in r.get_json()["error"]["message"] for code in boards)
    assert made_tables(client.application) == before  # nothing was made
    # One board played, the other still gathering: only that one is named.
    done, idle = first["tables"]
    club.play(done["code"], done["host_token"], *done["players"])
    r = make(club, list(PEOPLE))
    assert error(r) == (409, "league/round_unfinished")
    assert r.get_json()["error"]["params"]["tables"] == [idle["code"]]
    # The director says so: made over it.
    r = make(club, list(PEOPLE), over_unfinished=True)
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["round"] == 2


@pytest.mark.both_backends
def test_a_round_after_one_whose_boards_are_all_over_is_made_without_asking(client, tables, clock):
    club = Club(client, tables, clock)
    first = club.round(list(PEOPLE))
    club.play(first["tables"][0]["code"], first["tables"][0]["host_token"], *first["tables"][0]["players"])
    r = client.post(f"/api/leagues/{club.id}/tables/{first['tables'][1]['code']}/close",
                    headers=club.auth(), json={})
    assert r.status_code == 200  # nobody came to the second board: closed, it is over
    assert make(club, list(PEOPLE)).status_code == 201


@pytest.mark.parametrize("flag", ["yes", 1, None, [], {}])
def test_over_unfinished_is_true_or_false(client, tables, clock, flag):
    club = Club(client, tables, clock)
    club.round(list(PEOPLE))
    assert error(make(club, list(PEOPLE), over_unfinished=flag)) == (400, "league/bad_over_unfinished")
    assert error(make(club, list(PEOPLE), over_unfinished=False)) == (409, "league/round_unfinished")


# -- item 10: deleting (and so pairing again) a round nobody has started ------------------------

@pytest.mark.both_backends
def test_the_latest_round_nobody_began_is_deleted_its_tables_closed_and_its_bye_undone(client, tables, clock):
    club = Club(client, tables, clock)
    first = club.round(FIVE)
    assert first["bye"] == "Emese"
    sit(club, first["tables"][0]["code"], "Anna")  # sat down, but no game begun
    r = client.delete(f"/api/leagues/{club.id}/rounds/1", headers=club.auth())
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["deleted"] == 1
    assert r.get_json()["closed"] == sorted(t["code"] for t in first["tables"])
    for t in first["tables"]:
        assert status(club, t["code"]) == "ended"
    doc = club.standings()
    assert doc["rounds"] == [] and doc["standings"] == []  # Emese's bye undone
    # Its pairs no longer met: the same round again, numbered 1 again.
    again = club.round(FIVE)
    assert (again["round"], again["pairs"], again["bye"]) == (1, first["pairs"], "Emese")
    room = client.get(f"/api/leagues/{club.id}/room", headers=club.auth()).get_json()
    assert {t["code"] for t in room["tables"]} == {t["code"] for t in again["tables"]}


@pytest.mark.both_backends
def test_pairing_a_round_again_meets_the_same_people_anew_after_a_swap(client, tables, clock):
    """Paired again = deleted and made again (docs/league.md): the first pairing's pairs do not
    keep the second from meeting them."""
    club = Club(client, tables, clock)
    club.round(list(PEOPLE))
    assert client.delete(f"/api/leagues/{club.id}/rounds/1", headers=club.auth()).status_code == 200
    r = make(club, list(PEOPLE), pairs=[["Anna", "Bence"], ["Csilla", "Dani"]])
    assert r.status_code == 201, r.get_json()


@pytest.mark.both_backends
def test_a_round_with_a_game_begun_is_not_deleted(client, tables, clock):
    club = Club(client, tables, clock)
    first = club.round(list(PEOPLE))
    playing = first["tables"][1]
    for name in playing["players"]:
        sit(club, playing["code"], name)  # both sit: it starts by itself
    r = client.delete(f"/api/leagues/{club.id}/rounds/1", headers=club.auth())
    assert error(r) == (409, "league/round_started")
    assert r.get_json()["error"]["params"] == {"round": 1, "tables": [playing["code"]]}
    assert [rnd["no"] for rnd in club.standings()["rounds"]] == [1]
    assert status(club, first["tables"][0]["code"]) == "lobby"  # nothing was closed


@pytest.mark.both_backends
def test_only_the_latest_round_is_deleted_and_only_by_the_organiser(client, tables, clock):
    club = Club(client, tables, clock)
    other = Club(client, tables, clock, name="Friday club")
    first = club.round(list(PEOPLE))
    for t in first["tables"]:
        club.play(t["code"], t["host_token"], *t["players"])
    club.round(list(PEOPLE))
    url = f"/api/leagues/{club.id}/rounds/{{}}"
    for headers in ({}, other.auth(), club.auth("made-up")):
        assert error(client.delete(url.format(2), headers=headers, json={})) == (401, "auth/bad_token")
    assert error(client.delete(url.format(1), headers=club.auth())) == (409, "league/round_not_latest")
    for no in (3, 0, 99999999999999999999):
        assert error(client.delete(url.format(no), headers=club.auth())) == (404, "league/unknown_round")
    assert client.delete(url.format("two"), headers=club.auth()).status_code == 404
    assert error(client.delete("/api/leagues/lnope/rounds/1", headers=club.auth())) == (404, "league/unknown")
    assert [rnd["no"] for rnd in club.standings()["rounds"]] == [1, 2]


# -- item 10: two players swapped by hand before the tables are made -----------------------------

@pytest.mark.both_backends
def test_the_director_swaps_two_players_and_the_round_is_made_as_edited(client, tables, clock):
    club = Club(client, tables, clock)
    preview = club.pairings(FIVE).get_json()
    assert preview == {"pairs": [["Anna", "Bence"], ["Csilla", "Dani"]], "bye": "Emese"}
    # Bence and Emese swapped: Emese plays Anna, Bence sits out. Names read as the roster reads them.
    r = make(club, FIVE, pairs=[["anna", "Emese"], ["Csilla", "Dani\u200b"]], bye=" Bence ")
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    assert (made["pairs"], made["bye"]) == ([["Anna", "Emese"], ["Csilla", "Dani"]], "Bence")
    assert [t["players"] for t in made["tables"]] == [["Anna", "Emese"], ["Csilla", "Dani"]]
    assert club.rows() == {"Bence": (1, 1, 1)}
    for t in made["tables"]:
        club.play(t["code"], t["host_token"], *t["players"])
    # The hand-made pairs have met: the next pairing keeps them apart.
    nxt = club.pairings(FIVE).get_json()
    met = {frozenset(("Anna", "Emese")), frozenset(("Csilla", "Dani"))}
    assert not {frozenset(p) for p in nxt["pairs"]} & met


@pytest.mark.parametrize("present, pairs, bye, code", [
    (PEOPLE, "Anna-Bence", None, "league/bad_pairs"),
    (PEOPLE, [["Anna", "Bence", "Csilla"], ["Dani"]], None, "league/bad_pairs"),
    (PEOPLE, [["Anna", "Bence"], ["Csilla", 4]], None, "league/bad_pairs"),
    (PEOPLE, [["Anna", "Bence"], ["Csilla", "D" * 25]], None, "league/bad_pairs"),
    (PEOPLE, [["Anna", "Bence"], ["Csilla", "\u200b"]], None, "league/bad_pairs"),
    (PEOPLE, [], None, "league/bad_pairs"),
    (PEOPLE, [["Anna", "Bence"]], ["Csilla"], "league/bad_pairs"),
    (FIVE, None, "Emese", "league/bad_pairs"),
    (PEOPLE, [["Anna", "Bence"], ["Csilla", "Emese"]], None, "league/pairs_not_present"),
    (PEOPLE, [["Anna", "Bence"], ["Csilla", "anna"]], None, "league/pairs_not_present"),
    (PEOPLE, [["Anna", "Bence"]], None, "league/pairs_not_present"),
    (PEOPLE, [["Anna", "Bence"], ["Csilla", "Dani"]], "Dani", "league/bad_bye"),
    (PEOPLE, [["Anna", "Bence"]], "Csilla", "league/bad_bye"),
    (FIVE, [["Anna", "Bence"], ["Csilla", "Dani"]], None, "league/bad_bye"),
    (FIVE, [["Anna", "Bence"], ["Csilla", "Dani"]], "Anna", "league/pairs_not_present"),
    (FIVE, [["Anna", "Bence"], ["Csilla", "Emese"]], "Zoltán", "league/pairs_not_present"),
])
def test_hand_made_pairs_that_do_not_seat_everyone_present_once_are_refused(
        client, tables, clock, present, pairs, bye, code):
    club = Club(client, tables, clock)
    edited = {"bye": bye} if pairs is None else {"pairs": pairs, "bye": bye}
    assert error(make(club, list(present), **edited)) == (400, code)
    assert made_tables(client.application) == set() and club.standings()["rounds"] == []


@pytest.mark.both_backends
def test_a_withdrawn_player_is_paired_by_hand_no_more_than_by_the_system(client, tables, clock):
    club = Club(client, tables, clock)
    t = tables.create("blanko", draw_start=False, league=club.id)
    club.play(t["code"], t["host_token"], "Anna", "Bence")
    assert club.change("withdraw", player="Bence").status_code == 200
    r = make(club, ["Anna", "Bence", "Csilla", "Dani"], pairs=[["Anna", "Bence"], ["Csilla", "Dani"]])
    assert error(r) == (400, "league/withdrawn")


hand_bodies = st.fixed_dictionaries({"present": st.just(list(PEOPLE))}, optional={
    "pairs": st.lists(st.lists(st.sampled_from(FIVE) | texts | json_values, max_size=3), max_size=3)
    | json_values,
    "bye": st.sampled_from(FIVE) | texts | json_values,
    "over_unfinished": json_values})


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sent=hand_bodies)
def test_any_hand_made_round_is_made_or_a_clear_4xx(client, tables, clock, sent):
    clock.advance(120_000)  # a league per example: let the creation limit refill
    club = Club(client, tables, clock)
    r = client.post(f"/api/leagues/{club.id}/rounds", headers=club.auth(),
                    data=json.dumps(sent), content_type="application/json")
    assert r.status_code in (201, 400), (sent, r.get_json())
    assert r.status_code == 201 or r.get_json()["error"]["code"].startswith(("league/", "http/"))


# -- item 11: a round's table starts when both its players sit, or all at once ------------------

@pytest.mark.both_backends
def test_a_rounds_table_starts_by_itself_once_both_its_players_sit(client, tables, clock):
    club = Club(client, tables, clock)
    board = club.round(list(PEOPLE))["tables"][0]
    assert board["players"] == ["Anna", "Bence"]
    sit(club, board["code"], "Anna")
    assert status(club, board["code"]) == "lobby"
    sit(club, board["code"], "bence")  # Bence as the league reads names
    assert status(club, board["code"]) == "playing"
    # Through the host's own command: in the table's log, as the host's start would be.
    assert ("host", "GameStarted") in history(club, board["code"], board["host_token"])
    r = tables.command(board["code"], board["host_token"], "table.start_game")
    assert error(r) == (409, "table/already_started")


@pytest.mark.both_backends
def test_a_renamed_player_sitting_under_their_old_name_starts_their_table(client, tables, clock):
    club = Club(client, tables, clock)
    t = tables.create("blanko", draw_start=False, league=club.id)
    club.play(t["code"], t["host_token"], "Dani", "Bence")
    assert club.change("rename", player="Dani", name="Daniella").status_code == 200
    board = club.round(["Daniella", "Bence"])["tables"][0]
    sit(club, board["code"], "Bence")
    sit(club, board["code"], "Dani")
    assert status(club, board["code"]) == "playing"


@pytest.mark.both_backends
def test_a_table_that_is_not_a_rounds_board_waits_for_its_host(client, tables, clock):
    club = Club(client, tables, clock)
    own = tables.create("blanko", league=club.id)
    elsewhere = tables.create("blanko")
    for t in (own, elsewhere):
        sit(club, t["code"], "Anna")
        sit(club, t["code"], "Bence")
        assert status(club, t["code"]) == "lobby"


@pytest.mark.both_backends
def test_someone_else_at_a_board_keeps_it_for_the_director(client, tables, clock):
    """Only its two players start a board by themselves: a stranger sat with them (or instead
    of one) waits for the director, who sees who sits where on the room's screen."""
    club = Club(client, tables, clock)
    first, second = club.round(list(PEOPLE))["tables"]
    for name in ("Anna", "Zoltán", "Bence"):
        sit(club, first["code"], name)
    sit(club, second["code"], "Csilla")
    sit(club, second["code"], "Zoltán")
    assert status(club, first["code"]) == status(club, second["code"]) == "lobby"


@pytest.mark.both_backends
def test_start_all_starts_every_board_where_its_two_players_sit(client, tables, clock):
    club = Club(client, tables, clock)
    made = club.round(["P1", "P2", "P3", "P4", "P5", "P6", "P7"])
    one, two, three = made["tables"]
    for name in ("Zoltán", *one["players"]):  # both and a third: left for the director
        sit(club, one["code"], name)
    sit(club, two["code"], two["players"][0])  # one of two
    url = f"/api/leagues/{club.id}/rounds/1/start"
    r = client.post(url, headers=club.auth(), json={})
    assert r.status_code == 200, r.get_json()
    assert r.get_json() == {"round": 1, "started": [one["code"]], "refused": [], "waiting": [
        {"table": two["code"], "for": [two["players"][1]]},
        {"table": three["code"], "for": three["players"]}]}
    assert status(club, one["code"]) == "playing"
    assert ("host", "GameStarted") in history(club, one["code"], one["host_token"])
    sit(club, two["code"], two["players"][1])  # and it starts by itself
    r = client.post(url, headers=club.auth(), json={})
    assert r.get_json() == {"round": 1, "started": [], "refused": [], "waiting": [
        {"table": three["code"], "for": three["players"]}]}


@pytest.mark.both_backends
def test_start_all_is_the_organisers_for_a_round_of_the_league(client, tables, clock):
    club = Club(client, tables, clock)
    other = Club(client, tables, clock, name="Friday club")
    club.round(list(PEOPLE))
    for headers in ({}, other.auth(), club.auth("made-up")):
        r = client.post(f"/api/leagues/{club.id}/rounds/1/start", headers=headers, json={})
        assert error(r) == (401, "auth/bad_token")
    for no in (2, 0):
        r = client.post(f"/api/leagues/{club.id}/rounds/{no}/start", headers=club.auth(), json={})
        assert error(r) == (404, "league/unknown_round")


@pytest.mark.both_backends
def test_the_room_says_which_boards_have_begun(client, tables, clock):
    club = Club(client, tables, clock)
    first, second = club.round(list(PEOPLE))["tables"]
    for name in first["players"]:
        sit(club, first["code"], name)
    room = client.get(f"/api/leagues/{club.id}/room", headers=club.auth()).get_json()
    assert [(t["code"], t["started"]) for t in room["round"]["tables"]] == [
        (first["code"], True), (second["code"], False)]


def state(club, code, token):
    r = club.client.get(f"/api/tables/{code}/state", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["state"]


def test_a_phone_at_a_gathering_board_is_told_whom_it_waits_for_by_name(client, tables, clock):
    """The phone said "waiting for the host" at a board that needs no host: it is told, as data,
    that the table is a round's board and whom it still waits for (the words are the phone's)."""
    club = Club(client, tables, clock)
    board = club.round(list(PEOPLE))["tables"][0]
    host = board["host_token"]
    assert state(club, board["code"], host)["board"] == {"round": 1, "waiting_for": ["Anna", "Bence"]}
    anna = sit(club, board["code"], "anna")  # Anna as the league reads names
    assert state(club, board["code"], anna["token"])["board"] == {"round": 1, "waiting_for": ["Bence"]}
    zoltan = sit(club, board["code"], "Zoltán")  # a stranger sat there is not whom it waits for
    assert state(club, board["code"], zoltan["token"])["board"] == {"round": 1, "waiting_for": ["Bence"]}


def test_a_table_that_is_no_board_or_has_begun_tells_of_no_board(client, tables, clock):
    club = Club(client, tables, clock)
    own, elsewhere = tables.create("blanko", league=club.id), tables.create("blanko")
    for t in (own, elsewhere):
        assert state(club, t["code"], t["host_token"])["board"] is None
    board = club.round(list(PEOPLE))["tables"][0]
    sit(club, board["code"], "Anna")
    bence = sit(club, board["code"], "Bence")
    assert state(club, board["code"], bence["token"])["board"] is None  # begun: nobody is waited for
