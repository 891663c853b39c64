"""BLANK: legal plays, what a play triggers, penalties and accusations, and a deck that keeps
the winner's creation for every later game."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.blank.deck import COLOURS, apply_prize, card_kind, describe_card, new_deck, validate_deck
from companion.games.blank.rules import Blank, legal, triggered
from companion.games.core.context import Context
from companion.games.core.errors import RuleViolation
from companion.games.core.events import NOBODY, event_for

GAME = Blank()
P = ["a", "b"]
cards = st.builds(lambda c, n: {"colour": c, "number": n}, st.sampled_from(COLOURS), st.integers(1, 6))


@given(st.lists(cards, min_size=1, max_size=5), cards)
def test_legality(play, top):
    # "As many 4s OR as many Red cards as you have": every card matches the top card, all by
    # the same attribute.
    all_colour = all(c["colour"] == top["colour"] for c in play)
    all_number = all(c["number"] == top["number"] for c in play)
    assert legal(play, top) == (all_colour or all_number)


@given(st.lists(cards, min_size=1, max_size=5), cards)
def test_legality_the_lenient_table_option(play, top):
    same_colour = len({c["colour"] for c in play}) == 1
    same_number = len({c["number"] for c in play}) == 1
    first_ok = play[0]["colour"] == top["colour"] or play[0]["number"] == top["number"]
    assert legal(play, top, "shared") == ((same_colour or same_number) and first_ok)


def test_a_run_matching_the_top_card_by_different_attributes_is_refused():
    top = {"colour": "circle", "number": 4}
    assert not legal([{"colour": "triangle", "number": 4}, {"colour": "triangle", "number": 2}], top)
    assert legal([{"colour": "triangle", "number": 4}, {"colour": "square", "number": 4}], top)
    assert legal([{"colour": "circle", "number": 1}, {"colour": "circle", "number": 6}], top)
    state = started()
    do(state, None, "first_card", card=top)
    events = do(state, "a", "play", cards=[{"colour": "triangle", "number": 4},
                                           {"colour": "triangle", "number": 2}])
    assert events[0]["reason"] == "illegal_play" and state["hands"]["a"] == 8
    state = started(options={"multi_play": "shared"})
    do(state, None, "first_card", card=top)
    do(state, "a", "play", cards=[{"colour": "triangle", "number": 4}, {"colour": "triangle", "number": 2}])
    assert state["hands"]["a"] == 5


def rule(rid, **trigger):
    return {"id": rid, "trigger": trigger}


def test_only_the_top_card_triggers_rules():
    rules = [rule("any", kind="card_played"), rule("red", kind="colour_played", colour="circle"),
             rule("six", kind="number_played", number=6), rule("many", kind="two_or_more"),
             rule("talk", kind="other", text="someone coughs")]
    play = [{"colour": "circle", "number": 2}, {"colour": "square", "number": 6}]
    assert triggered(rules, play) == ["any", "six", "many"]
    assert triggered(rules, [{"colour": "circle", "number": 1}]) == ["any", "red"]


def started(seed=1, deck=None, options=None):
    """A started game whose three Rule Cards the app turned (the table's own entry is tested
    on its own)."""
    deck = deck or new_deck("Home", "★", 0)
    state = GAME.initial(GAME.options({"deck": deck, **(options or {})}))
    for e in GAME.start(state, P, Context(None, True, 0, random.Random(seed))):
        GAME.evolve(state, e)
    if state["rules_needed"]:
        do(state, None, "reveal_rules", draw=True)
    return state


def do(state, actor, verb, **fields):
    events = GAME.decide(state, {"type": f"blank.{verb}", **fields}, Context(actor, actor is None, 5))
    for e in events:
        GAME.evolve(state, e)
    return events


def test_the_rule_piles_order_is_for_no_phone_and_old_logs_still_fold():
    deck = new_deck("Home", "★", 0)
    e = GAME.start(GAME.initial(GAME.options({"deck": deck})), P, Context(None, True, 0, random.Random(1)))[0]
    pile = e["secrets"][NOBODY]["pile"]
    assert "pile" not in event_for(e, "a") and "pile" not in event_for(e, None)
    before = {k: v for k, v in e.items() if k != "secrets"} | {"pile": pile}  # as logs had it
    for event in (e, before):
        state = GAME.initial(GAME.options({"deck": deck}))
        GAME.evolve(state, event)
        assert state["pile"] == pile


def test_setup_reveals_three_rules_and_deals():
    state = started()
    assert len(state["revealed"]) == 3 and state["hands"] == {"a": 7, "b": 7}
    assert state["draw_pile"] == 72 - 14
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    assert state["draw_pile"] == 72 - 15 and state["top"] == {"colour": "circle", "number": 3}


def test_plays_penalties_and_accusations():
    state = started()
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    do(state, "a", "play", cards=[{"colour": "circle", "number": 5}, {"colour": "circle", "number": 1}])
    assert state["hands"]["a"] == 5 and state["top"]["number"] == 1 and state["turn"]["index"] == 1
    # Out of turn: a penalty for a, and it is still b's turn.
    events = do(state, "a", "play", cards=[{"colour": "circle", "number": 2}])
    assert events[0]["reason"] == "out_of_turn" and state["hands"]["a"] == 6 and state["turn"]["index"] == 1
    # An illegal play: b takes the card back and a penalty; the turn ends.
    events = do(state, "b", "play", cards=[{"colour": "square", "number": 6}])
    assert events[0]["reason"] == "illegal_play" and state["hands"]["b"] == 8 and state["turn"]["index"] == 0
    do(state, "a", "draw")
    assert state["hands"]["a"] == 7 and state["turn"]["index"] == 1
    # A false accusation costs the accuser.
    do(state, "b", "accuse", player="a", reason="missed_rule")
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "judge", upheld=False)
    assert e.value.code == "table/host_only"
    do(state, None, "judge", upheld=False)
    assert state["hands"]["b"] == 9
    assert state["penalties"][-1] == {"player": "b", "reason": "false_accusation", "n": 4, "play": 1}


def test_the_draw_pile_reshuffles_with_the_top_card_kept():
    state = started()
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    state.update(draw_pile=0, discard_pile=10)
    do(state, "a", "draw")
    assert (state["draw_pile"], state["discard_pile"]) == (8, 1)


def test_winning_then_the_prize_is_approved():
    deck = new_deck("Home", "", 0)
    state = started(deck=deck)
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    state["hands"]["a"] = 1
    do(state, "a", "play", cards=[{"colour": "circle", "number": 4}])
    if state["going_out"]:  # the play set off a rule: the table confirms it was followed
        do(state, "b", "resolved")
    assert state["winner"] == "a" and not state["over"]
    with pytest.raises(RuleViolation):
        do(state, "b", "propose_rule", rule={})
    do(state, "a", "propose_rule", rule={"title": "Hop", "trigger": {"kind": "number_played", "number": 4},
                                         "target": "all_players", "effect": "do_something",
                                         "text": "everyone hops", "creator": "Anna"})
    do(state, None, "decide_prize", approved=True)
    assert state["over"] and state["prize"]["rule"]["trigger"] == {"kind": "number_played", "number": 4}


def test_deck_import_checks_everything():
    deck = new_deck("Home", "", 0)
    assert validate_deck(deck)["rules"] == deck["rules"]
    with pytest.raises(RuleViolation):
        validate_deck({**deck, "cards": deck["cards"][:3]})
    with pytest.raises(RuleViolation):
        validate_deck({**deck, "rules": [{"trigger": {"kind": "nonsense"}}]})


def test_a_creation_persists_and_is_featured_in_the_next_game(tables, client):
    r = client.post("/api/decks", json={"name": "Our BLANK", "mark": "☆"})
    assert r.status_code == 201
    deck_id, owner = r.get_json()["id"], r.get_json()["owner_token"]
    assert client.post(f"/api/decks/{deck_id}/rules", json={"text": "x"}).status_code == 401
    added = client.post(f"/api/decks/{deck_id}/rules", headers={"Authorization": f"Bearer {owner}"},
                        json={"title": "Basic 1", "trigger": {"kind": "card_drawn"}, "target": "this_player",
                              "effect": "say_something", "text": "say 'oops'", "creator": "Box"})
    assert added.status_code == 201
    code, host, tokens, ids = tables.seated("blank", ["Anna", "Bela"], deck_id=deck_id, rule_cards="app")
    tables.ok(code, host, "blank.first_card", card={"colour": "circle", "number": 3})
    live = client.application.extensions["companion"].tables.live(code)
    live.state["game_state"]["hands"][ids["Anna"]] = 1  # a short game: Anna is down to one card
    played = tables.ok(code, tokens["Anna"], "blank.play", cards=[{"colour": "circle", "number": 6}])
    if played["state"]["game_state"]["going_out"]:  # a rule went off: Bela confirms it was followed
        tables.ok(code, tokens["Bela"], "blank.resolved")
    tables.ok(code, tokens["Anna"], "blank.propose_rule",
              rule={"title": "Six", "trigger": {"kind": "number_played", "number": 6},
                    "target": "next_player", "effect": "draw_card", "text": "the next player draws",
                    "creator": "Anna"})
    st_ = tables.ok(code, host, "blank.decide_prize", approved=True)["state"]
    assert st_["status"] == "ended" and st_["result"]["winners"] == [ids["Anna"]]
    deck = client.get(f"/api/decks/{deck_id}").get_json()
    assert deck["rules"][-1]["text"] == "the next player draws" and deck["wins"] == {"Anna": 1}
    assert deck["plain_rules"] == 23 and deck["history"][-1]["who"] == "Anna"
    # The next game shows the new rule among its three, and only that game features it.
    code2, host2, _t, _i = tables.seated("blank", ["Anna", "Bela"], deck_id=deck_id, rule_cards="app")
    view = tables.state(code2, host2)["state"]["game_state"]
    assert deck["rules"][-1]["id"] in [r["id"] for r in view["rules"]] and view["featured"]
    assert client.get(f"/api/decks/{deck_id}").get_json()["newest_creation"] is None
    exported = client.get(f"/api/decks/{deck_id}/export")
    again = client.post("/api/decks/import", json=exported.get_json())
    assert again.status_code == 201
    assert client.get(f"/api/decks/{again.get_json()['id']}").get_json()["rules"][-1]["text"] == \
        "the next player draws"


def test_blank_table_needs_a_deck(client):
    r = client.post("/api/tables", json={"game": "blank", "options": {}})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "blank/no_deck"


def test_an_empty_draw_pile_with_only_the_top_card_discarded_has_no_card_to_draw():
    state = started()
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    state.update(draw_pile=0, discard_pile=1)
    events = do(state, "a", "draw")
    assert events[0]["drawn"] is False
    assert (state["draw_pile"], state["discard_pile"], state["hands"]["a"]) == (0, 1, 7)
    assert state["turn"]["index"] == 1  # the penalty still ends the turn


def drawing_rules_deck():
    deck = new_deck("Home", "", 0)
    deck["rules"] = [{"id": "drawn", "title": "", "trigger": {"kind": "card_drawn"}, "target": "this_player",
                      "effect": "say_something", "text": "say oops", "creator": "x"},
                     {"id": "pen", "title": "", "trigger": {"kind": "penalty"}, "target": "all_players",
                      "effect": "do_something", "text": "everyone claps", "creator": "x"},
                     {"id": "four", "title": "", "trigger": {"kind": "number_played", "number": 4},
                      "target": "next_player", "effect": "draw_card", "text": "next draws", "creator": "x"}]
    return deck


def test_a_drawn_card_and_a_penalty_set_off_their_rules():
    state = started(deck=drawing_rules_deck())
    assert sorted(state["revealed"]) == ["drawn", "four", "pen"]
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    events = do(state, "a", "draw")
    assert sorted(events[0]["triggered"]) == ["drawn", "pen"]
    assert sorted(GAME.view(state, "b")["triggered"]["rules"]) == ["drawn", "pen"]
    do(state, "b", "play", cards=[{"colour": "circle", "number": 4}])
    assert GAME.view(state, "a")["triggered"] == {"cause": "play", "player": "b", "rules": ["four"]}
    state.update(draw_pile=0, discard_pile=1)  # nothing to draw: a penalty, but no card drawn
    assert do(state, "a", "draw")[0]["triggered"] == ["pen"]


def test_the_winner_is_decided_after_the_effects_of_the_last_card():
    state = started(deck=drawing_rules_deck())
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    state["hands"]["a"] = 1
    do(state, "a", "play", cards=[{"colour": "circle", "number": 4}])  # sets off "next draws"
    assert state["winner"] is None and state["going_out"] == "a" and state["hands"]["a"] == 0
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "play", cards=[{"colour": "circle", "number": 1}])
    assert e.value.code == "blank/effects_pending"
    # A penalty for a missed rule puts a card back in a's hand: no winner, the game goes on.
    do(state, "b", "accuse", player="a", reason="missed_rule")
    do(state, None, "judge", upheld=True)
    assert state["winner"] is None and state["going_out"] is None and state["hands"]["a"] == 1
    do(state, "b", "play", cards=[{"colour": "circle", "number": 1}])
    do(state, "a", "play", cards=[{"colour": "circle", "number": 4}])
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "resolved")
    assert e.value.code == "blank/not_yours_to_confirm"
    do(state, "b", "resolved")  # the effects were followed and a still has no cards
    assert state["winner"] == "a" and state["going_out"] is None


def test_a_last_card_that_sets_off_nothing_wins_at_once():
    state = started(deck=drawing_rules_deck())
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    state["hands"]["a"] = 1
    do(state, "a", "play", cards=[{"colour": "circle", "number": 5}])
    assert state["winner"] == "a"


# -- the deck's own cards, the setup's Rule Cards, mixed decks (issue 14) -------------------

def old_saved_deck():
    """A deck saved before cards were the owner's own: the rulebook's examples sat on the
    illustrated hexagon 1-5, and nothing said which effects were printed."""
    deck = new_deck("Old", "", 0)
    illustrated = [c for c in deck["cards"] if c["illustrated"]]
    for card, title in zip(illustrated, ["Sick Tricks", "Deep Dive", "Switch Up", "Bee-Cycling", "Leftron"],
                           strict=False):
        card["effect"] = {"title": title, "text": "…", "creator": "x", "example": True}
    return deck


def test_a_new_deck_is_the_owners_physical_cards_with_no_effect_invented():
    deck = new_deck("Home", "★", 0)
    assert [c["effect"] for c in deck["cards"]] == [None] * 72
    assert sorted(card_kind(c) for c in deck["cards"]) == ["illustrated"] * 36 + ["plain"] * 36
    hexagon5 = [c for c in deck["cards"] if (c["colour"], c["number"]) == ("hexagon", 5)]
    assert [card_kind(c) for c in hexagon5] == ["plain", "illustrated"]
    printed = describe_card(deck, hexagon5[1]["id"], {"effect": {"title": "Leftron", "text": "take left",
                                                                "creator": "Michael F."}})
    card = next(c for c in printed["cards"] if c["id"] == hexagon5[1]["id"])
    assert card_kind(card) == "effect" and hexagon5[1]["effect"] is None  # the deck itself is unchanged
    won = apply_prize(printed, {"kind": "card", "card_id": hexagon5[0]["id"],
                                "effect": {"title": "Mine", "text": "hop", "creator": "Anna"}}, "Anna", 1)
    assert card_kind(next(c for c in won["cards"] if c["id"] == hexagon5[0]["id"])) == "customised"
    # Export and import keep what each card is.
    assert [card_kind(c) for c in validate_deck(won)["cards"]] == [card_kind(c) for c in won["cards"]]
    with pytest.raises(RuleViolation) as e:
        describe_card(deck, "g999", {"illustrated": True})
    assert e.value.code == "blank/unknown_card"


def test_a_play_names_the_physical_card_so_only_the_effect_copy_sets_off_its_effect():
    deck = old_saved_deck()
    assert validate_deck(deck)["cards"] == deck["cards"]  # an old saved deck still loads as it was
    leftron = next(c for c in deck["cards"] if c["effect"] and c["effect"]["title"] == "Leftron")
    plain = next(c for c in deck["cards"] if not c["effect"]
                 and (c["colour"], c["number"]) == (leftron["colour"], leftron["number"]))
    state = started(deck=deck)
    do(state, None, "first_card", card={"colour": "hexagon", "number": 1})
    events = do(state, "a", "play", cards=[{"colour": "hexagon", "number": 5}])  # a copy without effect
    assert events[0]["effect"] is None
    events = do(state, "b", "play", cards=[{"id": leftron["id"]}])
    assert events[0]["effect"]["title"] == "Leftron" and state["last_play"]["effect"]["title"] == "Leftron"
    assert events[0]["cards"] == [{"id": leftron["id"], "colour": "hexagon", "number": 5}]
    with pytest.raises(RuleViolation) as e:  # the deck's two hexagon 5s are both down
        do(state, "a", "play", cards=[{"id": plain["id"]}])
    assert e.value.code == "blank/no_copy_free"
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "play", cards=[{"id": leftron["id"], "number": 4}])
    assert e.value.code == "blank/unknown_card"
    view = GAME.view(state, "a")
    assert {c["kind"] for c in view["cards"]} == {"plain", "illustrated", "effect"}


def test_old_logs_fold_plays_named_by_colour_and_a_single_featured_rule():
    deck = old_saved_deck()
    state = GAME.initial(GAME.options({"deck": deck}))
    for e in [{"type": "RulesRevealed", "seats": P, "revealed": ["r1", "r2", "r3"], "pile": ["r4", "r5"],
               "featured": "r1", "draw_pile": 58, "ts_ms": 0},
              {"type": "FirstCardTurned", "card": {"colour": "hexagon", "number": 1}},
              {"type": "CardsPlayed", "player": "a", "cards": [{"colour": "hexagon", "number": 5}],
               "triggered": [], "effect": {"title": "Leftron", "text": "…", "creator": "x", "example": True},
               "ts_ms": 1},
              {"type": "PenaltyTaken", "player": "b", "reason": "no_match", "reshuffle": False,
               "ends_turn": True, "ts_ms": 2}]:
        GAME.evolve(state, e)
    assert state["featured"] == ["r1"] and state["rules_needed"] == 0
    assert state["hands"] == {"a": 6, "b": 8} and state["last_play"]["effect"]["title"] == "Leftron"
    assert GAME.view(state, "a")["rules_needed"] == 0


def test_the_table_enters_the_three_rule_cards_it_turned_over():
    deck = new_deck("Home", "", 0)
    state = GAME.initial(GAME.options({"deck": deck}))
    for e in GAME.start(state, P, Context(None, True, 0, random.Random(1))):
        GAME.evolve(state, e)
    view = GAME.view(state, "a")
    assert view["rules"] == [] and view["rules_needed"] == 3 and len(view["rule_choices"]) == 5
    with pytest.raises(RuleViolation) as e:
        do(state, None, "first_card", card={"colour": "circle", "number": 3})
    assert e.value.code == "blank/rules_first"
    for bad, code in ((["r1", "r2"], "blank/bad_rules"), (["r1", "r2", "r9"], "blank/unknown_rule"),
                      (["r1", "r1", "r2"], "blank/bad_rules")):
        with pytest.raises(RuleViolation) as e:
            do(state, "a", "reveal_rules", rules=bad)
        assert e.value.code == code
    events = do(state, "a", "reveal_rules", rules=["r5", "r2", "r4"])
    assert events[0]["source"] == "entered"
    assert state["revealed"] == ["r5", "r2", "r4"] and sorted(state["pile"]) == ["r1", "r3"]
    assert GAME.view(state, "b")["rule_choices"] == []
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "reveal_rules", draw=True)
    assert e.value.code == "blank/rules_known"
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    # A Rule Card discarded later does not send the table back to its setup.
    do(state, None, "discard_rule", rule="r2")
    do(state, "a", "play", cards=[{"colour": "circle", "number": 5}])


def test_the_last_winners_creation_is_placed_and_two_are_turned():
    deck = new_deck("Home", "", 0)
    deck["newest_creation"] = "r4"
    state = GAME.initial(GAME.options({"deck": deck}))
    for e in GAME.start(state, P, Context(None, True, 0, random.Random(1))):
        GAME.evolve(state, e)
    assert state["revealed"] == ["r4"] and state["rules_needed"] == 2 and state["featured"] == ["r4"]
    events = do(state, "b", "reveal_rules", draw=True)
    assert events[0]["source"] == "drawn" and len(state["revealed"]) == 3 and "r4" not in state["pile"]
    state = GAME.initial(GAME.options({"deck": deck, "rule_cards": "app"}))
    for e in GAME.start(state, P, Context(None, True, 0, random.Random(1))):
        GAME.evolve(state, e)
    assert state["revealed"][0] == "r4" and len(state["revealed"]) == 3 and state["rules_needed"] == 0


def test_several_owners_decks_mix_at_one_table_and_prizes_go_home(tables, client):
    made = [client.post("/api/decks", json={"name": n, "mark": m}).get_json() for n, m in (("Ann's", "A"),
                                                                                          ("Bo's", "B"))]
    ids = [d["id"] for d in made]
    owner = {"Authorization": f"Bearer {made[1]['owner_token']}"}
    bo_card = client.post(f"/api/decks/{ids[1]}/cards/g2", headers=owner,
                          json={"effect": {"title": "Leftron", "text": "take left", "creator": "Bo"}})
    assert bo_card.status_code == 200 and bo_card.get_json()["effect"]["printed"] is True
    assert client.post(f"/api/decks/{ids[1]}/cards/g2", json={"effect": None}).status_code == 401
    code, host, tokens, pids = tables.seated("blank", ["Anna", "Bela"], deck_ids=ids, rule_cards="app")
    view = tables.state(code, host)["state"]["game_state"]
    assert len(view["cards"]) == 144 and view["draw_pile"] == 144 - 14
    assert {c["mark"] for c in view["cards"]} == {"A", "B"} and view["deck"]["name"] == "Ann's + Bo's"
    effect_copy = next(c for c in view["cards"] if c["effect"])
    assert effect_copy["id"] == "2.g2" and effect_copy["mark"] == "B" and effect_copy["kind"] == "effect"
    tables.ok(code, host, "blank.first_card", card={"colour": "hexagon", "number": 3})
    live = client.application.extensions["companion"].tables.live(code)
    live.state["game_state"]["hands"][pids["Anna"]] = 1  # a short game
    played = tables.ok(code, tokens["Anna"], "blank.play", cards=[{"id": "2.g2"}])
    assert played["state"]["game_state"]["last_play"]["effect"]["title"] == "Leftron"
    tables.ok(code, tokens["Bela"], "blank.resolved")  # Leftron was followed: Anna still has none
    tables.ok(code, tokens["Anna"], "blank.propose_card", card_id="2.g7",
              effect={"title": "Hop", "text": "everyone hops", "creator": "Anna"})
    tables.ok(code, host, "blank.decide_prize", approved=True)
    bo = client.get(f"/api/decks/{ids[1]}").get_json()
    assert bo["cards"][6]["effect"]["title"] == "Hop" and bo["wins"] == {"Anna": 1}
    assert client.get(f"/api/decks/{ids[0]}").get_json()["wins"] == {}
    # A new rule goes to the copy the winner names.
    code, host, tokens, pids = tables.seated("blank", ["Anna", "Bela"], deck_ids=ids, rule_cards="app")
    tables.ok(code, host, "blank.first_card", card={"colour": "hexagon", "number": 3})
    game_state = client.application.extensions["companion"].tables.live(code).state["game_state"]
    game_state["hands"][pids["Bela"]], game_state["winner"] = 0, pids["Bela"]  # Bela won
    tables.ok(code, tokens["Bela"], "blank.propose_rule", deck=1,
              rule={"title": "Six", "trigger": {"kind": "number_played", "number": 6},
                    "target": "next_player", "effect": "draw_card", "text": "the next player draws",
                    "creator": "Bela"})
    tables.ok(code, host, "blank.decide_prize", approved=True)
    bo = client.get(f"/api/decks/{ids[1]}").get_json()
    assert bo["rules"][-1]["text"] == "the next player draws"
    assert bo["newest_creation"] == bo["rules"][-1]["id"]
    assert "deck" not in bo["rules"][-1]
    bad = client.post("/api/tables", json={"game": "blank", "options": {"deck_ids": [ids[0], ids[0]]}})
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "blank/no_deck"


def face_rules_deck():
    """A circle drawn, a 6 drawn, a drawn card at all, and a penalty: the first two name the
    drawn card's face, so only the card the drawer enters can set them off."""
    deck = new_deck("Home", "", 0)
    deck["rules"] = [
        {"id": "circle", "title": "", "trigger": {"kind": "card_drawn", "colour": "circle"},
         "target": "this_player", "effect": "say_something", "text": "say round", "creator": "x"},
        {"id": "six", "title": "", "trigger": {"kind": "card_drawn", "number": 6},
         "target": "next_player", "effect": "draw_card", "text": "next draws", "creator": "x"},
        {"id": "pen", "title": "", "trigger": {"kind": "penalty"}, "target": "all_players",
         "effect": "do_something", "text": "everyone claps", "creator": "x"}]
    return deck


