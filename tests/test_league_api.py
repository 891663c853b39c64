"""Leagues over HTTP: a league's tables, standings folded from their records, pairings and
the round's tables, CSV, and bad input refused with nothing half-made."""

import json
import logging
import urllib.error
import urllib.request

import pytest
from conftest import posted_at_once
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select
from test_fuzz import json_values, texts

from companion.lan import qr
from companion.record.exports import from_csv
from companion.storage.store import TableRow

WEEK = 7 * 24 * 3_600_000
PEOPLE = ("Anna", "Bence", "Csilla", "Dani")


def identity(name):
    return "".join(c for c in name.lower() if c.isalnum()) + "-phone-identity-key"


class Club:
    """An organiser and the four people of docs/league.md's example, on phones of their own."""

    def __init__(self, client, tables, clock, name="Thursday club"):
        self.client, self.tables, self.clock = client, tables, clock
        r = client.post("/api/leagues", json={"name": name})
        assert r.status_code == 201, r.get_json()
        self.id, self.token = r.get_json()["id"], r.get_json()["token"]

    def auth(self, token=None):
        return {"Authorization": f"Bearer {token or self.token}"}

    def standings(self):
        r = self.client.get(f"/api/leagues/{self.id}")
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def round(self, present):
        r = self.client.post(f"/api/leagues/{self.id}/rounds", headers=self.auth(),
                             json={"present": present, "options": {"draw_start": False}})
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def play(self, code, host, winner, loser, phones=None):
        """A BLANKO game at ``code``: the winner lays a word, both pass, the racks are counted.
        Each plays on a phone of their own unless ``phones`` names another (None: no identity)."""
        t = self.tables
        seats = {}
        phones = phones or {}
        for name in (winner, loser):  # the first seat begins
            r = self.client.post(f"/api/tables/{code}/players",
                                 json={"name": name, "identity": phones.get(name, identity(name))})
            assert r.status_code == 201, r.get_json()
            seats[name] = r.get_json()
        if t.state(code, host)["state"]["status"] == "lobby":  # a round's board started once both sat
            t.ok(code, host, "table.start_game")
        t.ok(code, seats[winner]["token"], "blanko.lay", words=["LESŐ"], placed=4)
        t.ok(code, seats[loser]["token"], "blanko.pass")
        t.ok(code, seats[winner]["token"], "blanko.pass")
        for name in (winner, loser):
            t.ok(code, host, "blanko.rack", player=seats[name]["player_id"], letters="A")
        self.clock.advance(20 * 60_000)
        return seats

    def results(self):
        r = self.client.get(f"/api/leagues/{self.id}/results", headers=self.auth())
        assert r.status_code == 200, r.get_json()
        return r.get_json()["results"]

    def correct(self, code, no, action, reason, **ruling):
        """The organiser's ruling on the game ``no`` of table ``code``."""
        return self.client.post(f"/api/leagues/{self.id}/corrections", headers=self.auth(),
                                json={"table": code, "no": no, "action": action, "reason": reason, **ruling})

    def evening(self, results, seated_as=None):
        """Tonight's round as the Swiss system pairs it; ``results``: who beats whom at each;
        ``seated_as``: who types another name at the table than the one the round gives."""
        made = self.round(list(PEOPLE))
        assert made["bye"] is None
        assert [t["players"] for t in made["tables"]] == [list(pair) for pair in results]
        typed = (seated_as or {}).get
        for t, (first, second) in zip(made["tables"], results, strict=True):
            assert "qr_svg" not in t  # at its own URL, for the screen to fetch once
            winner = results[(first, second)]
            loser = second if winner == first else first
            self.play(t["code"], t["host_token"], typed(winner, winner), typed(loser, loser))
        self.clock.advance(WEEK)

    def game(self, winner, loser, phones=None):
        """A table of the league, made by a host, and its game played."""
        t = self.tables.create("blanko", draw_start=False, league=self.id)
        self.play(t["code"], t["host_token"], winner, loser, phones)
        return t

    def change(self, action, **fields):
        return self.client.post(f"/api/leagues/{self.id}/players/{action}", json=fields, headers=self.auth())

    def rows(self):
        return {r["name"]: (r["games"], r["wins"], r["byes"]) for r in self.standings()["standings"]}

    def pairings(self, present):
        return self.client.post(f"/api/leagues/{self.id}/pairings", json={"present": present},
                                headers=self.auth())


def made_tables(app):
    """Every table the server has made, whatever it counts for."""
    with Session(app.extensions["companion"].store.engine) as s:
        return set(s.exec(select(TableRow.code)).all())


def rows(doc):
    return [(r["name"], r["games"], r["wins"], r["rating"]) for r in doc["standings"]]


