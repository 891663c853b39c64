"""A league's files (#43 item 17): the standings CSV, the record's CSV, the BG Stats file and
the season's BLANKO one-on-one games as a TSH division file (``.t``) name people as the league
does (renamed, merged), list games in the order played, and the TSH file reads back, by a
reader written from TSH's description of the format, as the league's standings stand."""

from dataclasses import dataclass

import pytest
from test_league_api import WEEK, Club

from companion.record.exports import from_csv

BYE = 50  # the score TSH gives a bye ("usually 50")


@dataclass
class TshPlayer:
    name: str
    rating: int
    opponents: list[int]
    scores: list[int]


def read_tsh(text):
    """A TSH division file as TSH describes it: a line per player (numbered from 1 in the
    order of the lines), the name, the rating, the opponent's number in each round (0: a bye,
    or no game that round), a semicolon, and the player's score in each round (a bye's is the
    spread it is given, a forfeit's below 0, an absence's 0). Pairings must agree both ways."""
    players = []
    for line in text.splitlines():
        if not line.strip():
            continue
        head, semicolon, tail = line.partition(";")
        assert semicolon, line
        tokens = head.split()
        first = next(i for i in range(len(tokens)) if all(_integer(t) for t in tokens[i:]))
        assert first > 0, line  # a name before the numbers
        numbers = [int(t) for t in tokens[first:]]
        scores = [int(t) for t in tail.split()]
        players.append(TshPlayer(" ".join(tokens[:first]), numbers[0], numbers[1:], scores))
        assert len(scores) == len(numbers) - 1, line
    for n, p in enumerate(players, 1):
        for rnd, opponent in enumerate(p.opponents):
            if opponent:
                assert players[opponent - 1].opponents[rnd] == n, (p.name, rnd)
    return players


def _integer(token):
    return token.lstrip("-").isdigit()


def record_of(players):
    """Each player's (wins, losses, spread) as TSH tallies them (TSH::Division::Synch): a
    game's result is (1 + (score <=> opponent's score)) / 2, so a tie is half a win; against
    opponent 0 the opponent's score is 0, and the round counts only when its spread is not 0
    (its config's ``zero_byes_tie`` is off by default): a score above 0 is a bye (a win),
    below 0 a forfeit (a loss), and 0 an absence, neither (its record report's "A")."""
    out = {}
    for p in players:
        wins = losses = spread = 0
        for rnd, (opponent, score) in enumerate(zip(p.opponents, p.scores, strict=True)):
            against = players[opponent - 1].scores[rnd] if opponent else 0
            if opponent or score != against:
                result = (1 + (score > against) - (score < against)) / 2
                wins, losses = wins + result, losses + 1 - result
            spread += score - against
        out[p.name] = (wins, losses, spread)
    return out


def absences(players):
    return sum((o, s) == (0, 0) for p in players for o, s in zip(p.opponents, p.scores, strict=True))


def test_a_season_of_byes_ties_voids_and_merges_reads_back_from_its_tsh_file(client, tables, clock):
    club = Club(client, tables, clock)
    first = club.round(["Anna", "Bence", "Csilla"])
    assert first["bye"] == "Csilla"
    board = first["tables"][0]
    club.play(board["code"], board["host_token"], "Anna", "Bence")
    clock.advance(WEEK)
    club.game("Cili", "Dani")  # Csilla, typing her nickname: merged below
    tie = club.game("Anna", "Dani")
    assert club.correct(tie["code"], 1, "correct", "the last rack was miscounted",
                        scores={"Anna": 300, "Dani": 300}).status_code == 201
    short = club.game("Bence", "Dani")
    assert club.correct(short["code"], 1, "void", "played with a short bag").status_code == 201
    assert club.change("merge", player="Cili", into="Csilla").status_code == 200
    clock.advance(WEEK)
    second = club.round(["Anna", "Bence", "Csilla", "Dani", "Emese"])
    for t in second["tables"]:
        club.play(t["code"], t["host_token"], *t["players"])
    r = client.get(f"/api/leagues/{club.id}/record?format=tsh", headers=club.auth())
    assert r.status_code == 200 and r.mimetype == "text/plain"
    assert f'filename="league-{club.id}.t"' in r.headers["Content-Disposition"]
    players = read_tsh(r.get_data(as_text=True))
    standings = club.standings()["standings"]
    # A line per player, in the standings' order: Cili is Csilla; the void is nobody's game.
    assert [p.name for p in players] == [row["name"] for row in standings]
    # An absence (a round by time the player had no game in) is neither a win nor a loss:
    # it was written 0 against 0, which TSH's tally reads as a round not played, not a tie.
    assert absences(players) > 0
    assert record_of(players) == {row["name"]: (row["wins"], row["games"] - row["wins"],
                                                row["spread"] + BYE * row["byes"]) for row in standings}
    games = sum(o != 0 for p in players for o in p.opponents) // 2
    assert games == 1 + 2 + len(second["tables"])  # round 1, Cili's and the tie, round 2
    ratings = {row["name"]: row["rating"] for row in standings}
    assert all(p.rating == max(0, round(ratings[p.name] * 100)) for p in players)


