"""BLANK as a referee: the revealed Rule Cards and what each play triggers, legal plays,
penalties with accusations, hand and pile counts, and the winner's prize for the deck.

The cards stay physical: the app knows counts, the top of the discard pile, and what the
current player says they played.
"""

from __future__ import annotations

from typing import Any

from ..core import turns
from ..core.commands import choice_field, field, int_field
from ..core.context import Context
from ..core.errors import require
from ..core.events import NOBODY, Event, event, secret_of
from ..core.game import Game, State
from .deck import COLOURS, read_card_effect, read_rule

HAND = 7
REVEALED = 3
PENALTY_REASONS = ("no_match", "out_of_turn", "illegal_play", "false_accusation", "missed_rule")


def matches(card: dict[str, Any], top: dict[str, Any]) -> bool:
    return card["colour"] == top["colour"] or card["number"] == top["number"]


def legal(cards: list[dict[str, Any]], top: dict[str, Any]) -> bool:
    """All cards share a colour or all share a number, and the first matches the top card."""
    same = all(c["colour"] == cards[0]["colour"] for c in cards) or all(
        c["number"] == cards[0]["number"] for c in cards)
    return bool(cards) and same and matches(cards[0], top)


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


def read_cards(raw: Any) -> list[dict[str, Any]]:
    require(isinstance(raw, list) and 0 < len(raw) <= 12, "blank/bad_cards",
            "'cards' lists the cards played, top card last")
    return [{"colour": choice_field(c if isinstance(c, dict) else {}, "colour", COLOURS),
             "number": int_field(c if isinstance(c, dict) else {}, "number", 1, 6)} for c in raw]


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
                         "propose_card": self.propose_card, "decide_prize": self.decide_prize}
        self.folds = {"RulesRevealed": self._revealed, "FirstCardTurned": self._first,
                      "CardsPlayed": self._played, "PenaltyTaken": self._penalty,
                      "AccusationMade": self._accused, "AccusationJudged": self._judged,
                      "RuleDiscarded": self._rule_discarded, "HandAdjusted": self._adjusted,
                      "PrizeProposed": self._proposed, "PrizeDecided": self._decided}

    def options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The deck comes from the deck store, resolved by the service before this is called."""
        deck = raw.get("deck")
        require(isinstance(deck, dict) and "rules" in deck, "blank/no_deck", "choose a deck for this table")
        return {"deck": deck, "deck_id": raw.get("deck_id")}

    # -- setup ---------------------------------------------------------------------------
    def start(self, state: State, seats: list[str], ctx: Context) -> list[Event]:
        deck = state["options"]["deck"]
        rules = [r["id"] for r in deck["rules"]]
        require(len(rules) >= REVEALED, "blank/few_rules", "a deck needs at least three Rule Cards")
        ctx.rng.shuffle(rules)
        newest = deck.get("newest_creation")
        if newest in rules:  # the last winner's creation plays at once, with two drawn
            rules.remove(newest)
            rules.insert(0, newest)
        total = len(deck["cards"])
        require(total >= HAND * len(seats) + 1, "blank/few_cards", "not enough Game Cards for these hands")
        return [event("RulesRevealed", seats=seats, revealed=rules[:REVEALED],
                      secrets={NOBODY: {"pile": rules[REVEALED:]}},  # face down: its order is hidden
                      featured=newest if newest in rules[:REVEALED] else None,
                      draw_pile=total - HAND * len(seats), ts_ms=ctx.now_ms)]

    def first_card(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        require(state["top"] is None, "blank/first_card_known", "the first card is already turned")
        card = read_cards([cmd.get("card")])[0]
        return [event("FirstCardTurned", card=card)]

    # -- play ----------------------------------------------------------------------------
    def play(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        require(state["top"] is not None, "blank/turn_first_card", "turn the first card of the draw pile")
        require(state["prize"] is None and state["winner"] is None, "table/game_over", "the game is over")
        player = ctx.require_player()
        cards = read_cards(cmd.get("cards"))
        if player != turns.current(state["turn"]):
            return [self._penalty_event(state, player, "out_of_turn", ctx)]
        if not legal(cards, state["top"]) or len(cards) > state["hands"][player]:
            return [self._penalty_event(state, player, "illegal_play", ctx)]
        rules = [r for r in state["rules"] if r["id"] in state["revealed"]]
        effect = next((c["effect"] for c in state["options"]["deck"]["cards"]
                       if c["colour"] == cards[-1]["colour"] and c["number"] == cards[-1]["number"]
                       and c["effect"]), None)
        return [event("CardsPlayed", player=player, cards=cards, triggered=triggered(rules, cards),
                      effect=effect, ts_ms=ctx.now_ms)]

    def draw(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """No card to play: draw one. That is a Penalty, and the turn ends."""
        require(state["winner"] is None, "blank/won", "this game has a winner", "conflict")
        player = turns.require_turn(state["turn"], ctx.actor)
        return [self._penalty_event(state, player, "no_match", ctx)]

    def _penalty_event(self, state: State, player: str, reason: str, ctx: Context) -> Event:
        reshuffle = state["draw_pile"] == 0
        return event("PenaltyTaken", player=player, reason=reason, reshuffle=reshuffle,
                     ends_turn=player == turns.current(state["turn"]), ts_ms=ctx.now_ms)

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
        who, reason = (acc["accused"], acc["reason"]) if upheld else (acc["accuser"], "false_accusation")
        return [event("AccusationJudged", upheld=upheld), self._penalty_event(state, who, reason, ctx)]

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
        return [event("HandAdjusted", player=player, delta=delta,
                      note=note[:100] if isinstance(note, str) else "")]

    # -- the prize -----------------------------------------------------------------------
    def _winner_only(self, state: State, ctx: Context) -> str:
        require(state["winner"] is not None and ctx.actor == state["winner"], "blank/not_winner",
                "only the winner chooses a prize", "forbidden")
        require(state["prize"] is None or state["prize"]["status"] == "rejected", "blank/prize_pending",
                "the owner is looking at your prize already", "conflict")
        return state["winner"]

    def propose_rule(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        winner = self._winner_only(state, ctx)
        rule = read_rule(cmd.get("rule"), f"r{len(state['rules']) + 1}", ctx.now_ms)
        return [event("PrizeProposed", winner=winner, kind="rule", rule=rule)]

    def propose_card(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        winner = self._winner_only(state, ctx)
        card_id = field(cmd, "card_id", str)
        require(any(c["id"] == card_id for c in state["options"]["deck"]["cards"]), "blank/unknown_card",
                "no such Game Card")
        return [event("PrizeProposed", winner=winner, kind="card", card_id=card_id,
                      effect=read_card_effect(cmd.get("effect")))]

    def decide_prize(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """The owner (the host) has the final approval, as the rulebook says."""
        ctx.require_host("approve a prize")
        require(state["prize"] is not None and state["prize"]["status"] == "proposed", "blank/no_prize",
                "no prize is waiting", "conflict")
        return [event("PrizeDecided", approved=field(cmd, "approved", bool), ts_ms=ctx.now_ms)]

    # -- folds ---------------------------------------------------------------------------
    def _revealed(self, state: State, e: Event) -> None:
        deck = state["options"]["deck"]
        state.update(started=True, turn=turns.new_turn(e["seats"]), hands={p: HAND for p in e["seats"]},
                     rules=list(deck["rules"]), revealed=e["revealed"],
                     # logs from before the pile's order went under the envelope had it in the open
                     pile=secret_of(e, NOBODY).get("pile", e.get("pile")),
                     featured=e["featured"], draw_pile=e["draw_pile"], discard_pile=0, top=None,
                     last_play=None, penalties=[], accusation=None, winner=None, prize=None,
                     turn_started_ms=e["ts_ms"], log=[])

    def _first(self, state: State, e: Event) -> None:
        state.update(top=e["card"], discard_pile=1, draw_pile=state["draw_pile"] - 1)

    def _next_turn(self, state: State, ts_ms: int) -> None:
        turns.advance(state["turn"])
        state["turn_started_ms"] = ts_ms

    def _played(self, state: State, e: Event) -> None:
        player = e["player"]
        state["hands"][player] -= len(e["cards"])
        state["discard_pile"] += len(e["cards"])
        state.update(top=e["cards"][-1], last_play={"player": player, "cards": e["cards"],
                                                   "triggered": e["triggered"], "effect": e["effect"]})
        if state["hands"][player] == 0:  # the game ends once the winner's prize is decided
            state["winner"] = player
        else:
            self._next_turn(state, e["ts_ms"])

    def _penalty(self, state: State, e: Event) -> None:
        if e["reshuffle"]:  # the top card stays; the rest of the discards become the draw pile
            state.update(draw_pile=state["discard_pile"] - 1, discard_pile=1)
        state["draw_pile"] -= 1
        state["hands"][e["player"]] += 1
        state["penalties"].append({"player": e["player"], "reason": e["reason"]})
        if e["ends_turn"]:
            self._next_turn(state, e["ts_ms"])

    def _accused(self, state: State, e: Event) -> None:
        state["accusation"] = {k: e[k] for k in ("accuser", "accused", "reason", "rule")}

    def _judged(self, state: State, e: Event) -> None:
        state["accusation"] = None

    def _rule_discarded(self, state: State, e: Event) -> None:
        state["revealed"].remove(e["rule"])
        state["pile"].append(e["rule"])

    def _adjusted(self, state: State, e: Event) -> None:
        state["hands"][e["player"]] += e["delta"]

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
        by_id = {r["id"]: r for r in state["rules"]}
        timed = [by_id[r]["trigger"]["seconds"] for r in state["revealed"]
                 if by_id[r]["trigger"]["kind"] == "time_passes"]
        return {"started": True, "deck": {"name": deck["name"], "mark": deck.get("mark", "")},
                "current": turns.current(state["turn"]), "order": state["turn"]["order"],
                "hands": state["hands"], "draw_pile": state["draw_pile"],
                "discard_pile": state["discard_pile"], "top": state["top"],
                "rules": [by_id[r] for r in state["revealed"]], "rule_pile": len(state["pile"]),
                "featured": state["featured"], "last_play": state["last_play"],
                "penalties": state["penalties"][-10:], "accusation": state["accusation"],
                "winner": state["winner"], "prize": state["prize"], "over": state["over"],
                "turn_started_ms": state["turn_started_ms"], "turn_limit_s": min(timed) if timed else None,
                "cards": [{"id": c["id"], "colour": c["colour"], "number": c["number"],
                           "effect": c["effect"]} for c in deck["cards"]]}

    def result(self, state: State) -> dict[str, Any]:
        if not state.get("started"):
            return {"scores": {}, "winners": [], "outcome": "not_started"}
        w = state["winner"]
        return {"scores": {p: -n for p, n in state["hands"].items()}, "winners": [w] if w else [],
                "outcome": "won" if w else "unfinished"}
