"""A BLANK deck as data: its Rule Cards and its 72 Game Cards, and how a winner's prize changes
it. Pure: the deck store (companion/decks/store.py) keeps these dicts in the database.

Game Cards are the owner's physical cards, one entry each: plain or illustrated, with an effect
printed on the card (which the owner enters from their copy) or written on by a winner
(customised). Two copies of one colour and number are two cards, so a play names the physical
card, and only the copy that carries an effect sets it off. Several owners' decks mix into one
table deck (:func:`mix`), told apart by their marks.

Rule triggers are structured where the app can see them happen (a card played of a colour, of
a number, two or more cards, a card drawn (of a colour or number, once its drawer enters it), a
penalty, time passing on a turn) and free text for everything else; the rulebook's table gives
the target and effect choices.
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
# What the referee can apply itself (CONTRACT.md "BLANK effects the referee applies"); an
# effect without one is the players' to follow.
ACTIONS = ("skip", "reverse", "again", "draw", "match", "forbid_colour")
MATCH_BY = ("number", "colour")
MAX_DRAW = 10
# The targets a rule's draw can go to: a player, or every player.
DRAW_TARGETS = ("next_player", "previous_player", "all_players", "this_player")
PLAIN_RULES = 24
# A box holds 38 Rule Cards (14 basic, 24 plain) and each win writes on one plain card: a real
# deck has a few dozen rules. 500 is far above any copy (a club's pooled boxes included) and
# bounds what each owner's write rewrites and each table's snapshot carries.
MAX_RULES = 500
MAX_TEXT = 200
KINDS = ("plain", "illustrated", "effect", "customised")

# The rulebook's examples, each under a stable key: the pages word an example from the catalogue
# (bl_ex_<key>_title, _text, and _if for a trigger in words; bl_exfx_<key>_... for an effect),
# so a Hungarian phone reads them in Hungarian. The English here is the exported deck's.
EXAMPLE_RULES = [
    ("cough", "Cough", {"kind": "other", "text": "a player coughs during the game"}, "this_player",
     "take_cards", "they must take a card from a player of their choice", "Rob D."),
    ("two_or_more", "Two or more", {"kind": "two_or_more"}, "this_player", "say_something",
     "name a card colour which may not be played until your next turn", "Amanda McC."),
    ("five_seconds", "Five seconds", {"kind": "time_passes", "seconds": 5}, "all_players", "discard_cards",
     "all other players may discard a card from their hand", "Michael F."),
    ("not_amused", "We Are Not Amused", {"kind": "other", "text": "a player is challenged"}, "other",
     "do_something", "challenge another player to a staring contest; the winner gives a card to the loser",
     "Pedro P."),
    ("bark", "Bark Like a Dog", {"kind": "card_played"}, "next_player", "say_something",
     "the next player must bark like a dog three times", "Pedro P."),
]
EXAMPLE_EFFECTS = [
    ("sick_tricks", "Sick Tricks", "From now on, cards can only MATCH NUMBER, not colour!", "Anita M."),
    ("deep_dive", "Deep Dive",
     "This player may SEARCH THE DRAW PILE for a card of their choice, then shuffle it.", "Winnie S."),
    ("switch_up", "Switch Up", "Choose TWO players to EXCHANGE THEIR HANDS immediately.", "Michael McM."),
    ("bee_cycling", "Bee-Cycling", "Discard ALL your cards, then draw FIVE new cards.", "Rory O'C."),
    ("leftron", "Leftron", "All players must TAKE A CARD from the player to their left.", "Michael F."),
]
EXAMPLE_KEYS = frozenset(key for key, *_ in EXAMPLE_RULES)


def text(raw: dict[str, Any], name: str, required: bool = True) -> str:
    """User text on a card: trimmed, single-spaced, bounded; pages show it with textContent."""
    value = raw.get(name) or ""
    if not isinstance(value, str):
        raise RuleViolation("table/bad_field", f"'{name}' must be text")
    value = " ".join(value.split())
    # the field is named, so a form says which of its boxes is empty
    require(not required or value, "table/missing_field", f"'{name}' is required", params={"field": name})
    require(len(value) <= MAX_TEXT, "table/bad_field", f"'{name}' has at most {MAX_TEXT} characters")
    return value


def colour_field(raw: dict[str, Any], required: bool) -> str | None:
    """A trigger's colour (symbol), as the forms' pickers send it: one of COLOURS, never a
    word in some language."""
    value = raw.get("colour")
    if value is None:
        require(not required, "blank/need_colour", "choose the colour (symbol) the rule names")
        return None
    require(isinstance(value, str) and value in COLOURS, "blank/bad_colour",
            f"'colour' is one of {', '.join(COLOURS)}")
    return value


def _number(raw: dict[str, Any], required: bool) -> int | None:
    """A trigger's card number, 1-6 as a JSON number (not text, not true/false)."""
    value = raw.get("number")
    if value is None:
        require(not required, "blank/need_number", "choose the number (1-6) the rule names")
        return None
    require(isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6, "blank/bad_number",
            "'number' is a whole number from 1 to 6")
    return value