def test_a_trigger_may_name_the_drawn_cards_colour_or_number():
    from companion.games.blank.deck import read_trigger
    circle = {"kind": "card_drawn", "colour": "circle"}
    assert read_trigger(circle) == circle
    assert read_trigger({"kind": "card_drawn", "number": 6}) == {"kind": "card_drawn", "number": 6}
    assert read_trigger({"kind": "card_drawn"}) == {"kind": "card_drawn"}
    with pytest.raises(RuleViolation):
        read_trigger({"kind": "card_drawn", "colour": "purple"})


def test_the_drawer_enters_the_card_and_only_a_matching_face_rule_lights_up():
    state = started(deck=face_rules_deck())
    do(state, None, "first_card", card={"colour": "square", "number": 3})
    events = do(state, "a", "draw")  # no match: the penalty lights up at once, the face rules wait
    assert events[0]["triggered"] == ["pen"]
    assert GAME.view(state, "a")["to_enter"] == [1] and GAME.view(state, "b")["to_enter"] == []
    assert "to_enter" not in GAME.view(state, None)
    # Only the drawer enters it.
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "draw", drawn=1, card={"colour": "circle", "number": 2})
    assert e.value.code == "blank/not_your_draw"
    events = do(state, "a", "draw", drawn=1, card={"colour": "circle", "number": 2})
    assert [e["type"] for e in events] == ["DrawnCardEntered"]
    entered = events[0]
    assert entered["triggered"] == ["circle"] and entered["source"] == "entered"
    # The face rides only in the drawer's envelope; everyone sees the rule light up.
    assert entered["secrets"] == {"a": {"card": {"colour": "circle", "number": 2}}}
    assert "card" not in event_for(entered, "b") and "card" not in event_for(entered, None)
    assert event_for(entered, "a")["card"] == {"colour": "circle", "number": 2}
    for viewer in ("a", "b", None):
        assert sorted(GAME.view(state, viewer)["triggered"]["rules"]) == ["circle", "pen"]
    assert GAME.view(state, "a")["my_drawn"] == [{"n": 1, "card": {"colour": "circle", "number": 2},
                                                  "source": "entered"}]
    for viewer in ("b", None):
        assert not GAME.view(state, viewer).get("my_drawn")
    assert state["hands"]["a"] == 8 and GAME.view(state, "a")["to_enter"] == []
    with pytest.raises(RuleViolation) as e:  # entered once
        do(state, "a", "draw", drawn=1, card={"colour": "circle", "number": 2})
    assert e.value.code == "blank/draw_closed"