def test_four_people_over_three_evenings(client, tables, clock):
    """docs/league.md's worked example, through the API with the clock moved a week a time;
    the figures are worked out by hand in tests/test_league.py."""
    club = Club(client, tables, clock)
    club.evening({("Anna", "Bence"): "Anna", ("Csilla", "Dani"): "Dani"})
    assert rows(club.standings()) == [("Anna", 1, 1, 3.438), ("Dani", 1, 1, 3.438),
                                      ("Bence", 1, 0, -1.833), ("Csilla", 1, 0, -1.833)]
    # Dani sits down as Daniella on a new phone: a row of her own, until the director merges it.
    club.evening({("Anna", "Dani"): "Anna", ("Bence", "Csilla"): "Bence"}, seated_as={"Dani": "Daniella"})
    assert ("Daniella", 1, 0) in [row[:3] for row in rows(club.standings())]
    r = client.post(f"/api/leagues/{club.id}/players/merge", headers=club.auth(),
                    json={"player": "Daniella", "into": "Dani"})
    assert rows(r.get_json()) == [("Anna", 2, 2, 6.732), ("Dani", 2, 1, 1.665),
                                  ("Bence", 2, 1, 1.461), ("Csilla", 2, 0, -3.606)]
    club.evening({("Anna", "Csilla"): "Csilla", ("Dani", "Bence"): "Dani"})
    doc = club.standings()
    assert doc["name"] == "Thursday club"
    assert rows(doc) == [("Dani", 3, 2, 4.803), ("Anna", 3, 2, 3.952),
                         ("Csilla", 3, 1, 0.393), ("Bence", 3, 1, -0.235)]
    assert [e["ratings"]["Anna"] for e in doc["chart"]] == [3.438, 6.732, 3.952]
    assert [r["no"] for r in doc["rounds"]] == [1, 2, 3]
    r = client.post(f"/api/leagues/{club.id}/pairings", json={"present": list(PEOPLE)}, headers=club.auth())
    assert r.get_json() == {"pairs": [["Dani", "Anna"], ["Csilla", "Bence"]], "bye": None}


def test_a_bye_counts_as_a_win_once(client, tables, clock):
    club = Club(client, tables, clock)
    made = club.round(["Anna", "Bence", "Csilla"])
    assert made["pairs"] == [["Anna", "Bence"]] and made["bye"] == "Csilla"
    assert rows(club.standings()) == [("Csilla", 1, 1, 0.0)]  # Anna and Bence have not played yet
    club.play(made["tables"][0]["code"], made["tables"][0]["host_token"], "Anna", "Bence")
    again = club.round(["Anna", "Bence", "Csilla"])
    assert again["bye"] != "Csilla" and len(again["tables"]) == 1


def test_only_tables_made_for_the_league_count_and_undo_is_followed(client, tables, clock):
    club = Club(client, tables, clock)
    counted = tables.create("blanko", draw_start=False, league=club.id)
    club.play(counted["code"], counted["host_token"], "Anna", "Bence")
    elsewhere = tables.create("blanko", draw_start=False)
    club.play(elsewhere["code"], elsewhere["host_token"], "Bence", "Anna")
    assert rows(club.standings()) == [("Anna", 1, 1, 3.438), ("Bence", 1, 0, -1.833)]
    tables.ok(counted["code"], counted["host_token"], "undo")  # the last rack: the game is on again
    assert club.standings()["standings"] == []
    tables.ok(counted["code"], counted["host_token"], "blanko.rack",
              player=_seat(client, counted, "Bence"), letters="A")
    assert len(club.standings()["standings"]) == 2
    tables.ok(counted["code"], counted["host_token"], "table.rematch", game="rankfile")
    tables.ok(counted["code"], counted["host_token"], "table.end_game")
    # Rank & File ended by the host before the team won or lost: it counts for nobody (#43).
    assert rows(club.standings()) == [("Anna", 1, 1, 3.438), ("Bence", 1, 0, -1.833)]


def _seat(client, table, name):
    st = client.get(f"/api/tables/{table['code']}/state",
                    headers={"Authorization": f"Bearer {table['host_token']}"}).get_json()["state"]
    return next(p["id"] for p in st["players"] if p["name"] == name)


def test_the_standings_as_csv(client, tables, clock):
    club = Club(client, tables, clock)
    t = tables.create("blanko", draw_start=False, league=club.id)
    club.play(t["code"], t["host_token"], "=Anna", "Bence")
    r = client.get(f"/api/leagues/{club.id}?format=csv")
    assert r.mimetype == "text/csv"
    got = from_csv(r.get_data(as_text=True))
    assert [(g["rank"], g["name"], g["wins"]) for g in got] == [("1", "'=Anna", "1"), ("2", "Bence", "0")]


def test_bad_input_is_refused_and_nothing_is_made(client, tables, clock):
    before = client.get("/api/history").get_json()
    assert client.post("/api/leagues", json={"name": " "}).get_json()["error"]["code"] == "league/bad_name"
    r = client.post("/api/tables", json={"game": "blanko", "options": {"league": "lnope"}})
    assert (r.status_code, r.get_json()["error"]["code"]) == (404, "league/unknown")
    assert client.get("/api/leagues/lnope").status_code == 404
    only = client.post("/api/leagues", json={"name": "Word club", "games": ["blanko"]}).get_json()
    r = client.post("/api/tables", json={"game": "bldng", "options": {"league": only["id"]}})
    assert (r.status_code, r.get_json()["error"]["code"]) == (400, "league/game_not_rated")
    assert client.get("/api/history").get_json() == before
    r = client.post(f"/api/leagues/{only['id']}/rounds", json={"present": ["A", "B"]},
                    headers={"Authorization": "Bearer wrong"})
    assert (r.status_code, r.get_json()["error"]["code"]) == (401, "auth/bad_token")


