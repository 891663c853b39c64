"""BLANK as a referee: the revealed Rule Cards and what each play triggers, legal plays,
penalties with accusations, hand and pile counts, and the winner's prize for the deck.

The cards stay physical: the app knows counts, the top of the discard pile, and which of the
deck's own cards the current player says they played. The three Rule Cards of the setup are
the ones the table turned over, entered on a phone, unless the table lets the app draw them.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from ..core import draws, turns
from ..core.commands import choice_field, field, int_field
from ..core.context import Context
from ..core.errors import RuleViolation, require
from ..core.events import NOBODY, Event, event, secret_of
from ..core.game import Game, State
from .deck import COLOURS, card_kind, colour_field, read_card_effect, read_rule

HAND = 7
REVEALED = 3
PENALTY_REASONS = ("no_match", "out_of_turn", "illegal_play", "false_accusation", "missed_rule")
# How several cards played at once must match: "top" is the rulebook's example (as many 4s OR as
# many Red cards as you have: each card matches the top card, all by the same attribute);
# "shared" is the lenient house reading (the cards share a colour or a number, the first matching).
MULTI_PLAY = ("top", "shared")
# Who turns the setup's Rule Cards: the table (entered on a phone) or the app (a virtual draw).
RULE_CARDS = ("table", "app")


def matches(card: dict[str, Any], top: dict[str, Any]) -> bool:
    return card["colour"] == top["colour"] or card["number"] == top["number"]


def legal(cards: list[dict[str, Any]], top: dict[str, Any], multi_play: str = "top",
          by: str | None = None) -> bool:
    """Whether ``cards`` (top card last) may go onto ``top`` at once; see MULTI_PLAY. ``by``
    ("number" or "colour") is an effect's "the next card(s) can only MATCH NUMBER"."""
    if not cards:
        return False
    if by is not None:
        return all(c[by] == top[by] for c in cards)
    if multi_play == "top":
        return any(all(c[attr] == top[attr] for c in cards) for attr in ("colour", "number"))
    same = all(c["colour"] == cards[0]["colour"] for c in cards) or all(
        c["number"] == cards[0]["number"] for c in cards)
    return same and matches(cards[0], top)


def names_face(trigger: dict[str, Any]) -> bool:
    """Whether a "card drawn" trigger names the drawn card's colour or number, so that only the
    drawer, who sees the card, can tell the app it happened."""
    return trigger["kind"] == "card_drawn" and ("colour" in trigger or "number" in trigger)


def drawn_triggers(rules: list[dict[str, Any]], drawn: bool, penalty: bool = True) -> list[str]:
    """Rule Cards a penalty (or a draw an effect asked for) sets off at once: every "penalty"
    rule for a penalty, and the "card drawn" rules that do not depend on the card's face when a
    card was drawn. The face rules wait for the drawer's entry (:func:`face_triggers`)."""
    return [r["id"] for r in rules
            if (penalty and r["trigger"]["kind"] == "penalty")
            or (drawn and r["trigger"]["kind"] == "card_drawn" and not names_face(r["trigger"]))]


def face_triggers(rules: list[dict[str, Any]], card: dict[str, Any]) -> list[str]:
    """The "card drawn" rules naming a colour or number that the entered card has (every
    attribute the trigger names must match)."""
    return [r["id"] for r in rules if names_face(r["trigger"])
            and all(r["trigger"][k] == card[k] for k in ("colour", "number") if k in r["trigger"])]


def triggered(rules: list[dict[str, Any]], cards: list[dict[str, Any]]) -> list[str]:
    """Rule Cards a play sets off; only the top (last) card counts, as the rulebook says."""
    top = cards[-1]
    hits = []
    for r in rules:
        t = r["trigger"]
        if (t["kind"] == "card_played" or (t["kind"] == "colour_played" and t["colour"] == top["colour"])
                or (t["kind"] == "number_played" and t["number"] == top["number"])
                or (t["kind"] == "two_or_more" and len(cards) >= 2)):
            hits.append(r["id"])
    return hits


def read_card(raw: Any, deck_cards: list[dict[str, Any]]) -> dict[str, Any]:
    """A card named by a phone: one of the deck's own cards by ``id`` (the copy with an effect
    is a card of its own), or a colour and number (API users, older pages), which names a
    copy without an effect wherever one exists."""
    raw = raw if isinstance(raw, dict) else {}
    if raw.get("id") is None:
        return {"colour": choice_field(raw, "colour", COLOURS), "number": int_field(raw, "number", 1, 6)}
    card = next((c for c in deck_cards if c["id"] == raw["id"]), None)
    require(card is not None, "blank/unknown_card", "that Game Card is not in this table's deck")
    assert card is not None
    require(all(raw.get(k) in (None, card[k]) for k in ("colour", "number")), "blank/unknown_card",
            "that Game Card has another colour or number")
    return {"id": card["id"], "colour": card["colour"], "number": card["number"]}


def _ids(cards: list[dict[str, Any]]) -> list[str]:
    """The ids of the deck's own cards among ``cards``."""
    return [c["id"] for c in cards if "id" in c]


