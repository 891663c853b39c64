"""Who is who in a league (#43): in a club the name is the person, and the director keeps the
roster. Names that differ only in case, invisible characters or look-alike letters are one
player; a phone never makes two names one player, and a new phone under a known name is that
player (the room's screen tells the director). The director renames, merges, withdraws and
brings back players; the exports name people as the league does."""

import pytest
from test_league_api import WEEK, Club, identity, made_tables

from companion.record.exports import from_csv

CYRILLIC_ANNA = "\u0410nna"  # А is Cyrillic
KIMS_PHONE = "kims-own-phone-identity-key"


def test_a_newcomers_bye_and_his_games_are_one_player(client, tables, clock):
    """Ann, Bob and Cy, all new: Cy's bye and the game he then plays from his phone were two
    rows, "Cy 1 game 1 win 1 bye" and "Cy 1 game 0 wins"."""
    club = Club(client, tables, clock)
    first = club.round(["Ann", "Bob", "Cy"])
    assert first["bye"] == "Cy"
    board = first["tables"][0]
    club.play(board["code"], board["host_token"], "Ann", "Bob")
    second = club.round(["Ann", "Bob", "Cy"])
    assert second["bye"] == "Bob" and second["pairs"] == [["Ann", "Cy"]]
    board = second["tables"][0]
    club.play(board["code"], board["host_token"], "Ann", "Cy")  # Cy on his phone
    assert club.rows() == {"Ann": (2, 2, 0), "Bob": (2, 1, 1), "Cy": (2, 1, 1)}
    # Both have had their bye: it is Ann's turn to sit out.
    assert club.pairings(["Ann", "Bob", "Cy"]).get_json()["bye"] == "Ann"


def test_a_bye_in_a_nine_player_swiss_counts_for_its_player(client, tables, clock):
    """P09's bye and his win from his phone were two rows, and the bye was not counted in his
    later pairings: he sat out again."""
    club = Club(client, tables, clock)
    people = [f"P{n:02d}" for n in range(1, 10)]
    first = club.round(people)
    assert first["bye"] == "P09"
    for t in first["tables"]:
        club.play(t["code"], t["host_token"], *t["players"])
    clock.advance(WEEK)
    second = club.round(people)
    assert second["bye"] != "P09"
    for t in second["tables"]:
        a, b = t["players"]
        winner = "P09" if "P09" in t["players"] else a
        club.play(t["code"], t["host_token"], winner, b if winner == a else a)
    standings = club.standings()["standings"]
    assert [r["name"] for r in standings].count("P09") == 1
    p09 = next(r for r in standings if r["name"] == "P09")
    assert (p09["games"], p09["wins"], p09["byes"]) == (2, 2, 1)
    assert all(r["rank"] > p09["rank"] for r in standings if r["wins"] < 2)
    third = club.pairings(people).get_json()
    assert third["bye"] not in ("P09", first["bye"], second["bye"])


def test_a_borrowed_phone_does_not_make_two_people_one(client, tables, clock):
    """Kim loses to Bob on her phone; Lee plays on Kim's phone and beats Ray: Kim's row was
    gone, "Lee: 2 games, 1 win" stood instead."""
    club = Club(client, tables, clock)
    club.game("Bob", "Kim", phones={"Kim": KIMS_PHONE})
    club.game("Lee", "Ray", phones={"Lee": KIMS_PHONE})
    assert club.rows() == {"Bob": (1, 1, 0), "Kim": (1, 0, 0), "Lee": (1, 1, 0), "Ray": (1, 0, 0)}
    # One phone, two seats at one table: two people, not one rated against itself.
    club.game("Kim2", "Kim", phones={"Kim": KIMS_PHONE, "Kim2": KIMS_PHONE})
    rows = club.rows()
    assert rows["Kim"] == (2, 0, 0) and rows["Kim2"] == (1, 1, 0)