def test_a_face_that_matches_no_rule_lights_nothing_and_the_entry_closes_at_the_next_play():
    state = started(deck=face_rules_deck())
    do(state, None, "first_card", card={"colour": "square", "number": 3})
    do(state, "a", "draw")
    assert do(state, "a", "draw", drawn=1, card={"colour": "diamond", "number": 2})[0]["triggered"] == []
    assert GAME.view(state, "b")["triggered"]["rules"] == ["pen"]
    # b's illegal play is a penalty too: b may enter that card, until the next card is played.
    do(state, "b", "play", cards=[{"colour": "hexagon", "number": 1}])
    assert GAME.view(state, "b")["to_enter"] == [2]
    do(state, "a", "play", cards=[{"colour": "square", "number": 6}])
    assert GAME.view(state, "b")["to_enter"] == [] and GAME.view(state, "a")["my_drawn"] == []
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "draw", drawn=2, card={"colour": "circle", "number": 6})
    assert e.value.code == "blank/draw_closed"


def test_the_no_match_draw_may_name_its_card_at_once_or_let_the_app_draw_it():
    state = started(deck=face_rules_deck())
    do(state, None, "first_card", card={"colour": "square", "number": 3})
    events = do(state, "a", "draw", card={"colour": "hexagon", "number": 6})
    assert [e["type"] for e in events] == ["PenaltyTaken", "DrawnCardEntered"]
    assert events[1]["triggered"] == ["six"] and state["turn"]["index"] == 1
    assert sorted(GAME.view(state, None)["triggered"]["rules"]) == ["pen", "six"]
    events = do(state, "b", "draw", draw=True)  # a group without the cards: the app draws
    assert events[1]["source"] == "drawn" and "card" in events[1]["secrets"]["b"]
    assert GAME.view(state, "b")["my_drawn"][0]["source"] == "drawn"
    # With nothing to draw there is no card to name.
    state.update(draw_pile=0, discard_pile=1)
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "draw", card={"colour": "hexagon", "number": 6})
    assert e.value.code == "blank/nothing_drawn"


