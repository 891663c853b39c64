"""BLDNG: the jolly matching, every What happens card, and projects that stay secret."""

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.bldng.cards import (
    COLOURS,
    DECK_SIZE,
    SHAPE_CARDS,
    SHAPES,
    WHAT_HAPPENS,
    card_key,
    covers,
)
from companion.games.bldng.matching import assign, missing
from companion.games.bldng.rules import Bldng
from companion.games.core.context import Context
from companion.games.core.errors import RuleViolation
from companion.games.core.events import event_for

GAME = Bldng()
P = ["a", "b", "c"]


def shape(s, c):
    return {"kind": "shape", "shape": s, "colour": c}


def project(elements, kind="ordered"):
    return {"type": kind, "elements": [list(e) for e in elements]}


EIGHT = [("circle", "red")] * 2 + [("square", "blue")] * 2 + [("triangle", "green")] * 2 + \
        [("rectangle", "yellow")] * 2


def started(projects=None):
    state = GAME.initial(GAME.options({}))
    for e in GAME.start(state, P, Context(None, True, 0)):
        GAME.evolve(state, e)
    for p in P:
        proj = (projects or {}).get(p, project(EIGHT))
        do(state, p, "set_project", project=proj)
    return state


def do(state, actor, verb, **fields):
    ctx = Context(actor, False, 0, random.Random(3))
    events = GAME.decide(state, {"type": f"bldng.{verb}", **fields}, ctx)
    for e in events:
        GAME.evolve(state, e)
    return events


def current(state):
    return state["turn"]["order"][state["turn"]["index"]]


def test_deck_counts():
    assert SHAPE_CARDS == 74 and sum(WHAT_HAPPENS.values()) == 15 and DECK_SIZE == 89


def test_jolly_is_worth_one_element_and_is_not_wasted():
    cards = [{"kind": "jolly_all"}, shape("circle", "red")]
    # Greedy would spend the wild card on the circle and leave the square uncovered.
    assert missing(cards, [("circle", "red"), ("square", "blue")]) == []
    assert missing([{"kind": "jolly_all"}], [("circle", "red"), ("square", "blue")]) == [("square", "blue")]
    assert covers({"kind": "jolly_colours", "shape": "circle"}, ("circle", "blue"))
    assert not covers({"kind": "jolly_shapes", "colour": "red"}, ("circle", "blue"))


cards_st = st.one_of(
    st.builds(shape, st.sampled_from(SHAPES[:2]), st.sampled_from(COLOURS[:2])),
    st.builds(lambda s: {"kind": "jolly_colours", "shape": s}, st.sampled_from(SHAPES[:2])),
    st.builds(lambda c: {"kind": "jolly_shapes", "colour": c}, st.sampled_from(COLOURS[:2])),
    st.just({"kind": "jolly_all"}))
elements_st = st.tuples(st.sampled_from(SHAPES[:2]), st.sampled_from(COLOURS[:2]))


@settings(max_examples=300, deadline=None)
@given(st.lists(cards_st, max_size=6), st.lists(elements_st, min_size=1, max_size=5))
def test_matching_against_brute_force(cards, elements):
    best = 0
    for k in range(min(len(cards), len(elements)), 0, -1):
        if any(all(covers(cards[c], elements[e]) for c, e in zip(perm, es, strict=True))
               for es in itertools.combinations(range(len(elements)), k)
               for perm in itertools.permutations(range(len(cards)), k)):
            best = k
            break
    used = assign(cards, elements)
    assert sum(u is not None for u in used) == best
    picked = [u for u in used if u is not None]
    assert len(picked) == len(set(picked))
    assert all(covers(cards[u], elements[e]) for e, u in enumerate(used) if u is not None)