def _faces(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards among ``cards`` named by colour and number alone: each is some copy of its
    face, which one the app cannot tell, but it is one of them all the same."""
    return [{"colour": c["colour"], "number": c["number"]} for c in cards if "id" not in c]


def _face(card: dict[str, Any]) -> tuple[str, int]:
    return card["colour"], card["number"]


def read_cards(raw: Any, deck_cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards of one play. Each physical card is one object: named twice, it is refused
    rather than counted as two cards."""
    require(isinstance(raw, list) and 0 < len(raw) <= 12, "blank/bad_cards",
            "'cards' lists the cards played, top card last")
    cards = [read_card(c, deck_cards) for c in raw]
    ids = _ids(cards)
    twice = next((i for i in ids if ids.count(i) > 1), None)
    require(twice is None, "blank/card_twice", "one card is named twice: each card is played once",
            params={"card": twice})
    return cards


def free_copies(state: State) -> Counter[tuple[str, int]]:
    """How many copies of each colour and number are in somebody's hand or the Draw Pile: the
    deck's copies less those on the discard pile, named by id or as some copy of their face."""
    deck_cards = state["options"]["deck"]["cards"]
    piled = set(state.get("on_pile", ()))
    free = Counter(_face(c) for c in deck_cards)
    free.subtract(_face(c) for c in deck_cards if c["id"] in piled)
    free.subtract(_face(c) for c in state.get("on_pile_faces", []))
    return free


def require_free(state: State, cards: list[dict[str, Any]]) -> None:
    """Every card played (or entered as drawn) is a card nobody has put down: a card of the
    deck's own named by id is not on the discard pile, and a colour and number names one of
    that face's copies that is free: not on the pile (by id or as some copy), not already in
    this play. The deck has two circle 5s; a third is a mis-tap, never a card on the table."""
    on_pile = next((i for i in _ids(cards) if i in state.get("on_pile", ())), None)
    require(on_pile is None, "blank/card_on_pile", "that card is on the discard pile already",
            params={"card": on_pile})
    free = free_copies(state)
    free.subtract(_face(c) for c in cards)
    over = next((c for c in cards if free[_face(c)] < 0), None)
    if over is None:
        return
    copies = sum(1 for c in state["options"]["deck"]["cards"] if _face(c) == _face(over))
    raise RuleViolation("blank/no_copy_free",
                        "every copy of that colour and number is on the discard pile or in this play already",
                        params={"colour": over["colour"], "number": over["number"], "copies": copies})


def effect_of(card: dict[str, Any], deck_cards: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The Game Card effect a played card sets off: that physical card's own. A card named by
    colour and number alone is a copy without one, unless every copy has an effect."""
    if "id" in card:
        return next(c["effect"] for c in deck_cards if c["id"] == card["id"])
    copies = [c for c in deck_cards if c["colour"] == card["colour"] and c["number"] == card["number"]]
    if not copies or any(c["effect"] is None for c in copies):
        return None
    return copies[0]["effect"]


class _Log:
    """The events one command produces, each folded into a scratch copy of the state as it is
    added, so that the next one (a draw after a reshuffle, whose turn a skip moves past) is
    decided on the table as the previous one left it."""

    def __init__(self, game: Game, state: State) -> None:
        self.game = game
        # the deck and its rules are never changed by a fold: shared, not copied
        self.state = {**copy.deepcopy({k: v for k, v in state.items() if k not in ("options", "rules")}),
                      "options": state["options"], "rules": state["rules"]}
        self.events: list[Event] = []

    def add(self, e: Event) -> Event:
        self.game.evolve(self.state, e)
        self.events.append(e)
        return e


def _seat(turn: dict[str, Any], player: str, steps: int, direction: int | None = None) -> str:
    """The seat ``steps`` away from ``player`` in the turn's direction (or ``direction``)."""
    order = turn["order"]
    return order[(order.index(player) + steps * (direction or turn["direction"])) % len(order)]


class Blank(Game):
    name = "blank"
    title = "BLANK"
    min_players = 2
    max_players = 10

    def __init__(self) -> None:
        super().__init__()
        self.commands = {"first_card": self.first_card, "play": self.play, "draw": self.draw,
                         "accuse": self.accuse, "judge": self.judge, "discard_rule": self.discard_rule,
                         "adjust": self.adjust, "propose_rule": self.propose_rule,
                         "propose_card": self.propose_card, "decide_prize": self.decide_prize,
                         "resolved": self.resolved, "reveal_rules": self.reveal_rules,
                         "set_turn": self.set_turn, "name_colour": self.name_colour}
        self.folds = {"RulesRevealed": self._revealed, "FirstCardTurned": self._first,
                      "CardsPlayed": self._played, "PenaltyTaken": self._penalty,
                      "AccusationMade": self._accused, "AccusationJudged": self._judged,
                      "RuleDiscarded": self._rule_discarded, "HandAdjusted": self._adjusted,
                      "PrizeProposed": self._proposed, "PrizeDecided": self._decided,
                      "EffectsResolved": self._resolved, "RuleCardsTurned": self._rules_turned,
                      "CardDrawn": self._effect_draw, "DrawnCardEntered": self._drawn_entered,
                      "TurnChanged": self._turn_changed, "MatchRestricted": self._match_restricted,
                      "ColourToName": self._colour_to_name, "ColourForbidden": self._colour_forbidden,
                      "ColourSkipped": self._colour_skipped}

    def options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The deck comes from the deck store, resolved by the service before this is called."""
        deck = raw.get("deck")
        require(isinstance(deck, dict) and "rules" in deck, "blank/no_deck", "choose a deck for this table")
        multi = raw.get("multi_play", "top")
        require(multi in MULTI_PLAY, "table/bad_options",
                "multi_play is 'top' (each card matches the top card) or 'shared'")
        rule_cards = raw.get("rule_cards", "table")
        require(rule_cards in RULE_CARDS, "table/bad_options",
                "rule_cards is 'table' (enter the Rule Cards turned over) or 'app' (the app draws them)")
        claim = raw.get("claim_turn", False)
        require(isinstance(claim, bool), "table/bad_options",
                "claim_turn is true (a player may say the turn is theirs) or false (only the host)")
        deck_ids = deck.get("decks") or [raw.get("deck_id")]
        return {"deck": deck, "deck_id": deck_ids[0], "deck_ids": deck_ids, "multi_play": multi,
                "rule_cards": rule_cards, "claim_turn": claim}

    # -- setup ---------------------------------------------------------------------------
    def start(self, state: State, seats: list[str], ctx: Context) -> list[Event]:
        """The last winners' creations are placed face up (the rulebook: draw two and add your
        new creation); the others are turned by the table and entered with
        ``blank.reveal_rules``, or drawn by the app at once for ``rule_cards: app``."""
        deck = state["options"]["deck"]
        rules = [r["id"] for r in deck["rules"]]
        require(len(rules) >= REVEALED, "blank/few_rules", "a deck needs at least three Rule Cards")
        ctx.rng.shuffle(rules)
        newest = [r for r in deck.get("newest_creations", [deck.get("newest_creation")]) if r in rules]
        featured = newest[:REVEALED]
        pile = [r for r in rules if r not in featured]
        turned = featured
        if state["options"].get("rule_cards") == "app":
            turned = featured + pile[:REVEALED - len(featured)]
        total = len(deck["cards"])
        require(total >= HAND * len(seats) + 1, "blank/few_cards", "not enough Game Cards for these hands")
        return [event("RulesRevealed", seats=seats, revealed=turned,
                      secrets={NOBODY: {"pile": [r for r in rules if r not in turned]}},  # face down
                      featured=featured, draw_pile=total - HAND * len(seats), ts_ms=ctx.now_ms)]

    def reveal_rules(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """The Rule Cards the table turned over at setup (``rules``: their ids), or ``draw``:
        the app turns them from its shuffled Rule Card Pile."""
        need = state["rules_needed"]
        require(need > 0, "blank/rules_known", "the Rule Cards in play are already turned", "conflict")
        pile = state["pile"]

        def read(raw: Any) -> list[str]:
            require(isinstance(raw, list) and all(isinstance(r, str) for r in raw)
                    and len(set(raw)) == len(raw), "blank/bad_rules",
                    "'rules' lists the Rule Cards turned over")
            require(len(raw) == need, "blank/bad_rules", f"turn {need} Rule Card(s)")
            require(all(r in pile for r in raw), "blank/unknown_rule", "that Rule Card is not in the pile")
            return list(raw)

        taken = draws.take(cmd, ctx, read=read, draw=lambda rng: pile[:need], key="rules")
        return [draws.recorded("RuleCardsTurned", taken, key="rules")]

    def _require_setup_done(self, state: State) -> None:
        require(not state.get("rules_needed"), "blank/rules_first",
                "turn the three Rule Cards first", "conflict")

    def first_card(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        self._require_setup_done(state)
        require(state["top"] is None, "blank/first_card_known", "the first card is already turned")
        card = read_cards([cmd.get("card")], state["options"]["deck"]["cards"])[0]
        return [event("FirstCardTurned", card=card)]

    # -- play ----------------------------------------------------------------------------
    def play(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        require(state["top"] is not None, "blank/turn_first_card", "turn the first card of the draw pile")
        require(state["prize"] is None and state["winner"] is None, "table/game_over", "the game is over")
        self._require_settled(state)
        acc = state["accusation"]
        require(acc is None or acc["accuser"] is not None, "blank/accusation_open",
                "the table is settling a play already", "conflict")
        player = ctx.require_player()
        cards = read_cards(cmd.get("cards"), state["options"]["deck"]["cards"])
        require_free(state, cards)
        self._require_hand(state, player, cards)
        self._require_named(state)
        top_effect = state.get("top_effect")
        if player != turns.current(state["turn"]) and top_effect is not None and "action" not in top_effect:
            # The top card says something the app cannot read (it may well have made this the
            # player's turn): the host settles it, rather than the app penalising a legal play.
            require(acc is None, "blank/accusation_open", "the referee is judging one already", "conflict")
            return [event("AccusationMade", accuser=None, accused=player, reason="out_of_turn", rule=None,
                          cards=cards)]
        log = _Log(self, state)
        self._play(log, player, cards, ctx)
        return log.events

    def _play(self, log: _Log, player: str, cards: list[dict[str, Any]], ctx: Context) -> None:
        """A play, or its penalties: one card for each (the rulebook: "You must draw a card for
        each Penalty"), so a card out of turn that does not match either costs two."""
        state = log.state
        turn = player == turns.current(state["turn"])
        wrong: dict[str, dict[str, Any]] = {} if turn else {"out_of_turn": {}}
        why = self._refused(state, cards)
        if why is not None:
            wrong["illegal_play"] = {"why": why} if why else {}
        # a play that costs two cards says so on both, so the phone tells its player how many
        fine = {"fine": len(wrong)} if len(wrong) > 1 else {}
        for reason, data in wrong.items():
            self._penalise(log, player, reason, ctx, **data, **fine)
        if wrong:
            return
        deck_cards = state["options"]["deck"]["cards"]
        rules = [r for r in state["rules"] if r["id"] in state["revealed"]]
        played = log.add(event("CardsPlayed", player=player, cards=cards, triggered=triggered(rules, cards),
                               effect=effect_of(cards[-1], deck_cards), ts_ms=ctx.now_ms))
        effect = played["effect"] or {}
        self._act(log, player, ([(effect["action"], "card")] if "action" in effect else [])
                  + self._rule_actions(state, played["triggered"]), ctx)

    @staticmethod
    def _require_hand(state: State, player: str, cards: list[dict[str, Any]]) -> None:
        """More cards than the app counts in the hand: the table may well be right (a draw the
        app missed), and the app cannot tell whether the count or the entry is wrong. It asks
        rather than punish a play the rules may allow: the host corrects the count
        (``blank.adjust``), or the player the entry; nothing is recorded meanwhile."""
        hand = state["hands"][player]
        require(len(cards) <= hand, "blank/hand_count",
                f"the app counts {hand} card(s) in this hand, and {len(cards)} were played: the host "
                "corrects the hand count (blank.adjust), then the play is entered again", "conflict",
                params={"hand": hand, "cards": len(cards)})

    @staticmethod
    def _refused(state: State, cards: list[dict[str, Any]]) -> str | None:
        """Why the cards may not go onto the pile, or None: the rulebook's match ("no_match"),
        narrowed by what effects in force say: "match number only" ("match_number"), a colour
        named as not playable ("forbidden_colour"), so the phone says which."""
        multi = state["options"].get("multi_play", "shared")  # tables from before the option: as then
        forbidden = state.get("forbidden")
        if forbidden and any(c["colour"] == forbidden["colour"] for c in cards):
            return "forbidden_colour"
        by = state.get("match_by")
        if not legal(cards, state["top"], multi, by):
            return f"match_{by}" if by and legal(cards, state["top"], multi) else "no_match"
        return None

    @staticmethod
    def _rule_actions(state: State, rule_ids: list[str]) -> list[tuple[dict[str, Any], str]]:
        by_id = {r["id"]: r for r in state["rules"]}
        return [(by_id[r]["action"], by_id[r]["target"]) for r in rule_ids if "action" in by_id[r]]

    def _act(self, log: _Log, actor: str, actions: list[tuple[dict[str, Any], str]], ctx: Context) -> None:
        """Apply the actions an effect carries (``target`` is a rule's, or "card" for a Game
        Card's, whose draw goes to the next player). The draws an action makes light up their
        rules, whose own actions are the table's to follow: no chain runs on by itself."""
        for action, target in actions:
            turn = log.state["turn"]
            kind = action["kind"]
            if kind in ("skip", "reverse", "again"):
                direction = -turn["direction"] if kind == "reverse" else turn["direction"]
                if kind == "skip":
                    player = _seat(turn, turns.current(turn), 1)
                elif kind == "reverse":
                    player = _seat(turn, actor, 1, direction)
                else:
                    player = actor
                log.add(event("TurnChanged", player=player, direction=direction, cause=kind, by=actor,
                              ts_ms=ctx.now_ms))
            elif kind == "draw":
                targets = {"next_player": [_seat(turn, actor, 1)], "card": [_seat(turn, actor, 1)],
                           "previous_player": [_seat(turn, actor, -1)], "this_player": [actor],
                           "all_players": list(turn["order"])}[target]
                for player in targets:
                    for _ in range(action["count"]):
                        log.add(self._taken_event(log.state, player, "CardDrawn", ctx, penalty=False,
                                                  action=True))
            elif kind == "match":
                log.add(event("MatchRestricted", by=action["by"]))
            else:  # forbid_colour: the player the effect names says which colour
                namer = {"next_player": _seat(turn, actor, 1), "previous_player": _seat(turn, actor, -1)}.get(
                    target, actor)
                log.add(event("ColourToName", player=namer))

    def _penalise(self, log: _Log, player: str, reason: str, ctx: Context, **data: Any) -> Event:
        taken = log.add(self._penalty_event(log.state, player, reason, ctx, **data))
        self._act(log, player, self._rule_actions(log.state, taken["triggered"]), ctx)
        return taken

    def set_turn(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """Whose turn it is, when an effect the app cannot read moved it: the host says so, or,
        at a table that allows it, the player whose turn it now is."""
        require(state["winner"] is None, "blank/won", "this game has a winner", "conflict")
        player = field(cmd, "player", str)
        require(player in state["turn"]["order"], "blank/unknown_player", "no such player at the table")
        require(ctx.is_host or (state["options"].get("claim_turn") and ctx.actor == player),
                "blank/turn_host_only",
                "the host says whose turn it is (or the player, where the table allows it)", "forbidden")
        return [event("TurnChanged", player=player, direction=state["turn"]["direction"], cause="set",
                      by=ctx.actor or "host", ts_ms=ctx.now_ms)]

    def name_colour(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """The colour an effect let a player name, not playable until their next turn; or
        ``skip: true``, the host going on without one (the player will not say)."""
        if cmd.get("skip") is True:
            ctx.require_host("go on without the colour")
            require(state.get("to_name") is not None, "blank/nothing_to_name", "no colour is to be named",
                    "conflict")
            return [event("ColourSkipped", player=state["to_name"])]
        require(state.get("to_name") is not None and ctx.actor == state["to_name"], "blank/not_yours_to_name",
                "only the player the effect names says the colour", "forbidden")
        return [event("ColourForbidden", player=ctx.actor, colour=colour_field(cmd, required=True))]

    def draw(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """A card drawn from the Draw Pile, and optionally the physical card itself.

        - ``{}``: no card to play, so draw one. That is a Penalty, and the turn ends.
        - ``{effect: true}``: a Rule Card or Game Card effect told this player to draw: no
          Penalty, the turn goes on (a player going out holds a card again).
        - ``{drawn: n}``: the card of the table's ``n``-th draw (any penalty's included), by
          the player who drew it, before the next card is played.

        Each may name the card (``card``, one of the deck's own) or ask the app to draw it
        (``draw: true``). Naming it is optional: the face stays the drawer's (their envelope and
        their view only), and what the table learns is which "card drawn" rules it sets off."""
        require(state["winner"] is None, "blank/won", "this game has a winner", "conflict")
        self._require_setup_done(state)
        player = ctx.require_player()
        if cmd.get("drawn") is not None:
            n = int_field(cmd, "drawn", 1, 1_000_000)
            pending = next((d for d in state.get("to_enter", []) if d["n"] == n), None)
            require(pending is not None, "blank/draw_closed",
                    "that card was entered already, or a card has been played since it was drawn", "conflict")
            assert pending is not None
            require(pending["player"] == player, "blank/not_your_draw",
                    "only the player who drew a card enters it", "forbidden")
            return [self._entered(state, player, n, cmd, ctx)]
        effect = cmd.get("effect", False)
        require(isinstance(effect, bool), "table/bad_field", "'effect' must be true or false")
        log = _Log(self, state)
        n = state.get("draws", 0) + 1
        if effect:
            taken = log.add(self._taken_event(state, player, "CardDrawn", ctx, penalty=False))
            self._act(log, player, self._rule_actions(state, taken["triggered"]), ctx)
        else:
            self._require_settled(state)
            self._require_named(state)
            player = turns.require_turn(state["turn"], ctx.actor)
            taken = self._penalise(log, player, "no_match", ctx)
        if cmd.get("card") is None and not cmd.get("draw"):
            return log.events
        require(taken["drawn"], "blank/nothing_drawn", "there was no card left to draw", "conflict")
        return log.events + [self._entered(state, player, n, cmd, ctx)]

    def _entered(self, state: State, player: str, n: int, cmd: dict[str, Any], ctx: Context) -> Event:
        """The drawer's card of draw ``n``: entered from the table, or drawn by the app from the
        deck's cards (a table without the physical cards)."""
        deck_cards = state["options"]["deck"]["cards"]

        def virtual(rng: Any) -> dict[str, Any]:
            free = free_copies(state)
            card = rng.choice([c for c in deck_cards
                               if c["id"] not in state.get("on_pile", ()) and free[_face(c)] > 0])
            return {"id": card["id"], "colour": card["colour"], "number": card["number"]}

        def read(raw: Any) -> dict[str, Any]:
            card = read_card(raw, deck_cards)
            require_free(state, [card])
            return card

        taken = draws.take(cmd, ctx, read=read, draw=virtual)
        rules = [r for r in state["rules"] if r["id"] in state["revealed"]]
        return draws.recorded("DrawnCardEntered", taken, owner=player, player=player, drawn=n,
                              triggered=face_triggers(rules, taken.card))

    @staticmethod
    def _require_named(state: State) -> None:
        """A colour an effect lets a player name holds the next turn until it is named (or
        the host goes on without it): the play after it is checked against it."""
        namer = state.get("to_name")
        require(namer is None, "blank/colour_to_name", "wait until the colour nobody may play is named",
                "conflict", params={"player": namer})

    def _require_settled(self, state: State) -> None:
        out = state.get("going_out")
        require(out is None, "blank/effects_pending",
                "a player has played their last card: follow the effects it set off, then confirm "
                "(or give the penalty that keeps the game going)", "conflict")

    def _penalty_event(self, state: State, player: str, reason: str, ctx: Context, **data: Any) -> Event:
        return self._taken_event(state, player, "PenaltyTaken", ctx, reason=reason,
                                 ends_turn=player == turns.current(state["turn"]), **data)

    def _taken_event(self, state: State, player: str, type_: str, ctx: Context, penalty: bool = True,
                     **data: Any) -> Event:
        """A card taken from the Draw Pile (a penalty, or an effect's draw). The draw pile runs
        out: the top card stays and the other discards become the pile. With no other discard
        there is no card anywhere to draw: a penalty stands (it ends the turn) but no card
        changes hands."""
        reshuffle = state["draw_pile"] == 0 and state["discard_pile"] > 1
        drawn = state["draw_pile"] > 0 or reshuffle
        rules = [r for r in state["rules"] if r["id"] in state["revealed"]]
        return event(type_, player=player, reshuffle=reshuffle, drawn=drawn,
                     triggered=drawn_triggers(rules, drawn, penalty), ts_ms=ctx.now_ms, **data)

    def resolved(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """The table confirms the effects of a last card were followed: the player who went
        out wins if they still hold no card. Another seat or the host confirms, not the player
        who would win."""
        out = state.get("going_out")
        require(out is not None, "blank/nothing_pending", "no player is waiting to go out", "conflict")
        require(ctx.is_host or (ctx.actor is not None and ctx.actor != out), "blank/not_yours_to_confirm",
                "another player (or the host) confirms that your last card's effects were followed",
                "forbidden")
        return [event("EffectsResolved", player=out)]

    def accuse(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        accuser = ctx.require_player()
        accused = field(cmd, "player", str)
        require(accused in state["hands"] and accused != accuser, "blank/unknown_player",
                "accuse another player at the table")
        reason = choice_field(cmd, "reason", ("out_of_turn", "illegal_play", "missed_rule"))
        require(state["accusation"] is None, "blank/accusation_open", "the referee is judging one already",
                "conflict")
        return [event("AccusationMade", accuser=accuser, accused=accused, reason=reason,
                      rule=cmd.get("rule") if isinstance(cmd.get("rule"), str) else None)]

    def judge(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        ctx.require_host("judge an accusation")
        acc = state["accusation"]
        require(acc is not None, "blank/no_accusation", "nobody has been accused", "conflict")
        upheld = field(cmd, "upheld", bool)
        log = _Log(self, state)
        if acc["accuser"] is None:  # a play the table settles: upheld, it was out of turn
            log.add(event("AccusationJudged", upheld=upheld))
            if not upheld:
                log.add(event("TurnChanged", player=acc["accused"], direction=state["turn"]["direction"],
                              cause="set", by="host", ts_ms=ctx.now_ms))
            # checked again: the host may have corrected the count since the play was asked about
            self._require_hand(state, acc["accused"], acc["cards"])
            self._play(log, acc["accused"], acc["cards"], ctx)
            return log.events
        last = state["last_play"]
        # "take it back to your hand AND take the Penalty": the card(s) of the last play leave
        # the pile and the card under them is on top again (unless a reshuffle took it).
        returned = (upheld and acc["reason"] in ("illegal_play", "out_of_turn") and last is not None
                    and last["player"] == acc["accused"] and "before" in last
                    and state["discard_pile"] > len(last["cards"]))
        log.add(event("AccusationJudged", upheld=upheld, **({"returned": True} if returned else {})))
        who, reason = (acc["accused"], acc["reason"]) if upheld else (acc["accuser"], "false_accusation")
        self._penalise(log, who, reason, ctx)
        return log.events

    def discard_rule(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        rule = field(cmd, "rule", str)
        require(rule in state["revealed"], "blank/unknown_rule", "that Rule Card is not in play")
        return [event("RuleDiscarded", rule=rule, by=ctx.actor or "host")]

    def adjust(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """Effects the app cannot see (take a card from a player, swap hands): the referee
        corrects the counts, with a reason everyone sees."""
        ctx.require_host("correct hand counts")
        player = field(cmd, "player", str)
        require(player in state["hands"], "blank/unknown_player", "no such player")
        delta = int_field(cmd, "delta", -20, 20)
        require(state["hands"][player] + delta >= 0, "blank/negative_hand", "a hand cannot go below 0")
        note = cmd.get("note")
        # Cards an effect discards ("Discard ALL your cards") go onto the discard pile, under
        # the top card, so a later reshuffle finds them.
        discard = cmd.get("discard", False)
        require(isinstance(discard, bool), "table/bad_field", "'discard' must be true or false")
        require(not discard or delta < 0, "blank/bad_discard", "only cards leaving a hand are discarded")
        note = note[:100] if isinstance(note, str) else ""
        return [event("HandAdjusted", player=player, delta=delta, note=note,
                      **({"discard": True} if discard else {}))]

    def _hand_changed(self, state: State, player: str, effects_follow: bool) -> None:
        """A player with no card left wins once the effects in play have been resolved (the
        rulebook's end of the game); a card back in their hand keeps the game going."""
        if state["hands"][player] > 0:
            if state.get("going_out") == player:
                state["going_out"] = None
        elif effects_follow:
            state["going_out"] = player
        else:
            state["going_out"] = None
            state["winner"] = player

    # -- the prize -----------------------------------------------------------------------
    def _winner_only(self, state: State, ctx: Context) -> str:
        require(state["winner"] is not None and ctx.actor == state["winner"], "blank/not_winner",
                "only the winner chooses a prize", "forbidden")
        require(state["prize"] is None or state["prize"]["status"] == "rejected", "blank/prize_pending",
                "the owner is looking at your prize already", "conflict")
        return state["winner"]

    def propose_rule(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """At a table of mixed decks, ``deck`` (0 = the first) says whose copy gains the rule."""
        winner = self._winner_only(state, ctx)
        rule = read_rule(cmd.get("rule"), f"r{len(state['rules']) + 1}", ctx.now_ms)
        decks = state["options"].get("deck_ids") or [None]
        if len(decks) == 1:
            return [event("PrizeProposed", winner=winner, kind="rule", rule=rule)]
        return [event("PrizeProposed", winner=winner, kind="rule", rule=rule,
                      deck=int_field(cmd, "deck", 0, len(decks) - 1, 0))]

    def propose_card(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        winner = self._winner_only(state, ctx)
        card_id = field(cmd, "card_id", str)
        card = next((c for c in state["options"]["deck"]["cards"] if c["id"] == card_id), None)
        require(card is not None, "blank/unknown_card", "no such Game Card")
        assert card is not None
        mixed = {"deck": card["deck"]} if "deck" in card else {}
        return [event("PrizeProposed", winner=winner, kind="card", card_id=card_id,
                      effect=read_card_effect(cmd.get("effect")), **mixed)]

    def decide_prize(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """The owner (the host) has the final approval, as the rulebook says."""
        ctx.require_host("approve a prize")
        require(state["prize"] is not None and state["prize"]["status"] == "proposed", "blank/no_prize",
                "no prize is waiting", "conflict")
        return [event("PrizeDecided", approved=field(cmd, "approved", bool), ts_ms=ctx.now_ms)]

    # -- folds ---------------------------------------------------------------------------
    def _revealed(self, state: State, e: Event) -> None:
        deck = state["options"]["deck"]
        featured = e["featured"]  # one id or none in logs from before decks could be mixed
        state.update(started=True, turn=turns.new_turn(e["seats"]), hands={p: HAND for p in e["seats"]},
                     rules=list(deck["rules"]), revealed=list(e["revealed"]),
                     # logs from before the pile's order went under the envelope had it in the open
                     pile=secret_of(e, NOBODY).get("pile", e.get("pile")),
                     rules_needed=max(0, REVEALED - len(e["revealed"])),
                     featured=featured if isinstance(featured, list) else [featured] if featured else [],
                     draw_pile=e["draw_pile"], discard_pile=0, top=None,
                     last_play=None, penalties=[], accusation=None, winner=None, prize=None,
                     turn_started_ms=e["ts_ms"], log=[], going_out=None, triggered=None,
                     # cards drawn so far, the draws whose drawer may still enter the card, and
                     # the faces entered since the last play (each only in its drawer's view)
                     draws=0, to_enter=[], drawn_faces={},
                     # what effects in force say: "match number only", a colour nobody may play
                     # (and who is still to name it), the effect of the card on top
                     plays=0, match_by=None, forbidden=None, to_name=None, top_effect=None,
                     # the discard pile's cards, in nobody's hand: the deck's own by id, and
                     # those named by colour and number alone (some copy of that face)
                     on_pile=[], on_pile_faces=[])

    def _rules_turned(self, state: State, e: Event) -> None:
        turned = draws.card_of(e, "rules")
        state["revealed"] += turned
        state["pile"] = [r for r in state["pile"] if r not in turned]
        state["rules_needed"] = 0

    def _first(self, state: State, e: Event) -> None:
        state.update(top=e["card"], discard_pile=1, draw_pile=state["draw_pile"] - 1)
        state.update(on_pile=_ids([e["card"]]), on_pile_faces=_faces([e["card"]]))

    def _next_turn(self, state: State, ts_ms: int) -> None:
        turns.advance(state["turn"])
        self._turn_moved(state, ts_ms)

    @staticmethod
    def _turn_moved(state: State, ts_ms: int) -> None:
        state["turn_started_ms"] = ts_ms
        forbidden = state.get("forbidden")
        if forbidden and turns.current(state["turn"]) == forbidden["player"]:  # "until your next turn"
            state["forbidden"] = None

    def _turn_changed(self, state: State, e: Event) -> None:
        turn = state["turn"]
        turn.update(index=turn["order"].index(e["player"]), direction=e["direction"])
        self._turn_moved(state, e["ts_ms"])

    def _match_restricted(self, state: State, e: Event) -> None:
        state["match_by"] = e["by"]

    def _colour_to_name(self, state: State, e: Event) -> None:
        state["to_name"] = e["player"]

    def _colour_forbidden(self, state: State, e: Event) -> None:
        state.update(forbidden={"colour": e["colour"], "player": e["player"]}, to_name=None)

    @staticmethod
    def _colour_skipped(state: State, e: Event) -> None:
        state["to_name"] = None

    def _played(self, state: State, e: Event) -> None:
        player = e["player"]
        state["hands"][player] -= len(e["cards"])
        state["discard_pile"] += len(e["cards"])
        state["on_pile"] = state.get("on_pile", []) + _ids(e["cards"])
        state["on_pile_faces"] = state.get("on_pile_faces", []) + _faces(e["cards"])
        # what an upheld accusation puts back: the card under this play, and what it said
        before = {"top": state["top"], "top_effect": state.get("top_effect"),
                  "match_by": state.get("match_by")}
        state.update(top=e["cards"][-1], last_play={"player": player, "cards": e["cards"],
                                                   "triggered": e["triggered"], "effect": e["effect"],
                                                   "before": before},
                     top_effect=e["effect"], match_by=None, plays=state.get("plays", 0) + 1,
                     triggered={"cause": "play", "player": player, "rules": e["triggered"]},
                     # a rule a drawn card set off is followed "before the next card is played"
                     to_enter=[], drawn_faces={})
        # The game ends once the winner's prize is decided; a last card that set off effects
        # wins once they are resolved.
        self._hand_changed(state, player, bool(e["triggered"] or e["effect"]))
        if state["winner"] is None:
            self._next_turn(state, e["ts_ms"])

    def _penalty(self, state: State, e: Event) -> None:
        self._card_taken(state, e, "penalty")
        # numbered, and by the play they followed, so a phone tells its player once
        state["penalties"].append({"player": e["player"], "reason": e["reason"],
                                   "n": len(state["penalties"]) + 1, "play": state.get("plays", 0),
                                   **{k: e[k] for k in ("fine", "why") if k in e}})
        if e["ends_turn"]:
            self._next_turn(state, e["ts_ms"])

    def _effect_draw(self, state: State, e: Event) -> None:
        self._card_taken(state, e, "draw")

    def _card_taken(self, state: State, e: Event, cause: str) -> None:
        if e["reshuffle"]:  # the top card stays; the rest of the discards become the draw pile
            state.update(draw_pile=state["discard_pile"] - 1, discard_pile=1,
                         on_pile=_ids([state["top"]]) if state["top"] else [],
                         on_pile_faces=_faces([state["top"]]) if state["top"] else [])
        lit: dict[str, Any] = {"cause": cause, "player": e["player"], "rules": e.get("triggered", [])}
        if e.get("drawn", True):  # logs from before empty piles were seen always drew
            state["draw_pile"] -= 1
            state["hands"][e["player"]] += 1
            state["draws"] = state.get("draws", 0) + 1
            state.setdefault("to_enter", []).append({"n": state["draws"], "player": e["player"]})
            lit["draw"] = state["draws"]
        if e.get("action") and state.get("triggered"):  # an action's draw adds to what its play lit
            before = state["triggered"]["rules"]
            state["triggered"]["rules"] = before + [r for r in lit["rules"] if r not in before]
        elif "triggered" in e:
            state["triggered"] = lit
        if state["hands"][e["player"]] > 0:
            self._hand_changed(state, e["player"], effects_follow=True)

    def _drawn_entered(self, state: State, e: Event) -> None:
        player, n = e["player"], e["drawn"]
        state["to_enter"] = [d for d in state["to_enter"] if d["n"] != n]
        state["drawn_faces"].setdefault(player, []).append(
            {"n": n, "card": draws.card_of(e, owner=player), "source": e["source"]})
        if e["triggered"]:  # added to what the draw itself set off, when that is still shown
            lit = state.get("triggered") or {}
            before = lit.get("rules", []) if lit.get("draw") == n else []
            state["triggered"] = {"cause": "drawn", "player": player, "draw": n,
                                  "rules": before + [r for r in e["triggered"] if r not in before]}

    def _accused(self, state: State, e: Event) -> None:
        # ``cards``: a play the table is asked about (no accuser), not yet on the pile
        state["accusation"] = {k: e[k] for k in ("accuser", "accused", "reason", "rule", "cards") if k in e}

    def _judged(self, state: State, e: Event) -> None:
        state["accusation"] = None
        if not e.get("returned"):
            return
        last = state["last_play"]
        player = last["player"]
        state["hands"][player] += len(last["cards"])
        state["discard_pile"] -= len(last["cards"])
        back = _ids(last["cards"])
        state["on_pile"] = [i for i in state.get("on_pile", []) if i not in back]
        faces = state.setdefault("on_pile_faces", [])
        for face in _faces(last["cards"]):  # one copy each (a reshuffle may have taken it)
            if face in faces:
                faces.remove(face)
        state.update(last_play=None, **last["before"])
        if state["winner"] == player and state["prize"] is None:  # the winning play was not one
            state["winner"] = None
        self._hand_changed(state, player, effects_follow=True)

    def _rule_discarded(self, state: State, e: Event) -> None:
        state["revealed"].remove(e["rule"])
        state["pile"].append(e["rule"])

    def _adjusted(self, state: State, e: Event) -> None:
        state["hands"][e["player"]] += e["delta"]
        if e.get("discard"):
            state["discard_pile"] -= e["delta"]
        if state["winner"] is None:  # a correction that empties a hand waits for the table too
            self._hand_changed(state, e["player"], effects_follow=True)

    def _resolved(self, state: State, e: Event) -> None:
        self._hand_changed(state, e["player"], effects_follow=False)

    def _proposed(self, state: State, e: Event) -> None:
        state["prize"] = {**{k: v for k, v in e.items() if k != "type"}, "status": "proposed"}

    def _decided(self, state: State, e: Event) -> None:
        state["prize"]["status"] = "approved" if e["approved"] else "rejected"
        if e["approved"]:
            state["over"] = True

    # -- views ---------------------------------------------------------------------------
    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        deck = state["options"]["deck"]
        if not state["started"]:
            return {"started": False, "deck": {"name": deck["name"], "mark": deck.get("mark", "")}}
        needed = state.get("rules_needed", 0)
        by_id = {r["id"]: r for r in state["rules"]}
        timed = [by_id[r]["trigger"]["seconds"] for r in state["revealed"]
                 if by_id[r]["trigger"]["kind"] == "time_passes"]
        return {"started": True, "deck": {"name": deck["name"], "mark": deck.get("mark", "")},
                "current": turns.current(state["turn"]), "order": state["turn"]["order"],
                "hands": state["hands"], "draw_pile": state["draw_pile"],
                "discard_pile": state["discard_pile"], "top": state["top"],
                "rules": [by_id[r] for r in state["revealed"]],
                # the newest creation placed at setup; at a table of mixed decks, every deck's
                "featured": state["featured"][0] if state["featured"] else None,
                "featured_rules": state["featured"], "last_play": state["last_play"],
                "penalties": state["penalties"][-10:], "accusation": state["accusation"],
                "triggered": state.get("triggered"), "going_out": state.get("going_out"),
                "multi_play": state["options"].get("multi_play", "shared"),
                "claim_turn": state["options"].get("claim_turn", False),
                "direction": state["turn"]["direction"],
                "match_by": state.get("match_by"), "forbidden": state.get("forbidden"),
                "to_name": state.get("to_name"), "plays": state.get("plays", 0),
                # the discard pile's cards, which no phone may choose again: the deck's own by
                # id, and those named by colour and number (some copy of that face)
                "on_pile": state.get("on_pile", []), "on_pile_faces": state.get("on_pile_faces", []),
                "rules_needed": needed, "rule_pile": len(state["pile"]),
                # to enter the Rule Cards turned at setup: the deck's rules are no secret
                "rule_choices": [by_id[r] for r in sorted(state["pile"], key=list(by_id).index)]
                if needed else [],
                "winner": state["winner"], "prize": state["prize"], "over": state["over"],
                "turn_started_ms": state["turn_started_ms"], "turn_limit_s": min(timed) if timed else None,
                "cards": [{"id": c["id"], "colour": c["colour"], "number": c["number"],
                           "effect": c["effect"], "kind": card_kind(c), "mark": c.get("mark", ""),
                           "deck": c.get("deck", 0)}
                          for c in deck["cards"]],
                **self._drawer_view(state, viewer)}

    @staticmethod
    def _drawer_view(state: State, viewer: str | None) -> dict[str, Any]:
        """A player's own draws: those whose card they may still enter, and the faces they
        entered since the last play. The table's screen and other phones get neither."""
        if viewer is None:
            return {}
        return {"to_enter": [d["n"] for d in state.get("to_enter", []) if d["player"] == viewer],
                "my_drawn": list(state.get("drawn_faces", {}).get(viewer, []))}

    def result(self, state: State) -> dict[str, Any]:
        if not state.get("started"):
            return {"scores": {}, "winners": [], "outcome": "not_started"}
        w = state["winner"]
        return {"scores": {p: -n for p, n in state["hands"].items()}, "winners": [w] if w else [],
                "outcome": "won" if w else "unfinished"}