def test_the_tsh_file_keeps_the_format_whatever_the_names(client, tables, clock):
    """A name is everything before the rating: a token of digits only would be read as the
    rating, and a semicolon would end the pairings."""
    club = Club(client, tables, clock)
    club.game("Table 7", "Ann;Bob")
    players = read_tsh(client.get(f"/api/leagues/{club.id}/record?format=tsh", headers=club.auth())
                       .get_data(as_text=True))
    assert sorted(p.name for p in players) == ["Ann,Bob", "Table #7"]


def test_only_the_organiser_reads_the_record_in_a_format_it_has(client, tables, clock):
    club = Club(client, tables, clock)
    club.game("Anna", "Bence")
    r = client.get(f"/api/leagues/{club.id}/record?format=tsh")
    assert (r.status_code, r.get_json()["error"]["code"]) == (401, "auth/bad_token")
    for fmt in ("json", "xml", "t", ""):
        r = client.get(f"/api/leagues/{club.id}/record?format={fmt}", headers=club.auth())
        assert (r.status_code, r.get_json()["error"]["code"]) == (400, "record/bad_format"), fmt


@pytest.fixture
def renamed_and_merged(client, tables, clock):
    """Dani beats Bence; Daniella, on a new phone, loses to Csilla; the director renames
    Bence to Béni and merges Daniella into Dani."""
    club = Club(client, tables, clock)
    club.game("Dani", "Bence")
    club.game("Csilla", "Daniella")
    assert club.change("rename", player="Bence", name="Béni").status_code == 200
    assert club.change("merge", player="Daniella", into="Dani").status_code == 200
    return club


def test_every_export_names_people_as_the_league_does(client, renamed_and_merged):
    club = renamed_and_merged
    names = {"Dani", "Béni", "Csilla"}
    standings = from_csv(client.get(f"/api/leagues/{club.id}?format=csv").get_data(as_text=True))
    assert {row["name"] for row in standings} == names
    record = from_csv(client.get(f"/api/leagues/{club.id}/record?format=csv", headers=club.auth())
                      .get_data(as_text=True))
    assert {row["name"] for row in record} == names
    bg = client.get(f"/api/leagues/{club.id}/record?format=bgstats", headers=club.auth()).get_json()
    assert {p["name"] for p in bg["players"]} == names and len(bg["players"]) == 3
    tsh = read_tsh(client.get(f"/api/leagues/{club.id}/record?format=tsh", headers=club.auth())
                   .get_data(as_text=True))
    assert {p.name for p in tsh} == names and len(tsh) == 3


def test_the_leagues_record_lists_games_in_the_order_played(client, tables, clock):
    """Table by table, a later game at one table came before an earlier one at another."""
    club = Club(client, tables, clock)
    made = [tables.create("blanko", draw_start=False, league=club.id) for _ in range(3)]
    for t, (winner, loser) in zip(reversed(made), [("Anna", "Bence"), ("Csilla", "Dani"), ("Anna", "Dani")],
                                  strict=True):
        club.play(t["code"], t["host_token"], winner, loser)
    order = [t["code"] for t in reversed(made)]
    rows = from_csv(client.get(f"/api/leagues/{club.id}/record?format=csv", headers=club.auth())
                    .get_data(as_text=True))
    assert list(dict.fromkeys(row["table"] for row in rows)) == order
    bg = client.get(f"/api/leagues/{club.id}/record?format=bgstats", headers=club.auth()).get_json()
    assert [p["comments"].split(",")[0].removeprefix("Table ") for p in bg["plays"]] == order


