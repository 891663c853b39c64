"""A BLANK deck as data: its Rule Cards and its 72 Game Cards, and how a winner's prize changes
it. Pure: the deck store (companion/decks.py) keeps these dicts in the database.

Rule triggers are structured where the app can see them happen (a card played of a colour, of
a number, two or more cards, a card drawn, a penalty, time passing on a turn) and free text for
everything else; the rulebook's table gives the target and effect choices.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..core.commands import choice_field, int_field
from ..core.errors import RuleViolation, require

COLOURS = ("hexagon", "triangle", "square", "circle", "diamond", "shield")
NUMBERS = range(1, 7)
TRIGGERS = ("card_played", "colour_played", "number_played", "two_or_more", "card_drawn",
            "penalty", "time_passes", "other")
TARGETS = ("next_player", "previous_player", "all_players", "cards_in_play", "draw_pile",
           "discard_pile", "this_player", "other")
EFFECTS = ("draw_card", "take_cards", "discard_cards", "change_cards", "say_something",
           "do_something", "other")
PLAIN_RULES = 24
MAX_TEXT = 200

EXAMPLE_RULES = [
    ("Cough", {"kind": "other", "text": "a player coughs during the game"}, "this_player", "take_cards",
     "they must take a card from a player of their choice", "Rob D."),
    ("Two or more", {"kind": "two_or_more"}, "this_player", "say_something",
     "name a card colour which may not be played until your next turn", "Amanda McC."),
    ("Five seconds", {"kind": "time_passes", "seconds": 5}, "all_players", "discard_cards",
     "all other players may discard a card from their hand", "Michael F."),
    ("We Are Not Amused", {"kind": "other", "text": "a player is challenged"}, "other", "do_something",
     "challenge another player to a staring contest; the winner gives a card to the loser", "Pedro P."),
    ("Bark Like a Dog", {"kind": "card_played"}, "next_player", "say_something",
     "the next player must bark like a dog three times", "Pedro P."),
]
EXAMPLE_EFFECTS = [
    ("Sick Tricks", "The next card(s) can only MATCH NUMBER, not colour!", "Anita M."),
    ("Deep Dive", "This player may SEARCH THE DRAW PILE for a card of their choice, then shuffle it.",
     "Winnie S."),
    ("Switch Up", "Choose TWO players to EXCHANGE THEIR HANDS immediately.", "Michael McM."),
    ("Bee-Cycling", "Discard ALL your cards, then draw FIVE new cards.", "Rory O'C."),
    ("Leftron", "All players must TAKE A CARD from the player to their left.", "Michael F."),
]


def text(raw: dict[str, Any], name: str, required: bool = True) -> str:
    """User text on a card: trimmed, single-spaced, bounded; pages show it with textContent."""
    value = raw.get(name) or ""
    if not isinstance(value, str):
        raise RuleViolation("table/bad_field", f"'{name}' must be text")
    value = " ".join(value.split())
    require(not required or value, "table/missing_field", f"'{name}' is required")
    require(len(value) <= MAX_TEXT, "table/bad_field", f"'{name}' has at most {MAX_TEXT} characters")
    return value


def read_trigger(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RuleViolation("blank/bad_trigger", "a trigger is an object with a 'kind'")
    kind = choice_field(raw, "kind", TRIGGERS)
    out: dict[str, Any] = {"kind": kind}
    if kind == "colour_played":
        out["colour"] = choice_field(raw, "colour", COLOURS)
    elif kind == "number_played":
        out["number"] = int_field(raw, "number", 1, 6)
    elif kind == "time_passes":
        out["seconds"] = int_field(raw, "seconds", 1, 600)
    if kind == "other" or raw.get("text"):
        out["text"] = text(raw, "text", required=kind == "other")
    return out


def read_rule(raw: Any, rule_id: str, now_ms: int) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RuleViolation("blank/bad_rule", "a Rule Card is an object")
    return {"id": rule_id, "title": text(raw, "title", required=False),
            "trigger": read_trigger(raw.get("trigger")), "target": choice_field(raw, "target", TARGETS),
            "effect": choice_field(raw, "effect", EFFECTS), "text": text(raw, "text"),
            "creator": text(raw, "creator"), "created_ms": now_ms, "example": False}


def read_card_effect(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RuleViolation("blank/bad_card", "a Game Card effect is an object")
    return {"title": text(raw, "title"), "text": text(raw, "text"), "creator": text(raw, "creator")}


def new_deck(name: str, mark: str, now_ms: int) -> dict[str, Any]:
    """A new copy of BLANK: the rulebook's examples (marked as examples), 24 plain Rule Cards
    to be written on, and 72 Game Cards — 6 colours × 1–6 × 2, half illustrated — with the
    rulebook's example effects on the first illustrated ones."""
    rules = [{"id": f"r{i + 1}", "title": title, "trigger": trigger, "target": target, "effect": effect,
              "text": body, "creator": creator, "created_ms": now_ms, "example": True}
             for i, (title, trigger, target, effect, body, creator) in enumerate(EXAMPLE_RULES)]
    cards = []
    for n, (colour, number, copy) in enumerate(itertools.product(COLOURS, NUMBERS, (0, 1))):
        cards.append({"id": f"g{n + 1}", "colour": colour, "number": number, "illustrated": copy == 1,
                      "effect": None})
    for card, (title, body, creator) in zip([c for c in cards if c["illustrated"]], EXAMPLE_EFFECTS,
                                            strict=False):
        card["effect"] = {"title": title, "text": body, "creator": creator, "example": True}
    return {"name": name, "mark": mark, "rules": rules, "plain_rules": PLAIN_RULES, "cards": cards,
            "history": [{"what": "deck created", "who": "", "ts_ms": now_ms}], "wins": {},
            "newest_creation": None}


