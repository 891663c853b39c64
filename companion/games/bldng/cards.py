"""The BLDNG cards as data, and which project elements a card can stand for."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..core.commands import choice_field
from ..core.errors import RuleViolation

SHAPES = ("triangle", "circle", "square", "rectangle")
COLOURS = ("yellow", "green", "red", "blue")
COPIES = 4
WHAT_HAPPENS = {  # kind: how many cards of it the deck has
    "take_three": 2, "take_one_each": 1, "steal_circle": 1, "steal_square": 1, "steal_triangle": 1,
    "steal_rectangle": 1, "shift_projects": 1, "change_project": 1, "reverse": 2, "give_five": 1,
    "skip": 2, "up_to_15": 1,
}
SHAPE_CARDS = len(SHAPES) * len(COLOURS) * COPIES + len(SHAPES) + len(COLOURS) + 2  # 74
DECK_SIZE = SHAPE_CARDS + sum(WHAT_HAPPENS.values())  # 89
PROJECTS = (("ordered", 8, 10), ("sculpture", 8, 8), ("ordered", 10, 10), ("sculpture", 10, 8))
Card = dict[str, Any]
Element = tuple[str, str]


def read_card(raw: Any) -> Card:
    """A card as a phone reports it: ``{"kind": "shape", "shape", "colour"}``,
    ``{"kind": "jolly_colours", "shape"}`` (any colour), ``{"kind": "jolly_shapes", "colour"}``
    (any shape), ``{"kind": "jolly_all"}``, or ``{"kind": "what_happens", "effect"}``."""
    if not isinstance(raw, dict):
        raise RuleViolation("bldng/bad_card", "a card is an object with a 'kind'")
    kind = choice_field(raw, "kind", ("shape", "jolly_colours", "jolly_shapes", "jolly_all", "what_happens"))
    if kind == "shape":
        return {"kind": kind, "shape": choice_field(raw, "shape", SHAPES),
                "colour": choice_field(raw, "colour", COLOURS)}
    if kind == "jolly_colours":
        return {"kind": kind, "shape": choice_field(raw, "shape", SHAPES)}
    if kind == "jolly_shapes":
        return {"kind": kind, "colour": choice_field(raw, "colour", COLOURS)}
    if kind == "what_happens":
        return {"kind": kind, "effect": choice_field(raw, "effect", tuple(WHAT_HAPPENS))}
    return {"kind": kind}


def card_key(card: Card) -> str:
    """The name of a card's kind in a pile's contents: ``"shape:red:circle"``, ``"jolly_all"``."""
    parts = [card["kind"], card.get("colour"), card.get("shape"), card.get("effect")]
    return ":".join(p for p in parts if p)


def full_deck() -> dict[str, int]:
    """The Shapes and What happens deck by kind, as the rulebook's card list gives it."""
    deck = {card_key({"kind": "shape", "shape": s, "colour": c}): COPIES for s in SHAPES for c in COLOURS}
    deck |= {card_key({"kind": "jolly_colours", "shape": s}): 1 for s in SHAPES}
    deck |= {card_key({"kind": "jolly_shapes", "colour": c}): 1 for c in COLOURS}
    deck |= {"jolly_all": 2}
    deck |= {card_key({"kind": "what_happens", "effect": e}): n for e, n in WHAT_HAPPENS.items()}
    return deck


def card_of_key(key: str) -> Card:
    kind, *rest = key.split(":")
    if kind == "shape":
        return {"kind": kind, "colour": rest[0], "shape": rest[1]}
    if kind == "jolly_colours":
        return {"kind": kind, "shape": rest[0]}
    if kind == "jolly_shapes":
        return {"kind": kind, "colour": rest[0]}
    if kind == "what_happens":
        return {"kind": kind, "effect": rest[0]}
    return {"kind": kind}


def draw_from(pile: dict[str, int]) -> Callable[[random.Random], Card]:
    """A virtual draw from a pile's contents, every card left equally likely."""
    def draw(rng: random.Random) -> Card:
        cards = [key for key, n in sorted(pile.items()) for _ in range(n)]
        if not cards:
            raise RuleViolation("bldng/no_cards", "there are no cards left to draw")
        return card_of_key(rng.choice(cards))
    return draw


def covers(card: Card, element: Element) -> bool:
    """Whether ``card`` can be used as ``element``: each jolly is worth one shape of one colour,
    chosen by the player to suit the project."""
    shape, colour = element
    return {"shape": lambda: card["shape"] == shape and card["colour"] == colour,
            "jolly_colours": lambda: card["shape"] == shape,
            "jolly_shapes": lambda: card["colour"] == colour,
            "jolly_all": lambda: True}.get(card["kind"], lambda: False)()


def is_jolly(card: Card) -> bool:
    return card["kind"].startswith("jolly")


def read_project(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RuleViolation("bldng/bad_project", "a project has a 'type' and its 'elements'")
    kind = choice_field(raw, "type", ("ordered", "sculpture"))
    elements = raw.get("elements")
    if not isinstance(elements, list) or len(elements) not in (8, 10):
        raise RuleViolation("bldng/bad_project", "a project has 8 or 10 elements")
    return {"type": kind, "elements": [_element(e) for e in elements]}


def _element(raw: Any) -> list[str]:
    """An element as ``{"shape", "colour"}`` or ``[shape, colour]``."""
    if isinstance(raw, list) and len(raw) == 2:
        raw = {"shape": raw[0], "colour": raw[1]}
    if not isinstance(raw, dict):
        raise RuleViolation("bldng/bad_project", "an element is a shape and a colour")
    return [choice_field(raw, "shape", SHAPES), choice_field(raw, "colour", COLOURS)]


def random_project(rng: random.Random) -> dict[str, Any]:
    """A card from a virtual project deck: its type and size in the rulebook's proportions
    (10/8/10/8), its elements drawn like the physical cards' mix of shapes and colours."""
    kind, size, _ = rng.choices(PROJECTS, weights=[p[2] for p in PROJECTS])[0]
    return {"type": kind, "elements": [[rng.choice(SHAPES), rng.choice(COLOURS)] for _ in range(size)]}
