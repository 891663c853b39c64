"""The league's pure core: finishing orders from games' records, OpenSkill ratings and
standings, Swiss pairings; and the worked example of docs/league.md, worked out by hand."""

import math
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from companion.league.order import Result, result_of
from companion.league.pairings import Round, pair
from companion.league.ratings import standings

HOUR = 3_600_000
WEEK = 7 * 24 * HOUR


def record(game, scores=None, winners=(), ended_ms=1000, removed=()):
    players = list(scores) if scores else ["p1", "p2", "p3"]
    return {"game": game, "ended_ms": ended_ms, "winners": list(winners), "scores": scores or {},
            "players": [{"player_id": p, "name": p, "seat": i, "removed": p in removed}
                        for i, p in enumerate(players)]}


def named(pid):
    return pid.upper()


def test_blanko_ranks_by_score_and_equal_scores_tie():
    r = result_of(record("blanko", {"p1": 120, "p2": 180, "p3": 120}, winners=["p2"]), named)
    assert r.order == (("P2",), ("P1", "P3"))
    assert r.winners == {"P2"} and r.players == ("P1", "P2", "P3")


def test_blank_puts_the_winner_first_then_fewer_cards_left():
    # BLANK's record scores minus the cards in hand.
    r = result_of(record("blank", {"p1": -3, "p2": 0, "p3": -1, "p4": -3}, winners=["p2"]), named)
    assert r.order == (("P2",), ("P3",), ("P1", "P4"))


def test_bldng_puts_the_winner_first_and_the_rest_tie():
    r = result_of(record("bldng", {}, winners=["p3"]), named)
    assert r.order == (("P3",), ("P1", "P2"))


def test_rank_and_file_counts_the_teams_result_as_wins_and_is_not_rated():
    won = result_of(record("rankfile", {}, winners=["p1", "p2", "p3"]), named)
    lost = result_of(record("rankfile", {}, winners=[]), named)
    assert won.order is None and won.winners == {"P1", "P2", "P3"}
    assert lost.winners == frozenset()
    rows, _ = standings([won, lost], [], {"P1": "a", "P2": "b", "P3": "c"})
    assert {(r["name"], r["games"], r["wins"], r["rating"]) for r in rows} == {
        ("a", 2, 1, 0.0), ("b", 2, 1, 0.0), ("c", 2, 1, 0.0)}


def test_a_game_still_played_does_not_count_and_a_removed_seat_is_left_out():
    assert result_of(record("blanko", {"p1": 10, "p2": 0}, ended_ms=None), named) is None
    r = result_of(record("blanko", {"p1": 10, "p2": 0, "p3": 30}, removed=["p3"]), named)
    assert r.order == (("P1",), ("P2",)) and r.players == ("P1", "P2")


def one_on_one(ts, winner, loser):
    return Result(ts, "blanko", (winner, loser), frozenset([winner]), ((winner,), (loser,)))


def test_one_lucky_game_does_not_top_a_steady_record():
    games = [one_on_one(i, "Old", "Foe") for i in range(6)] + [one_on_one(10, "Lucky", "Foe2")]
    rows, _ = standings(games, [], {k: k for k in ("Old", "Foe", "Lucky", "Foe2")})
    assert [r["name"] for r in rows][:2] == ["Old", "Lucky"]


def test_four_people_over_three_evenings():
    """docs/league.md's worked example. BLANKO one-on-one, paired by the Swiss system."""
    names = {n: n for n in ("Anna", "Bence", "Csilla", "Dani")}
    # Evening 1: everyone new, all equal: standings by name, neighbours meet.
    assert pair(["Anna", "Bence", "Csilla", "Dani"], set(), {}) == Round(
        (("Anna", "Bence"), ("Csilla", "Dani")), None)
    played = [one_on_one(0, "Anna", "Bence"), one_on_one(HOUR, "Dani", "Csilla")]
    rows, _ = standings(played, [], names)
    # By hand, Plackett–Luce from mu = 25, sigma = 25/3, beta = 25/6, two players:
    # c² = 2·beta² + 2·sigma² = 173.61, c = 13.176; each wins with p = 1/2;
    # the winner's mu += sigma²/c · (1 − p) = 69.44 / 13.176 · 0.5 = 2.635, the loser's −= as much;
    # sigma² ·= 1 − (sigma²/c²) · p(1 − p) · (sigma/c) = 1 − 0.4 · 0.25 · 0.6325, sigma = 8.066;
    # rating = mu − 3·sigma: 27.635 − 24.198 = 3.438 and 22.365 − 24.198 = −1.833.
    assert [(r["name"], r["wins"], r["rating"]) for r in rows] == [
        ("Anna", 1, 3.438), ("Dani", 1, 3.438), ("Bence", 0, -1.833), ("Csilla", 0, -1.833)]
    assert math.isclose(rows[0]["mu"], 27.635) and math.isclose(rows[0]["sigma"], 8.066)
    met = {frozenset(g.players) for g in played}
    # Evening 2 (a week on): the two winners meet, and the two losers.
    assert pair([r["player"] for r in rows], met, {}) == Round((("Anna", "Dani"), ("Bence", "Csilla")), None)
    played += [one_on_one(WEEK, "Anna", "Dani"), one_on_one(WEEK + HOUR, "Bence", "Csilla")]
    rows, _ = standings(played, [], names)
    # Dani and Bence each won once and lost once; Dani's win came first, when ratings moved most.
    assert [(r["name"], r["games"], r["wins"], r["rating"]) for r in rows] == [
        ("Anna", 2, 2, 6.732), ("Dani", 2, 1, 1.665), ("Bence", 2, 1, 1.461), ("Csilla", 2, 0, -3.606)]
    met |= {frozenset(g.players) for g in played}
    # Evening 3: Anna has met Dani and Bence, so she meets Csilla; Dani meets Bence.
    assert pair([r["player"] for r in rows], met, {}) == Round((("Anna", "Csilla"), ("Dani", "Bence")), None)
    played += [one_on_one(2 * WEEK, "Csilla", "Anna"), one_on_one(2 * WEEK + HOUR, "Dani", "Bence")]
    rows, chart = standings(played, [], names)
    # Csilla's upset costs Anna the top: she lost to the lowest rated, Dani to Anna, then the top.
    assert [(r["name"], r["games"], r["wins"], r["rating"]) for r in rows] == [
        ("Dani", 3, 2, 4.803), ("Anna", 3, 2, 3.952), ("Csilla", 3, 1, 0.393), ("Bence", 3, 1, -0.235)]
    assert [e["ratings"]["Anna"] for e in chart] == [3.438, 6.732, 3.952]
    met |= {frozenset(g.players) for g in played}
    # Evening 4: everyone has met everyone; a rematch cannot be avoided: neighbours meet.
    assert pair([r["player"] for r in rows], met, {}) == Round((("Dani", "Anna"), ("Csilla", "Bence")), None)