@pytest.mark.parametrize("present", [[], ["only one"], "Anna", [1, 2]])
def test_pairings_need_the_players_present(client, tables, clock, present):
    club = Club(client, tables, clock)
    r = client.post(f"/api/leagues/{club.id}/pairings", json={"present": present}, headers=club.auth())
    assert r.get_json()["error"]["code"] == "league/bad_present"


def test_the_rooms_screen_shows_the_live_tables_and_the_rounds_qr_codes(client, tables, clock):
    club = Club(client, tables, clock)
    assert client.get(f"/api/leagues/{club.id}/room").status_code == 401  # the organiser's only
    made = club.round(list(PEOPLE))
    first, second = made["tables"]
    club.play(first["code"], first["host_token"], "Anna", "Bence")  # finished: in the standings
    for name in ("Csilla", "Dani"):  # both sit: their board starts by itself
        client.post(f"/api/tables/{second['code']}/players", json={"name": name})
    tables.ok(second["code"], second["host_token"], "timer.start", seconds=60)
    clock.advance(15_000)
    room = client.get(f"/api/leagues/{club.id}/room", headers=club.auth()).get_json()
    assert room["name"] == "Thursday club" and room["server_ms"] == clock.now_ms()
    assert [r["name"] for r in room["standings"]] == ["Anna", "Bence"]
    assert room["round"]["no"] == 1 and room["round"]["bye"] is None
    assert [(t["code"], t["players"]) for t in room["round"]["tables"]] == [
        (first["code"], ["Anna", "Bence"]), (second["code"], ["Csilla", "Dani"])]
    # The QR codes are at their own URL (#41): the room is read again at every move at a table,
    # and eight boards' codes inlined were ~70 KB a read.
    board = {"code", "players", "join_url", "status", "started"}
    assert all(set(t) == board for t in room["round"]["tables"])
    # The boards' QR codes are the tables' keys, as each table's own screen shows its QR: the
    # link carries its join secret (#35 item 2), so a guesser at the café's address locks out
    # nobody who scans the room's screen.
    with client.application.app_context():
        from companion.services import services
        for t in (*made["tables"], *room["round"]["tables"]):
            assert t["join_url"].endswith(f"/t/{t['code']}#k={services().join_secret(t['code'])}")
        for t in room["round"]["tables"]:
            r = client.get(f"/api/leagues/{club.id}/tables/{t['code']}/qr.svg", headers=club.auth())
            assert (r.status_code, r.mimetype, r.data) == (200, "image/svg+xml", qr.svg(t["join_url"]))
    [live] = room["tables"]
    assert live["code"] == second["code"] and live["game"] == "blanko" and live["status"] == "playing"
    assert live["players"] == [{"name": "Csilla", "score": 0}, {"name": "Dani", "score": 0}]
    assert live["turn"] == "Csilla"
    assert live["timer"]["running"] and live["timer"]["remaining_ms"] == 45_000


def test_a_tables_public_answer_names_its_league(client, tables, clock):
    club = Club(client, tables, clock)
    counted = tables.create("blanko", league=club.id)
    other = tables.create("blanko")
    assert client.get(f"/api/tables/{counted['code']}").get_json()["league"] == club.id
    assert client.get(f"/api/tables/{other['code']}").get_json()["league"] is None


def test_the_organiser_downloads_every_game_of_the_league(client, tables, clock):
    club = Club(client, tables, clock)
    made = club.round(["Anna", "Bence", "Csilla", "Dani"])
    for t in made["tables"]:
        club.play(t["code"], t["host_token"], *t["players"])
    assert client.get(f"/api/leagues/{club.id}/record?format=csv").status_code == 401
    r = client.get(f"/api/leagues/{club.id}/record?format=csv", headers=club.auth())
    assert r.mimetype == "text/csv" and f"league-{club.id}.csv" in r.headers["Content-Disposition"]
    got = from_csv(r.get_data(as_text=True))
    assert sorted((g["table"], g["name"], g["winner"]) for g in got) == sorted(
        [(made["tables"][0]["code"], "Anna", "1"), (made["tables"][0]["code"], "Bence", "0"),
         (made["tables"][1]["code"], "Csilla", "1"), (made["tables"][1]["code"], "Dani", "0")])
    bg = client.get(f"/api/leagues/{club.id}/record?format=bgstats", headers=club.auth())
    assert len(bg.get_json()["plays"]) == 2


