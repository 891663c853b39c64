"""BLDNG as a tracker: turns and direction, the piles, each player's hidden project, the
collected shapes on the table, and the "What happens" cards (rules/bldng.txt).

Players draw real cards and tell the app what they drew. A project card is entered from the
table or drawn by the app (core/draws.py), at the start and whenever Change project sends a
player back to the Project deck. A project is a secret of its owner: it travels only in the
``secrets`` envelope of events and in its owner's view, also when the projects shift or change
hands.

A What happens card drawn in the middle of another one's steps (during Take three) is used at
once: the unfinished steps wait on ``state["resume"]`` and go on when it is done. The win is
decided where the rulebook's turn ends, once the player has drawn and discarded as the turn
asks (docs/bldng.md).
"""

from __future__ import annotations

from typing import Any

from ..core import draws, turns
from ..core.commands import field, int_field
from ..core.context import Context
from ..core.errors import RuleViolation, require
from ..core.events import Event, event
from ..core.game import Game, State
from .cards import (
    DECK_SIZE,
    SHAPES,
    card_key,
    draw_from,
    full_deck,
    is_jolly,
    random_project,
    read_card,
    read_project,
)
from .matching import assign, missing

BIG_HAND = 15


class Bldng(Game):
    name = "bldng"
    title = "BLDNG"
    min_players = 2
    max_players = 6

    def __init__(self) -> None:
        super().__init__()
        self.commands = {"set_project": self.set_project, "draw_project": self.draw_project,
                         "draw": self.draw, "take_discard": self.take_discard, "discard": self.discard,
                         "take": self.take}
        self.folds = {"BuildingStarted": self._started, "ProjectSet": self._project_set,
                      "CardDrawn": self._drawn, "DiscardTaken": self._discard_taken,
                      "CardDiscarded": self._discarded, "CardTaken": self._taken,
                      "NothingTaken": self._nothing_taken, "PileReshuffled": self._reshuffled,
                      "ProjectsShifted": self._shifted}

    def options(self, raw: dict[str, Any]) -> dict[str, Any]:
        unknown = set(raw) - {"direction"}
        require(not unknown, "table/bad_options", f"unknown options: {', '.join(sorted(unknown))}")
        direction = raw.get("direction", "clockwise")
        require(direction in ("clockwise", "anticlockwise"), "table/bad_options",
                "direction is 'clockwise' or 'anticlockwise'")
        return {"direction": direction}

    # -- helpers -------------------------------------------------------------------------
    @staticmethod
    def count(state: State, player: str) -> int:
        """The number of cards the player's project asks for (Step 4's "8 or 10 cards")."""
        project = state["projects"].get(player)
        return len(project["elements"]) if project else 8

    @classmethod
    def limit(cls, state: State, player: str) -> int:
        """How many cards the player may hold: the project's count, or 15 for the holder of
        "You can have up to 15 cards"."""
        return BIG_HAND if state["big_hand"] == player else cls.count(state, player)

    @classmethod
    def discard_refused(cls, state: State, player: str) -> RuleViolation | None:
        """Why the player may not take the last discard now, if not. Step 4's note: at their
        project's count (also when "up to 15" lets them hold more), a player may take the
        Shapes card the previous player just discarded, instead of drawing."""
        last = state["last_discard"]
        if last is None or last["by"] != state["previous"]:
            return RuleViolation("bldng/no_discard",
                                 "only the Shapes card the previous player just discarded can be taken")
        if len(state["hands"][player]) < cls.count(state, player):
            return RuleViolation("bldng/not_at_count",
                                 "the discard can be taken once you have your project's number of cards")
        return None

    def _mine(self, state: State, ctx: Context) -> str:
        require(state["winner"] is None, "table/game_over", "the game is over", "conflict")
        return turns.require_turn(state["turn"], ctx.actor)

    def _step(self, state: State, want: str) -> dict[str, Any]:
        step = state["step"]
        if step["kind"] != want:
            raise RuleViolation("bldng/wrong_step", f"now: {describe_step(step)}", "conflict")
        return step

    # -- commands ------------------------------------------------------------------------
    def start(self, state: State, seats: list[str], ctx: Context) -> list[Event]:
        direction = 1 if state["options"]["direction"] == "clockwise" else -1
        return [event("BuildingStarted", seats=seats, direction=direction)]

    def set_project(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """The project card a player took from the Project deck: at the start, or after Change
        project. ``{"project": {...}}`` is the card from the table; ``{"draw": true}`` lets the
        app draw one from its virtual deck."""
        player = ctx.require_player()
        require(player in state["hands"], "bldng/not_seated", "you are not playing this game")
        require(state["projects"].get(player) is None, "bldng/has_project", "you already have a project")
        taken = draws.take(cmd, ctx, read=read_project, draw=random_project, key="project")
        changing = state["step"]["kind"] == "project"
        return [draws.recorded("ProjectSet", taken, key="project", owner=player, player=player,
                               reason="change_project" if changing else "start")]

    def draw_project(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """Older clients' name for ``set_project {"draw": true}``."""
        return self.set_project(state, {"draw": True}, ctx)

    def draw(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """The card drawn from the Shapes and What happens deck: ``{"card": {...}}`` as the
        table shows it, or ``{"draw": true}`` for the app to draw from what the pile has left."""
        player = self._mine(state, ctx)
        require(state["step"]["kind"] in ("draw", "draw_more"), "bldng/wrong_step",
                f"now: {describe_step(state['step'])}", "conflict")
        require(all(state["projects"].values()), "bldng/projects_first",
                "every player takes a project card first (enter it, or let the app draw one)", "conflict")
        out = []
        pile = state["pile"]
        if state["draw_pile"] == 0:
            require(state["discard_pile"] > 0, "bldng/no_cards", "there are no cards left to draw")
            out.append(event("PileReshuffled", cards=state["discard_pile"]))
            pile = state["discards"]
        taken = draws.take(cmd, ctx, read=read_card, draw=draw_from(pile))
        card = taken.card
        out.append(draws.recorded("CardDrawn", taken, player=player))
        if card.get("effect") == "shift_projects":
            out.append(self._shift(state, player))
        return out

    def _shift(self, state: State, by: str) -> Event:
        """Everyone gets the project of the player on their left (the next seat). Whose project
        went to whom is public (the cards pass round the table face down); what is on them is
        not."""
        seats = state["seats"]
        came_from = {p: seats[(i + 1) % len(seats)] for i, p in enumerate(seats)}
        return event("ProjectsShifted", by=by, came_from=came_from,
                     secrets={p: {"project": state["projects"].get(q)} for p, q in came_from.items()})

    def take_discard(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = self._mine(state, ctx)
        self._step(state, "draw")
        refused = self.discard_refused(state, player)
        if refused:
            raise refused
        return [event("DiscardTaken", player=player, card=state["last_discard"]["card"])]

    def discard(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = self._mine(state, ctx)
        self._step(state, "discard")
        hand = state["hands"][player]
        index = int_field(cmd, "index", 0, max(0, len(hand) - 1))
        require(hand, "bldng/empty_hand", "you have no cards to discard")
        return [event("CardDiscarded", player=player, index=index, card=hand[index])]

    def take(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """Take a card from another player (Take one card from each player, or Steal)."""
        player = self._mine(state, ctx)
        step = state["step"]
        require(step["kind"] in ("take_each", "steal"), "bldng/wrong_step",
                f"now: {describe_step(step)}", "conflict")
        source = field(cmd, "from", str)
        require(source in state["hands"] and source != player, "bldng/unknown_player",
                "take from another player at the table")
        if step["kind"] == "take_each":
            require(source in step["left"], "bldng/already_taken", "you already took from that player")
        index = cmd.get("index")
        options = self.takeable(state, player)
        if index is None:
            if step["kind"] == "steal":
                # "If there are no cards to take": the shapes are on the table for all to see.
                holders = [p for p, cards in options["cards"].items() if cards]
                require(source in options["nothing"], "bldng/must_steal",
                        f"another player holds a {step['shape']}: steal one", params={"holders": holders})
            return [event("NothingTaken", player=player, source=source)]
        hand = state["hands"][source]
        index = int_field(cmd, "index", 0, max(0, len(hand) - 1))
        require(hand, "bldng/empty_hand", "that player has no cards")
        card = hand[index]
        if step["kind"] == "steal":
            require(index in options["cards"].get(source, []), "bldng/wrong_shape",
                    f"the card must be a {step['shape']} (jolly cards do not count)")
        return [event("CardTaken", player=player, source=source, index=index, card=card)]

    @staticmethod
    def takeable(state: State, player: str) -> dict[str, Any]:
        """What ``player`` may take in a Take one card from each player or a Steal step, read
        once for the command and the phone: per other player the indexes of the cards that
        can be taken (a Steal: the cards of its shape, jollies not counted; Take one: any card
        of a player not taken from yet), and from whom "nothing to take" may be said (a Steal:
        only while nobody else holds its shape)."""
        step = state["step"]
        others = [p for p in state["seats"] if p != player]
        if step["kind"] == "steal":
            cards = {p: [i for i, c in enumerate(state["hands"][p])
                         if not is_jolly(c) and c["shape"] == step["shape"]] for p in others}
            return {"cards": cards, "nothing": [] if any(cards.values()) else others}
        left = [p for p in others if p in step["left"]]
        return {"cards": {p: list(range(len(state["hands"][p]))) if p in left else [] for p in others},
                "nothing": left}

    # -- folds ---------------------------------------------------------------------------
    def _started(self, state: State, e: Event) -> None:
        seats = e["seats"]
        state.update(started=True, seats=seats, turn=turns.new_turn(seats, 0, e["direction"]),
                     hands={p: [] for p in seats}, projects={p: None for p in seats},
                     draw_pile=DECK_SIZE, discard_pile=0, last_discard=None, previous=None,
                     pile=full_deck(), discards={}, last_drawn=None,
                     step={"kind": "draw"}, resume=[], big_hand=None, winner=None, log=[], news={})

    def _project_set(self, state: State, e: Event) -> None:
        player = e["player"]
        state["projects"][player] = draws.card_of(e, "project", owner=player)
        if state["step"]["kind"] == "project" and state["step"]["player"] == player:
            self._tell(state, player, "ProjectSet", by=player)
            self._done(state)

    def _reshuffled(self, state: State, e: Event) -> None:
        state.update(draw_pile=e["cards"], discard_pile=0, last_discard=None, pile=state["discards"],
                     discards={})

    def _drawn(self, state: State, e: Event) -> None:
        player, card = e["player"], e["card"]
        state["draw_pile"] -= 1
        self._move(state["pile"], None, card)
        state["last_drawn"] = {"player": player, "card": card, "source": e.get("source", "entered")}
        if card["kind"] != "what_happens":
            state["hands"][player].append(card)
            if state["step"]["kind"] == "draw_more":
                state["step"]["count"] -= 1
                if state["step"]["count"] == 0:
                    self._discards(state, player, 3)
            else:
                self._after_gain(state, player)
            return
        effect = card["effect"]
        state["log"].append({"player": player, "effect": effect})
        if effect != "up_to_15":
            state["discard_pile"] += 1
            self._move(None, state["discards"], card)
        if state["step"]["kind"] == "draw_more":
            # "It must be used immediately": Take three waits until this card is done with.
            state["resume"].append(state["step"])
        if effect == "up_to_15":
            state["big_hand"] = player
            self._done(state)
        elif effect == "reverse":
            turns.reverse(state["turn"])
            self._done(state)
        elif effect == "take_three":
            state["step"] = {"kind": "draw_more", "count": 3}
        elif effect == "take_one_each":
            state["step"] = {"kind": "take_each", "left": [p for p in state["seats"] if p != player],
                             "taken": 0}
        elif effect.startswith("steal_"):
            state["step"] = {"kind": "steal", "shape": effect.removeprefix("steal_")}
        elif effect == "give_five":
            self._discards(state, player, 5)
        elif effect == "change_project":
            # The card goes under the Project deck; the new one is entered (or drawn) next.
            state["projects"][player] = None
            state["step"] = {"kind": "project", "player": player}
        elif effect == "shift_projects":
            state["step"] = {"kind": "shifting"}  # ProjectsShifted follows in the same command
        else:  # skip: "does not draw or discard any cards", also in the middle of Take three
            state["resume"].clear()
            self._end_turn(state)

    def _after_gain(self, state: State, player: str) -> None:
        extra = len(state["hands"][player]) - self.limit(state, player)
        if extra > 0 and not state["resume"]:
            state["step"] = {"kind": "discard", "count": extra}
        else:  # inside Take three, its own three discards come at its end
            self._done(state)

    def _discard_taken(self, state: State, e: Event) -> None:
        state["hands"][e["player"]].append(e["card"])
        state["discard_pile"] -= 1
        self._move(state["discards"], None, e["card"])
        state["last_discard"] = None
        self._after_gain(state, e["player"])  # a draw: a discard is owed only above the limit

    def _discarded(self, state: State, e: Event) -> None:
        hand = state["hands"][e["player"]]
        hand.pop(e["index"])
        state["discard_pile"] += 1
        self._move(None, state["discards"], e["card"])
        state["last_discard"] = {"card": e["card"], "by": e["player"]}
        state["step"]["count"] -= 1
        if state["step"]["count"] <= 0:
            self._done(state)

    def _taken(self, state: State, e: Event) -> None:
        state["hands"][e["source"]].pop(e["index"])
        state["hands"][e["player"]].append(e["card"])
        self._after_take(state, e)

    def _nothing_taken(self, state: State, e: Event) -> None:
        self._after_take(state, e)

    def _after_take(self, state: State, e: Event) -> None:
        step = state["step"]
        if step["kind"] == "steal":
            if e["type"] == "CardTaken":
                self._after_gain(state, e["player"])
            else:
                self._done(state)
            return
        step["left"].remove(e["source"])
        step["taken"] += e["type"] == "CardTaken"
        if not step["left"]:
            self._discards(state, e["player"], step["taken"])

    def _shifted(self, state: State, e: Event) -> None:
        came_from = e.get("came_from", {})
        for p, secret in e["secrets"].items():
            state["projects"][p] = secret["project"]
            self._tell(state, p, "ProjectsShifted", by=e.get("by"), came_from=came_from.get(p))
        if state["step"]["kind"] == "shifting":
            self._done(state)

    @staticmethod
    def _move(source: dict[str, int] | None, target: dict[str, int] | None, card: dict[str, Any]) -> None:
        """A card leaves one pile's contents for another's. A card the table entered that the
        contents no longer hold (a deck with a card of its own) is taken as the table says."""
        key = card_key(card)
        if source is not None and source.get(key):
            source[key] -= 1
            if not source[key]:
                del source[key]
        if target is not None:
            target[key] = target.get(key, 0) + 1

    @staticmethod
    def _tell(state: State, player: str, code: str, **about: Any) -> None:
        """News for one phone that its project changed; ``n`` counts them, so a phone shows
        each once however often it reconnects."""
        n = state["news"].get(player, {}).get("n", 0) + 1
        state["news"][player] = {"n": n, "code": code, **about}

    def _discards(self, state: State, player: str, count: int) -> None:
        """Discard ``count`` cards, or all the hand holds when that is fewer (the rulebook says
        so for Give 5 cards back; a hand emptied during Take three has nothing more to give)."""
        count = min(count, len(state["hands"][player]))
        if count:
            state["step"] = {"kind": "discard", "count": count}
        else:
            self._done(state)

    def _done(self, state: State) -> None:
        """The step in hand is finished: back to the one it interrupted, or the turn ends."""
        if state["resume"]:
            state["step"] = state["resume"].pop()
        else:
            self._end_turn(state)

    def _end_turn(self, state: State) -> None:
        """Step 4's turn (draw, then discard what the project does not need) is over: this is
        where a finished project wins, so nobody is a builder with a discard still owed."""
        player = turns.current(state["turn"])
        state["previous"] = player
        winner = self._builder(state)
        if winner is not None:
            state.update(winner=winner, over=True, step={"kind": "over"})
            return
        turns.advance(state["turn"])
        state["step"] = {"kind": "draw"}

    def _builder(self, state: State) -> str | None:
        """Who holds every shape of their project, the player whose turn ended first (their
        turn completed it), then the others in the order of play (a shift can complete theirs)."""
        turn = state["turn"]
        order = turn["order"]
        start = turn["index"]
        for k in range(len(order)):
            p = order[(start + k * turn["direction"]) % len(order)]
            project = state["projects"].get(p)
            if project and not missing(state["hands"][p], project["elements"]):
                return p
        return None

    def player_removed(self, state: State, player: str) -> None:
        was_current = state.get("started") and turns.current(state["turn"]) == player
        super().player_removed(state, player)
        if player in state.get("seats", []):
            state["seats"] = [p for p in state["seats"] if p != player]
        if was_current and not state["over"]:  # what they were in the middle of leaves with them
            state.update(step={"kind": "draw"}, resume=[])

    # -- views ---------------------------------------------------------------------------
    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        if not state["started"]:
            return {"started": False, "options": state["options"]}
        out = {"started": True, "options": state["options"], "current": turns.current(state["turn"]),
               "order": state["turn"]["order"], "direction": state["turn"]["direction"],
               "hands": state["hands"], "draw_pile": state["draw_pile"],
               "discard_pile": state["discard_pile"], "last_discard": state["last_discard"],
               "step": state["step"],
               "big_hand": state["big_hand"], "winner": state["winner"], "over": state["over"],
               "has_project": {p: proj is not None for p, proj in state["projects"].items()},
               "limits": {p: self.limit(state, p) for p in state["seats"]}, "recent": state["log"][-8:],
               "resume": state["resume"], "last_drawn": state["last_drawn"], "shapes": list(SHAPES),
               "discard_takeable": state["step"]["kind"] == "draw" and not state["over"]
               and self.discard_refused(state, turns.current(state["turn"])) is None}
        if viewer in state["news"]:
            out["news"] = state["news"][viewer]
        if viewer == out["current"] and state["step"]["kind"] in ("take_each", "steal") and not state["over"]:
            out["take"] = self.takeable(state, viewer)
        project = state["projects"].get(viewer) if viewer else None
        if project:
            hand = state["hands"][viewer]
            used = assign(hand, project["elements"])
            out["my_project"] = {**project, "assigned": used,
                                 "missing": [list(m) for m in missing(hand, project["elements"])]}
        return out

    def result(self, state: State) -> dict[str, Any]:
        if not state.get("started"):
            return {"scores": {}, "winners": [], "outcome": "not_started"}
        winner = state["winner"]
        return {"scores": {}, "winners": [winner] if winner else [],
                "outcome": "built" if winner else "unfinished"}


def describe_step(step: dict[str, Any]) -> str:
    kind = step["kind"]
    return {"draw": "draw a card (or take the last discard)",
            "draw_more": f"take three: draw {step.get('count')} more",
            "discard": f"discard {step.get('count')} card(s)",
            "take_each": "take one card you need from each other player",
            "steal": f"steal a {step.get('shape')} from another player",
            "project": "enter your new project card (or let the app draw one)",
            "over": "the game is over"}.get(kind, kind)
