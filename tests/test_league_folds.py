"""A league read again is rated from an earlier fold of its games (league/ratings.py, Folds):
whatever changed since (games added, a ruling on an old game, a merge), the standings and the
chart are those of rating every game anew."""

from hypothesis import given, settings
from hypothesis import strategies as st
from test_league import record

from companion.league import ratings
from companion.league.order import Result, result_of
from companion.league.ratings import Folds, standings, standings_of

HOUR = 3_600_000
PEOPLE = ("Anna", "Bence", "Csilla", "Dani", "Emese")


def game(i, a, b, score_a, score_b):
    """The ``i``-th game: BLANKO one-on-one, three an evening."""
    order = ((a, b),) if score_a == score_b else ((a,), (b,)) if score_a > score_b else ((b,), (a,))
    winners = frozenset(order[0])
    return Result((i // 3) * 24 * HOUR + (i % 3) * HOUR, "blanko", (a, b), winners, order,
                  {a: score_a, b: score_b})


games = st.lists(st.tuples(st.sampled_from(PEOPLE), st.sampled_from(PEOPLE), st.integers(0, 3),
                           st.integers(0, 3)).filter(lambda g: g[0] != g[1]), max_size=14)


def season(raw):
    return [game(i, *g) for i, g in enumerate(raw)]


@settings(max_examples=60, deadline=None)
@given(games, games, st.integers(0, 20), st.lists(st.integers(0, 3), max_size=3))
def test_a_league_read_again_stands_as_if_rated_anew(first, more, changed_at, byes):
    names = {p: p for p in PEOPLE}
    bye_names = [PEOPLE[i] for i in byes]
    folds = Folds()
    for results in (season(first), season(first + more), _changed(season(first + more), changed_at),
                    season(first[:3])):
        assert standings_of(folds.of(results), bye_names, names) == standings(results, bye_names, names)


def _changed(results, at):
    """The season with game ``at`` ruled a tie (as the organiser's correction would)."""
    if at >= len(results):
        return results
    r = results[at]
    a, b = r.players
    tie = Result(r.ended_ms, r.game, r.players, frozenset(r.players), ((a, b),), {a: 1, b: 1})
    return [*results[:at], tie, *results[at + 1:]]


def test_only_what_changed_is_rated_again(monkeypatch):
    """A game added rates one game; a ruling on the 3rd of 600 re-rates from the start, one on
    the 590th from the checkpoint at 500."""
    rated = []
    add = ratings.Fold.add

    def counting(self, r):
        rated.append(r)
        add(self, r)

    monkeypatch.setattr(ratings.Fold, "add", counting)
    results = [game(i, PEOPLE[i % 5], PEOPLE[(i + 1) % 5], i % 4, 2) for i in range(600)]
    folds = Folds()
    folds.of(results[:599])
    rated.clear()
    folds.of(results)
    assert len(rated) == 1
    rated.clear()
    folds.of(_changed(results, 590))
    assert len(rated) == 600 - 500
    rated.clear()
    folds.of(_changed(results, 2))
    assert len(rated) == 600


def test_a_leagues_folded_tables_follow_a_deleted_history(client, tables, clock, app):
    """A league keeps its tables' folded logs while their last seq and names stand: deleting
    a player's history rewrites the log without a new seq, and must show at once, for a game
    played and for a table the player only sat down at."""
    from test_league_api import Club

    from companion.record.people import forget

    club = Club(client, tables, clock)
    club.game("Kim", "Bence")
    lobby = tables.create("blanko", draw_start=False, league=club.id)
    tables.join(lobby["code"], "Lee")
    assert {r["name"] for r in club.standings()["standings"]} == {"Kim", "Bence"}
    assert client.get(f"/api/leagues/{club.id}/room", headers=club.auth()).status_code == 200
    services = app.extensions["companion"]
    forget(services.store, name="Kim")
    forget(services.store, name="Lee")
    assert {r["name"] for r in club.standings()["standings"]} == {"Bence"}
    league = services.leagues.read(club.id)
    assert not league.roster.knows("Kim") and not league.roster.knows("Lee")


@given(st.sampled_from(["blanko", "blank", "bldng", "rankfile"]),
       st.lists(st.integers(-5, 5), min_size=1, max_size=5), st.data())
def test_a_game_read_by_its_seats_then_named_is_the_game_read_by_name(game_name, points, data):
    """The league reads each game once by its seats' player ids and names the seats at every
    reading (Result.of): the same as reading it by name."""
    scores = {f"p{i}": v for i, v in enumerate(points)}
    winners = data.draw(st.lists(st.sampled_from(sorted(scores)), max_size=len(scores), unique=True))
    removed = data.draw(st.lists(st.sampled_from(sorted(scores)), max_size=len(scores) - 1, unique=True))
    g = record(game_name, scores if game_name != "bldng" else None, winners=winners, removed=removed,
               outcome=data.draw(st.sampled_from(["won", "lost", "final"])))
    if game_name == "bldng":
        g["players"] = [{"player_id": p, "name": p, "seat": i, "removed": p in removed}
                        for i, p in enumerate(scores)]
    by_seat = result_of(g, str)
    assert (by_seat and by_seat.of({p: p.upper() for p in scores})) == result_of(g, str.upper)