def test_collecting_then_drawing_and_discarding_and_winning():
    state = started({"a": project(EIGHT)})
    for element in EIGHT[:7]:
        for p in P:
            do(state, p, "draw", card=shape(*element) if p == "a" else shape("circle", "blue"))
    assert len(state["hands"]["a"]) == 7 and state["winner"] is None
    do(state, "a", "draw", card={"kind": "jolly_shapes", "colour": "yellow"})
    assert state["winner"] == "a" and state["over"]


def test_at_the_count_a_draw_needs_a_discard_and_the_discard_can_be_taken():
    state = started()
    for _ in range(8):
        for p in P:
            do(state, p, "draw", card=shape("circle", "blue"))
    do(state, "a", "draw", card=shape("square", "blue"))
    assert state["step"] == {"kind": "discard", "count": 1}
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "draw", card=shape("square", "blue"))
    assert e.value.code == "bldng/wrong_step"
    do(state, "a", "discard", index=8)
    do(state, "b", "take_discard")
    assert state["hands"]["b"][-1] == shape("square", "blue")
    do(state, "b", "discard", index=0)
    assert state["last_discard"] == {"card": shape("circle", "blue"), "by": "b"}


def test_the_discard_is_only_for_the_next_player_at_their_count():
    state = started()
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "take_discard")
    assert e.value.code == "bldng/no_discard"


@pytest.mark.parametrize("effect", ["reverse", "skip"])
def test_reverse_and_skip(effect):
    state = started()
    do(state, "a", "draw", card={"kind": "what_happens", "effect": effect})
    assert current(state) == ("c" if effect == "reverse" else "b")
    assert state["discard_pile"] == 1 and state["hands"]["a"] == []


def test_take_three_then_discard_three():
    state = started()
    for p in P:
        do(state, p, "draw", card=shape("circle", "blue"))
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "take_three"})
    for _ in range(3):
        do(state, "a", "draw", card=shape("square", "red"))
    assert state["step"] == {"kind": "discard", "count": 3}
    for _ in range(3):
        do(state, "a", "discard", index=0)
    assert len(state["hands"]["a"]) == 1 and current(state) == "b"


def _take_each_drawn():
    """Each player has drawn a circle (a's blue, the others' red), then a draws Take one card
    from each player."""
    state = started()
    for p in P:
        do(state, p, "draw", card=shape("circle", "red" if p != "a" else "blue"))
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "take_one_each"})
    return state


def test_take_one_from_each_player():
    state = _take_each_drawn()
    do(state, "a", "take", **{"from": "b", "index": 0})
    do(state, "a", "take", **{"from": "c", "index": None})
    assert state["step"] == {"kind": "discard", "count": 1}
    do(state, "a", "discard", index=0)
    assert [len(state["hands"][p]) for p in P] == [1, 0, 1]


def test_steal_needs_the_named_shape_and_no_jolly():
    state = started()
    do(state, "a", "draw", card=shape("square", "red"))
    do(state, "b", "draw", card={"kind": "jolly_colours", "shape": "circle"})
    do(state, "c", "draw", card=shape("circle", "blue"))
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "steal_circle"})
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "take", **{"from": "b", "index": 0})
    assert e.value.code == "bldng/wrong_shape"
    do(state, "a", "take", **{"from": "c", "index": 0})
    assert shape("circle", "blue") in state["hands"]["a"] and state["hands"]["c"] == []


def test_give_five_back_and_up_to_15():
    state = started()
    for _ in range(3):
        for p in P:
            do(state, p, "draw", card=shape("circle", "blue"))
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "give_five"})
    assert state["step"] == {"kind": "discard", "count": 3}  # only 3 cards: all of them go
    for _ in range(3):
        do(state, "a", "discard", index=0)
    do(state, "b", "draw", card={"kind": "what_happens", "effect": "up_to_15"})
    assert state["big_hand"] == "b" and GAME.limit(state, "b") == 15 and state["discard_pile"] == 4


def views_of(state):
    return {p: json.dumps(GAME.view(state, p)) for p in [*P, None]}