def test_a_rounds_tables_play_a_rated_game_of_the_league_blanko_first(client, tables, clock):
    club = Club(client, tables, clock)
    assert club.standings()["round_games"] == ["blanko", "blank", "bldng"]
    r = client.post("/api/leagues", json={"name": "Card club", "games": ["rankfile", "blank"]})
    cards = r.get_json()
    assert client.get(f"/api/leagues/{cards['id']}").get_json()["round_games"] == ["blank"]
    auth = {"Authorization": f"Bearer {cards['token']}"}
    deck = client.post("/api/decks", json={"name": "Club deck", "mark": ""}).get_json()["id"]
    # Told no game, the round plays the league's first rated game (BLANKO is not counted here).
    made = client.post(f"/api/leagues/{cards['id']}/rounds", headers=auth,
                       json={"present": ["A", "B"], "options": {"deck_id": deck}})
    assert made.status_code == 201, made.get_json()
    code = made.get_json()["tables"][0]["code"]
    assert client.get(f"/api/tables/{code}").get_json()["game"] == "blank"
    r = client.post(f"/api/leagues/{cards['id']}/rounds", headers=auth,
                    json={"present": ["A", "B"], "game": "rankfile"})
    assert (r.status_code, r.get_json()["error"]["code"]) == (400, "league/game_not_rated")


@pytest.mark.parametrize("sent, code", [
    ({"name": "a", "games": [["blanko"]]}, "league/bad_games"),  # a list in the list was a 500
    ({"name": "a", "games": [{"blanko": 1}]}, "league/bad_games"),
    ({"name": "a", "games": [None]}, "league/bad_games"),
    ({"name": "a", "games": "blanko"}, "league/bad_games"),
    ({"name": "a", "games": {"blanko": True}}, "league/bad_games"),
    ({"name": "a", "games": []}, "league/bad_games"),
    ({"name": "a", "games": ["chess"]}, "league/bad_games"),
    ({"name": ["a"]}, "league/bad_name"),
    ({"name": {"a": 1}}, "league/bad_name"),
    ({"name": 7}, "league/bad_name"),
    ({"games": ["blanko"]}, "league/bad_name"),
    ({"name": "x" * 61}, "league/bad_name"),
    ([{"name": "a"}], "http/bad_json"),
    ("a", "http/bad_json"),
])
def test_a_malformed_league_is_a_clear_400(client, sent, code):
    r = client.post("/api/leagues", json=sent)
    assert (r.status_code, r.get_json()["error"]["code"]) == (400, code)


@pytest.mark.parametrize("typed, kept", [
    ("\x00Thursday\x1b club\x7f", "Thursday club"),
    ("\u202eThursday club\u202c", "Thursday club"),  # a bidi override would turn the row around
    ("  Thursday \t\n club  ", "Thursday club"),
    ("Cafe\u0301 club", "Café club"),  # kept composed, as a player's name is
])
def test_a_league_name_follows_the_player_name_rules(client, typed, kept):
    made = client.post("/api/leagues", json={"name": typed}).get_json()
    assert client.get(f"/api/leagues/{made['id']}").get_json()["name"] == kept


@pytest.mark.parametrize("typed", ["\u200b\u3164", "\u2800", "\x00\x1b", "\u202e\u202c", "\ufe0f"])
def test_a_league_name_of_nothing_visible_is_no_name(client, typed):
    r = client.post("/api/leagues", json={"name": typed})
    assert (r.status_code, r.get_json()["error"]["code"]) == (400, "league/bad_name")


@pytest.mark.parametrize("present", [["A" * 5000, "Bence"], ["A" * 25, "Bence"], ["\u200b\u3164", "Bence"],
                                     ["Anna", "\x00\x1b"], ["Anna", ["Bence"]], ["Anna", None]])
def test_the_players_present_are_named_as_players_are(client, tables, clock, present):
    club = Club(client, tables, clock)
    for endpoint in ("pairings", "rounds"):
        r = client.post(f"/api/leagues/{club.id}/{endpoint}", json={"present": present}, headers=club.auth())
        assert (r.status_code, r.get_json()["error"]["code"]) == (400, "league/bad_present")
    assert made_tables(client.application) == set()


def test_a_present_name_is_read_as_the_tables_read_it(client, tables, clock):
    """Anna as seated (the table dropped what shows nothing) is Anna as ticked with it."""
    club = Club(client, tables, clock)
    t = tables.create("blanko", draw_start=False, league=club.id)
    club.play(t["code"], t["host_token"], "Anna\u200b", "Bence")
    r = client.post(f"/api/leagues/{club.id}/pairings", headers=club.auth(),
                    json={"present": ["\x00Anna\u202e", " Bence ", "Csilla"]})
    # Anna has met Bence, who sits out so as not to meet her again.
    assert r.get_json() == {"pairs": [["Anna", "Csilla"]], "bye": "Bence"}


# A league's body, near and far from its shape: names and games of any kind, games that are
# lists of anything beside the four games' names, and any JSON value at all.
league_bodies = st.fixed_dictionaries({}, optional={
    "name": st.just("Thursday club") | texts | json_values,
    "games": st.lists(st.sampled_from(["blanko", "blank", "bldng", "rankfile"]) | json_values, max_size=4)
    | json_values}) | st.dictionaries(texts, json_values, max_size=3) | json_values


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sent=league_bodies)
@example(sent={"name": "a", "games": [["blanko"]]})  # the outside tester's 500 (#41)
def test_any_json_makes_a_league_or_a_clear_400(client, clock, sent):
    clock.advance(120_000)  # one app serves every example: let the creation limit refill
    r = client.post("/api/leagues", data=json.dumps(sent), content_type="application/json")
    assert r.status_code in (201, 400), (sent, r.get_json())
    assert r.status_code == 201 or r.get_json()["error"]["code"] in (
        "http/bad_json", "league/bad_name", "league/bad_games")


