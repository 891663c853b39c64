"""BLANKO refereed: turns, challenges, exchanges, passes, BLANKO cards and the final tally."""

import random

import pytest

from companion.games.blanko import tiles as letter_set
from companion.games.blanko.reading import edges
from companion.games.blanko.rules import Blanko
from companion.games.blanko.words import WordSet
from companion.games.core.context import Context
from companion.games.core.errors import RuleViolation

LEXICON = WordSet(["leső", "zavaros", "rigó", "ír", "ti", "kisbabát", "barát", "alma", "kés", "és",
                   "Budapest", "köz-ség", "macska", "ő"], abbreviations=["tv"])
P = ["anna", "bela", "cili"]


def new_game(lexicon=LEXICON, **options):
    game = Blanko(lexicon)
    state = game.initial(game.options({"start": "seated", **options}))
    for e in game.start(state, P, Context(None, True, 0, random.Random(1))):
        if not e["type"].startswith("Timer"):  # the hourglass is the table's, not the game's
            game.evolve(state, e)
    return game, state


def do(game, state, actor, verb, **fields):
    ctx = Context(actor, actor is None, 1000, random.Random(2))
    events = game.decide(state, {"type": f"blanko.{verb}", **fields}, ctx)
    for e in events:
        if not e["type"].startswith("Timer"):
            game.evolve(state, e)
    return events


def test_turns_score_the_rulebook_way():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["LESŐ"], placed=4)
    do(game, state, "bela", "lay", words=["RIGÓ", "ÍR", "TI"], placed=4)
    do(game, state, "cili", "lay", words=["KISBABÁT", "BARÁT"], placed=1, returned=1)
    s = game.score_table(state)
    assert (s["anna"]["words"], s["bela"]["words"], s["cili"]["words"]) == (10, 14, 16)
    assert state["bag"] == 112 - 24 - 4 - 4 + 1 - 1
    assert state["racks"] == {"anna": 8, "bela": 8, "cili": 8}


def test_first_word_needs_two_letters_and_turn_order_is_enforced():
    game, state = new_game()
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "lay", words=["A"], placed=1)
    assert e.value.code == "blanko/first_word_short"
    with pytest.raises(RuleViolation) as e:
        do(game, state, "bela", "lay", words=["ALMA"], placed=4)
    assert e.value.code == "table/not_your_turn"
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "lay", words=["AL-MA"], placed=4)
    assert e.value.code == "blanko/bad_characters"


def test_challenge_upheld_voids_the_turn_and_restores_the_bank():
    game, state = new_game()
    bag = state["bag"]
    do(game, state, "anna", "lay", words=["KALAP"], placed=4)
    assert state["bag"] == bag - 4
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "challenge")
    assert e.value.code == "blanko/own_turn"
    events = do(game, state, "bela", "challenge")
    assert events[0]["type"] == "ChallengeUpheld"
    assert events[0]["verdicts"] == [{"word": "KALAP", "valid": False, "reason": "not-a-word"}]
    assert state["turns"][0]["status"] == "rejected" and state["bag"] == bag
    assert game.score_table(state)["anna"]["words"] == 0
    assert not state["first_laid"]


def test_challenge_window_closes_when_the_next_word_is_laid():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ALMA"], placed=4)
    assert do(game, state, "cili", "challenge")[0]["type"] == "ChallengeRejected"
    do(game, state, "bela", "lay", words=["KÉS"], placed=3)
    do(game, state, "cili", "pass")  # a pass does not close the window on bela's word
    assert game.pending(state)["n"] == 1
    do(game, state, "anna", "lay", words=["ÉS"], placed=1)
    assert game.pending(state)["n"] == 3  # bela's KÉS can no longer be challenged
    do(game, state, "bela", "challenge")
    with pytest.raises(RuleViolation) as e:
        do(game, state, "cili", "challenge")
    assert e.value.code == "blanko/nothing_to_challenge"


def test_auto_check_and_judge_mode():
    game, state = new_game(check="auto", judge_mode=True)
    events = do(game, state, "anna", "lay", words=["ALMA", "KAP"], placed=4)
    laid = events[0]
    assert laid["valid"] is False and laid["points"] == 0 and laid["verdicts"] is None
    assert state["racks"]["anna"] == 8 and state["turn"]["index"] == 1  # the turn is over


def test_house_word_reinstates_a_rejected_turn():
    game, state = new_game(check="auto")
    do(game, state, "anna", "lay", words=["SZIA"], placed=3)
    assert state["turns"][0]["status"] == "rejected"
    events = do(game, state, None, "approve_word", word="szia")
    assert [e["type"] for e in events] == ["WordApproved", "TurnReinstated"]
    assert state["turns"][0]["status"] == "valid" and game.score_table(state)["anna"]["words"] == 3 + 1 + 1
    with pytest.raises(RuleViolation) as e:
        do(game, state, "bela", "approve_word", word="haha")
    assert e.value.code == "table/host_only"