def test_a_draw_an_effect_asks_for_is_no_penalty_and_its_card_may_be_entered():
    state = started(deck=face_rules_deck())
    do(state, None, "first_card", card={"colour": "square", "number": 3})
    events = do(state, "b", "draw", effect=True)  # "next draws": not b's turn, no penalty
    assert [e["type"] for e in events] == ["CardDrawn"]
    assert state["hands"]["b"] == 8 and state["turn"]["index"] == 0 and state["penalties"] == []
    assert events[0]["triggered"] == []  # no plain "card drawn" rule in this deck
    do(state, "b", "draw", drawn=1, card={"colour": "circle", "number": 6})
    assert sorted(GAME.view(state, "a")["triggered"]["rules"]) == ["circle", "six"]


def test_a_draw_an_effect_asks_for_keeps_a_player_going_out_in_the_game():
    state = started(deck=drawing_rules_deck())
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    state["hands"]["a"] = 1
    do(state, "a", "play", cards=[{"colour": "circle", "number": 4}])  # sets off "next draws"
    assert state["going_out"] == "a"
    events = do(state, "a", "draw", effect=True, card={"colour": "circle", "number": 1})
    assert [e["type"] for e in events] == ["CardDrawn", "DrawnCardEntered"]
    assert events[0]["triggered"] == ["drawn"]  # "a card is drawn", whatever its face
    assert state["going_out"] is None and state["winner"] is None and state["hands"]["a"] == 1


BAD_TRIGGERS = [
    ({"kind": "colour_played"}, "blank/need_colour"),
    ({"kind": "colour_played", "colour": "Pajzs"}, "blank/bad_colour"),
    ({"kind": "colour_played", "colour": ["shield"]}, "blank/bad_colour"),
    ({"kind": "number_played"}, "blank/need_number"),
    ({"kind": "number_played", "number": "6"}, "blank/bad_number"),
    ({"kind": "number_played", "number": 7}, "blank/bad_number"),
    ({"kind": "number_played", "number": True}, "blank/bad_number"),
    ({"kind": "card_drawn", "colour": "purple"}, "blank/bad_colour"),
    ({"kind": "card_drawn", "colour": {}}, "blank/bad_colour"),
    ({"kind": "card_drawn", "number": 0}, "blank/bad_number"),
    ({"kind": "card_drawn", "number": 2.5}, "blank/bad_number"),
    ({"kind": "time_passes"}, "blank/bad_seconds"),
    ({"kind": "time_passes", "seconds": 0}, "blank/bad_seconds"),
    ({"kind": "other"}, "blank/need_trigger_text"),
    ({"kind": "other", "text": "   "}, "blank/need_trigger_text"),
    ({"kind": "sneeze"}, "blank/bad_trigger"),
    ({"colour": "shield"}, "blank/bad_trigger"),
    ("card_drawn", "blank/bad_trigger"),
]


@pytest.mark.parametrize(("trigger", "code"), BAD_TRIGGERS)
def test_a_trigger_naming_a_colour_or_number_is_checked_with_its_own_code(trigger, code):
    """The rule forms send these fields from pickers; an API user (or an old page) who sends
    something else learns which field is wrong, in words the catalogue has."""
    from companion.games.blank.deck import read_trigger
    with pytest.raises(RuleViolation) as e:
        read_trigger(trigger)
    assert e.value.code == code


def test_a_card_drawn_trigger_may_name_both_and_colour_played_keeps_only_its_field():
    from companion.games.blank.deck import read_trigger
    both = {"kind": "card_drawn", "colour": "shield", "number": 3}
    assert read_trigger(both) == both
    assert read_trigger({"kind": "card_drawn", "colour": None, "number": None}) == {"kind": "card_drawn"}
    assert read_trigger({"kind": "colour_played", "colour": "shield", "number": 3}) == \
        {"kind": "colour_played", "colour": "shield"}


@pytest.mark.parametrize(("trigger", "code"), BAD_TRIGGERS[:4] + BAD_TRIGGERS[7:9])
def test_both_rule_forms_get_the_trigger_codes_never_a_500(tables, client, trigger, code):
    made = client.post("/api/decks", json={"name": "Checks"}).get_json()
    rule = {"title": "", "trigger": trigger, "target": "this_player", "effect": "say_something",
            "text": "say hi", "creator": "Bo"}
    owner = {"Authorization": f"Bearer {made['owner_token']}"}
    r = client.post(f"/api/decks/{made['id']}/rules", headers=owner, json=rule)
    assert r.status_code == 422 and r.get_json()["error"]["code"] == code
    state = started(deck=new_deck("Home", "", 0))
    state["winner"] = "a"
    with pytest.raises(RuleViolation) as e:
        GAME.propose_rule(state, {"rule": rule}, Context(actor="a", is_host=False, now_ms=1))
    assert e.value.code == code