def test_an_odd_player_out_gets_a_bye_counted_as_a_win_and_never_twice():
    ranked = ["A", "B", "C", "D", "E"]
    first = pair(ranked, set(), {})
    assert first == Round((("A", "B"), ("C", "D")), "E")
    second = pair(ranked, {frozenset(p) for p in first.pairs}, {"E": 1})
    assert second.bye == "D"
    rows, _ = standings([], ["E"], {"E": "E"})
    assert (rows[0]["games"], rows[0]["wins"], rows[0]["byes"], rows[0]["rating"]) == (1, 1, 1, 0.0)


def test_rematch_is_avoided_before_the_lowest_bye():
    # Csilla, lowest, would leave Anna and Bence to meet again; Bence sits out instead.
    assert pair(["Anna", "Bence", "Csilla"], {frozenset(("Anna", "Bence"))}, {}) == Round(
        (("Anna", "Csilla"),), "Bence")


@given(st.integers(2, 9), st.sets(st.tuples(st.integers(0, 8), st.integers(0, 8))), st.data())
def test_pairings_seat_everyone_once_and_avoid_rematches_when_they_can(n, raw_met, data):
    players = [f"p{i}" for i in range(n)]
    met = {frozenset((players[a], players[b])) for a, b in raw_met if a < n and b < n and a != b}
    byes = {p: data.draw(st.integers(0, 2)) for p in players}
    r = pair(players, met, byes)
    seated = [p for pr in r.pairs for p in pr] + ([r.bye] if r.bye else [])
    assert sorted(seated) == sorted(players)
    if n % 2:
        assert byes[r.bye] == min(byes.values())
    else:
        assert r.bye is None
    possible = any(
        _perfect([p for p in players if p != bye], met)
        for bye in ([None] if n % 2 == 0 else [p for p in players if byes[p] == min(byes.values())]))
    assert all(frozenset(pr) not in met for pr in r.pairs) == possible


def _perfect(rest, met):
    if not rest:
        return True
    return any(frozenset((rest[0], o)) not in met and _perfect([p for p in rest[1:] if p != o], met)
               for o in rest[1:])




def test_a_name_is_the_person_and_the_director_keeps_the_roster():
    from companion.league.players import Roster
    r = Roster()
    for name, phone in [("Anna", "P-anna"), ("anna", "P-new"), ("\u0410nna", None), ("Lee", "P-anna"),
                        ("Dani", None), ("Daniella", None)]:
        r.see(name, phone)
    anna = r.seat("Anna")
    assert r.seat("ANNA") == r.seat("\u0410nna") == anna and r.name_of(anna) == "Anna"  # first spelling
    assert r.seat("Lee") != anna  # a borrowed phone makes nobody someone else
    assert r.resolve("person:P-anna") == anna  # an older release's round kept her phone
    assert r.seat("Emese") == "name:Emese" and not r.knows("Emese")  # a newcomer
    r.rename("dani", "Dan")
    assert r.seat("Dani") == r.seat("Dan") == "name:Dan"
    r.withdraw("Dan")
    r.merge("Dan", "Daniella")  # shown and withdrawn as the one merged into
    assert r.seat("Dani") == r.seat("Dan") == r.seat("Daniella") == "name:Daniella"
    assert not r.withdrawn("name:Daniella")
    r.withdraw("Dani")
    assert r.withdrawn(r.seat("Daniella"))
    r.withdraw("Daniella", out=False)
    assert not r.withdrawn(r.seat("Dani"))


def test_a_forgotten_seat_is_nobody_and_has_no_row():
    """The server's host deleted a player's history (companion forget): their seats keep no
    name and no identity. Each is nobody of the league, and no two are one player."""
    from companion.league.players import Roster
    r = Roster()
    a, b = r.seat(""), r.seat("")
    assert a != b and r.name_of(a) == ""
    games = [one_on_one(0, a, "Bence"), one_on_one(1, b, "Bence")]
    rows, _ = standings(games, [], {a: "", b: "", "Bence": "Bence"})
    assert [(row["rank"], row["name"], row["games"]) for row in rows] == [(1, "Bence", 2)]


def test_when_a_rematch_cannot_be_avoided_the_others_still_meet_someone_new():
    # Of six players only C and F have not met: A meets B again, but C meets F (not D, the
    # neighbour, again), which leaves D and E.
    everyone = {frozenset(p) for p in combinations("ABCDEF", 2)} - {frozenset("CF")}
    assert pair(list("ABCDEF"), everyone, {}).pairs == (("A", "B"), ("C", "F"), ("D", "E"))