def test_proper_nouns_only_with_house_rules():
    game, state = new_game(check="auto")
    assert do(game, state, "anna", "lay", words=["BUDAPEST"], placed=8)[0]["valid"] is False
    game, state = new_game(check="auto", allow_names=True)
    assert do(game, state, "anna", "lay", words=["BUDAPEST"], placed=8)[0]["valid"] is True


def test_a_laid_word_scores_the_tiles_its_spelling_takes():
    game, state = new_game()
    laid = do(game, state, "anna", "lay", words=["KÖZSÉG"], placed=6)[0]
    assert laid["words"][0]["tiles"] == ["K", "Ö", "Z", "S", "É", "G"] and laid["points"] == 15


def test_a_split_the_spelling_does_not_allow_is_challenged_away():
    game, state = new_game()
    laid = do(game, state, "anna", "lay", words=["MAC.SKA"], placed=6)[0]
    assert laid["words"][0]["tiles"] == ["M", "A", "C", "S", "K", "A"]  # the turn shows the split
    events = do(game, state, "bela", "challenge")
    assert events[0]["type"] == "ChallengeUpheld"
    assert events[0]["verdicts"] == [{"word": "MACSKA", "valid": False, "reason": "wrong-tiles"}]
    game, state = new_game()
    do(game, state, "anna", "lay", words=["MACSKA"], placed=5)
    assert do(game, state, "bela", "challenge")[0]["type"] == "ChallengeRejected"


@pytest.mark.parametrize("word, reason", [("Ő", "too-short"), ("TV", "abbreviation")])
def test_one_tile_words_and_abbreviations_are_refused(word, reason):
    game, state = new_game(check="auto")
    do(game, state, "anna", "lay", words=["ALMA"], placed=4)
    laid = do(game, state, "bela", "lay", words=[word], placed=1)[0]
    assert laid["valid"] is False and laid["verdicts"] == [{"word": word, "valid": False, "reason": reason}]


def test_the_table_can_accept_an_abbreviation_as_a_house_word():
    game, state = new_game(check="auto")
    do(game, state, "anna", "lay", words=["TV"], placed=2)
    events = do(game, state, None, "approve_word", word="tv")
    assert [e["type"] for e in events] == ["WordApproved", "TurnReinstated"]
    assert do(game, state, "bela", "lay", words=["TV"], placed=2)[0]["valid"] is True


def test_exchange_needs_20_points_and_costs_10():
    game, state = new_game()
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "exchange")
    assert e.value.code == "blanko/exchange_needs_20" and "(you have 0)" in e.value.message
    for _ in range(2):
        do(game, state, "anna", "lay", words=["ZAVAROS"], placed=7)
        do(game, state, "bela", "pass")
        do(game, state, "cili", "pass")
    do(game, state, "anna", "exchange")
    assert game.score_table(state)["anna"] == {"words": 24, "exchanges": -10, "bonus": 0, "rack": 0,
                                               "total": 14}


def test_all_passing_in_a_round_ends_the_game_then_racks_are_counted():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["LESŐ"], placed=4)
    for p in P:
        do(game, state, p, "pass") if state["turn"]["order"][state["turn"]["index"]] == p else None
    while state["phase"] == "play":
        do(game, state, state["turn"]["order"][state["turn"]["index"]], "pass")
    assert state["phase"] == "final" and state["final_reason"] == "passes"
    with pytest.raises(RuleViolation):
        do(game, state, "anna", "lay", words=["ALMA"], placed=4)
    do(game, state, "anna", "rack", letters="AAAAAAA?")
    do(game, state, "bela", "rack", letters="ZSAAAAAAA")
    assert not state["over"]
    do(game, state, "cili", "rack", letters="AAAAAAAB")
    assert state["over"]
    s = game.score_table(state)
    assert s["anna"]["total"] == 10 - 17 and s["bela"]["total"] == -15 and s["cili"]["total"] == -9
    assert game.result(state)["winners"] == ["anna"]


def test_bank_empty_and_a_rack_laid_out_ends_the_game():
    game, state = new_game(letter_counts={t: 0 for t in letter_set.LETTER_SET} | {"?": 27})
    assert state["bag"] == 3
    do(game, state, "anna", "lay", words=["?A?L?M?A?K?É?S?A"], placed=8)
    assert (state["bag"], state["racks"]["anna"], state["phase"]) == (0, 3, "play")
    do(game, state, "bela", "lay", words=["?A?L?M?A?K?É?S?A"], placed=8)
    assert state["phase"] == "final" and state["final_reason"] == "out"