def read_trigger(raw: Any) -> dict[str, Any]:
    """A Rule Card's trigger. Each field has its own error code, so a form can say which of
    its pickers is wrong rather than "something is not right"."""
    require(isinstance(raw, dict) and raw.get("kind") in TRIGGERS, "blank/bad_trigger",
            f"a trigger is an object with a 'kind': one of {', '.join(TRIGGERS)}")
    kind = raw["kind"]
    out: dict[str, Any] = {"kind": kind}
    if kind == "colour_played":
        out["colour"] = colour_field(raw, required=True)
    elif kind == "number_played":
        out["number"] = _number(raw, required=True)
    elif kind == "time_passes":
        seconds = raw.get("seconds")
        require(isinstance(seconds, int) and not isinstance(seconds, bool) and 1 <= seconds <= 600,
                "blank/bad_seconds", "'seconds' is a whole number from 1 to 600")
        out["seconds"] = seconds
    elif kind == "card_drawn":  # "if a circle (or a 6) is drawn": only the drawer's entry can tell
        named = {"colour": colour_field(raw, required=False), "number": _number(raw, required=False)}
        out.update({k: v for k, v in named.items() if v is not None})
    if kind == "other" or raw.get("text"):
        out["text"] = text(raw, "text", required=False)
        require(kind != "other" or out["text"], "blank/need_trigger_text", "say what sets the rule off")
    return out


def read_action(raw: Any) -> dict[str, Any] | None:
    """An effect's optional machine-readable action, checked strictly (no field beyond the
    kind's own), so the referee never applies something the card's writer did not mean."""
    if raw is None:
        return None
    require(isinstance(raw, dict) and raw.get("kind") in ACTIONS, "blank/bad_action",
            f"an action is an object with a 'kind': one of {', '.join(ACTIONS)}")
    kind = raw["kind"]
    fields = {"draw": {"count"}, "match": {"by"}}.get(kind, set())
    require(set(raw) <= {"kind"} | fields, "blank/bad_action", f"a '{kind}' action has no other fields")
    out: dict[str, Any] = {"kind": kind}
    if kind == "draw":
        count = raw.get("count")
        require(isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= MAX_DRAW,
                "blank/bad_action_count", f"'count' is a whole number from 1 to {MAX_DRAW}")
        out["count"] = count
    elif kind == "match":
        require(raw.get("by") in MATCH_BY, "blank/bad_action_by", "'by' is 'number' or 'colour'")
        out["by"] = raw["by"]
    return out