# -- the deck's own effects, applied by the referee (issue 27 items 1-5) ---------------------

P3 = ["a", "b", "c"]
QUIET_RULES = [{"id": f"q{i}", "title": "", "trigger": {"kind": "other", "text": "a sneeze"},
                "target": "other", "effect": "do_something", "text": "bless you", "creator": "x"}
               for i in range(3)]


def acting_deck(effects=None, rules=None):
    """A deck whose Rule Cards are quiet (or ``rules``) and whose circle cards carry
    ``effects``: {number: effect}, on the illustrated copy (the id is returned by :func:`fx`)."""
    deck = new_deck("Acts", "", 0)
    deck["rules"] = (rules or []) + QUIET_RULES[:max(0, 3 - len(rules or []))]
    for number, effect in (effects or {}).items():
        card = next(c for c in deck["cards"]
                    if (c["colour"], c["number"], c["illustrated"]) == ("circle", number, True))
        card["effect"] = {"title": f"fx{number}", "text": "…", "creator": "x", **effect}
    return deck


def fx(number):
    return {"id": next(c["id"] for c in new_deck("x", "", 0)["cards"]
                       if (c["colour"], c["number"], c["illustrated"]) == ("circle", number, True))}


def table3(deck, top=None, **options):
    state = GAME.initial(GAME.options({"deck": deck, "rule_cards": "app", **options}))
    for e in GAME.start(state, P3, Context(None, True, 0, random.Random(1))):
        GAME.evolve(state, e)
    do(state, None, "first_card", card=top or {"colour": "circle", "number": 3})
    return state


def current(state):
    return state["turn"]["order"][state["turn"]["index"]]


GOOD_ACTIONS = [{"kind": "skip"}, {"kind": "reverse"}, {"kind": "again"}, {"kind": "draw", "count": 2},
                {"kind": "match", "by": "number"}, {"kind": "match", "by": "colour"},
                {"kind": "forbid_colour"}]
BAD_ACTIONS = [
    ("skip", "blank/bad_action"),
    ({"kind": "jump"}, "blank/bad_action"),
    ({}, "blank/bad_action"),
    ({"kind": "skip", "count": 2}, "blank/bad_action"),
    ({"kind": "draw"}, "blank/bad_action_count"),
    ({"kind": "draw", "count": 0}, "blank/bad_action_count"),
    ({"kind": "draw", "count": 11}, "blank/bad_action_count"),
    ({"kind": "draw", "count": "2"}, "blank/bad_action_count"),
    ({"kind": "draw", "count": True}, "blank/bad_action_count"),
    ({"kind": "match"}, "blank/bad_action_by"),
    ({"kind": "match", "by": "shape"}, "blank/bad_action_by"),
]


@pytest.mark.parametrize("action", GOOD_ACTIONS)
def test_an_effect_and_a_rule_may_carry_an_action_from_the_vocabulary(action):
    from companion.games.blank.deck import read_card_effect, read_rule
    assert read_card_effect({"title": "T", "text": "x", "creator": "y", "action": action})["action"] == action
    rule = read_rule({"trigger": {"kind": "card_played"}, "target": "next_player", "effect": "other",
                      "text": "x", "creator": "y", "action": action}, "r9", 0)
    assert rule["action"] == action
    assert "action" not in read_card_effect({"title": "T", "text": "x", "creator": "y", "action": None})
    deck = acting_deck({2: {"action": action}})
    assert validate_deck(deck)["cards"] == deck["cards"]  # export and import keep it


@pytest.mark.parametrize(("action", "code"), BAD_ACTIONS)
def test_an_action_outside_the_vocabulary_is_refused_with_its_own_code(action, code):
    from companion.games.blank.deck import read_card_effect, read_rule
    with pytest.raises(RuleViolation) as e:
        read_card_effect({"title": "T", "text": "x", "creator": "y", "action": action})
    assert e.value.code == code
    with pytest.raises(RuleViolation) as e:
        read_rule({"trigger": {"kind": "card_played"}, "target": "next_player", "effect": "other",
                   "text": "x", "creator": "y", "action": action}, "r9", 0)
    assert e.value.code == code


def test_a_rule_that_draws_needs_a_player_to_draw():
    from companion.games.blank.deck import read_rule
    with pytest.raises(RuleViolation) as e:
        read_rule({"trigger": {"kind": "card_played"}, "target": "draw_pile", "effect": "draw_card",
                   "text": "x", "creator": "y", "action": {"kind": "draw", "count": 1}}, "r9", 0)
    assert e.value.code == "blank/bad_action_target"


def test_skip_reverse_and_again_move_the_turn_and_the_real_next_player_is_not_penalised():
    deck = acting_deck({1: {"action": {"kind": "skip"}}, 5: {"action": {"kind": "reverse"}},
                        6: {"action": {"kind": "again"}}})
    state = table3(deck)
    events = do(state, "a", "play", cards=[fx(1)])  # b is skipped
    assert [e["type"] for e in events] == ["CardsPlayed", "TurnChanged"]
    assert events[1]["cause"] == "skip" and current(state) == "c"
    do(state, "c", "play", cards=[{"colour": "circle", "number": 2}])  # no out_of_turn for c
    assert state["penalties"] == [] and current(state) == "a"
    do(state, "a", "play", cards=[fx(5)])  # reverse: c, then b
    assert current(state) == "c" and state["turn"]["direction"] == -1
    do(state, "c", "play", cards=[{"colour": "circle", "number": 4}])
    assert current(state) == "b"
    do(state, "b", "play", cards=[fx(6)])  # again: b plays once more
    assert current(state) == "b"
    do(state, "b", "play", cards=[{"colour": "circle", "number": 2}])
    assert current(state) == "a" and state["penalties"] == []


def test_reverse_with_two_players_hands_the_turn_to_the_other():
    state = started(deck=acting_deck({5: {"action": {"kind": "reverse"}}}))
    do(state, None, "first_card", card={"colour": "circle", "number": 3})
    do(state, "a", "play", cards=[fx(5)])
    assert current(state) == "b"


def test_a_draw_action_grows_the_targets_hand_without_a_penalty():
    rules = [{"id": "four", "title": "", "trigger": {"kind": "number_played", "number": 4},
              "target": "previous_player", "effect": "draw_card", "text": "the previous player draws",
              "creator": "x", "action": {"kind": "draw", "count": 1}}]
    state = table3(acting_deck({2: {"action": {"kind": "draw", "count": 2}}}, rules))
    pile = state["draw_pile"]
    events = do(state, "a", "play", cards=[fx(2)])  # the card's target: the next player
    assert [e["type"] for e in events] == ["CardsPlayed", "CardDrawn", "CardDrawn"]
    assert state["hands"] == {"a": 6, "b": 9, "c": 7} and state["draw_pile"] == pile - 2
    assert state["penalties"] == [] and current(state) == "b"
    do(state, "b", "play", cards=[{"colour": "circle", "number": 4}])  # the rule: a draws
    assert state["hands"] == {"a": 7, "b": 8, "c": 7} and current(state) == "c"
    assert GAME.view(state, "b")["to_enter"] == [] and GAME.view(state, "a")["to_enter"] == [3]


def test_a_match_action_restricts_the_next_play_only():
    state = table3(acting_deck({3: {"action": {"kind": "match", "by": "number"}}}),
                   top={"colour": "circle", "number": 5})
    do(state, "a", "play", cards=[fx(3)])  # Sick Tricks: number only
    assert GAME.view(state, "b")["match_by"] == "number"
    events = do(state, "b", "play", cards=[{"colour": "circle", "number": 1}])
    assert events[0]["reason"] == "illegal_play"
    do(state, "c", "play", cards=[{"colour": "square", "number": 3}])
    assert GAME.view(state, "a")["match_by"] is None
    do(state, "a", "play", cards=[{"colour": "square", "number": 6}])  # colour matches again
    assert state["top"] == {"colour": "square", "number": 6}


def test_forbid_colour_lets_the_player_name_a_colour_until_their_next_turn():
    state = table3(acting_deck({4: {"action": {"kind": "forbid_colour"}}}),
                   top={"colour": "circle", "number": 4})
    do(state, "a", "play", cards=[fx(4)])
    assert GAME.view(state, "b")["to_name"] == "a"
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "name_colour", colour="square")
    assert e.value.code == "blank/not_yours_to_name"
    with pytest.raises(RuleViolation) as e:
        do(state, "a", "name_colour", colour="purple")
    assert e.value.code == "blank/bad_colour"
    do(state, "a", "name_colour", colour="square")
    view = GAME.view(state, "c")
    assert view["forbidden"] == {"colour": "square", "player": "a"} and view["to_name"] is None
    events = do(state, "b", "play", cards=[{"colour": "square", "number": 4}])
    assert events[0]["reason"] == "illegal_play"
    do(state, "c", "play", cards=[{"colour": "circle", "number": 1}])
    assert current(state) == "a" and GAME.view(state, "a")["forbidden"] is None  # a's turn again
    do(state, "a", "play", cards=[{"colour": "circle", "number": 2}])
    do(state, "b", "play", cards=[{"colour": "square", "number": 2}])
    assert state["top"] == {"colour": "square", "number": 2}