def test_shift_moves_every_project_and_only_the_new_owner_sees_it():
    projects = {p: project([(s, "red")] * 8) for p, s in zip(P, SHAPES, strict=False)}
    state = started(projects)
    events = do(state, "a", "draw", card={"kind": "what_happens", "effect": "shift_projects"})
    assert state["projects"]["a"] == projects["b"] and state["projects"]["c"] == projects["a"]
    assert current(state) == "b"
    shifted, views = events[-1], views_of(state)
    for p in P:
        own = json.dumps(state["projects"][p]["elements"])
        others = {json.dumps(state["projects"][q]["elements"]) for q in P} - {own}
        seen = json.dumps(event_for(shifted, p)) + views[p]
        assert own in seen and not any(o in seen for o in others)
    assert "elements" not in json.dumps(event_for(shifted, None))
    assert "my_project" not in views_of(state)[None]


def test_change_project_waits_for_the_card_the_player_takes_from_the_project_deck():
    state = started()
    events = do(state, "a", "draw", card={"kind": "what_happens", "effect": "change_project"})
    # The app invents nothing: the old card is under the deck, the new one is not known yet.
    assert [e["type"] for e in events] == ["CardDrawn"]
    assert state["projects"]["a"] is None and state["step"] == {"kind": "project", "player": "a"}
    assert current(state) == "a"
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "draw", card=shape("circle", "red"))
    assert e.value.code == "bldng/wrong_step"
    new = project([("triangle", "yellow")] * 10, "sculpture")
    events = do(state, "a", "set_project", project=new)  # the same command as at the start
    assert state["projects"]["a"] == new and current(state) == "b"
    assert events[0]["source"] == "entered" and events[0]["reason"] == "change_project"
    assert "project" not in {k for k in events[0] if k != "secrets"}
    assert GAME.view(state, "a")["news"] == {"n": 1, "code": "ProjectSet", "by": "a"}
    assert "news" not in GAME.view(state, "b")


def test_a_changed_project_can_be_drawn_by_the_app_too():
    state = started()
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "change_project"})
    events = do(state, "a", "set_project", draw=True)
    assert events[0]["source"] == "drawn" and len(state["projects"]["a"]["elements"]) in (8, 10)
    assert current(state) == "b"


def test_a_change_never_wins_on_a_project_nobody_holds():
    # a holds every shape of the old project; it goes under the deck, and the win waits for the
    # card actually taken (which these shapes do not build).
    state = started()
    for element in EIGHT[:7]:
        for p in P:
            do(state, p, "draw", card=shape(*element) if p == "a" else shape("circle", "blue"))
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "change_project"})
    do(state, "a", "set_project", project=project([("triangle", "yellow")] * 8))
    assert state["winner"] is None


def test_the_win_waits_for_the_discard_the_turn_owes():
    state = started({"a": project(EIGHT)})
    for element in [("circle", "blue"), *EIGHT[:7]]:
        for p in P:
            do(state, p, "draw", card=shape(*element) if p == "a" else shape("circle", "blue"))
    do(state, "a", "draw", card=shape(*EIGHT[7]))  # 9 cards for 8 elements: complete, 1 to discard
    assert state["step"] == {"kind": "discard", "count": 1}
    assert state["winner"] is None and not state["over"]
    do(state, "a", "discard", index=0)
    assert state["winner"] == "a" and state["over"] and state["step"] == {"kind": "over"}


def test_discarding_a_needed_card_is_no_win():
    state = started({"a": project(EIGHT)})
    for element in [("circle", "blue"), *EIGHT[:7]]:
        for p in P:
            do(state, p, "draw", card=shape(*element) if p == "a" else shape("circle", "blue"))
    do(state, "a", "draw", card=shape(*EIGHT[7]))
    do(state, "a", "discard", index=8)
    assert state["winner"] is None and current(state) == "b"