@pytest.mark.parametrize("fields, points", [
    ({"card": "puzzle", "blue_squares": 7, "letters": 7, "filled": True}, 9),
    ({"card": "puzzle", "blue_squares": 9, "letters": 7, "squares": 2}, 14),
    ({"card": "puzzle", "blue_squares": 5, "letters": 5, "filled": True, "squares": 3}, 17),
    ({"card": "letter", "letters": 6, "bonus_letter_used": True}, 7),
    ({"card": "letter", "letters": 6, "bonus_letter_used": True, "squares": 3}, 21),
    ({"card": "letter", "letters": 8, "bonus_letter_used": True, "filled": True, "squares": 2}, 20),
    ({"card": "letter", "letters": 8, "bonus_letter_used": True, "filled": True}, 11),
    ({"card": "luck", "instruction": "blanko_word", "succeeded": True}, 20),
    ({"card": "luck", "instruction": "lay_again", "words": ["ALMA"], "placed": 4}, 4),
    ({"card": "luck", "instruction": "draw_one", "words": ["KAP"], "placed": 1}, 0),
    ({"card": "luck", "instruction": "swap_one"}, 0),
    ({"card": "luck", "instruction": "previous_round"}, 12),
])
def test_blanko_cards_are_kept_apart(fields, points):
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ZAVAROS"], placed=7)
    do(game, state, "bela", "pass")
    do(game, state, "cili", "pass")
    do(game, state, "anna", "lay", words=["ALMA"], placed=4, covered_blanko=True)
    do(game, state, "anna", "bonus", **fields)
    s = game.score_table(state)["anna"]
    assert s["bonus"] == points and s["words"] == 16
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "bonus", **fields)
    assert e.value.code == "blanko/no_bonus"


def test_starting_player_is_drawn_and_ties_redraw():
    game = Blanko(LEXICON)
    for seed in range(20):
        state = game.initial(game.options({"start": "drawn"}))
        events = game.start(state, P, Context(None, True, 0, random.Random(seed)))
        drawn = events[0]
        values = game.values(state)
        last = drawn["rounds"][-1]
        best = max(values.get(t, 0) for t in last.values())
        assert [p for p, t in last.items() if values.get(t, 0) == best] == [drawn["first"]]
        for e in events:
            game.evolve(state, e)
        assert state["turn"]["order"][state["turn"]["index"]] == drawn["first"]


def test_auto_timer_starts_the_hourglass_each_turn():
    game, state = new_game(auto_timer=True, timer_seconds=45)
    events = do(game, state, "anna", "pass")
    assert events[-1] == {"type": "TimerStarted", "duration_ms": 45_000, "ends_at_ms": 46_000}


# -- issue 14: the rulebook's words, item by item ------------------------------------------

def test_a_luck_cards_second_lay_takes_tiles_from_the_bank():
    game, state = new_game()
    bag = state["bag"]
    do(game, state, "anna", "lay", words=["ALMA"], placed=1, covered_blanko=True)
    do(game, state, "anna", "bonus", card="luck", instruction="lay_again", words=["ZAVAROS"], placed=7)
    # One and then seven letters went down, and the rack was filled to 8 from the bank after both.
    assert state["bag"] == bag - 1 - 7 and state["racks"]["anna"] == 8
    assert game.score_table(state)["anna"]["bonus"] == 12


def test_draw_one_takes_its_letter_from_the_bank_and_a_failed_draw_puts_it_back():
    game, state = new_game()
    bag = state["bag"]
    do(game, state, "anna", "lay", words=["ALMA"], placed=4, covered_blanko=True)
    do(game, state, "anna", "bonus", card="luck", instruction="draw_one", words=["KÉS"], placed=1)
    assert state["bag"] == bag - 4 - 1 and state["racks"]["anna"] == 8
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ALMA"], placed=4, covered_blanko=True)
    do(game, state, "anna", "bonus", card="luck", instruction="draw_one")
    assert state["bag"] == bag - 4 and state["racks"]["anna"] == 8


def test_a_second_lay_can_empty_the_bank_and_end_the_game_on_time():
    game, state = new_game(letter_counts={t: 0 for t in letter_set.LETTER_SET} | {"?": 30})
    assert state["bag"] == 6
    do(game, state, "anna", "lay", words=["?A?L?M?A"], placed=1, covered_blanko=True)
    assert (state["bag"], state["racks"]["anna"]) == (5, 8)
    do(game, state, "anna", "bonus", card="luck", instruction="lay_again", words=["?K?I?S?B?A?B?Á?T"],
       placed=7)
    assert (state["bag"], state["racks"]["anna"]) == (0, 6)
    do(game, state, "bela", "lay", words=["?A?L?M?A?K?É?S?A"], placed=8)
    assert state["phase"] == "final" and state["final_reason"] == "out"


def test_a_challenged_lay_takes_its_luck_lay_back_too():
    game, state = new_game()
    bag = state["bag"]
    do(game, state, "anna", "lay", words=["KALAP"], placed=2, covered_blanko=True)
    do(game, state, "anna", "bonus", card="luck", instruction="lay_again", words=["ALMA"], placed=4)
    do(game, state, "bela", "challenge")
    assert state["bag"] == bag and state["racks"]["anna"] == 8
    assert game.score_table(state)["anna"]["total"] == 0


