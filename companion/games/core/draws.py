"""A card the table drew or revealed: the physical card entered by a player, or the app's draw.

The physical table is the truth. Wherever the real game draws or reveals a card (a project
card, a penalty card, the Rule Cards turned at setup), the command that records it names that
card, read by the game's own card reader, so the app holds what is in the player's hand. Groups
playing without the cards may ask the app to draw instead (``"draw": true``); the app then
picks with the seeded ``ctx.rng``. Either way the event records the card itself and where it
came from (``source``: ``entered`` or ``drawn``), so a replay never needs the generator, and a
secret card travels only in its owner's ``secrets`` entry.

A game uses it in three lines::

    taken = draws.take(cmd, ctx, read=read_project, draw=random_project, key="project")
    return [draws.recorded("ProjectSet", taken, key="project", owner=player, player=player)]
    ...
    project = draws.card_of(e, "project", owner=e["player"])   # in the fold

``count`` takes several cards at once (``read`` and ``draw`` then deal in lists), as when three
Rule Cards are turned at the start of BLANK.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from .context import Context
from .errors import RuleViolation
from .events import Event, event

T = TypeVar("T")
Source = Literal["entered", "drawn"]
ENTERED: Source = "entered"
DRAWN: Source = "drawn"


@dataclass(frozen=True)
class Taken(Generic[T]):
    """What a command took from the table: the card (or cards) and how the app learnt it."""

    card: T
    source: Source


def take(command: dict[str, Any], ctx: Context, *, read: Callable[[Any], T],
         draw: Callable[[random.Random], T] | None = None, key: str = "card") -> Taken[T]:
    """The card ``command[key]`` names (checked by ``read``, which raises the game's own
    RuleViolation for a card the deck cannot hold), or, for ``{"draw": true}``, the card
    ``draw(ctx.rng)`` picks. ``draw=None`` means this game has no virtual deck for it."""
    wants_draw = command.get("draw", False)
    if not isinstance(wants_draw, bool):
        raise RuleViolation("table/bad_field", "'draw' must be true or false")
    named = command.get(key) is not None
    if wants_draw and named:
        raise RuleViolation("table/enter_or_draw",
                            f"enter the {key} from the table or let the app draw one, not both")
    if wants_draw:
        if draw is None:
            raise RuleViolation("table/no_virtual_draw",
                                f"the app cannot draw this {key}: enter the one from the table")
        return Taken(draw(ctx.rng), DRAWN)
    if not named:
        raise RuleViolation("table/enter_or_draw",
                            f"enter the {key} from the table, or ask the app to draw one")
    return Taken(read(command[key]), ENTERED)


def sample(pool: Sequence[T], count: int) -> Callable[[random.Random], list[T]]:
    """A virtual draw of ``count`` cards from what is left face down in ``pool``."""
    def draw(rng: random.Random) -> list[T]:
        if len(pool) < count:
            raise RuleViolation("table/pile_empty", f"only {len(pool)} card(s) are left to draw")
        return rng.sample(list(pool), count)
    return draw


def recorded(type_: str, taken: Taken[Any], *, key: str = "card", owner: str | None = None,
             **data: Any) -> Event:
    """The event of a taken card: ``source`` is public (everyone at the table sees a card being
    drawn); the card is public too, unless ``owner`` is given, when it rides only in the owner's
    ``secrets`` entry."""
    if owner is None:
        return event(type_, source=taken.source, **{key: taken.card}, **data)
    return event(type_, source=taken.source, secrets={owner: {key: taken.card}}, **data)


def card_of(e: Event, key: str = "card", owner: str | None = None) -> Any:
    """The card an event recorded with :func:`recorded` (its fold's side of the envelope)."""
    if owner is None:
        return e[key]
    return e["secrets"][owner][key]