@pytest.mark.both_backends
def test_rounds_asked_for_at_once_are_made_one_at_a_time(backend, make_app, serve_app):
    """Eight taps of "Next round" at once (#41: seven were a 500 and left 70 tables counted
    for nothing): one round is made at a time, the others are told so (409), and every table
    the server made is a board of a round. On PostgreSQL through two server processes' apps,
    which share no lock but the database's."""
    servers = [serve_app(make_app()) for _ in range(2 if backend == "postgresql" else 1)]
    club = servers[0].app.test_client().post("/api/leagues", json={"name": "Thursday club"}).get_json()
    urls = [f"{servers[i % len(servers)].url}/api/leagues/{club['id']}/rounds" for i in range(8)]
    # over the round before, as told: eight rounds at once, not asked (#43 item 10)
    answers = posted_at_once(urls, {"present": list(PEOPLE), "over_unfinished": True},
                             {"Authorization": f"Bearer {club['token']}"})
    made = [doc for status, doc in answers if status == 201]
    assert made and all(status == 409 and doc["error"]["code"] == "league/round_busy"
                        for status, doc in answers if status != 201), answers
    assert sorted(doc["round"] for doc in made) == list(range(1, len(made) + 1))
    rounds = servers[0].app.test_client().get(f"/api/leagues/{club['id']}").get_json()["rounds"]
    assert [r["no"] for r in rounds] == list(range(1, len(made) + 1))
    boards = {t["code"] for doc in made for t in doc["tables"]}
    assert len(boards) == 2 * len(made)
    assert made_tables(servers[0].app) == boards  # no table made outside its round


def test_a_boards_qr_code_is_the_organisers_and_cached_by_their_browser(client, tables, clock):
    """A board's QR code carries its table's join secret: only for the league's organiser, and
    only for a table of the league. It never changes for a code and an address, so the browser
    keeps it (privately: the secret is for no shared cache) and asks again only whether it did."""
    club = Club(client, tables, clock)
    other = Club(client, tables, clock, name="Friday club")
    code = club.round(list(PEOPLE))["tables"][0]["code"]
    url = f"/api/leagues/{club.id}/tables/{code}/qr.svg"
    r = client.get(url, headers=club.auth())
    assert r.status_code == 200
    cache = {d.strip() for d in r.headers["Cache-Control"].split(",")}
    assert "private" in cache and "no-store" not in cache and "public" not in cache, cache
    again = client.get(url, headers={**club.auth(), "If-None-Match": r.headers["ETag"]})
    assert (again.status_code, again.data) == (304, b"")
    for headers, status, error in [({}, 401, "auth/bad_token"), (other.auth(), 401, "auth/bad_token"),
                                   (club.auth("made-up"), 401, "auth/bad_token")]:
        r = client.get(url, headers=headers)
        assert (r.status_code, r.get_json()["error"]["code"]) == (status, error)
    elsewhere = tables.create("blanko")["code"]  # a table, but none of this league's
    theirs = other.round(list(PEOPLE))["tables"][0]["code"]
    for not_ours in (elsewhere, theirs, "QQQQQ", "x" * 300):
        r = client.get(f"/api/leagues/{club.id}/tables/{not_ours}/qr.svg", headers=club.auth())
        assert (r.status_code, r.get_json()["error"]["code"]) == (404, "table/unknown")


def test_no_log_line_holds_a_boards_secret(live_app, live_tables, serve_companion, caplog):
    """As `companion serve` logs its requests, at DEBUG: the room's screen asks for a board's QR
    code with the organiser's token in a header and nothing secret in the URL."""
    base = f"http://127.0.0.1:{serve_companion()}"
    client = live_app.test_client()
    club = client.post("/api/leagues", json={"name": "Thursday club"}).get_json()
    auth = {"Authorization": f"Bearer {club['token']}"}
    with caplog.at_level(logging.DEBUG):
        made = client.post(f"/api/leagues/{club['id']}/rounds", headers=auth,
                           json={"present": list(PEOPLE)}).get_json()
        code, link = made["tables"][0]["code"], made["tables"][0]["join_url"]
        req = urllib.request.Request(f"{base}/api/leagues/{club['id']}/tables/{code}/qr.svg", headers=auth)
        with urllib.request.urlopen(req, timeout=15) as r:  # its link names this server's address
            assert r.status == 200 and b"<svg" in r.read()
    assert f"/tables/{code}/qr.svg" in caplog.text  # the access log was captured
    secret = link.split("#k=")[1]
    assert secret not in caplog.text and club["token"] not in caplog.text


