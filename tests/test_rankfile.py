"""Rank & File refereed from public information: games won and lost, every check, the helper."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.core.context import Context
from companion.games.core.errors import RuleViolation
from companion.games.rankfile.rows import COPIES, JOKER, new_row, possible_values, revealed_counts
from companion.games.rankfile.rules import RankAndFile

GAME = RankAndFile()
PLAYERS = ["a", "b", "c", "d"]


def started(**options):
    state = GAME.initial(GAME.options(options))
    for e in GAME.start(state, PLAYERS, Context(None, True, 0)):
        GAME.evolve(state, e)
    return state


def play(state, actor, verb, **fields):
    events = GAME.decide(state, {"type": f"rankfile.{verb}", **fields}, Context(actor, False, 0))
    for e in events:
        GAME.evolve(state, e)
    return events


def dealt_rows(seed=1, numbers=range(2, 11), players=PLAYERS):
    deck = [n for n in numbers for _ in range(COPIES)]
    random.Random(seed).shuffle(deck)
    size = len(deck) // len(players)
    return {p: sorted(deck[i * size:(i + 1) * size]) for i, p in enumerate(players)}


def test_a_perfect_team_wins():
    state, hands = started(), dealt_rows()
    while not state["over"]:
        me = state["turn"]["order"][state["turn"]["index"]]
        counts = revealed_counts(state["rows"])
        mine = [i for i, s in enumerate(state["rows"][me]) if s["value"] is None]
        done = next((n for n in set(hands[me][i] for i in mine)
                     if counts.get(n, 0) + sum(hands[me][i] == n for i in mine) == COPIES), None)
        if done is not None:
            play(state, me, "declare_done", number=done, positions=[i for i in mine if hands[me][i] == done])
            continue
        # Point at someone's hidden card whose number I also hold face down; with none, a
        # guess is a shot in the dark that costs an ace.
        target = next(((p, i) for p in PLAYERS if p != me for i, s in enumerate(state["rows"][p])
                       if s["value"] is None and any(hands[me][j] == hands[p][i] for j in mine)), None)
        if target is None:
            p, i = next((p, i) for p in PLAYERS if p != me for i, s in enumerate(state["rows"][p])
                        if s["value"] is None)
            play(state, me, "guess", player=p, position=i, number=2 if hands[p][i] != 2 else 3,
                 correct=False)
            continue
        n = hands[target[0]][target[1]]
        own = next(j for j in mine if hands[me][j] == n)
        play(state, me, "guess", player=target[0], position=target[1], number=n, correct=True,
             own_position=own)
    assert state["outcome"] == "won" and state["aces"] < 4
    assert GAME.result(state)["winners"] == PLAYERS


def test_four_wrong_guesses_lose():
    state = started()
    for i in range(4):
        me = state["turn"]["order"][state["turn"]["index"]]
        other = PLAYERS[(PLAYERS.index(me) + 1) % 4]
        play(state, me, "guess", player=other, position=i, number=10, correct=False)
    assert state["over"] and state["outcome"] == "lost"
    assert state["rows"]["b"][0]["wrong"] == [10]
    with pytest.raises(RuleViolation) as e:
        GAME.decide(state, {"type": "rankfile.guess"}, Context("a", False, 0))
    assert e.value.code == "table/game_over"


@pytest.mark.parametrize("actor, fields, code", [
    ("b", dict(player="c", position=0, number=2, correct=False), "table/not_your_turn"),
    ("a", dict(player="a", position=0, number=2, correct=False), "rankfile/own_row"),
    ("a", dict(player="x", position=0, number=2, correct=False), "rankfile/unknown_player"),
    ("a", dict(player="b", position=9, number=2, correct=False), "table/bad_field"),
    ("a", dict(player="b", position=0, number=11, correct=False), "table/bad_field"),
    ("a", dict(player="b", position=0, number=2), "table/missing_field"),
    ("a", dict(player="b", position=0, number=2, correct=True), "table/missing_field"),
])
def test_bad_guesses(actor, fields, code):
    state = started()
    with pytest.raises(RuleViolation) as e:
        play(state, actor, "guess", **fields)
    assert e.value.code == code


def test_consistency_checks():
    state = started()
    play(state, "a", "guess", player="b", position=4, number=6, correct=True, own_position=4)
    # b's row now has a 6 at position 4: a 5 after it breaks the ascending order.
    with pytest.raises(RuleViolation) as e:
        play(state, "b", "guess", player="c", position=0, number=5, correct=True, own_position=6)
    assert e.value.code == "rankfile/out_of_order"
    # Revealing an already face-up card.
    with pytest.raises(RuleViolation) as e:
        play(state, "b", "guess", player="a", position=4, number=6, correct=True, own_position=0)
    assert e.value.code == "rankfile/already_revealed"
    # A fifth 6 does not exist.
    play(state, "b", "guess", player="c", position=4, number=6, correct=True, own_position=5)
    with pytest.raises(RuleViolation) as e:
        play(state, "c", "guess", player="d", position=4, number=6, correct=True, own_position=3)
    assert e.value.code == "rankfile/too_many"
    # A number guessed wrong at a position cannot be revealed there later.
    play(state, "c", "guess", player="d", position=0, number=2, correct=False)
    with pytest.raises(RuleViolation) as e:
        play(state, "d", "guess", player="c", position=1, number=2, correct=True, own_position=0)
    assert e.value.code == "rankfile/guessed_wrong_before"


def test_a_reveal_that_leaves_a_card_no_possible_value_is_refused():
    state = started()
    play(state, "a", "guess", player="b", position=0, number=2, correct=True, own_position=0)
    # Two 2s are up. Another 2 at c's position 3 (and b's own position 1) would use all four,
    # yet c's positions 0-2, left of a 2, could then only be 2s.
    with pytest.raises(RuleViolation) as e:
        play(state, "b", "guess", player="c", position=3, number=2, correct=True, own_position=1)
    assert e.value.code == "rankfile/impossible"


def test_number_done_needs_the_rest_of_the_set():
    state = started()
    play(state, "a", "guess", player="b", position=0, number=2, correct=True, own_position=0)
    with pytest.raises(RuleViolation) as e:
        play(state, "b", "declare_done", number=2, positions=[1])
    assert e.value.code == "rankfile/not_complete"
    play(state, "b", "declare_done", number=2, positions=[1, 2])
    assert [s["value"] for s in state["rows"]["b"][:3]] == [2, 2, 2]


def test_kings_and_joker():
    state = started(kings=True, joker=True)
    play(state, "c", "declare_joker")
    assert len(state["rows"]["c"]) == 10
    play(state, "a", "king_guess", picks=[{"player": "b", "position": 0}, {"player": "c", "position": 0}],
         number=2, hit=1, own_position=0)
    assert state["rows"]["c"][0]["value"] == 2 and "a" in state["kings_used"]
    with pytest.raises(RuleViolation) as e:
        state["turn"]["index"] = 0
        play(state, "a", "king_guess", picks=[{"player": "b", "position": 1}, {"player": "c", "position": 1}],
             number=3, hit=None)
    assert e.value.code == "rankfile/king_used"
    with pytest.raises(RuleViolation) as e:
        play(state, "d", "declare_joker")
    assert e.value.code == "rankfile/joker_declared"
    row = state["rows"]["c"]
    for i in range(1, 10):
        row[i]["value"] = 3 + i // 4 if i < 9 else None  # leave only the last card down
    state["turn"]["index"] = 2
    play(state, "c", "reveal_joker")
    assert row[9]["value"] == JOKER


def brute_force(row, numbers, counts, joker):
    """Every completion of the row, enumerated; the values seen at each hidden position."""
    hidden = [i for i, s in enumerate(row) if s["value"] is None]
    avail = {n: COPIES - counts.get(n, 0) for n in numbers}
    choices = list(numbers) + ([JOKER] if joker else [])
    seen = [set() for _ in row]
    for combo in itertools.product(choices, repeat=len(hidden)):
        if joker and combo.count(JOKER) != 1:
            continue
        values = [s["value"] for s in row]
        for i, v in zip(hidden, combo, strict=True):
            if v != JOKER and v in row[i]["wrong"]:
                break
            values[i] = v
        else:
            numeric = [v for v in values if v != JOKER]
            used = {n: sum(1 for i, v in zip(hidden, combo, strict=True) if v == n) for n in numbers}
            if numeric == sorted(numeric) and all(used[n] <= avail[n] for n in numbers):
                for i, v in zip(hidden, combo, strict=True):
                    seen[i].add(v)
    return [sorted(s, key=lambda x: (isinstance(x, str), x)) for s in seen]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_helper_matches_brute_force(data):
    numbers = range(2, 2 + data.draw(st.integers(2, 5)))
    length = data.draw(st.integers(1, 5))
    row = new_row(length)
    for s in row:
        if data.draw(st.booleans()):
            s["value"] = data.draw(st.sampled_from(list(numbers)))
        else:
            s["wrong"] = data.draw(st.lists(st.sampled_from(list(numbers)), max_size=2, unique=True))
    counts = {n: data.draw(st.integers(0, COPIES)) for n in numbers}
    joker = data.draw(st.booleans())
    assert possible_values(row, numbers, counts, joker) == brute_force(row, numbers, counts, joker)


def face_up(state, player, **values):
    for pos, value in values.items():
        state["rows"][player][int(pos.removeprefix("p"))]["value"] = value


def test_wrong_is_refused_for_a_card_the_face_up_cards_force_to_be_that_number():
    state = started(kings=True)
    face_up(state, "b", p0=2, p2=2)
    # b's row shows 2 _ 2: the card between can only be a 2, so "wrong" means a misread card.
    with pytest.raises(RuleViolation) as e:
        play(state, "a", "guess", player="b", position=1, number=2, correct=False)
    assert e.value.code == "rankfile/cannot_be_wrong" and "2" in e.value.message
    assert state["aces"] == 0 and state["rows"]["b"][1]["wrong"] == []
    with pytest.raises(RuleViolation) as e:  # the King's two cards are checked the same way
        play(state, "a", "king_guess", number=2, hit=None,
             picks=[{"player": "c", "position": 0}, {"player": "b", "position": 1}])
    assert e.value.code == "rankfile/cannot_be_wrong"
    play(state, "a", "guess", player="b", position=3, number=2, correct=False)  # still possible
    assert state["rows"]["b"][3]["wrong"] == [2] and state["aces"] == 1


def test_a_right_guess_with_no_face_down_copy_of_ones_own_flips_only_the_target():
    state = started()
    # a says it holds no other face-down 5: only b's card flips, and the helper learns that
    # none of a's face-down cards is a 5.
    events = play(state, "a", "guess", player="b", position=4, number=5, correct=True, own_position=None)
    assert events[0]["reveals"] == [["b", 4]] and events[0]["none_of_mine"] is True
    assert state["rows"]["b"][4]["value"] == 5 and all(s["value"] is None for s in state["rows"]["a"])
    assert all(5 not in p for p in (s["possible"] for s in GAME.view(state, "a")["rows"]["a"]))
    assert state["turn"]["index"] == 1


def test_no_copy_of_ones_own_is_refused_when_the_row_must_hold_one():
    state = started()
    face_up(state, "a", p3=5, p5=5)
    # a's row shows 5 _ 5: with b's card the third 5 up, a's position 4 is the fourth.
    with pytest.raises(RuleViolation) as e:
        play(state, "a", "guess", player="b", position=6, number=5, correct=True, own_position=None)
    assert e.value.code == "rankfile/must_hold" and "position 5" in e.value.message
    play(state, "a", "guess", player="b", position=6, number=5, correct=True, own_position=4)


def test_a_player_with_nothing_face_down_can_still_guess_right():
    state = started()
    for i, s in enumerate(state["rows"]["a"]):
        s["value"] = 2 + i // 4 if i < 8 else 10  # a's whole row is face up
    events = play(state, "a", "guess", player="b", position=8, number=10, correct=True)
    assert events[0]["reveals"] == [["b", 8]] and state["aces"] == 0


def test_any_holder_declares_the_joker_whoever_is_to_play():
    state = started(joker=True)
    play(state, "c", "declare_joker")
    assert state["joker"]["holder"] == "c" and state["turn"]["index"] == 0


def test_the_view_after_the_game_names_nobody_to_play():
    state = started()
    for i in range(4):
        me = state["turn"]["order"][state["turn"]["index"]]
        play(state, me, "guess", player=PLAYERS[(PLAYERS.index(me) + 1) % 4], position=i, number=10,
             correct=False)
    view = GAME.view(state, "a")
    assert view["over"] and view["current"] is None
    assert view["rows"]["b"][0]["wrong"] == [10]


def test_a_right_guess_that_contradicts_a_none_of_mine_answer_is_refused():
    state = started()
    # a says none of its face-down cards is a 6: the helper rules 6 out of a's whole row.
    play(state, "a", "guess", player="b", position=4, number=6, correct=True, own_position=None)
    assert all(6 not in p for p in (s["possible"] for s in GAME.view(state, "a")["rows"]["a"]))
    with pytest.raises(RuleViolation) as e:  # so b's right 6 at a's card means a misread card
        play(state, "b", "guess", player="a", position=5, number=6, correct=True, own_position=5)
    assert e.value.code == "rankfile/said_none_of_mine" and e.value.params == {"number": 6}
    assert "a said" in e.value.message and state["rows"]["a"][5]["value"] is None
    with pytest.raises(RuleViolation) as e:  # nor can a itself turn up a 6 later
        state["turn"]["index"] = 0
        play(state, "a", "guess", player="c", position=5, number=6, correct=True, own_position=3)
    assert e.value.code == "rankfile/said_none_of_mine"


def refusal_free(state, actor, cmd):
    """The events of a command, or None when the rules refuse it."""
    try:
        return GAME.decide(state, {"type": f"rankfile.{cmd.pop('verb')}", **cmd}, Context(actor, False, 0))
    except RuleViolation:
        return None


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_no_accepted_reveal_contradicts_an_earlier_answer(data):
    """Whatever the players enter, a card the rules turn face up never shows a number an
    earlier answer said it was not: guessed wrong there, or "none of mine" from its owner."""
    state, said_not = started(), {}  # (player, position) -> numbers answers said it is not
    for _ in range(data.draw(st.integers(1, 40))):
        if state["over"]:
            break
        me = state["turn"]["order"][state["turn"]["index"]]
        other = data.draw(st.sampled_from([p for p in PLAYERS if p != me]))
        number = data.draw(st.integers(5, 7))  # few numbers, so answers meet again
        cmd = {"verb": "guess", "player": other, "position": data.draw(st.integers(0, 8)),
               "number": number, "correct": data.draw(st.sampled_from([True, True, False])),
               "own_position": data.draw(st.none() | st.integers(0, 8))}
        events = refusal_free(state, me, cmd)
        if events is None:
            continue
        for e in events:
            reveals = e.get("reveals", [])
            assert all(e["number"] not in said_not.get(tuple(r), ()) for r in reveals), (e, said_not)
            if e["type"] == "GuessWrong":
                for t in e["targets"]:
                    said_not.setdefault(tuple(t), set()).add(e["number"])
            if e.get("none_of_mine"):
                for i, s in enumerate(state["rows"][e["guesser"]]):
                    if s["value"] is None and [e["guesser"], i] not in reveals:
                        said_not.setdefault((e["guesser"], i), set()).add(e["number"])
            GAME.evolve(state, e)