def test_a_shift_that_completes_another_project_wins_at_the_end_of_that_turn():
    state = started({"a": project([("circle", "red")] * 8), "b": project([("square", "red")] * 8),
                     "c": project([("triangle", "red")] * 8)})
    for _ in range(8):
        for p in P:
            do(state, p, "draw", card=shape("circle", "blue") if p != "b" else shape("triangle", "red"))
    # b holds c's shapes; a shifts: b now builds c's project, and wins when a's turn ends.
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "shift_projects"})
    assert state["winner"] == "b" and state["over"]


def test_every_player_is_told_their_project_shifted_and_from_whom():
    state = started()
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "shift_projects"})
    assert GAME.view(state, "a")["news"] == {"n": 1, "code": "ProjectsShifted", "by": "a", "came_from": "b"}
    assert GAME.view(state, "c")["news"]["came_from"] == "a"
    assert "news" not in GAME.view(state, None)


@pytest.mark.parametrize("effect", ["reverse", "up_to_15", "shift_projects"])
def test_a_what_happens_card_drawn_while_taking_three_is_used_at_once(effect):
    state = started()
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "take_three"})
    do(state, "a", "draw", card=shape("square", "red"))
    do(state, "a", "draw", card={"kind": "what_happens", "effect": effect})
    assert state["log"][-1] == {"player": "a", "effect": effect}
    assert state["step"] == {"kind": "draw_more", "count": 2} and current(state) == "a"
    for _ in range(2):
        do(state, "a", "draw", card=shape("square", "red"))
    for _ in range(3):
        do(state, "a", "discard", index=0)
    assert current(state) == ("c" if effect == "reverse" else "b")
    assert state["discard_pile"] == (4 if effect == "up_to_15" else 5)


def test_steps_drawn_during_take_three_come_first_then_take_three_goes_on():
    state = started()
    for p in P:
        do(state, p, "draw", card=shape("circle", "red"))
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "take_three"})
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "steal_circle"})
    assert state["step"] == {"kind": "steal", "shape": "circle"}
    do(state, "a", "take", **{"from": "b", "index": 0})
    assert state["step"] == {"kind": "draw_more", "count": 3}
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "change_project"})
    do(state, "a", "set_project", draw=True)
    assert state["step"] == {"kind": "draw_more", "count": 3} and state["resume"] == []


def test_skip_drawn_during_take_three_ends_the_turn_there():
    state = started()
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "take_three"})
    do(state, "a", "draw", card=shape("square", "red"))
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "skip"})
    assert current(state) == "b" and state["step"] == {"kind": "draw"} and state["resume"] == []
    assert state["hands"]["a"] == [shape("square", "red")]


def test_projects_come_first_and_the_pile_reshuffles():
    state = GAME.initial(GAME.options({}))
    for e in GAME.start(state, P, Context(None, True, 0)):
        GAME.evolve(state, e)
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "draw", card=shape("circle", "red"))
    assert e.value.code == "bldng/projects_first"
    for p in P:
        do(state, p, "draw_project")
    assert all(len(state["projects"][p]["elements"]) in (8, 10) for p in P)
    state.update(draw_pile=0, discard_pile=5)
    events = do(state, "a", "draw", card=shape("circle", "red"))
    assert events[0] == {"type": "PileReshuffled", "cards": 5} and state["draw_pile"] == 4


def test_without_the_cards_the_app_draws_from_what_is_left_in_the_pile():
    state = started()
    events = do(state, "a", "draw", draw=True)
    drawn = events[-1]
    assert drawn["type"] == "CardDrawn" and drawn["source"] == "drawn" and drawn["card"]["kind"]
    assert sum(state["pile"].values()) == DECK_SIZE - 1 == state["draw_pile"]
    # The draw is in the event: folding it again needs no generator.
    again = started()
    for e in events:
        GAME.evolve(again, e)
    assert again["hands"] == state["hands"] and again["pile"] == state["pile"]