round_bodies = st.fixed_dictionaries({}, optional={
    "present": st.lists(st.sampled_from(list(PEOPLE)) | texts | json_values, max_size=5) | json_values,
    "game": st.sampled_from(["blanko", "blank", "bldng", "rankfile"]) | json_values,
    "options": st.dictionaries(st.sampled_from(["draw_start", "deck_id", "deck_ids", "check"]) | texts,
                               json_values, max_size=3) | json_values}) | json_values


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sent=round_bodies)
def test_any_json_makes_a_round_or_a_clear_4xx(client, tables, clock, sent):
    """The organiser's bodies too: who is present, the game and its options, of any shape."""
    clock.advance(120_000)  # a league per example: let the creation limit refill
    club = Club(client, tables, clock)
    for endpoint in ("pairings", "rounds"):
        r = client.post(f"/api/leagues/{club.id}/{endpoint}", headers=club.auth(),
                        data=json.dumps(sent), content_type="application/json")
        assert r.status_code < 500, (endpoint, sent, r.get_json())


def test_a_game_ended_before_anyone_scored_counts_for_nobody(client, tables, clock):
    """#43: a BLANKO league game started and ended at once (0 : 0) was two wins: the record
    named both winners and the league gave each a game and a win."""
    club = Club(client, tables, clock)
    t = tables.create("blanko", draw_start=False, league=club.id)
    for name in ("Anna", "Bence"):
        client.post(f"/api/tables/{t['code']}/players", json={"name": name, "identity": identity(name)})
    tables.ok(t["code"], t["host_token"], "table.start_game")
    tables.ok(t["code"], t["host_token"], "table.end_game")
    [g] = client.get(f"/api/tables/{t['code']}/record",
                     headers={"Authorization": f"Bearer {t['host_token']}"}).get_json()["games"]
    assert g["scores"] == {p["player_id"]: 0 for p in g["players"]} and g["winners"] == []
    assert club.standings()["standings"] == [] and club.standings()["chart"] == []


def test_a_blank_game_counts_when_it_is_won_not_when_its_prize_is_approved(client, tables, clock):
    """#43: BLANK's game ends once the deck's owner approves the winner's prize; a league
    game whose prize nobody wrote never counted. It counts from the win, at the win's time."""
    club = Club(client, tables, clock)
    deck_id = client.post("/api/decks", json={"name": "Ours"}).get_json()["id"]
    t = tables.create("blank", deck_id=deck_id, rule_cards="app", league=club.id)
    code, host = t["code"], t["host_token"]
    seats = {n: tables.join(code, n) for n in ("Anna", "Bela")}
    tables.ok(code, host, "table.start_game")
    tables.ok(code, host, "blank.first_card", card={"colour": "circle", "number": 3})
    tables.ok(code, seats["Anna"]["token"], "blank.draw")  # no card to play: a penalty
    clock.advance(60_000)
    played = tables.ok(code, seats["Bela"]["token"], "blank.play",
                       cards=[{"colour": "circle", "number": n} for n in (1, 2, 3, 4, 5, 6, 6)])
    if played["state"]["game_state"]["going_out"]:  # a rule went off: Anna confirms it was followed
        tables.ok(code, seats["Anna"]["token"], "blank.resolved")
    won_ms = clock.now_ms()
    clock.advance(600_000)  # nobody writes a prize
    assert tables.state(code, host)["state"]["status"] == "playing"
    assert rows(club.standings()) == [("Bela", 1, 1, 3.438), ("Anna", 1, 0, -1.833)]
    assert club.standings()["chart"][0]["from_ms"] == won_ms
    tables.ok(code, seats["Bela"]["token"], "blank.propose_rule",
              rule={"title": "Six", "trigger": {"kind": "number_played", "number": 6},
                    "target": "next_player", "effect": "draw_card", "text": "the next player draws",
                    "creator": "Bela"})
    tables.ok(code, host, "blank.decide_prize", approved=True)
    assert tables.state(code, host)["state"]["status"] == "ended"
    doc = club.standings()
    assert rows(doc) == [("Bela", 1, 1, 3.438), ("Anna", 1, 0, -1.833)]
    assert doc["chart"][0]["from_ms"] == won_ms


def test_ties_and_spread_in_the_standings_and_their_csv(client, tables, clock):
    """#43: a tie is half a win each and a rated tie; the spread is shown and exported."""
    club = Club(client, tables, clock)
    t = tables.create("blanko", draw_start=False, league=club.id)
    seats = club.play(t["code"], t["host_token"], "Anna", "Bence")
    record = client.get(f"/api/tables/{t['code']}/record",
                        headers={"Authorization": f"Bearer {t['host_token']}"}).get_json()["games"][0]
    anna, bence = (record["scores"][seats[n]["player_id"]] for n in ("Anna", "Bence"))
    assert anna > bence
    doc = club.standings()
    spread = anna - bence
    assert [(r["name"], r["spread"]) for r in doc["standings"]] == [("Anna", spread), ("Bence", -spread)]
    got = from_csv(client.get(f"/api/leagues/{club.id}?format=csv").get_data(as_text=True))
    assert [(g["name"], g["spread"]) for g in got] == [("Anna", str(spread)), ("Bence", str(-spread))]
    # The director corrects the game to a tie: half a win each, and both rated as a tie.
    r = club.correct(t["code"], 1, "correct", "added up wrong", scores={"Anna": 300, "Bence": 300})
    assert r.status_code == 201, r.get_json()
    assert [(r["name"], r["wins"], r["rating"], r["spread"]) for r in club.standings()["standings"]] == [
        ("Anna", 0.5, 0.802, 0), ("Bence", 0.5, 0.802, 0)]