def _with_action(out: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """``out`` with the effect's action and its free ``text``. An action the app applies is
    the effect's words (the pages word it from the catalogue), so its text is optional: what
    the players do besides, which the app cannot read. Without an action the text is all."""
    action = read_action(raw.get("action"))
    out["text"] = text(raw, "text", required=action is None)
    if action is not None:
        out["action"] = action
    return out


def require_room(rules: int) -> None:
    """Refuse a deck that would hold more than MAX_RULES Rule Cards."""
    require(rules <= MAX_RULES, "deck/full", f"a deck holds at most {MAX_RULES} Rule Cards",
            "conflict", {"max": MAX_RULES})


def add_rule(deck: dict[str, Any], raw: Any, now_ms: int) -> dict[str, Any]:
    """The deck with one more Rule Card its owner typed in from their copy."""
    require_room(len(deck["rules"]) + 1)
    return {**deck, "rules": [*deck["rules"], read_rule(raw, f"r{len(deck['rules']) + 1}", now_ms)]}


def read_rule(raw: Any, rule_id: str, now_ms: int) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RuleViolation("blank/bad_rule", "a Rule Card is an object")
    rule = _with_action({"id": rule_id, "title": text(raw, "title", required=False),
                         "trigger": read_trigger(raw.get("trigger")),
                         "target": choice_field(raw, "target", TARGETS),
                         "effect": choice_field(raw, "effect", EFFECTS)}, raw)
    rule.update(creator=text(raw, "creator"), created_ms=now_ms, example=False)
    require(rule.get("action", {}).get("kind") != "draw" or rule["target"] in DRAW_TARGETS,
            "blank/bad_action_target", f"a rule that draws targets one of {', '.join(DRAW_TARGETS)}")
    return rule


def read_card_effect(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RuleViolation("blank/bad_card", "a Game Card effect is an object")
    effect = _with_action({"title": text(raw, "title")}, raw)
    effect["creator"] = text(raw, "creator")
    return effect


def card_kind(card: dict[str, Any]) -> str:
    """One of KINDS. An effect the owner entered from the box (``printed``), or one of the
    rulebook's examples that older decks put on cards, is the card's own; any other effect was
    written on by a winner."""
    effect = card.get("effect")
    if effect is None:
        return "illustrated" if card.get("illustrated") else "plain"
    return "effect" if effect.get("printed") or effect.get("example") else "customised"


def new_deck(name: str, mark: str, now_ms: int) -> dict[str, Any]:
    """A new copy of BLANK: the rulebook's examples (marked as examples), 24 plain Rule Cards
    to be written on, and 72 Game Cards — 6 colours × 1–6 × 2, one copy plain and one
    illustrated. No card has an effect yet: which six illustrated cards carry one, and what it
    says, is for the owner to enter from their copy (:func:`describe_card`)."""
    rules = [{"id": f"r{i + 1}", "title": title, "trigger": trigger, "target": target, "effect": effect,
              "text": body, "creator": creator, "created_ms": now_ms, "example": True, "key": key}
             for i, (key, title, trigger, target, effect, body, creator) in enumerate(EXAMPLE_RULES)]
    cards = []
    for n, (colour, number, copy) in enumerate(itertools.product(COLOURS, NUMBERS, (0, 1))):
        cards.append({"id": f"g{n + 1}", "colour": colour, "number": number, "illustrated": copy == 1,
                      "effect": None})
    return {"name": name, "mark": mark, "rules": rules, "plain_rules": PLAIN_RULES, "cards": cards,
            "history": [{"what": "deck created", "who": "", "ts_ms": now_ms}], "wins": {},
            "newest_creation": None}


def keyed_examples(deck: dict[str, Any]) -> dict[str, Any]:
    """The deck with its rulebook examples keyed: a deck made before the keys existed names an
    example by its English title only."""
    keys = {title: key for key, title, *_ in EXAMPLE_RULES}
    return {**deck, "rules": [{**r, "key": keys[r.get("title", "")]}
                              if r.get("example") and "key" not in r and r.get("title") in keys else r
                              for r in deck["rules"]]}


def example_effects() -> list[dict[str, str]]:
    """The rulebook's example Game Card effects, offered when the owner enters their cards."""
    return [{"key": key, "title": title, "text": body, "creator": creator}
            for key, title, body, creator in EXAMPLE_EFFECTS]


def describe_card(deck: dict[str, Any], card_id: str, raw: Any) -> dict[str, Any]:
    """The deck after its owner described one physical Game Card: illustrated or not, and the
    effect printed on it (``effect: null`` for none)."""
    require(isinstance(raw, dict), "blank/bad_card", "a Game Card is described by an object")
    cards = [dict(c) for c in deck["cards"]]
    card = next((c for c in cards if c["id"] == card_id), None)
    require(card is not None, "blank/unknown_card", "this deck has no such Game Card")
    assert card is not None
    if "illustrated" in raw:
        require(isinstance(raw["illustrated"], bool), "table/bad_field",
                "'illustrated' must be true or false")
        card["illustrated"] = raw["illustrated"]
    if "effect" in raw:
        effect = raw["effect"]
        card["effect"] = None if effect is None else {**read_card_effect(effect), "printed": True}
    return {**deck, "cards": cards}


def mix(decks: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """One table deck from several owners' decks (the rulebook's "mix different decks"). A
    single deck is played as it is; mixed, every card and rule keeps its deck's mark and
    index (``deck``) and gets an id unique at the table (``2.g5``), so a prize is written back
    to the deck it came from. Each deck's newest creation is featured."""
    if len(decks) == 1:
        return decks[0][1]
    rules: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    newest = []
    for i, (_, d) in enumerate(decks):
        prefix = f"{i + 1}."
        rules += [{**r, "id": prefix + r["id"], "deck": i} for r in d["rules"]]
        cards += [{**c, "id": prefix + c["id"], "deck": i, "mark": d.get("mark", "")} for c in d["cards"]]
        if d.get("newest_creation"):
            newest.append(prefix + d["newest_creation"])
    return {"name": " + ".join(d["name"] for _, d in decks),
            "mark": " ".join(d.get("mark", "") for _, d in decks),
            "rules": rules, "cards": cards, "plain_rules": 0, "history": [], "wins": {},
            "newest_creation": None, "newest_creations": newest, "decks": [deck_id for deck_id, _ in decks]}


def refreshed(table_deck: dict[str, Any], current: dict[str, Any]) -> dict[str, Any]:
    """The deck as its owner's copy is now (effects and rules entered since the table was
    made), featuring the creations the table's snapshot took: the store gave them up to it."""
    featured = ("newest_creation", "newest_creations")
    return {**current, **{k: table_deck[k] for k in featured if k in table_deck}}


def unmixed_id(mixed_id: str) -> tuple[int, str]:
    """Which of the table's decks an id of :func:`mix` belongs to, and its id there."""
    head, sep, tail = mixed_id.partition(".")
    return (int(head) - 1, tail) if sep and head.isdigit() else (0, mixed_id)


def apply_prize(deck: dict[str, Any], prize: dict[str, Any], winner: str, now_ms: int) -> dict[str, Any]:
    """The deck after an approved prize: a new Rule Card written on a plain one, or a Game
    Card customised. The new rule is remembered so the next game features it."""
    deck = {**deck, "rules": list(deck["rules"]), "cards": [dict(c) for c in deck["cards"]],
            "history": list(deck["history"]), "wins": dict(deck["wins"])}
    deck["wins"][winner] = deck["wins"].get(winner, 0) + 1
    if prize["kind"] == "rule":
        require(deck["plain_rules"] > 0, "blank/no_plain_rules", "this deck has no plain Rule Card left")
        # numbered in this deck (another table may have added one since this game began)
        rule = {**prize["rule"], "id": f"r{len(deck['rules']) + 1}"}
        rule.pop("deck", None)
        deck["rules"].append(rule)
        deck["plain_rules"] -= 1
        deck["newest_creation"] = rule["id"]
        said = prize["rule"]["text"] or prize["rule"]["action"]["kind"]
        deck["history"].append({"what": f"rule: {said}", "who": winner, "ts_ms": now_ms})
    else:
        card_id = unmixed_id(prize["card_id"])[1] if "deck" in prize else prize["card_id"]
        card = next(c for c in deck["cards"] if c["id"] == card_id)
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
    require(isinstance(rules, list), "blank/bad_deck", "'rules' is a list")
    require_room(len(rules))
    deck["rules"] = []
    for i, r in enumerate(rules):
        rule = read_rule(r, f"r{i + 1}", r.get("created_ms", 0) if isinstance(r, dict) else 0)
        rule["example"] = bool(r.get("example"))
        if rule["example"] and r.get("key") in EXAMPLE_KEYS:
            rule["key"] = r["key"]
        deck["rules"].append(rule)
    cards = raw.get("cards")
    require(isinstance(cards, list) and len(cards) == len(deck["cards"]), "blank/bad_deck",
            f"'cards' lists all {len(deck['cards'])} Game Cards")
    for mine, theirs in zip(deck["cards"], cards, strict=True):
        require(isinstance(theirs, dict) and theirs.get("colour") == mine["colour"]
                and theirs.get("number") == mine["number"], "blank/bad_deck",
                "the Game Cards are out of order")
        if isinstance(theirs.get("illustrated"), bool):
            mine["illustrated"] = theirs["illustrated"]
        effect = theirs.get("effect")
        mine["effect"] = read_card_effect(effect) if effect else None
        if mine["effect"] is not None:  # whose effect it is: the box's, an example, or a winner's
            mine["effect"].update({k: True for k in ("printed", "example") if effect.get(k) is True})
    deck["plain_rules"] = int_field(raw, "plain_rules", 0, 1000, PLAIN_RULES)
    wins = raw.get("wins", {})
    require(isinstance(wins, dict) and all(isinstance(v, int) for v in wins.values()), "blank/bad_deck",
            "'wins' maps names to counts")
    deck["wins"] = {str(k)[:40]: v for k, v in wins.items()}
    deck["history"] = [h for h in raw.get("history", []) if isinstance(h, dict)][:500]
    return keyed_examples(deck)