def test_a_known_name_on_a_new_phone_is_that_person_and_the_director_is_told(client, tables, clock):
    """Anna on a new phone was shut out of her own name (409 league/name_taken)."""
    club = Club(client, tables, clock)
    club.game("Anna", "Bence")
    t = tables.create("blanko", draw_start=False, league=club.id)
    r = client.post(f"/api/tables/{t['code']}/players",
                    json={"name": "Anna", "identity": "annas-new-phone-1234"})
    assert r.status_code == 201, r.get_json()
    room = client.get(f"/api/leagues/{club.id}/room", headers=club.auth()).get_json()
    assert room["new_phones"] == [{"name": "Anna", "table": t["code"]}]
    client.post(f"/api/tables/{t['code']}/players", json={"name": "Csilla", "identity": identity("Csilla")})
    tables.ok(t["code"], t["host_token"], "table.start_game")
    tables.ok(t["code"], r.get_json()["token"], "blanko.lay", words=["LESŐ"], placed=4)
    tables.ok(t["code"], t["host_token"], "table.end_game")  # a game someone scored in counts
    assert club.rows()["Anna"][0] == 2
    # The table is over: nothing left for the director to look at.
    assert client.get(f"/api/leagues/{club.id}/room", headers=club.auth()).get_json()["new_phones"] == []


def test_names_that_differ_only_in_case_invisibles_or_look_alikes_are_one_player(client, tables, clock):
    """anna on a new phone was a second person beside Anna; Anna, Cyrillic Аnna and Anna
    with a zero-width space were three players paired against each other; bob joined a table
    of the league where Bob plays as someone else."""
    club = Club(client, tables, clock)
    club.game("Anna", "Bence")
    club.game("anna", "Csilla", phones={"anna": "annas-second-phone-99"})
    club.game(CYRILLIC_ANNA, "Dani", phones={CYRILLIC_ANNA: None})
    club.game("Dani", "Anna\u200b")
    club.game("Bob", "Bence")
    club.game("bob", "Csilla", phones={"bob": "bobs-other-phone-123"})
    rows = club.rows()
    assert rows["Anna"] == (4, 3, 0) and rows["Bob"] == (2, 2, 0)
    assert set(rows) == {"Anna", "Bence", "Csilla", "Dani", "Bob"}
    r = club.pairings(["Anna", "Bob", "Dani", "Csilla"])
    assert not any(set(p) == {"Anna"} for p in r.get_json()["pairs"])


@pytest.mark.parametrize("present", [["Solo", "Solo"], ["Anna", "anna", "Bence"],
                                     ["Anna", CYRILLIC_ANNA], ["Anna", "Anna\u200b", "Bence"],
                                     ["Anna", "ANNA"]])
def test_the_same_person_twice_among_the_present_is_refused(client, tables, clock, present):
    """["Solo", "Solo"] passed the two-player check and made an empty round that gave Solo a
    bye; other duplicates merged without a word."""
    club = Club(client, tables, clock)
    for endpoint in ("pairings", "rounds"):
        r = client.post(f"/api/leagues/{club.id}/{endpoint}", json={"present": present}, headers=club.auth())
        assert (r.status_code, r.get_json()["error"]["code"]) == (400, "league/same_player_twice")
    assert made_tables(client.application) == set()
    assert club.standings()["rounds"] == [] and club.rows() == {}


def test_the_director_renames_a_player(client, tables, clock):
    club = Club(client, tables, clock)
    club.game("Dani", "Bence")
    r = club.change("rename", player="dani", name="Daniella")
    assert r.status_code == 200, r.get_json()
    assert [row["name"] for row in r.get_json()["standings"]] == ["Daniella", "Bence"]
    club.game("Daniella", "Csilla")  # her new name is her
    club.game("Dani", "Bence")  # and so is the old one, which her old games were played under
    assert club.rows() == {"Daniella": (3, 3, 0), "Bence": (2, 0, 0), "Csilla": (1, 0, 0)}
    r = club.change("rename", player="Daniella", name="bence")
    assert (r.status_code, r.get_json()["error"]["code"]) == (409, "league/rename_taken")
    r = club.change("rename", player="Emese", name="Emma")
    assert (r.status_code, r.get_json()["error"]["code"]) == (404, "league/unknown_player")
    r = club.change("rename", player="Daniella", name="DANIELLA")  # a new spelling of her own name
    assert r.status_code == 200 and "DANIELLA" in club.rows()