def test_a_luck_lay_names_its_tiles_from_the_rack():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ALMA"], placed=1, covered_blanko=True)
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "bonus", card="luck", instruction="lay_again", words=["ALMA"])
    assert e.value.code == "table/missing_field"
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "bonus", card="luck", instruction="lay_again", words=["ALMA"], placed=5)
    assert e.value.code == "blanko/placed_too_many"


def test_exchange_counts_what_was_collected_words_and_blanko_cards():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ALMA"], placed=4, covered_blanko=True)
    do(game, state, "anna", "bonus", card="luck", instruction="blanko_word", succeeded=True)
    do(game, state, "bela", "pass")
    do(game, state, "cili", "pass")
    do(game, state, "anna", "exchange")  # 4 for the word and 20 for the card: 24 collected
    do(game, state, "bela", "pass")
    do(game, state, "cili", "pass")
    do(game, state, "anna", "exchange")  # still 24 collected, although 14 after the first exchange
    assert game.score_table(state)["anna"]["total"] == 4 - 10 - 10 + 20


@pytest.mark.parametrize("covered", [False, None])
def test_a_blanko_card_needs_a_lay_that_covered_a_blanko_square(covered):
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ZAVAROS"], placed=7, covered_blanko=True)
    do(game, state, "bela", "lay", words=["ALMA"], placed=4,
       **({} if covered is None else {"covered_blanko": covered}))
    with pytest.raises(RuleViolation) as e:
        do(game, state, "bela", "bonus", card="luck", instruction="swap_one")
    assert e.value.code == "blanko/bonus_not_covered"


def test_a_blanko_card_belongs_to_the_turn_that_just_ended():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ZAVAROS"], placed=7, covered_blanko=True)
    do(game, state, "bela", "pass")
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "bonus", card="luck", instruction="swap_one")
    assert e.value.code == "blanko/bonus_late"


def test_the_first_word_covers_a_blanko_square_unless_the_player_says_otherwise():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ALMA"], placed=4)
    assert state["turns"][0]["covered_blanko"] is True
    do(game, state, "anna", "bonus", card="puzzle", blue_squares=6, letters=3)


def test_the_final_tally_takes_the_rack_the_app_knows_of():
    game, state = new_game()
    do(game, state, None, "finish")
    for letters in ("", "ABC", "ABCDEFGHI"):
        with pytest.raises(RuleViolation) as e:
            do(game, state, "anna", "rack", letters=letters)
        assert e.value.code == "blanko/rack_count" and "8" in e.value.message
    do(game, state, "anna", "rack", letters="AAAAAAA?")
    assert state["counted"]["anna"]["deduction"] == 7 + 10
    # The referee may count a rack the app has wrong (a miscounted lay), for the player.
    do(game, state, None, "rack", player="bela", letters="ZS")
    assert state["counted"]["bela"]["deduction"] == 8
    with pytest.raises(RuleViolation) as e:
        do(game, state, "cili", "rack", player="bela", letters="")
    assert e.value.code == "table/host_only"


def test_previous_round_after_an_exchange_writes_down_nothing_not_minus_ten():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ZAVAROS"], placed=7)
    do(game, state, "bela", "pass")
    do(game, state, "cili", "pass")
    do(game, state, "anna", "lay", words=["ZAVAROS"], placed=7)
    do(game, state, "bela", "pass")
    do(game, state, "cili", "pass")
    do(game, state, "anna", "exchange")
    do(game, state, "bela", "pass")
    do(game, state, "cili", "pass")
    do(game, state, "anna", "lay", words=["KÉS"], placed=3, covered_blanko=True)
    do(game, state, "anna", "bonus", card="luck", instruction="previous_round")
    assert game.score_table(state)["anna"]["bonus"] == 0


def test_draw_one_may_take_the_last_letter_the_refill_had_not_taken_yet():
    # The card is drawn before the rack is refilled: a bank the refill emptied still had letters.
    game, state = new_game(letter_counts={t: 0 for t in letter_set.LETTER_SET} | {"?": 27})
    do(game, state, "anna", "lay", words=["?A?L?M?A"], placed=4, covered_blanko=True)
    assert (state["bag"], state["racks"]["anna"]) == (0, 7)
    do(game, state, "anna", "bonus", card="luck", instruction="draw_one", words=["?K?É?S"], placed=3)
    assert (state["bag"], state["racks"]["anna"]) == (0, 4)


# -- issue 27 items 9-10: the BLANKO cards' real counts ---------------------------------------

def _covered(word="ALMA"):
    game, state = new_game()
    do(game, state, "anna", "lay", words=[word], placed=4, covered_blanko=True)
    return game, state


