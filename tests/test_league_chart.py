"""The rating chart's data (league/ratings.py): a point per evening, and game by game while the
league has had one evening (#43: it appeared only from the second evening, a line needing two
points)."""

from test_league import HOUR, WEEK, one_on_one

from companion.league.ratings import standings

NAMES = {n: n for n in ("Anna", "Bence", "Csilla", "Dani")}


def test_the_first_evening_is_charted_game_by_game():
    played = [one_on_one(0, "Anna", "Bence"), one_on_one(HOUR, "Dani", "Csilla"),
              one_on_one(2 * HOUR, "Anna", "Dani")]
    rows, chart = standings(played, [], NAMES)
    # A point after each game, each player from their first game on, as the standings stood.
    assert [(e["evening"], e["from_ms"], sorted(e["ratings"])) for e in chart] == [
        (1, 0, ["Anna", "Bence"]), (1, HOUR, ["Anna", "Bence", "Csilla", "Dani"]),
        (1, 2 * HOUR, ["Anna", "Bence", "Csilla", "Dani"])]
    assert chart[0]["ratings"] == {"Anna": 3.438, "Bence": -1.833}
    assert chart[1]["ratings"]["Dani"] == 3.438
    assert chart[-1]["ratings"] == {r["player"]: r["rating"] for r in rows}


def test_from_the_second_evening_a_point_per_evening():
    played = [one_on_one(0, "Anna", "Bence"), one_on_one(HOUR, "Dani", "Csilla"),
              one_on_one(WEEK, "Anna", "Dani"), one_on_one(WEEK + HOUR, "Bence", "Csilla")]
    rows, chart = standings(played, [], NAMES)
    assert [(e["evening"], e["from_ms"]) for e in chart] == [(1, 0), (2, WEEK)]
    assert chart[0]["ratings"] == {"Anna": 3.438, "Bence": -1.833, "Csilla": -1.833, "Dani": 3.438}
    assert chart[-1]["ratings"] == {r["player"]: r["rating"] for r in rows}


def test_no_game_no_chart():
    assert standings([], ["Anna"], NAMES)[1] == []