def _record(client, club, fmt, **query):
    r = client.get(f"/api/leagues/{club.id}/record", query_string={"format": fmt, **query},
                   headers=club.auth())
    assert r.status_code == 200, r.get_json()
    return from_csv(r.get_data(as_text=True)) if fmt == "csv" else r.get_json()


@pytest.fixture
def ruled(client, tables, clock):
    """Anna beats Bence (kept); Bence beats Dani with a short bag (voided); Anna beats Dani by
    the table, but the director corrects it to Dani's win (the last rack was miscounted)."""
    club = Club(client, tables, clock)
    kept = club.game("Anna", "Bence")
    short = club.game("Bence", "Dani")
    assert club.correct(short["code"], 1, "void", "played with a short bag").status_code == 201
    miscounted = club.game("Anna", "Dani")
    assert club.correct(miscounted["code"], 1, "correct", "the last rack was miscounted",
                        scores={"Anna": 300, "Dani": 310}).status_code == 201
    return club, kept["code"], short["code"], miscounted


def test_the_leagues_record_csv_carries_the_directors_rulings(client, ruled):
    """A voided game was listed as if it counted, and a corrected one as the table had it."""
    club, kept, short, miscounted = ruled
    rows = _record(client, club, "csv")
    at = {(r["table"], r["name"]): r for r in rows}
    assert {(r["counts"], r["ruling"]) for r in rows if r["table"] == kept} == {("1", "")}
    assert {(r["counts"], r["ruling"]) for r in rows if r["table"] == short} == {
        ("0", "void: played with a short bag")}
    code = miscounted["code"]
    assert (at[code, "Anna"]["score"], at[code, "Anna"]["winner"]) == ("300", "0")
    assert (at[code, "Dani"]["score"], at[code, "Dani"]["winner"]) == ("310", "1")
    table_said = _record_of_table(client, code, miscounted["host_token"])
    recorded = ", ".join(f"{r['name']} {r['score']}" for r in table_said)
    assert at[code, "Dani"]["counts"] == "1"
    assert at[code, "Dani"]["ruling"] == (
        f"correct: the last rack was miscounted (the table recorded {recorded})")
    # In a language, the headers and the ruling are worded from the catalogue.
    worded = _record(client, club, "csv", lang="hu")
    voided = next(r for r in worded if r["Asztal"] == short)
    assert (voided["Beszámít"], voided["Döntés"]) == ("0", "Törölve: played with a short bag")


def test_the_leagues_bg_stats_file_ignores_a_voided_play_and_has_a_corrected_one_as_ruled(client, ruled):
    club, kept, short, miscounted = ruled
    doc = _record(client, club, "bgstats")
    names = {p["id"]: p["name"] for p in doc["players"]}
    plays = {p["comments"].split(",")[0].removeprefix("Table "): p for p in doc["plays"]}
    assert plays[kept]["ignored"] is False and plays[kept]["comments"].count(".") == 0
    assert plays[short]["ignored"] is True
    assert plays[short]["comments"].endswith(": final. Voided: played with a short bag")
    corrected = plays[miscounted["code"]]
    assert corrected["ignored"] is False
    scores = {names[s["playerRefId"]]: (s["score"], s["winner"], s["rank"])
              for s in corrected["playerScores"]}
    assert scores == {"Anna": ("300", False, 2), "Dani": ("310", True, 1)}
    assert ". Corrected: the last rack was miscounted (the table recorded Anna " in corrected["comments"]


def test_a_tables_own_record_stays_as_the_table_played_it(client, ruled):
    """The rulings are the league's: the table's record (its host's, its players') is unchanged."""
    club, _kept, short, miscounted = ruled
    rows = _record_of_table(client, miscounted["code"], miscounted["host_token"])
    assert "counts" not in rows[0] and "ruling" not in rows[0]
    assert {r["name"]: r["winner"] for r in rows} == {"Anna": "1", "Dani": "0"}


def _record_of_table(client, code, token):
    r = client.get(f"/api/tables/{code}/record", query_string={"format": "csv"},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    return from_csv(r.get_data(as_text=True))