def apply_prize(deck: dict[str, Any], prize: dict[str, Any], winner: str, now_ms: int) -> dict[str, Any]:
    """The deck after an approved prize: a new Rule Card written on a plain one, or a Game
    Card customised. The new rule is remembered so the next game features it."""
    deck = {**deck, "rules": list(deck["rules"]), "cards": [dict(c) for c in deck["cards"]],
            "history": list(deck["history"]), "wins": dict(deck["wins"])}
    deck["wins"][winner] = deck["wins"].get(winner, 0) + 1
    if prize["kind"] == "rule":
        require(deck["plain_rules"] > 0, "blank/no_plain_rules", "this deck has no plain Rule Card left")
        deck["rules"].append(prize["rule"])
        deck["plain_rules"] -= 1
        deck["newest_creation"] = prize["rule"]["id"]
        deck["history"].append({"what": f"rule: {prize['rule']['text']}", "who": winner, "ts_ms": now_ms})
    else:
        card = next(c for c in deck["cards"] if c["id"] == prize["card_id"])
        card["effect"] = {**prize["effect"], "example": False}
        what = f"card {card['colour']} {card['number']}: {prize['effect']['title']}"
        deck["history"].append({"what": what, "who": winner, "ts_ms": now_ms})
    return deck


def validate_deck(raw: Any) -> dict[str, Any]:
    """An imported deck: the same shape as an exported one, every field checked."""
    if not isinstance(raw, dict):
        raise RuleViolation("blank/bad_deck", "a deck is a JSON object")
    deck = new_deck(text(raw, "name"), text(raw, "mark", required=False), 0)
    rules = raw.get("rules")
    require(isinstance(rules, list) and len(rules) <= 200, "blank/bad_deck", "'rules' is a list")
    deck["rules"] = []
    for i, r in enumerate(rules):
        rule = read_rule(r, f"r{i + 1}", r.get("created_ms", 0) if isinstance(r, dict) else 0)
        rule["example"] = bool(r.get("example"))
        deck["rules"].append(rule)
    cards = raw.get("cards")
    require(isinstance(cards, list) and len(cards) == len(deck["cards"]), "blank/bad_deck",
            f"'cards' lists all {len(deck['cards'])} Game Cards")
    for mine, theirs in zip(deck["cards"], cards, strict=True):
        require(isinstance(theirs, dict) and theirs.get("colour") == mine["colour"]
                and theirs.get("number") == mine["number"], "blank/bad_deck",
                "the Game Cards are out of order")
        mine["effect"] = read_card_effect(theirs["effect"]) if theirs.get("effect") else None
    deck["plain_rules"] = int_field(raw, "plain_rules", 0, 1000, PLAIN_RULES)
    wins = raw.get("wins", {})
    require(isinstance(wins, dict) and all(isinstance(v, int) for v in wins.values()), "blank/bad_deck",
            "'wins' maps names to counts")
    deck["wins"] = {str(k)[:40]: v for k, v in wins.items()}
    deck["history"] = [h for h in raw.get("history", []) if isinstance(h, dict)][:500]
    return deck