def test_the_host_sets_whose_turn_it_is_and_a_table_may_let_the_player_claim_it():
    state = table3(acting_deck())
    events = do(state, None, "set_turn", player="c")
    assert events == [{"type": "TurnChanged", "player": "c", "direction": 1, "cause": "set", "by": "host",
                       "ts_ms": 5}]
    assert current(state) == "c"
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "set_turn", player="b")
    assert e.value.code == "blank/turn_host_only"
    with pytest.raises(RuleViolation) as e:
        do(state, None, "set_turn", player="z")
    assert e.value.code == "blank/unknown_player"
    state = table3(acting_deck(), claim_turn=True)
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "set_turn", player="c")
    assert e.value.code == "blank/turn_host_only"
    do(state, "b", "set_turn", player="b")
    assert current(state) == "b" and GAME.view(state, "a")["claim_turn"] is True


def test_after_a_free_text_effect_a_surprising_play_is_a_question_for_the_table():
    state = table3(acting_deck({2: {}, 5: {}}))  # circle 2 and 5: effects the app cannot read
    do(state, "a", "play", cards=[fx(2)])
    events = do(state, "c", "play", cards=[{"colour": "circle", "number": 5}])
    assert [e["type"] for e in events] == ["AccusationMade"]
    assert state["accusation"]["accuser"] is None and state["accusation"]["accused"] == "c"
    assert state["penalties"] == [] and state["hands"]["c"] == 7
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "play", cards=[{"colour": "circle", "number": 1}])
    assert e.value.code == "blank/accusation_open"
    do(state, None, "judge", upheld=False)  # the table says: the effect made it c's turn
    assert state["top"] == {"colour": "circle", "number": 5} and state["hands"]["c"] == 6
    assert current(state) == "a" and state["penalties"] == []
    # Once again (another such card: the first lies on the pile), upheld: the play is out of
    # turn, and the card goes back.
    do(state, "a", "play", cards=[fx(5)])
    do(state, "c", "play", cards=[{"colour": "square", "number": 6}])
    do(state, None, "judge", upheld=True)
    assert [p["reason"] for p in state["penalties"]] == ["out_of_turn", "illegal_play"]
    assert state["hands"]["c"] == 8 and current(state) == "b" and state["top"]["number"] == 5


def test_an_upheld_accusation_of_an_illegal_play_takes_the_cards_back():
    state = table3(acting_deck())
    pile = state["discard_pile"]
    do(state, "a", "play", cards=[{"colour": "circle", "number": 5}, {"colour": "circle", "number": 6}])
    assert state["hands"]["a"] == 5 and current(state) == "b"
    do(state, "c", "accuse", player="a", reason="illegal_play")
    do(state, None, "judge", upheld=True)
    assert state["hands"]["a"] == 8  # both cards back, and the Penalty
    assert state["top"] == {"colour": "circle", "number": 3} and state["discard_pile"] == pile
    assert current(state) == "b"
    assert state["penalties"][-1] == {"player": "a", "reason": "illegal_play", "n": 1, "play": 1}
    do(state, "b", "play", cards=[{"colour": "circle", "number": 1}])  # legal on the card under it
    assert state["penalties"][-1]["player"] == "a"


def test_every_penalty_of_one_play_draws_its_card():
    state = table3(acting_deck())
    events = do(state, "c", "play", cards=[{"colour": "square", "number": 6}])  # out of turn AND no match
    assert [e["reason"] for e in events] == ["out_of_turn", "illegal_play"]
    assert state["hands"]["c"] == 9 and current(state) == "a"
    events = do(state, "c", "play", cards=[{"colour": "circle", "number": 6}])  # out of turn only
    assert [e["reason"] for e in events] == ["out_of_turn"] and state["hands"]["c"] == 10


def test_cards_discarded_by_an_effect_reach_the_discard_pile():
    state = table3(acting_deck())
    pile = state["discard_pile"]
    do(state, None, "adjust", player="a", delta=-7, note="Bee-Cycling", discard=True)
    assert state["discard_pile"] == pile + 7 and state["hands"]["a"] == 0
    do(state, None, "adjust", player="b", delta=-1, note="given to c")
    assert state["discard_pile"] == pile + 7
    with pytest.raises(RuleViolation) as e:
        do(state, None, "adjust", player="b", delta=2, note="x", discard=True)
    assert e.value.code == "blank/bad_discard"


def total_cards(state):
    return sum(state["hands"].values()) + state["draw_pile"] + state["discard_pile"]


MOVES = st.lists(st.tuples(st.sampled_from(["play", "bad", "draw", "effect_draw", "discard", "accuse",
                                           "skip"]), st.sampled_from(P3), st.integers(1, 6)), max_size=60)


@given(MOVES)
def test_no_card_is_lost_whatever_the_table_does(moves):
    """Plays, penalties, effect draws, draws actions ask for, discards, accusations, plays the
    table is asked about and reshuffles: the 72 cards stay 72 (the draw pile is rebuilt from
    every discard)."""
    deck = acting_deck({2: {"action": {"kind": "draw", "count": 3}}, 1: {"action": {"kind": "skip"}}, 3: {}})
    state = table3(deck)
    state.update(draw_pile=5, discard_pile=state["discard_pile"] + state["draw_pile"] - 5)  # reshuffles soon
    for kind, who, n in moves:
        try:
            if kind == "play":
                top = state["top"]
                card = fx(n) if n <= 3 else {"colour": top["colour"], "number": n}  # 3: a free-text effect
                do(state, current(state), "play", cards=[card])
            elif kind == "bad":
                do(state, who, "play", cards=[{"colour": "shield", "number": n}])
            elif kind == "draw":
                do(state, current(state), "draw")
            elif kind == "effect_draw":
                do(state, who, "draw", effect=True)
            elif kind == "discard":
                gone = -min(n, state["hands"][who])
                do(state, None, "adjust", player=who, delta=gone, note="", discard=True)
            elif kind == "accuse":
                last = state["last_play"]
                if last and state["accusation"] is None:
                    accuser = next(p for p in P3 if p != last["player"])
                    do(state, accuser, "accuse", player=last["player"], reason="illegal_play")
                if state["accusation"] is not None:
                    do(state, None, "judge", upheld=n % 2 == 0)
            elif kind == "skip":
                do(state, None, "set_turn", player=who)
        except RuleViolation:
            pass
        assert total_cards(state) == 72
        assert state["draw_pile"] >= 0 and state["discard_pile"] >= 1


def test_actions_reach_the_deck_through_both_forms_and_the_prize(tables, client):
    made = client.post("/api/decks", json={"name": "Acts"}).get_json()
    owner = {"Authorization": f"Bearer {made['owner_token']}"}
    effect = {"title": "Skipper", "text": "the next player skips", "creator": "Bo",
              "action": {"kind": "skip"}}
    r = client.post(f"/api/decks/{made['id']}/cards/g2", headers=owner, json={"effect": effect})
    assert r.status_code == 200, r.get_json()
    saved = client.get(f"/api/decks/{made['id']}").get_json()
    assert saved["cards"][1]["effect"]["action"] == {"kind": "skip"}
    r = client.post(f"/api/decks/{made['id']}/cards/g2", headers=owner,
                    json={"effect": {**effect, "action": {"kind": "draw", "count": 99}}})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "blank/bad_action_count"
    rule = {"title": "", "trigger": {"kind": "number_played", "number": 6}, "target": "next_player",
            "effect": "draw_card", "text": "the next player draws", "creator": "Bo",
            "action": {"kind": "draw", "count": 1}}
    r = client.post(f"/api/decks/{made['id']}/rules", headers=owner, json=rule)
    assert r.status_code == 201
    saved = client.get(f"/api/decks/{made['id']}").get_json()
    assert saved["rules"][-1]["action"] == {"kind": "draw", "count": 1}
    r = client.post(f"/api/decks/{made['id']}/rules", headers=owner, json={**rule, "action": {"kind": "fly"}})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "blank/bad_action"
    # The winner's customised card keeps its action in the deck.
    code, host, tokens, ids = tables.seated("blank", ["Anna", "Bela"], deck_id=made["id"], rule_cards="app")
    tables.ok(code, host, "blank.first_card", card={"colour": "hexagon", "number": 3})
    live = client.application.extensions["companion"].tables.live(code)
    live.state["game_state"]["winner"] = ids["Anna"]
    tables.ok(code, tokens["Anna"], "blank.propose_card", card_id="g5",
              effect={"title": "Turnabout", "text": "reverse", "creator": "Anna",
                      "action": {"kind": "reverse"}})
    tables.ok(code, host, "blank.decide_prize", approved=True)
    card = client.get(f"/api/decks/{made['id']}").get_json()["cards"][4]
    assert card["effect"]["action"] == {"kind": "reverse"} and card_kind(card) == "customised"