@pytest.mark.parametrize("fields, code", [
    # the letter card: eight empty squares, the printed letter, at most 8 + 1 + 2 = 11 points
    ({"card": "letter", "letters": 10, "bonus_letter_used": True, "filled": True}, "table/bad_field"),
    ({"card": "letter", "letters": 9}, "table/bad_field"),
    ({"card": "letter", "letters": 3, "filled": True}, "blanko/not_filled"),
    ({"card": "letter", "letters": 8, "filled": True}, "blanko/not_filled"),  # the printed one too
    ({"card": "letter", "letters": 0, "bonus_letter_used": True}, "blanko/bonus_letter_alone"),
    # the puzzle card: letters on its blue squares only; filled means every one of them
    ({"card": "puzzle", "letters": 3}, "table/missing_field"),
    ({"card": "puzzle", "blue_squares": 6, "letters": 7}, "blanko/letters_over_squares"),
    ({"card": "puzzle", "blue_squares": 6, "letters": 3, "filled": True}, "blanko/not_filled"),
    ({"card": "puzzle", "blue_squares": 6, "letters": 6, "squares": 4}, "table/bad_field"),
])
def test_a_blanko_card_refuses_counts_the_card_cannot_hold(fields, code):
    game, state = _covered()
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "bonus", **fields)
    assert e.value.code == code


def test_laying_blanko_takes_its_six_tiles_from_the_bank():
    game, state = _covered("KALAP")
    bag = state["bag"]
    do(game, state, "anna", "bonus", card="luck", instruction="blanko_word", succeeded=True)
    assert state["bag"] == bag - 6 and state["racks"]["anna"] == 8
    do(game, state, "bela", "challenge")  # the lay falls, and its card with it
    assert state["bag"] == bag + 4 and game.score_table(state)["anna"]["bonus"] == 0
    game, state = _covered()
    do(game, state, "anna", "bonus", card="luck", instruction="blanko_word", succeeded=False)
    assert state["bag"] == bag  # the ten letters went back


def test_laying_blanko_from_a_nearly_empty_bank_leaves_the_refill_short():
    # The card comes before the refill: the six tiles leave the bank first, the rack gets the rest.
    game, state = new_game(letter_counts={t: 0 for t in letter_set.LETTER_SET} | {"?": 34})
    assert state["bag"] == 10
    do(game, state, "anna", "lay", words=["?A?L?M?A"], placed=4, covered_blanko=True)
    assert (state["bag"], state["racks"]["anna"]) == (6, 8)
    do(game, state, "anna", "bonus", card="luck", instruction="blanko_word", succeeded=True)
    assert (state["bag"], state["racks"]["anna"]) == (0, 8)
    game, state = new_game(letter_counts={t: 0 for t in letter_set.LETTER_SET} | {"?": 32})
    do(game, state, "anna", "lay", words=["?A?L?M?A"], placed=4, covered_blanko=True)
    assert (state["bag"], state["racks"]["anna"]) == (4, 8)
    do(game, state, "anna", "bonus", card="luck", instruction="blanko_word", succeeded=True)
    assert (state["bag"], state["racks"]["anna"]) == (0, 6)
    game, state = new_game(letter_counts={t: 0 for t in letter_set.LETTER_SET} | {"?": 29})
    do(game, state, "anna", "lay", words=["?A?L?M?A"], placed=4, covered_blanko=True)
    assert (state["bag"], state["racks"]["anna"]) == (1, 8)
    with pytest.raises(RuleViolation) as e:  # five letters in the bank make no BLANKO
        do(game, state, "anna", "bonus", card="luck", instruction="blanko_word", succeeded=True)
    assert e.value.code == "blanko/bank_short"


# -- issue 27 item 11: the start letters the players really drew --------------------------------

def entering(**options):
    game = Blanko(LEXICON)
    state = game.initial(game.options(options))
    events = game.start(state, P, Context(None, True, 0, random.Random(1)))
    for e in events:
        game.evolve(state, e)
    return game, state, events


def test_by_default_each_player_enters_the_letter_they_drew_and_the_highest_begins():
    game, state, events = entering()
    assert state["options"]["start"] == "entered" and [e["type"] for e in events] == ["BlankoStarted"]
    assert state["phase"] == "start" and game.view(state, None)["start_draw"]["candidates"] == P
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "lay", words=["ALMA"], placed=4)
    assert e.value.code == "blanko/start_letters"
    do(game, state, "bela", "start_letter", letter="ZS")
    with pytest.raises(RuleViolation) as e:
        do(game, state, "bela", "start_letter", letter="A")
    assert e.value.code == "blanko/start_letter_entered"
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "start_letter", letter="AB")
    assert e.value.code == "blanko/start_letter_one"
    do(game, state, "anna", "start_letter", letter="?")  # a joker is worth 0
    assert state["phase"] == "start"
    do(game, state, "cili", "start_letter", letter="ly")
    # ZS and LY are both worth 8: Béla and Cili draw again, Anna is out of it.
    assert state["phase"] == "start" and state["start_draw"]["candidates"] == ["bela", "cili"]
    with pytest.raises(RuleViolation) as e:
        do(game, state, "anna", "start_letter", letter="TY")
    assert e.value.code == "blanko/start_letter_not_drawing"
    do(game, state, "cili", "start_letter", letter="É")
    do(game, state, "bela", "start_letter", letter="B")
    assert state["phase"] == "play" and state["start_draw"]["first"] == "cili"
    assert state["start_draw"]["rounds"] == [{"bela": "ZS", "anna": "?", "cili": "LY"},
                                             {"cili": "É", "bela": "B"}]
    assert state["turn"]["order"][state["turn"]["index"]] == "cili" and state["bag"] == 112 - 24
    do(game, state, "cili", "lay", words=["ALMA"], placed=4)


