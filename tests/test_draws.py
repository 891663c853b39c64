"""The shared "entered card or the app's draw": which one a command asked for, and what the
event keeps so that a replay never needs the random generator."""

import random

import pytest

from companion.games.core import draws
from companion.games.core.context import Context
from companion.games.core.errors import RuleViolation
from companion.games.core.events import event_for

CARDS = ("ace", "king", "queen")


def read(raw):
    if raw not in CARDS:
        raise RuleViolation("demo/bad_card", "no such card")
    return raw


def ctx(seed=1):
    return Context("a", False, 0, random.Random(seed))


def test_an_entered_card_is_read_by_the_games_own_reader():
    taken = draws.take({"card": "king"}, ctx(), read=read, draw=lambda rng: rng.choice(CARDS))
    assert taken == draws.Taken("king", "entered")
    with pytest.raises(RuleViolation) as e:
        draws.take({"card": "joker"}, ctx(), read=read)
    assert e.value.code == "demo/bad_card"


def test_a_virtual_draw_uses_the_seeded_generator_and_is_recorded():
    taken = draws.take({"draw": True}, ctx(7), read=read, draw=lambda rng: rng.choice(CARDS))
    assert taken.source == "drawn" and taken == draws.take(
        {"draw": True}, ctx(7), read=read, draw=lambda rng: rng.choice(CARDS))
    e = draws.recorded("CardTurned", taken)
    assert e == {"type": "CardTurned", "source": "drawn", "card": taken.card}
    assert draws.card_of(e) == taken.card  # the fold reads the event, never the generator


@pytest.mark.parametrize("command, code", [
    ({}, "table/enter_or_draw"),
    ({"card": "ace", "draw": True}, "table/enter_or_draw"),
    ({"draw": "yes"}, "table/bad_field"),
])
def test_a_command_names_a_card_or_asks_for_a_draw(command, code):
    with pytest.raises(RuleViolation) as e:
        draws.take(command, ctx(), read=read, draw=lambda rng: "ace")
    assert e.value.code == code


def test_a_game_without_a_virtual_deck_for_it_refuses_a_draw():
    with pytest.raises(RuleViolation) as e:
        draws.take({"draw": True}, ctx(), read=read)
    assert e.value.code == "table/no_virtual_draw"


def test_a_secret_card_rides_only_in_its_owners_envelope():
    taken = draws.Taken("queen", "entered")
    e = draws.recorded("ProjectSet", taken, key="project", owner="a", player="a")
    assert event_for(e, "b") == {"type": "ProjectSet", "source": "entered", "player": "a"}
    assert event_for(e, "a")["project"] == "queen" and draws.card_of(e, "project", owner="a") == "queen"


def test_several_cards_at_once_from_what_is_left():
    draw = draws.sample(["r1", "r2", "r3", "r4"], 3)
    picked = draw(random.Random(2))
    assert len(set(picked)) == 3 and set(picked) <= {"r1", "r2", "r3", "r4"}
    with pytest.raises(RuleViolation) as e:
        draws.sample(["r1"], 3)(random.Random(2))
    assert e.value.code == "table/pile_empty"