def test_the_organiser_voids_and_corrects_a_game_and_every_ruling_is_kept(client, tables, clock):
    club = Club(client, tables, clock)
    t = tables.create("blanko", draw_start=False, league=club.id)
    club.play(t["code"], t["host_token"], "Anna", "Bence")
    assert client.get(f"/api/leagues/{club.id}/results").status_code == 401  # the organiser's only
    [g] = club.results()
    assert (g["table"], g["no"], g["game"], g["counted"], g["rulings"]) == (t["code"], 1, "blanko", True, [])
    assert [p["name"] for p in g["players"]] == ["Anna", "Bence"] and g["winners"] == ["Anna"]
    r = client.post(f"/api/leagues/{club.id}/corrections", headers=club.auth("wrong"),
                    json={"table": t["code"], "no": 1, "action": "void", "reason": "x"})
    assert (r.status_code, r.get_json()["error"]["code"]) == (401, "auth/bad_token")
    assert club.correct(t["code"], 1, "void", "they played with a short bag").status_code == 201
    assert club.standings()["standings"] == []
    clock.advance(1000)
    r = club.correct(t["code"], 1, "correct", "Bence's last word was missed",
                     scores={"Anna": 200, "Bence": 250})
    assert r.status_code == 201 and r.get_json()["result"]["counted"]
    assert [(r["name"], r["wins"], r["spread"]) for r in club.standings()["standings"]] == [
        ("Bence", 1, 50), ("Anna", 0, -50)]
    clock.advance(1000)
    assert club.correct(t["code"], 1, "restore", "the sheet was right after all").status_code == 201
    assert [r["name"] for r in club.standings()["standings"]] == ["Anna", "Bence"]
    [g] = club.results()
    assert [(c["action"], c["reason"]) for c in g["rulings"]] == [
        ("void", "they played with a short bag"), ("correct", "Bence's last word was missed"),
        ("restore", "the sheet was right after all")]
    assert g["rulings"][1]["scores"] == {"Anna": 200, "Bence": 250}
    # The table's own record is as it was.
    [own] = client.get(f"/api/tables/{t['code']}/record",
                       headers={"Authorization": f"Bearer {t['host_token']}"}).get_json()["games"]
    assert own["winners"] == [p["player_id"] for p in own["players"] if p["name"] == "Anna"]


def test_a_game_ended_at_nothing_is_listed_and_a_won_game_corrected_to_another_winner(client, tables, clock):
    club = Club(client, tables, clock)
    t = tables.create("bldng", league=club.id)
    for name in ("Anna", "Bence", "Csilla"):
        tables.join(t["code"], name)
    tables.ok(t["code"], t["host_token"], "table.start_game")
    tables.ok(t["code"], t["host_token"], "table.end_game")
    [g] = club.results()
    assert not g["counted"] and g["winners"] == []
    assert club.correct(t["code"], 1, "correct", "Csilla built hers; the phone missed it",
                        winners=["Csilla"]).status_code == 201
    assert [(r["name"], r["wins"]) for r in club.standings()["standings"]] == [
        ("Csilla", 1), ("Anna", 0), ("Bence", 0)]


def fix(**scores):
    return {"no": 1, "action": "correct", "reason": "r", "scores": scores}


@pytest.mark.parametrize("sent, status, code", [
    ({"table": "ZZZZZ", "no": 1, "action": "void", "reason": "r"}, 404, "league/unknown_game"),
    ({"table": None, "no": 1, "action": "void", "reason": "r"}, 404, "league/unknown_game"),
    ({"no": 9, "action": "void", "reason": "r"}, 404, "league/unknown_game"),
    ({"no": "1", "action": "void", "reason": "r"}, 404, "league/unknown_game"),
    ({"no": 1, "action": "delete", "reason": "r"}, 400, "league/bad_correction"),
    ({"no": 1, "action": "void"}, 400, "league/bad_reason"),
    ({"no": 1, "action": "void", "reason": " \u200b "}, 400, "league/bad_reason"),
    ({"no": 1, "action": "void", "reason": "r" * 201}, 400, "league/bad_reason"),
    ({"no": 1, "action": "correct", "reason": "r"}, 400, "league/bad_correction"),
    (fix(Anna=10), 400, "league/bad_correction"),
    (fix(Anna=10, Bence="9"), 400, "league/bad_correction"),
    (fix(Anna=10, Bence=True), 400, "league/bad_correction"),
    (fix(Anna=10, Zoe=9), 400, "league/bad_correction"),
    (fix(Anna=10, Bence=10 ** 9), 400, "league/bad_correction"),
    ({"no": 1, "action": "correct", "reason": "r", "winners": ["Anna"]}, 400, "league/bad_correction"),
    ({"no": 2, "action": "void", "reason": "r"}, 409, "league/game_on"),
])
def test_a_bad_ruling_is_a_clear_4xx_and_changes_nothing(client, tables, clock, sent, status, code):
    club = Club(client, tables, clock)
    t = tables.create("blanko", draw_start=False, league=club.id)
    seats = club.play(t["code"], t["host_token"], "Anna", "Bence")
    tables.ok(t["code"], t["host_token"], "table.rematch")  # game 2, being played
    assert tables.state(t["code"], t["host_token"])["state"]["status"] == "playing" and seats
    before = club.standings()
    r = client.post(f"/api/leagues/{club.id}/corrections", headers=club.auth(),
                    json={"table": t["code"], **sent})
    assert (r.status_code, r.get_json()["error"]["code"]) == (status, code)
    assert club.standings() == before and club.results()[0]["rulings"] == []