def test_the_director_merges_two_rows_and_the_exports_name_them_as_one(client, tables, clock):
    """Dani and Daniella are one person; the league's record named them as two."""
    club = Club(client, tables, clock)
    dani = club.game("Dani", "Bence")
    daniella = club.game("Csilla", "Daniella")
    assert set(club.rows()) == {"Dani", "Bence", "Csilla", "Daniella"}
    r = club.change("merge", player="Dani", into="Daniella")
    assert r.status_code == 200, r.get_json()
    assert club.rows() == {"Daniella": (2, 1, 0), "Bence": (1, 0, 0), "Csilla": (1, 1, 0)}
    got = from_csv(client.get(f"/api/leagues/{club.id}/record?format=csv", headers=club.auth())
                   .get_data(as_text=True))
    assert {(g["table"], g["name"]) for g in got} == {
        (dani["code"], "Daniella"), (dani["code"], "Bence"),
        (daniella["code"], "Csilla"), (daniella["code"], "Daniella")}
    bg = client.get(f"/api/leagues/{club.id}/record?format=bgstats", headers=club.auth()).get_json()
    assert sorted(p["name"] for p in bg["players"]) == ["Bence", "Csilla", "Daniella"]
    # Once merged, they are one person: ticked twice, refused.
    r = club.pairings(["Dani", "Daniella", "Bence"])
    assert (r.status_code, r.get_json()["error"]["code"]) == (400, "league/same_player_twice")


def test_a_merge_the_league_cannot_make_is_refused(client, tables, clock):
    club = Club(client, tables, clock)
    club.game("Dani", "Bence")
    for fields, status, code in [
        ({"player": "Dani", "into": "Bence"}, 409, "league/merge_met"),  # nobody plays themself
        ({"player": "Dani", "into": "dani"}, 400, "league/same_player"),
        ({"player": "Dani", "into": "Nobody"}, 404, "league/unknown_player"),
        ({"player": "Dani"}, 400, "league/bad_player"),
        ({"player": ["Dani"], "into": "Bence"}, 400, "league/bad_player"),
    ]:
        r = club.change("merge", **fields)
        assert (r.status_code, r.get_json()["error"]["code"]) == (status, code), fields
    assert set(club.rows()) == {"Dani", "Bence"}


def test_the_director_withdraws_a_player_and_brings_them_back(client, tables, clock):
    club = Club(client, tables, clock)
    club.game("Anna", "Bence")
    club.game("Csilla", "Dani")
    r = club.change("withdraw", player="csilla")
    assert r.status_code == 200, r.get_json()
    withdrawn = {row["name"]: row["withdrawn"] for row in club.standings()["standings"]}
    assert withdrawn == {"Anna": False, "Bence": False, "Csilla": True, "Dani": False}
    r = club.pairings(list(("Anna", "Bence", "Csilla", "Dani")))
    assert (r.status_code, r.get_json()["error"]["code"]) == (400, "league/withdrawn")
    assert club.pairings(["Anna", "Bence", "Dani"]).get_json()["bye"] is not None
    assert club.change("bring_back", player="Csilla").status_code == 200
    assert club.pairings(["Anna", "Bence", "Csilla", "Dani"]).status_code == 200


def test_only_the_director_changes_the_roster(client, tables, clock):
    club = Club(client, tables, clock)
    club.game("Anna", "Bence")
    for action, fields in [("rename", {"player": "Anna", "name": "Anni"}),
                           ("merge", {"player": "Anna", "into": "Bence"}),
                           ("withdraw", {"player": "Anna"}), ("bring_back", {"player": "Anna"})]:
        r = client.post(f"/api/leagues/{club.id}/players/{action}", json=fields)
        assert (r.status_code, r.get_json()["error"]["code"]) == (401, "auth/bad_token")
    r = club.change("rename", player="Anna", name="\u200b")
    assert (r.status_code, r.get_json()["error"]["code"]) == (400, "league/bad_player")
    assert set(club.rows()) == {"Anna", "Bence"}