def test_the_host_enters_a_letter_for_a_player_and_a_removed_player_is_not_waited_for():
    game, state, _ = entering(auto_timer=True)
    do(game, state, None, "start_letter", player="anna", letter="F")
    do(game, state, "bela", "start_letter", letter="A")
    game.player_removed(state, "cili")
    assert state["phase"] == "play" and state["start_draw"]["first"] == "anna"
    game, state, _ = entering(auto_timer=True)
    do(game, state, "anna", "start_letter", letter="K")
    do(game, state, "bela", "start_letter", letter="A")
    events = do(game, state, "cili", "start_letter", letter="Ő")
    # the hourglass starts for the first turn once it is known whose it is
    assert [e["type"] for e in events] == ["StartingLetterEntered", "TimerStarted"]


def test_the_apps_draw_and_seat_order_stay_options():
    game, state, events = entering(start="drawn")
    assert events[0]["type"] == "StartingLettersDrawn" and state["phase"] == "play"
    game, state, events = entering(start="seated")
    assert [e["type"] for e in events] == ["BlankoStarted"] and state["phase"] == "play"
    assert game.options({"draw_start": True})["start"] == "drawn"  # the older option's name
    assert game.options({"draw_start": False})["start"] == "seated"
    # A table created before "start" existed keeps the options it was created with.
    older = {k: v for k, v in game.options({}).items() if k != "start"} | {"draw_start": True}
    events = game.start(game.initial(older), P, Context(None, True, 0, random.Random(1)))
    assert events[0]["type"] == "StartingLettersDrawn"
    with pytest.raises(RuleViolation) as e:
        game.options({"start": "dice"})
    assert e.value.code == "table/bad_options"


def test_a_laid_word_whose_dictionary_reading_leaves_a_lone_letter_is_laid_as_typed():
    """hunspell builds KERTYARD as kert + yard, which would leave a Y that is no tile (issue 34):
    the turn is laid with the tiles typed, and checked."""
    game = Blanko(WordSet(["kert|yard"]))
    state = game.initial(game.options({"start": "seated", "check": "auto"}))
    for e in game.start(state, P, Context(None, True, 0, random.Random(1))):
        if not e["type"].startswith("Timer"):
            game.evolve(state, e)
    laid = do(game, state, "anna", "lay", words=["KERTYARD"], placed=7)[0]
    assert laid["words"][0]["tiles"] == ["K", "E", "R", "TY", "A", "R", "D"] and laid["points"] == 17


# -- issue 34 item 10: a start letter the set does not hold twice ---------------------------------

def test_a_round_of_start_letters_holds_no_more_of_a_tile_than_the_set_has():
    game, state, _ = entering()
    do(game, state, "anna", "start_letter", letter="TY")
    with pytest.raises(RuleViolation) as e:  # the set has one TY, and Anna drew it
        do(game, state, "bela", "start_letter", letter="ty")
    assert e.value.code == "blanko/start_letter_gone"
    assert e.value.params == {"tile": "TY", "count": 1}
    do(game, state, "bela", "start_letter", letter="?")  # two jokers: both may be drawn
    do(game, state, "cili", "start_letter", letter="?")
    assert state["start_draw"]["first"] == "anna"
    # A round of its own: the letters went back to the bank after the last one.
    game, state, _ = entering()
    for p in P:
        do(game, state, p, "start_letter", letter="F" if p != "cili" else "A")  # F 4 twice: a tie
    assert state["start_draw"]["candidates"] == ["anna", "bela"]
    do(game, state, "anna", "start_letter", letter="TY")
    with pytest.raises(RuleViolation) as e:
        do(game, state, None, "start_letter", player="bela", letter="TY")  # the host too
    assert e.value.code == "blanko/start_letter_gone"


def test_a_house_set_decides_how_many_of_a_tile_a_round_can_hold():
    game, state, _ = entering(letter_counts={"TY": 2, "Ő": 0})
    do(game, state, "anna", "start_letter", letter="TY")
    do(game, state, "bela", "start_letter", letter="TY")
    with pytest.raises(RuleViolation) as e:
        do(game, state, "cili", "start_letter", letter="Ő")
    assert e.value.params == {"tile": "Ő", "count": 0}


# -- issue 34 item 8: a BLANKO card entered late, by the host ----------------------------------

