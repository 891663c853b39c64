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




def test_seats_link_by_identity_else_by_exact_name():
    from companion.league.players import Roster
    r = Roster()
    anna = r.seat("P-anna", "Anna")
    assert r.seat("P-anna", "Anni") == anna and r.names[anna] == "Anni"  # her phone, a new name
    bence = r.seat(None, "Bence")
    assert r.seat("P-bence", "Bence") == bence  # his phone adopts the name he played under
    assert r.seat(None, "Bence") == bence
    assert r.seat(None, "bence") != bence  # exactly the name
    assert r.clashes("P-other", "Bence") and not r.clashes("P-bence", "Bence")
    assert not r.clashes(None, "Bence") and not r.clashes("P-new", "Nobody")


def test_a_forgotten_seat_is_nobody_and_has_no_row():
    """The server's host deleted a player's history (companion forget): their seats keep no
    name and no identity. Each is nobody of the league, and no two are one player."""
    from companion.league.players import Roster
    r = Roster()
    a, b = r.seat(None, ""), r.seat(None, "")
    assert a != b
    games = [one_on_one(0, a, "Bence"), one_on_one(1, b, "Bence")]
    rows, _ = standings(games, [], {**r.names, "Bence": "Bence"})
    assert [(row["rank"], row["name"], row["games"]) for row in rows] == [(1, "Bence", 2)]


def test_when_a_rematch_cannot_be_avoided_the_others_still_meet_someone_new():
    # Of six players only C and F have not met: A meets B again, but C meets F (not D, the
    # neighbour, again), which leaves D and E.
    everyone = {frozenset(p) for p in combinations("ABCDEF", 2)} - {frozenset("CF")}
    assert pair(list("ABCDEF"), everyone, {}).pairs == (("A", "B"), ("C", "F"), ("D", "E"))


def _club_night():
    """#43's first evening: P3>P1, P6>P4, P4>P2, P1>P6, and P5 here for the first time."""
    played = [one_on_one(0, "P3", "P1"), one_on_one(1, "P6", "P4"),
              one_on_one(2, "P4", "P2"), one_on_one(3, "P1", "P6")]
    rows, _ = standings(played, [], {f"P{i}": f"P{i}" for i in range(1, 7)})
    ranked = [r["player"] for r in rows] + ["P5"]  # the newcomer last, as the API ranks them
    wins = {r["player"]: r["wins"] for r in rows}
    return ranked, {frozenset(g.players) for g in played}, wins


def test_pairs_follow_wins_not_rating():
    """#43: paired by rating, the six crossed win groups twice (P3–P4, P1–P2, P6–P5) where
    the four with a win and the two without can each meet within their group."""
    ranked, met, wins = _club_night()
    r = pair(ranked, met, {}, wins)
    assert {frozenset(p) for p in r.pairs} == {frozenset(("P3", "P6")), frozenset(("P1", "P4")),
                                               frozenset(("P2", "P5"))}
    assert r.bye is None
    assert all(wins.get(a, 0) == wins.get(b, 0) for a, b in r.pairs)


def test_within_a_group_top_meets_top_and_spread_orders_the_group():
    # Four with a win, rated A, B, C, D; two without, E and F.
    wins = {"A": 1, "B": 1, "C": 1, "D": 1}
    assert pair(list("ABCDEF"), set(), {}, wins).pairs == (("A", "B"), ("C", "D"), ("E", "F"))
    # Wins come before rating: E and F won, so they are the top group.
    assert pair(list("ABCDEF"), set(), {}, {"E": 1, "F": 1}).pairs == (("E", "F"), ("A", "B"), ("C", "D"))
    # Spread orders a group before rating: D's spread tops it, then C's.
    spread = {"D": 120, "C": 40, "A": -10}
    assert pair(list("ABCDEF"), set(), {}, wins, spread).pairs == (("D", "C"), ("B", "A"), ("E", "F"))


def test_an_odd_group_floats_its_lowest_down_to_the_next_groups_top():
    wins = {"A": 2, "B": 2, "C": 2, "D": 1, "E": 1, "F": 1, "G": 1, "H": 0}
    r = pair(list("ABCDEFGH"), set(), {}, wins)
    # C floats to D, and G to H: not C to H, two wins apart, though that is one pair across.
    assert r.pairs == (("A", "B"), ("C", "D"), ("E", "F"), ("G", "H"))
    # A rematch forces the float: A and B have met, so A meets C and B floats down.
    r = pair(list("ABCDEFGH"), {frozenset("AB")}, {}, wins)
    assert r.pairs == (("A", "C"), ("B", "D"), ("E", "F"), ("G", "H"))


def test_the_bye_goes_to_the_lowest_by_wins():
    # E is rated lowest but won; D, without a win, sits out.
    r = pair(list("ABCDE"), set(), {}, {"A": 1, "B": 1, "C": 1, "E": 1})
    assert r.bye == "D" and r.pairs == (("A", "B"), ("C", "E"))


def _crossings(pairs, wins):
    """How far the pairs cross score groups: each the square of the groups between its two."""
    levels = sorted(set(wins.values()), reverse=True)
    return sum((levels.index(wins[a]) - levels.index(wins[b])) ** 2 for a, b in pairs)


def _pairings(rest):
    """Every way to pair ``rest`` (brute force, for a handful of players)."""
    if not rest:
        yield []
        return
    for i in range(1, len(rest)):
        for tail in _pairings(rest[1:i] + rest[i + 1:]):
            yield [(rest[0], rest[i]), *tail]


@given(st.integers(2, 8), st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7))),
       st.lists(st.integers(0, 3), min_size=8, max_size=8), st.data())
def test_pairings_cross_win_groups_no_more_than_they_must(n, raw_met, raw_wins, data):
    """Against brute force: no rematch when a pairing without one exists (for the bye given),
    and no more crossing of win groups (each pair: the square of the groups between its two)
    than the least such a pairing needs."""
    players = [f"p{i}" for i in range(n)]
    met = {frozenset((players[a], players[b])) for a, b in raw_met if a < n and b < n and a != b}
    wins = dict(zip(players, raw_wins, strict=False))  # every player's, 0 included
    byes = {p: data.draw(st.integers(0, 1)) for p in players}
    r = pair(players, met, byes, wins)
    rest = [p for p in players if p != r.bye]
    every = list(_pairings(rest))
    fewest_rematches = min(sum(frozenset(p) in met for p in ps) for ps in every)
    assert sum(frozenset(p) in met for p in r.pairs) == fewest_rematches
    fair = [ps for ps in every if sum(frozenset(p) in met for p in ps) == fewest_rematches]
    assert _crossings(r.pairs, wins) == min(_crossings(ps, wins) for ps in fair)