# -- issue 34: what the table did, as it did it ----------------------------------------------

def test_one_physical_card_is_played_once():
    state = table3(acting_deck({2: {"action": {"kind": "skip"}}}))
    with pytest.raises(RuleViolation) as e:  # the same card named twice is not two cards
        do(state, "a", "play", cards=[fx(2), fx(2)])
    assert e.value.code == "blank/card_twice" and state["hands"]["a"] == 7
    do(state, "a", "play", cards=[fx(2)])
    with pytest.raises(RuleViolation) as e:  # it lies on the discard pile: nobody holds it
        do(state, "c", "play", cards=[fx(2)])
    assert e.value.code == "blank/card_on_pile" and e.value.params == {"card": fx(2)["id"]}
    assert state["hands"]["c"] == 7 and current(state) == "c" and state["penalties"] == []
    with pytest.raises(RuleViolation) as e:  # nor can it be the card someone drew
        do(state, "c", "draw", card=fx(2))
    assert e.value.code == "blank/card_on_pile"
    # A card that left the pile (an upheld accusation took it back) is in a hand again.
    do(state, "c", "play", cards=[{"colour": "circle", "number": 5}])
    do(state, "a", "accuse", player="c", reason="out_of_turn")
    do(state, None, "judge", upheld=True)
    assert state["top"] == {**fx(2), "colour": "circle", "number": 2}


def test_a_card_under_the_top_comes_back_with_a_reshuffle():
    state = table3(acting_deck({2: {}, 4: {}}))
    do(state, "a", "play", cards=[fx(2)])
    do(state, "b", "play", cards=[{"colour": "circle", "number": 1}])
    state["draw_pile"] = 0  # the draw pile runs out: the discards under the top become the pile
    do(state, "c", "draw")
    assert state["discard_pile"] == 1
    do(state, "a", "play", cards=[fx(2)])  # back from the reshuffled pile, in a's hand


def test_a_colour_to_name_holds_the_next_play_until_it_is_named_or_the_host_skips_it():
    state = table3(acting_deck({4: {"action": {"kind": "forbid_colour"}}}),
                   top={"colour": "circle", "number": 4})
    do(state, "a", "play", cards=[fx(4)])
    for verb, fields in (("play", {"cards": [{"colour": "circle", "number": 1}]}), ("draw", {})):
        with pytest.raises(RuleViolation) as e:
            do(state, "b", verb, **fields)
        assert e.value.code == "blank/colour_to_name" and e.value.kind == "conflict"
        assert e.value.params == {"player": "a"}
    assert state["hands"]["b"] == 7 and state["penalties"] == []
    do(state, "b", "draw", effect=True)  # an effect's draw is no turn: it is not held
    with pytest.raises(RuleViolation) as e:
        do(state, "b", "name_colour", skip=True)
    assert e.value.code == "table/host_only"
    events = do(state, None, "name_colour", skip=True)
    assert events == [{"type": "ColourSkipped", "player": "a"}]
    assert state["to_name"] is None and state["forbidden"] is None
    do(state, "b", "play", cards=[{"colour": "circle", "number": 1}])
    with pytest.raises(RuleViolation) as e:
        do(state, None, "name_colour", skip=True)
    assert e.value.code == "blank/nothing_to_name"


def test_a_fine_of_two_cards_says_two_and_a_forbidden_colour_says_why():
    state = table3(acting_deck({4: {"action": {"kind": "forbid_colour"}}}),
                   top={"colour": "circle", "number": 4})
    events = do(state, "c", "play", cards=[{"colour": "square", "number": 6}])  # out of turn, no match
    assert [(e["reason"], e["fine"]) for e in events] == [("out_of_turn", 2), ("illegal_play", 2)]
    assert [p["fine"] for p in GAME.view(state, "c")["penalties"]] == [2, 2]
    events = do(state, "c", "play", cards=[{"colour": "square", "number": 4}])  # out of turn only
    assert [(e["reason"], e.get("fine")) for e in events] == [("out_of_turn", None)]
    do(state, "a", "play", cards=[fx(4)])
    do(state, "a", "name_colour", colour="square")
    events = do(state, "b", "play", cards=[{"colour": "square", "number": 4}])  # the number matches
    assert events[0]["reason"] == "illegal_play" and events[0]["why"] == "forbidden_colour"
    assert GAME.view(state, "b")["penalties"][-1]["why"] == "forbidden_colour"

def test_an_effect_the_app_applies_is_worded_by_its_action_and_a_missing_field_is_named():
    from companion.games.blank.deck import read_card_effect, read_rule
    effect = read_card_effect({"title": "Turn", "creator": "Bo", "action": {"kind": "reverse"}})
    assert effect == {"title": "Turn", "text": "", "creator": "Bo",
                      "action": {"kind": "reverse"}}
    rule = read_rule({"trigger": {"kind": "card_played"}, "target": "next_player", "effect": "other",
                      "creator": "Bo", "action": {"kind": "skip"}}, "r9", 0)
    assert rule["text"] == "" and rule["action"] == {"kind": "skip"}
    empty = (({"title": "Turn", "creator": "Bo"}, "text"), ({"text": "x", "creator": "Bo"}, "title"),
             ({"title": "Turn", "text": "x"}, "creator"))
    for raw, missing in empty:
        with pytest.raises(RuleViolation) as e:
            read_card_effect(raw)
        assert e.value.code == "table/missing_field" and e.value.params == {"field": missing}


def test_a_deck_changed_before_the_game_starts_is_the_one_played():
    from companion.games.blank.deck import refreshed
    from companion.table.rules import TableRules, created
    rules = TableRules({"blank": GAME})
    old = acting_deck()
    old["newest_creation"] = "q0"  # featured in this table's game: the store has let it go
    state = {}
    rules.evolve(state, created("T", "blank", GAME.options({"deck": old, "rule_cards": "app"}), 0))
    for p in P:
        rules.evolve(state, {"type": "PlayerJoined", "player_id": p, "name": p, "ts_ms": 0})
    new = acting_deck({2: {"action": {"kind": "skip"}}})  # the owner entered an effect since
    deck = refreshed(old, new)
    assert deck["newest_creation"] == "q0" and deck["cards"] == new["cards"]
    ctx = Context(None, True, 5, random.Random(1))
    start = {"type": "table.start_game", "options": {**state["options"], "deck": deck}}
    events, after = rules.decide(state, [], start, ctx)
    assert [e["type"] for e in events][:2] == ["OptionsRefreshed", "GameStarted"]
    assert after["game_state"]["options"]["deck"]["cards"] == new["cards"]
    assert after["game_state"]["featured"] == ["q0"]
    # The same deck as the table's: nothing to refresh.
    events, _ = rules.decide(state, [], {"type": "table.start_game", "options": state["options"]}, ctx)
    assert events[0]["type"] == "GameStarted"


def test_effects_entered_after_the_table_was_made_are_played(tables, client):
    made = client.post("/api/decks", json={"name": "Ours"}).get_json()
    t = tables.create("blank", deck_id=made["id"], rule_cards="app")
    ids = {n: tables.join(t["code"], n)["player_id"] for n in ("Anna", "Bela")}
    effect = {"title": "Skipper", "creator": "Bo", "action": {"kind": "skip"}}
    r = client.post(f"/api/decks/{made['id']}/cards/g2", json={"effect": effect},
                    headers={"Authorization": f"Bearer {made['owner_token']}"})
    assert r.status_code == 200, r.get_json()
    view = tables.ok(t["code"], t["host_token"], "table.start_game")["state"]["game_state"]
    assert next(c for c in view["cards"] if c["id"] == "g2")["effect"]["action"] == {"kind": "skip"}
    assert set(view["hands"]) == set(ids.values())


# -- issue 42: a card named by colour and number is one of the deck's free copies -------------

def copies(deck, colour, number):
    return [c["id"] for c in deck["cards"] if (c["colour"], c["number"]) == (colour, number)]


def refused(state, actor, verb, **fields):
    with pytest.raises(RuleViolation) as e:
        do(state, actor, verb, **fields)
    return e.value


