"""The league's pure core: finishing orders from games' records, OpenSkill ratings and
standings, Swiss pairings; and the worked example of docs/league.md, worked out by hand."""

import math
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from companion.league.order import Result, corrected, result_of
from companion.league.pairings import Round, pair
from companion.league.ratings import standings

HOUR = 3_600_000
WEEK = 7 * 24 * HOUR


def record(game, scores=None, winners=(), ended_ms=1000, removed=(), won_ms=None, outcome=None):
    """A game as companion/record/games.py keeps it (``won_ms``: when its winners were named)."""
    players = list(scores) if scores else ["p1", "p2", "p3"]
    return {"game": game, "ended_ms": ended_ms, "won_ms": ended_ms if won_ms is None else won_ms,
            "winners": list(winners), "scores": scores or {}, "result": {"outcome": outcome or "final"},
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
    won = result_of(record("rankfile", {}, winners=["p1", "p2", "p3"], outcome="won"), named)
    lost = result_of(record("rankfile", {}, winners=[], outcome="lost"), named)
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


def test_a_game_ended_before_anyone_scored_counts_for_nobody():
    """#43: a BLANKO game the host ended at once, 0 : 0, was a win for both. The record names
    no winner of a game nobody scored in, and a game without a winner counts for nobody: so
    too BLANK and BLDNG ended before anyone won, and Rank & File ended before the deck or the
    team had the last word."""
    assert result_of(record("blanko", {"p1": 0, "p2": 0}, winners=[]), named) is None
    assert result_of(record("blank", {"p1": -5, "p2": -6}, winners=[], outcome="unfinished"), named) is None
    assert result_of(record("bldng", {}, winners=[], outcome="unfinished"), named) is None
    assert result_of(record("rankfile", {}, winners=[], outcome="unfinished"), named) is None
    assert standings([], [], {}) == ([], [])


def test_a_blank_game_counts_when_it_is_won():
    """#43: BLANK's game ends once the deck's owner approves the winner's prize; a game whose
    prize nobody wrote never ended, and never counted. It counts from the win, and at the
    time of the win, however long the prize takes."""
    waiting = record("blank", {"p1": 0, "p2": -4}, winners=["p1"], ended_ms=None, won_ms=500, outcome="won")
    r = result_of(waiting, named)
    assert r.ended_ms == 500 and r.winners == {"P1"} and r.order == (("P1",), ("P2",))
    approved = record("blank", {"p1": 0, "p2": -4}, winners=["p1"], ended_ms=9000, won_ms=500)
    assert result_of(approved, named).ended_ms == 500
    assert result_of(record("blank", {"p1": -1, "p2": -4}, ended_ms=None, won_ms=None), named) is None


def test_a_shared_first_place_is_a_share_of_a_win_and_a_tie_in_the_rating():
    """#43: a 2-player tie was a full win for both and moved no rating. As Scrabble clubs
    count it, a first place shared by k players is 1/k of a win each, and OpenSkill rates it
    as a tie: two newcomers tying both stand at the model's figure (0.802: mu stays 25, sigma
    shrinks as for a win, to 8.066). They are on the chart too."""
    model = PlackettLuce()
    [[tied], _] = model.rate([[model.rating()], [model.rating()]], ranks=[0.0, 0.0])
    expected = round(tied.ordinal(), 3)
    assert expected == 0.802
    tie = result_of(record("blanko", {"p1": 150, "p2": 150}, winners=["p1", "p2"]), named)
    assert tie.order == (("P1", "P2"),)
    rows, chart = standings([tie], [], {"P1": "Anna", "P2": "Bence"})
    assert [(r["name"], r["games"], r["wins"], r["rating"]) for r in rows] == [
        ("Anna", 1, 0.5, expected), ("Bence", 1, 0.5, expected)]
    assert chart == [{"evening": 1, "from_ms": 1000, "ratings": {"P1": expected, "P2": expected}}]
    # Three at a table, two sharing the top: half a win each; a three-way tie: a third each.
    shared = result_of(record("blanko", {"p1": 90, "p2": 150, "p3": 150}, winners=["p2", "p3"]), named)
    rows, _ = standings([shared], [], {"P1": "a", "P2": "b", "P3": "c"})
    assert {r["name"]: r["wins"] for r in rows} == {"a": 0, "b": 0.5, "c": 0.5}
    three = result_of(record("blanko", {"p1": 9, "p2": 9, "p3": 9}, winners=["p1", "p2", "p3"]), named)
    rows, _ = standings([three, three, three], [], {"P1": "a", "P2": "b", "P3": "c"})
    assert {r["name"]: r["wins"] for r in rows} == {"a": 1, "b": 1, "c": 1}  # exactly: 3 × 1/3


def test_spread_is_points_for_minus_against_one_on_one_and_breaks_a_tie():
    """#43: the spread (points for minus points against in BLANKO's one-on-one games) is
    shown and breaks a tie in the standings, as in every Scrabble club: Zed and Anna, both
    new winners at 3.438, stand by it, not by name."""
    def game(ts, a, sa, b, sb):
        return result_of(record("blanko", {a: sa, b: sb}, winners=[a if sa > sb else b], ended_ms=ts), named)
    played = [game(0, "ann", 300, "bob", 290), game(1, "zed", 320, "cy", 200)]
    rows, _ = standings(played, [], {"ANN": "Anna", "BOB": "Bob", "ZED": "Zed", "CY": "Cy"})
    assert [(r["name"], r["rating"], r["spread"]) for r in rows] == [
        ("Zed", 3.438, 120), ("Anna", 3.438, 10), ("Bob", -1.833, -10), ("Cy", -1.833, -120)]
    # Three at a table, and BLANK's cards left, are no one-on-one points.
    more = [result_of(record("blanko", {"p1": 90, "p2": 150, "p3": 120}, winners=["p2"]), named),
            result_of(record("blank", {"p1": 0, "p2": -7}, winners=["p1"]), named)]
    rows, _ = standings(more, [], {"P1": "a", "P2": "b", "P3": "c"})
    assert {r["spread"] for r in rows} == {0}


def test_a_void_counts_for_nobody_and_a_correction_is_read_as_the_game():
    """The director's word on a game (league/store.py keeps it with its reason): void, a
    corrected result (BLANKO's scores, another game's winners), or the table's own again."""
    g = record("blanko", {"p1": 10, "p2": 0}, winners=["p1"])
    assert corrected(g, {"action": "void"}) is None
    fixed = result_of(corrected(g, {"action": "correct", "scores": {"p1": 10, "p2": 30}}), named)
    assert fixed.order == (("P2",), ("P1",)) and fixed.winners == {"P2"}
    assert fixed.scores == {"P1": 10, "P2": 30}
    assert result_of(corrected(g, {"action": "restore"}), named) == result_of(g, named)
    abandoned = record("blanko", {"p1": 0, "p2": 0}, winners=[])
    assert result_of(corrected(abandoned, {"action": "correct", "scores": {"p1": 0, "p2": 0}}), named) is None
    blank = record("blank", {"p1": 0, "p2": -3}, winners=["p1"])
    other = result_of(corrected(blank, {"action": "correct", "winners": ["p2"]}), named)
    assert other.order == (("P2",), ("P1",)) and other.winners == {"P2"}
    assert g["winners"] == ["p1"]  # the table's record is left as it is


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
    # Dani and Anna tie, 330 : 330; Csilla beats Bence, but they played with a short bag and
    # the organiser voids it: it counts for nobody.
    tie = record("blanko", {"Dani": 330, "Anna": 330}, ended_ms=3 * WEEK)
    voided = record("blanko", {"Csilla": 310, "Bence": 280}, ended_ms=3 * WEEK + HOUR)
    assert corrected(voided, {"action": "void"}) is None
    played += [result_of(tie, str)]
    rows, chart = standings(played, [], names)
    # By hand, the tie (see the first evening; tau = 25/300 first adds tau² to each sigma²):
    # Dani mu 27.519, sigma² 57.340; Anna mu 26.779, sigma² 57.906; c² = 57.340 + 57.906 +
    # 2·beta² = 149.968, c = 12.246; Dani first with p = 1 / (1 + e^((26.779 − 27.519)/c)) = 0.515.
    # A tie moves each by sigma²/c · (1/2 − p): Dani −0.071 to 27.448, Anna +0.071 to 26.851;
    # sigma² ·= 1 − sigma²/c² · p(1 − p) · sigma/c: Dani 7.345, Anna 7.378 (as a decided game).
    assert [(r["name"], r["games"], r["wins"], r["rating"]) for r in rows] == [
        ("Dani", 4, 2.5, 5.412), ("Anna", 4, 2.5, 4.716), ("Csilla", 3, 1, 0.393), ("Bence", 3, 1, -0.235)]
    assert [e["ratings"]["Anna"] for e in chart] == [3.438, 6.732, 3.952, 4.716]
    met |= {frozenset(("Csilla", "Bence"))}  # paired, though their game was voided
    # Evening 5: Emese comes, listed last: a newcomer, she is the lowest placed and sits out
    # (every pairing of the others is a rematch); the others meet as on evening 4.
    wins = {r["player"]: r["wins"] for r in rows}
    assert pair([r["player"] for r in rows] + ["Emese"], met, {}, wins) == Round(
        (("Dani", "Anna"), ("Csilla", "Bence")), "Emese")
    played += [one_on_one(4 * WEEK, "Anna", "Dani"), one_on_one(4 * WEEK + HOUR, "Bence", "Csilla")]
    rows, chart = standings(played, ["Emese"], {**names, "Emese": "Emese"})
    # By hand (tau² added first, as on evening 4): Anna mu 26.851, sigma² 54.442; Dani mu 27.448,
    # sigma² 53.956; c² = 143.120, c = 11.963; Anna wins with p = 1 / (1 + e^(0.597/c)) = 0.488:
    # her mu += 54.442/c · 0.512 = 2.332 to 29.183, Dani's −= 53.956/c · 0.512 = 2.311 to 25.137.
    # Bence (22.481, 57.342) beats Csilla (23.221, 57.904): c = 12.246, p = 0.485, his mu +2.412
    # to 24.893, hers −2.436 to 20.785. The bye: a game and a win for Emese, no rating moved:
    # she stands at 25 − 3 · 25/3 = 0, above Csilla.
    assert [(r["name"], r["games"], r["wins"], r["byes"], r["rating"]) for r in rows] == [
        ("Anna", 5, 3.5, 0, 7.706), ("Dani", 5, 2.5, 0, 3.746), ("Bence", 4, 2, 0, 2.857),
        ("Emese", 1, 1, 1, 0.0), ("Csilla", 4, 1, 0, -1.349)]
    assert [(r["mu"], r["sigma"]) for r in rows[:3]] == [(29.183, 7.159), (25.137, 7.13), (24.893, 7.345)]
    assert [e["ratings"]["Anna"] for e in chart] == [3.438, 6.732, 3.952, 4.716, 7.706]
    # Next, the bye goes to the lowest placed who has had none.
    met |= {frozenset(g.players) for g in played}
    wins = {r["player"]: r["wins"] for r in rows}
    assert pair([r["player"] for r in rows], met, {"Emese": 1}, wins).bye == "Csilla"


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