names = st.sampled_from(["Anna", "Bence"]) | texts
ruling_bodies = st.fixed_dictionaries({}, optional={
    "table": texts | json_values, "no": st.integers(-1, 3) | json_values,
    "action": st.sampled_from(["void", "correct", "restore"]) | json_values,
    "reason": texts | json_values,
    "scores": st.dictionaries(names, st.integers() | json_values, max_size=3) | json_values,
    "winners": st.lists(names | json_values, max_size=3) | json_values}) | json_values
_ruled: dict = {}  # the league of each app the examples below rule on (made once, a game over)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sent=ruling_bodies)
def test_any_json_makes_a_ruling_or_a_clear_4xx(client, tables, clock, sent):
    """A ruling's body of any shape: made, or refused with a code, never a 500. Without a
    table it names the league's game, so the examples reach the ruling's own fields."""
    if id(client.application) not in _ruled:
        club = Club(client, tables, clock)
        t = tables.create("blanko", draw_start=False, league=club.id)
        club.play(t["code"], t["host_token"], "Anna", "Bence")
        _ruled[id(client.application)] = (club, t["code"])
    club, code = _ruled[id(client.application)]
    body = {"table": code, "no": 1, **sent} if isinstance(sent, dict) else sent
    r = client.post(f"/api/leagues/{club.id}/corrections", headers=club.auth(),
                    data=json.dumps(body), content_type="application/json")
    assert r.status_code < 500, (body, r.get_json())
    assert r.status_code == 201 or r.get_json()["error"]["code"].startswith(("league/", "http/"))


def test_pairs_follow_wins_not_rating(client, tables, clock):
    """#43's club night: after P3>P1, P6>P4, P4>P2, P1>P6 the round was paired by rating
    (P3–P4, P1–P2, P6–P5), two pairs across win groups where none was needed."""
    club = Club(client, tables, clock)
    for winner, loser in (("P3", "P1"), ("P6", "P4"), ("P4", "P2"), ("P1", "P6")):
        t = tables.create("blanko", draw_start=False, league=club.id)
        club.play(t["code"], t["host_token"], winner, loser)
    r = client.post(f"/api/leagues/{club.id}/pairings", headers=club.auth(),
                    json={"present": [f"P{i}" for i in range(1, 7)]})
    assert {frozenset(p) for p in r.get_json()["pairs"]} == {
        frozenset(p) for p in (("P3", "P6"), ("P1", "P4"), ("P2", "P5"))}


def test_the_organiser_closes_a_table_that_never_started(client, tables, clock):
    """#43: a board nobody came to stayed "gathering" on the room's screen all evening. The
    organiser closes it: it leaves the room's live tables and counts nothing; a game already
    being played is not theirs to end, and another league's table or a stranger is refused."""
    club = Club(client, tables, clock)
    other = Club(client, tables, clock, name="Friday club")
    idle, playing = club.round(list(PEOPLE))["tables"]
    client.post(f"/api/tables/{idle['code']}/players", json={"name": "Anna"})  # and nobody else
    for name in ("Csilla", "Dani"):  # both sit: their board starts by itself
        client.post(f"/api/tables/{playing['code']}/players", json={"name": name})
    url = f"/api/leagues/{club.id}/tables/{{}}/close"
    for headers in ({}, other.auth(), club.auth("made-up")):
        r = client.post(url.format(idle["code"]), headers=headers, json={})
        assert (r.status_code, r.get_json()["error"]["code"]) == (401, "auth/bad_token")
    theirs = other.round(list(PEOPLE))["tables"][0]["code"]
    for not_ours in (theirs, tables.create("blanko")["code"], "QQQQQ"):
        r = client.post(url.format(not_ours), headers=club.auth(), json={})
        assert (r.status_code, r.get_json()["error"]["code"]) == (404, "table/unknown")
    r = client.post(url.format(playing["code"]), headers=club.auth(), json={})
    assert (r.status_code, r.get_json()["error"]["code"]) == (409, "table/already_started")
    r = client.post(url.format(idle["code"]), headers=club.auth(), json={})
    assert (r.status_code, r.get_json()) == (200, {"code": idle["code"], "status": "ended"})
    room = client.get(f"/api/leagues/{club.id}/room", headers=club.auth()).get_json()
    assert [t["code"] for t in room["tables"]] == [playing["code"]]
    assert room["standings"] == []  # a table closed before its game counts no game
    r = client.post(url.format(idle["code"]), headers=club.auth(), json={})
    assert (r.status_code, r.get_json()["error"]["code"]) == (409, "table/ended")