def test_a_colour_and_number_names_a_free_copy_and_none_is_left_after_the_decks_two():
    state = table3(acting_deck(), top={"colour": "circle", "number": 1})
    three = {"colour": "circle", "number": 3}
    do(state, "a", "play", cards=[three])
    do(state, "b", "play", cards=[three])
    e = refused(state, "c", "play", cards=[three])  # a deck holds two circle 3s
    assert e.code == "blank/no_copy_free" and e.params == {"colour": "circle", "number": 3, "copies": 2}
    assert state["hands"]["c"] == 7 and state["penalties"] == [] and current(state) == "c"
    # Nor can one play hold three copies, or a copy beside both named by id.
    five = {"colour": "circle", "number": 5}
    assert refused(state, "c", "play", cards=[five, five, five]).code == "blank/no_copy_free"
    fours = copies(acting_deck(), "circle", 4)
    assert refused(state, "c", "play", cards=[{"id": i} for i in fours] + [{"colour": "circle", "number": 4}]
                   ).code == "blank/no_copy_free"
    do(state, "c", "play", cards=[five, five])
    assert state["hands"]["c"] == 5
    # A copy named by id is not free once every copy of its face is on the pile.
    assert refused(state, "a", "play", cards=[{"id": copies(acting_deck(), "circle", 5)[0]}]
                   ).code == "blank/no_copy_free"
    # Nor is a face drawn whose every copy is on the pile.
    do(state, "a", "draw")
    assert refused(state, "a", "draw", drawn=state["draws"], card=three).code == "blank/no_copy_free"


def test_both_copies_on_the_pile_by_id_leave_no_copy_to_name_by_colour_and_number():
    deck = acting_deck()
    state = table3(deck, top={"colour": "circle", "number": 1})
    fours = copies(deck, "circle", 4)
    do(state, "a", "play", cards=[{"id": fours[0]}])
    do(state, "b", "play", cards=[{"id": fours[1]}])
    assert refused(state, "c", "play", cards=[{"colour": "circle", "number": 4}]).code == "blank/no_copy_free"


def test_copies_come_back_with_a_reshuffle_and_an_upheld_accusation():
    state = table3(acting_deck(), top={"colour": "circle", "number": 1})
    three = {"colour": "circle", "number": 3}
    do(state, "a", "play", cards=[three])
    do(state, "b", "play", cards=[three])
    # An upheld accusation takes b's circle 3 back into b's hand: one copy is free again.
    do(state, "a", "accuse", player="b", reason="illegal_play")
    do(state, None, "judge", upheld=True)
    do(state, "c", "play", cards=[three])
    assert refused(state, "a", "play", cards=[three]).code == "blank/no_copy_free"
    state["draw_pile"] = 0  # the draw pile runs out: every discard but the top comes back
    do(state, "a", "draw")
    do(state, "b", "play", cards=[three])  # the top circle 3 stays, the other is in a hand again
    assert state["top"] == three and state["penalties"][-1]["player"] == "a"


def free_counts_hold(deck, pile):
    """Every face on the pile, counted from the events alone, is at most the deck's copies."""
    faces = {}
    for c in pile:
        face = next((x["colour"], x["number"]) for x in deck["cards"] if x["id"] == c["id"]) if "id" in c \
            else (c["colour"], c["number"])
        faces[face] = faces.get(face, 0) + 1
    return all(n <= len(copies(deck, *face)) for face, n in faces.items())


CIRCLE_MOVES = st.lists(st.tuples(st.sampled_from(["face", "plain", "illustrated", "draw", "accuse"]),
                                  st.integers(1, 6), st.integers(1, 3)), max_size=50)


@given(CIRCLE_MOVES)
def test_no_colour_and_number_is_played_more_often_than_the_deck_holds_copies(moves):
    """Plays of circles named by colour and number or by id, several at once, draws that
    reshuffle the pile, accusations that take a play back: the pile, as the events tell it,
    never holds more copies of a face than the deck has."""
    deck = acting_deck()
    state = table3(deck, top={"colour": "circle", "number": 1})
    state.update(draw_pile=3, discard_pile=state["discard_pile"] + state["draw_pile"] - 3)
    pile = [{"colour": "circle", "number": 1}]
    for kind, number, many in moves:
        plain, illustrated = copies(deck, "circle", number)
        card = {"face": {"colour": "circle", "number": number}, "plain": {"id": plain},
                "illustrated": {"id": illustrated}}.get(kind)
        try:
            if card is not None:
                events = do(state, current(state), "play", cards=[card] * (1 if "id" in card else many))
            elif kind == "draw":
                events = do(state, current(state), "draw")
            else:
                last = state["last_play"]
                if not last:
                    continue
                do(state, next(p for p in P3 if p != last["player"]), "accuse", player=last["player"],
                   reason="illegal_play")
                events = do(state, None, "judge", upheld=True)
        except RuleViolation as e:
            assert e.code in ("blank/no_copy_free", "blank/card_on_pile", "blank/card_twice",
                              "blank/hand_count", "blank/accusation_open")
            continue
        for e in events:
            if e["type"] == "CardsPlayed":
                pile += e["cards"]
            elif e.get("reshuffle"):
                pile = pile[-1:]
            elif e["type"] == "AccusationJudged" and e.get("returned"):
                pile = pile[:-len(last["cards"])]
        assert free_counts_hold(deck, pile), pile


def test_a_legal_play_of_more_cards_than_the_app_counts_asks_the_host_to_correct_the_count():
    """The table is the truth: eight squares on square 6 from a hand the app counts as seven is
    a play the rules allow, so it is no penalty; the app cannot tell which count is wrong, so it
    refuses it, naming both counts, until the host corrects the hand."""
    deck = acting_deck()
    state = table3(deck, top={"colour": "square", "number": 6})
    squares = [{"id": c["id"]} for c in deck["cards"] if c["colour"] == "square" and c["number"] != 6][:8]
    e = refused(state, "a", "play", cards=squares)
    assert e.code == "blank/hand_count" and e.kind == "conflict" and e.params == {"hand": 7, "cards": 8}
    assert state["hands"]["a"] == 7 and state["penalties"] == [] and current(state) == "a"
    do(state, None, "adjust", player="a", delta=1, note="a card the app missed")
    do(state, "a", "play", cards=squares)
    assert state["hands"]["a"] == 0 and state["penalties"] == []


def test_blank_play_refuses_a_third_circle_3_and_a_count_the_host_must_correct(tables, client):
    """Through the API: a deck of two circle 3s gives two plays of one, whichever way named; a
    play of more cards than the hand holds in the app's count is refused, not punished."""
    made = client.post("/api/decks", json={"name": "Two of each"}).get_json()
    code, host, tokens, ids = tables.seated("blank", ["Anna", "Bela"], deck_id=made["id"], rule_cards="app")
    tables.ok(code, host, "blank.first_card", card={"colour": "circle", "number": 1})
    three = {"colour": "circle", "number": 3}
    tables.ok(code, tokens["Anna"], "blank.play", cards=[three])
    tables.ok(code, tokens["Bela"], "blank.play", cards=[three])
    r = tables.command(code, tokens["Anna"], "blank.play", cards=[three])
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["error"]["code"] == "blank/no_copy_free"
    assert r.get_json()["error"]["params"] == {"colour": "circle", "number": 3, "copies": 2}
    deck = client.get(f"/api/decks/{made['id']}").get_json()
    fours = [{"id": c["id"]} for c in deck["cards"] if (c["colour"], c["number"]) == ("circle", 4)]
    tables.ok(code, tokens["Anna"], "blank.play", cards=fours)
    r = tables.command(code, tokens["Bela"], "blank.play", cards=[{"colour": "circle", "number": 4}])
    assert r.get_json()["error"]["code"] == "blank/no_copy_free"
    # Bela holds six as the app counts, and lays down eight 4s on the circle 4: he is asked.
    fours = [{"colour": colour, "number": 4} for colour in ("hexagon", "triangle", "square", "diamond")] * 2
    r = tables.command(code, tokens["Bela"], "blank.play", cards=fours)
    error = r.get_json()["error"]
    assert r.status_code == 409 and error["code"] == "blank/hand_count"
    assert error["params"] == {"hand": 6, "cards": 8}
    state = tables.state(code, host)["state"]["game_state"]
    assert state["hands"][ids["Bela"]] == 6 and state["penalties"] == []
    tables.ok(code, host, "blank.adjust", player=ids["Bela"], delta=2, note="two draws the app missed")
    state = tables.ok(code, tokens["Bela"], "blank.play", cards=fours)["state"]["game_state"]
    assert state["hands"][ids["Bela"]] == 0 and state["penalties"] == []