def test_the_host_enters_a_late_blanko_card_for_the_players_last_covering_turn():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ZAVAROS"], placed=7, covered_blanko=True)
    do(game, state, "bela", "pass")
    with pytest.raises(RuleViolation) as e:  # the player is still refused, and told who can
        do(game, state, "anna", "bonus", card="puzzle", blue_squares=6, letters=5)
    assert e.value.code == "blanko/bonus_late"
    with pytest.raises(RuleViolation) as e:  # the host names whose card it is
        do(game, state, None, "bonus", card="puzzle", blue_squares=6, letters=5)
    assert e.value.code == "table/players_only"
    with pytest.raises(RuleViolation) as e:  # a player cannot enter another's card
        do(game, state, "bela", "bonus", player="anna", card="puzzle", blue_squares=6, letters=5)
    assert e.value.code == "table/host_only"
    assert game.view(state, None)["cards_open"] == {"anna": [0]}
    do(game, state, "cili", "lay", words=["ALMA"], placed=4)  # later turns change nothing
    events = do(game, state, None, "bonus", player="anna", card="puzzle", blue_squares=6, letters=5)
    assert events[0]["type"] == "BonusRecorded" and events[0]["n"] == 0
    assert events[0]["by"] == "host" and events[0]["late"] is True
    assert game.score_table(state)["anna"]["bonus"] == 5
    assert state["turns"][0]["bonus"]["by"] == "host"
    assert game.view(state, None)["cards_open"] == {}
    with pytest.raises(RuleViolation) as e:
        do(game, state, None, "bonus", player="anna", card="luck", instruction="swap_one")
    assert e.value.code == "blanko/no_bonus"
    with pytest.raises(RuleViolation) as e:  # Béla passed: no word of his covered a square
        do(game, state, None, "bonus", player="bela", card="luck", instruction="swap_one")
    assert e.value.code == "blanko/bonus_not_covered"


def test_a_late_card_is_for_the_last_covering_turn_and_an_upheld_challenge_voids_it():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ZAVAROS"], placed=7, covered_blanko=True)
    do(game, state, "bela", "pass")
    do(game, state, "cili", "pass")
    do(game, state, "anna", "lay", words=["KALAP"], placed=2, covered_blanko=True)
    do(game, state, "bela", "pass")
    assert game.view(state, None)["cards_open"] == {"anna": [0, 3]}
    do(game, state, None, "bonus", player="anna", card="luck", instruction="previous_round")
    assert game.score_table(state)["anna"]["bonus"] == 12  # ZAVAROS, the turn before turn 3
    do(game, state, "cili", "challenge")  # KALAP is no word: the turn and its card go
    assert game.score_table(state)["anna"]["bonus"] == 0
    assert game.view(state, None)["cards_open"] == {"anna": [0]}


def test_a_late_luck_lay_takes_its_tiles_from_the_bank_as_it_is_now():
    game, state = new_game()
    bag = state["bag"]
    do(game, state, "anna", "lay", words=["ALMA"], placed=4, covered_blanko=True)
    do(game, state, "bela", "lay", words=["KÉS"], placed=3)
    do(game, state, None, "bonus", player="anna", card="luck", instruction="lay_again",
       words=["ZAVAROS"], placed=4)
    assert state["bag"] == bag - 4 - 3 - 4 and state["racks"] == {"anna": 8, "bela": 8, "cili": 8}
    assert game.score_table(state)["anna"]["bonus"] == 12
    with pytest.raises(RuleViolation) as e:  # at most a full rack less the lay's four tiles
        game2, state2 = new_game()
        do(game2, state2, "anna", "lay", words=["ALMA"], placed=4, covered_blanko=True)
        do(game2, state2, "bela", "pass")
        do(game2, state2, None, "bonus", player="anna", card="luck", instruction="lay_again",
           words=["ZAVAROS"], placed=5)
    assert e.value.code == "table/bad_field"


@pytest.mark.parametrize("word, upheld", [("TÜKÖRT", True), ("TÜKRÖT", False), ("CHAT", True),
                                          ("NYERSSÉG", False)])
def test_a_challenge_goes_by_the_reviewed_dictionary(hu, word, upheld):
    game, state = new_game(hu)
    do(game, state, "anna", "lay", words=[word], placed=len(word) - 1)
    events = do(game, state, "bela", "challenge")
    assert events[0]["type"] == ("ChallengeUpheld" if upheld else "ChallengeRejected")


# -- issue 42 ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hu():
    from companion.dictionary.hunspell_lexicon import load
    return load()


def hunspell_game(hu, **options):
    game = Blanko(hu)
    state = game.initial(game.options({"start": "seated", **options}))
    for e in game.start(state, P, Context(None, True, 0, random.Random(1))):
        if not e["type"].startswith("Timer"):
            game.evolve(state, e)
    return game, state