def test_the_apps_draw_never_deals_a_card_the_table_has_used_up():
    state = started()
    state["pile"] = {card_key(shape("circle", "red")): 1}
    state["draw_pile"] = 1
    events = do(state, "a", "draw", draw=True)
    assert events[-1]["card"] == shape("circle", "red") and state["pile"] == {}
    state.update(draw_pile=3)  # the counts say three are left, but the table entered them all
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "draw", draw=True)
    assert e.value.code == "bldng/no_cards"


def test_the_apps_draw_after_the_pile_runs_out_comes_from_the_reshuffled_discards():
    state = started()
    state.update(draw_pile=0, pile={}, discard_pile=1, discards={card_key(shape("square", "blue")): 1})
    events = do(state, "a", "draw", draw=True)
    assert [e["type"] for e in events] == ["PileReshuffled", "CardDrawn"]
    assert events[-1]["card"] == shape("square", "blue") and state["draw_pile"] == 0


def test_entered_cards_and_discards_keep_the_piles_contents():
    state = started()
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "skip"})
    key = card_key({"kind": "what_happens", "effect": "skip"})
    assert state["pile"][key] == WHAT_HAPPENS["skip"] - 1 and state["discards"] == {key: 1}


def legal_move(state, rng):
    """Some command the rules must accept now, for the player to play."""
    me, step = current(state), state["step"]
    if step["kind"] in ("draw", "draw_more"):
        return me, "draw", {"draw": True}
    if step["kind"] == "project":
        return me, "set_project", {"draw": True}
    if step["kind"] == "discard":
        return me, "discard", {"index": rng.randrange(len(state["hands"][me]))}
    if step["kind"] == "take_each":
        source = rng.choice(step["left"])
        hand = state["hands"][source]
        index = rng.randrange(len(hand)) if hand and rng.random() < .7 else None
        return me, "take", {"from": source, "index": index}
    assert step["kind"] == "steal"
    for p in P:
        for i, card in enumerate(state["hands"][p]):
            if p != me and card["kind"] == "shape" and card["shape"] == step["shape"]:
                return me, "take", {"from": p, "index": i}
    return me, "take", {"from": next(p for p in P if p != me), "index": None}


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32))
def test_games_the_app_draws_never_get_stuck_and_keep_every_card(seed):
    rng = random.Random(seed)
    state = GAME.initial(GAME.options({}))
    for e in GAME.start(state, P, Context(None, True, 0)):
        GAME.evolve(state, e)
    for p in P:
        do(state, p, "set_project", draw=True)
    for _ in range(250):
        if state["over"]:
            break
        actor, verb, fields = legal_move(state, rng)
        for e in GAME.decide(state, {"type": f"bldng.{verb}", **fields}, Context(actor, False, 0, rng)):
            GAME.evolve(state, e)
        kept = (state["big_hand"] is not None) + sum(map(len, state["hands"].values()))
        assert state["draw_pile"] + state["discard_pile"] + kept == DECK_SIZE
        assert sum(state["pile"].values()) == state["draw_pile"] >= 0
        assert sum(state["discards"].values()) == state["discard_pile"]
    if state["over"]:
        winner = state["winner"]
        assert not missing(state["hands"][winner], state["projects"][winner]["elements"])
        assert state["step"] == {"kind": "over"}


def test_take_three_never_asks_for_more_discards_than_the_hand_holds():
    state = started()
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "take_three"})
    do(state, "a", "draw", card=shape("square", "red"))
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "give_five"})
    do(state, "a", "discard", index=0)  # the one card a had
    assert state["step"] == {"kind": "draw_more", "count": 2}
    for _ in range(2):
        do(state, "a", "draw", card=shape("square", "red"))
    assert state["step"] == {"kind": "discard", "count": 2}
    do(state, "a", "discard", index=0)
    do(state, "a", "discard", index=0)
    assert current(state) == "b" and state["hands"]["a"] == []


# -- issue 27 items 12-13 ------------------------------------------------------------------

