"""Which collected cards build which project elements: a maximum bipartite matching.

A card with a single shape fits one element; a jolly fits several, but is worth only one. A
greedy choice can waste a jolly on an element a plain card would have covered, so the
assignment is a maximum matching (augmenting paths), and the project is complete exactly when
every element is matched.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Element, covers


def assign(cards: Sequence[Card], elements: Sequence[Element]) -> list[int | None]:
    """For each element, the index of the card used for it (None where nothing is left)."""
    owner: dict[int, int] = {}  # card -> element

    def augment(e: int, seen: set[int]) -> bool:
        for c, card in enumerate(cards):
            if c in seen or not covers(card, elements[e]):
                continue
            seen.add(c)
            if c not in owner or augment(owner[c], seen):
                owner[c] = e
                return True
        return False

    for e in range(len(elements)):
        augment(e, set())
    used = {e: c for c, e in owner.items()}
    return [used.get(e) for e in range(len(elements))]


def missing(cards: Sequence[Card], elements: Sequence[Element]) -> list[Element]:
    return [tuple(elements[e]) for e, c in enumerate(assign(cards, elements)) if c is None]  # type: ignore[misc]