# the numeral compounds of issue 42 (the word, how many letters its numeral has)
@pytest.mark.parametrize("word, numeral", [
    ("NYOLCSZEMÉLYES", 5), ("SZÁZSZERES", 4), ("NYOLCSZERES", 5), ("HARMINCSZERES", 7),
    ("KILENCSZOBÁS", 6), ("NYOLCSZOBÁS", 5), ("TÍZSZEMÉLYES", 3), ("NYOLCSOROS", 5),
    ("HARMINCSZÍNES", 7), ("KILENCSZEMÉLYES", 6),
])
def test_a_numeral_compound_laid_split_stands_a_challenge(hu, word, numeral):
    for typed in (f"{word[:numeral]}.{word[numeral:]}", word):
        game, state = hunspell_game(hu)
        laid = do(game, state, "anna", "lay", words=[typed], placed=8)[0]
        tiles = laid["words"][0]["tiles"]
        assert numeral in edges(tiles), tiles
        assert do(game, state, "bela", "challenge")[0]["type"] == "ChallengeRejected"


def test_a_house_word_is_read_by_its_parts_and_the_approval_says_how(hu):
    game, state = hunspell_game(hu)
    laid = do(game, state, "anna", "lay", words=["MÉZSÁRGA"], placed=8)[0]
    assert laid["words"][0]["tiles"] == ["M", "É", "Z", "S", "Á", "R", "G", "A"] and laid["points"] == 14
    assert do(game, state, "bela", "challenge")[0]["type"] == "ChallengeUpheld"  # not in the dictionary
    events = do(game, state, None, "approve_word", word="MÉZ.SÁRGA")
    assert events[0] == {"type": "WordApproved", "word": "mézsárga",
                         "tiles": ["M", "É", "Z", "S", "Á", "R", "G", "A"]}
    assert events[1]["type"] == "TurnReinstated" and game.score_table(state)["anna"]["words"] == 14
    # approved as typed without a dot, it is read by the same rules
    game, state = hunspell_game(hu)
    assert do(game, state, None, "approve_word", word="mézsárga")[0]["tiles"] == \
        ["M", "É", "Z", "S", "Á", "R", "G", "A"]
    laid = do(game, state, "anna", "lay", words=["MÉZSÁRGA"], placed=8)[0]
    assert laid["words"][0]["tiles"] == ["M", "É", "Z", "S", "Á", "R", "G", "A"]
    assert do(game, state, "bela", "challenge")[0]["type"] == "ChallengeRejected"


def test_every_covered_lay_without_its_card_stays_open_to_the_host():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ESŐ"], placed=3, covered_blanko=True)
    do(game, state, "bela", "pass")
    do(game, state, "cili", "pass")
    do(game, state, "anna", "lay", words=["LESŐ"], placed=1, covered_blanko=True)
    assert game.view(state, None)["cards_open"] == {"anna": [0, 3]}
    do(game, state, "anna", "bonus", card="puzzle", blue_squares=6, letters=5)  # in its turn: LESŐ's
    assert game.view(state, None)["cards_open"] == {"anna": [0]}
    do(game, state, "bela", "pass")
    with pytest.raises(RuleViolation) as e:  # the player is still refused a late card
        do(game, state, "anna", "bonus", n=0, card="puzzle", blue_squares=6, letters=4)
    assert e.value.code == "blanko/bonus_late"
    events = do(game, state, None, "bonus", player="anna", n=0, card="puzzle", blue_squares=6, letters=4)
    assert (events[0]["n"], events[0]["late"], events[0]["by"]) == (0, True, "host")
    assert game.score_table(state)["anna"]["bonus"] == 9 and game.view(state, None)["cards_open"] == {}
    with pytest.raises(RuleViolation) as e:
        do(game, state, None, "bonus", player="anna", n=0, card="luck", instruction="swap_one")
    assert e.value.code == "blanko/no_bonus"
    for n, code in ((1, "blanko/bonus_not_covered"), (2, "blanko/bonus_not_covered"),
                    (99, "table/bad_field")):  # a pass, another's turn, no such turn
        with pytest.raises(RuleViolation) as e:
            do(game, state, None, "bonus", player="anna", n=n, card="luck", instruction="swap_one")
        assert e.value.code == code


def test_without_a_turn_named_a_card_is_the_latest_covering_lays():
    game, state = new_game()
    do(game, state, "anna", "lay", words=["ESŐ"], placed=3, covered_blanko=True)
    do(game, state, "bela", "pass")
    do(game, state, "cili", "pass")
    do(game, state, "anna", "lay", words=["LESŐ"], placed=1, covered_blanko=True)
    do(game, state, "anna", "bonus", card="luck", instruction="swap_one")
    do(game, state, "bela", "pass")
    with pytest.raises(RuleViolation) as e:  # a card sent twice is not taken for ESŐ's
        do(game, state, None, "bonus", player="anna", card="luck", instruction="swap_one")
    assert e.value.code == "blanko/no_bonus"
    assert game.view(state, None)["cards_open"] == {"anna": [0]}