def test_the_holder_of_up_to_15_takes_the_discard_at_their_projects_count():
    state = started()
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "up_to_15"})
    for p in P[1:]:
        do(state, p, "draw", card={"kind": "what_happens", "effect": "skip"})
    for _ in range(8):
        for p in P:
            do(state, p, "draw", card=shape("circle", "blue"))
    assert len(state["hands"]["a"]) == 8 and GAME.limit(state, "a") == 15
    do(state, "a", "draw", card=shape("square", "red"))  # below 15: no discard owed
    do(state, "b", "draw", card=shape("square", "blue"))
    do(state, "b", "discard", index=8)
    do(state, "c", "draw", card=shape("square", "green"))
    do(state, "c", "discard", index=8)
    assert GAME.view(state, None)["discard_takeable"]  # the phone offers it (issue 28 item 12)
    do(state, "a", "take_discard")
    # Taking it is a draw: under the 15 cards of the card, nothing has to be discarded for it.
    assert state["hands"]["a"][-1] == shape("square", "green") and current(state) == "b"


def test_below_the_projects_count_even_the_holder_of_up_to_15_cannot_take_the_discard():
    state = started()
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "up_to_15"})
    do(state, "b", "draw", card=shape("square", "blue"))
    do(state, "c", "draw", card=shape("square", "blue"))
    assert not GAME.view(state, None)["discard_takeable"]
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "take_discard")
    assert e.value.code in ("bldng/no_discard", "bldng/not_at_count")


def _steal_drawn(hands):
    state = started()
    for p in P:
        for card in hands.get(p, []):
            state["hands"][p].append(card)
    do(state, "a", "draw", card={"kind": "what_happens", "effect": "steal_circle"})
    return state


def test_steal_cannot_be_declined_while_someone_visibly_holds_the_shape():
    state = _steal_drawn({"b": [shape("square", "red")], "c": [shape("circle", "blue")]})
    for source in ("b", "c"):
        with pytest.raises(RuleViolation) as e:
            do(state, "a", "take", **{"from": source, "index": None})
        assert e.value.code == "bldng/must_steal"
    do(state, "a", "take", **{"from": "c", "index": 0})
    assert current(state) == "b"


def test_steal_is_declined_only_when_there_is_no_card_to_take():
    # A jolly does not count, and the player's own circle cannot be stolen.
    state = _steal_drawn({"a": [shape("circle", "red")], "b": [{"kind": "jolly_colours", "shape": "circle"}]})
    events = do(state, "a", "take", **{"from": "b", "index": None})
    assert events[0]["type"] == "NothingTaken" and current(state) == "b"


# -- issue 34 item 14: what the phone offers to take --------------------------------------------

def test_the_view_says_which_cards_a_steal_can_take_and_when_nothing_is_taken():
    state = _steal_drawn({"a": [shape("circle", "red")],
                          "b": [shape("square", "red"), {"kind": "jolly_colours", "shape": "circle"},
                                shape("circle", "green")],
                          "c": [shape("circle", "blue")]})
    # Only the circles in the others' rows, and no "nothing to take" while anyone holds one.
    assert GAME.view(state, "a")["take"] == {"cards": {"b": [2], "c": [0]}, "nothing": []}
    assert "take" not in GAME.view(state, "b")  # it is a's step, not b's
    state = _steal_drawn({"b": [{"kind": "jolly_colours", "shape": "circle"}]})
    assert GAME.view(state, "a")["take"] == {"cards": {"b": [], "c": []}, "nothing": ["b", "c"]}


def test_the_view_says_which_players_are_left_to_take_one_card_from():
    state = _take_each_drawn()
    assert GAME.view(state, "a")["take"] == {"cards": {"b": [0], "c": [0]}, "nothing": ["b", "c"]}
    do(state, "a", "take", **{"from": "b", "index": 0})
    assert GAME.view(state, "a")["take"] == {"cards": {"b": [], "c": [0]}, "nothing": ["c"]}
