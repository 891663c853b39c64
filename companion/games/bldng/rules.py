"""BLDNG as a tracker: turns and direction, the piles, each player's hidden project, the
collected shapes on the table, and the "What happens" cards (rules/bldng.txt).

Players draw real cards and tell the app what they drew. A project is a secret of its owner:
it travels only in the ``secrets`` envelope of events and in its owner's view, also when the
projects shift or change hands.
"""

from __future__ import annotations

from typing import Any

from ..core import turns
from ..core.commands import field, int_field
from ..core.context import Context
from ..core.errors import RuleViolation, require
from ..core.events import Event, event
from ..core.game import Game, State
from .cards import DECK_SIZE, SHAPES, is_jolly, random_project, read_card, read_project
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
    def limit(state: State, player: str) -> int:
        if state["big_hand"] == player:
            return BIG_HAND
        project = state["projects"].get(player)
        return len(project["elements"]) if project else 8

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
        player = ctx.require_player()
        require(player in state["hands"], "bldng/not_seated", "you are not playing this game")
        require(state["projects"].get(player) is None, "bldng/has_project", "you already have a project")
        project = read_project(cmd.get("project"))
        return [event("ProjectSet", player=player, reason="entered", secrets={player: {"project": project}})]

    def draw_project(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = ctx.require_player()
        require(player in state["hands"], "bldng/not_seated", "you are not playing this game")
        require(state["projects"].get(player) is None, "bldng/has_project", "you already have a project")
        return [event("ProjectSet", player=player, reason="drawn",
                      secrets={player: {"project": random_project(ctx.rng)}})]

    def draw(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = self._mine(state, ctx)
        require(state["step"]["kind"] in ("draw", "draw_more"), "bldng/wrong_step",
                f"now: {describe_step(state['step'])}", "conflict")
        require(all(state["projects"].values()), "bldng/projects_first",
                "every player takes a project card first (enter it, or let the app draw one)", "conflict")
        card = read_card(cmd.get("card"))
        if state["step"]["kind"] == "draw_more":
            require(card["kind"] != "what_happens", "bldng/set_aside",
                    "while taking three, put a drawn What happens card back and draw again")
        out = []
        if state["draw_pile"] == 0:
            require(state["discard_pile"] > 0, "bldng/no_cards", "there are no cards left to draw")
            out.append(event("PileReshuffled", cards=state["discard_pile"]))
        out.append(event("CardDrawn", player=player, card=card))
        if card.get("effect") == "change_project" and state["projects"].get(player):
            out.append(event("ProjectSet", player=player, reason="changed",
                             secrets={player: {"project": random_project(ctx.rng)}}))
        if card.get("effect") == "shift_projects":
            out.append(self._shift(state))
        return out

    def _shift(self, state: State) -> Event:
        """Everyone gets the project of the player on their left (the next seat)."""
        seats = state["seats"]
        moved = {p: state["projects"].get(seats[(i + 1) % len(seats)]) for i, p in enumerate(seats)}
        return event("ProjectsShifted", secrets={p: {"project": proj} for p, proj in moved.items()})

    def take_discard(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = self._mine(state, ctx)
        self._step(state, "draw")
        last = state["last_discard"]
        require(last is not None and last["by"] == state["previous"], "bldng/no_discard",
                "only the Shapes card the previous player just discarded can be taken")
        require(len(state["hands"][player]) >= self.limit(state, player), "bldng/not_at_count",
                "the discard can be taken once you have your project's number of cards")
        return [event("DiscardTaken", player=player, card=last["card"])]

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
        if index is None:
            return [event("NothingTaken", player=player, source=source)]
        hand = state["hands"][source]
        index = int_field(cmd, "index", 0, max(0, len(hand) - 1))
        require(hand, "bldng/empty_hand", "that player has no cards")
        card = hand[index]
        if step["kind"] == "steal":
            require(not is_jolly(card) and card["shape"] == step["shape"], "bldng/wrong_shape",
                    f"the card must be a {step['shape']} (jolly cards do not count)")
        return [event("CardTaken", player=player, source=source, index=index, card=card)]

    # -- folds ---------------------------------------------------------------------------
    def _started(self, state: State, e: Event) -> None:
        seats = e["seats"]
        state.update(started=True, seats=seats, turn=turns.new_turn(seats, 0, e["direction"]),
                     hands={p: [] for p in seats}, projects={p: None for p in seats},
                     draw_pile=DECK_SIZE, discard_pile=0, last_discard=None, previous=None,
                     step={"kind": "draw"}, big_hand=None, winner=None, log=[])

    def _project_set(self, state: State, e: Event) -> None:
        state["projects"][e["player"]] = e["secrets"][e["player"]]["project"]
        self._check_winner(state)

    def _reshuffled(self, state: State, e: Event) -> None:
        state.update(draw_pile=e["cards"], discard_pile=0, last_discard=None)

    def _drawn(self, state: State, e: Event) -> None:
        player, card = e["player"], e["card"]
        state["draw_pile"] -= 1
        if card["kind"] != "what_happens":
            state["hands"][player].append(card)
            if state["step"]["kind"] == "draw_more":
                state["step"]["count"] -= 1
                if state["step"]["count"] == 0:
                    state["step"] = {"kind": "discard", "count": 3}
            else:
                self._after_gain(state, player)
            self._check_winner(state)
            return
        effect = card["effect"]
        state["log"].append({"player": player, "effect": effect})
        if effect != "up_to_15":
            state["discard_pile"] += 1
        if effect == "up_to_15":
            state["big_hand"] = player
            self._end_turn(state)
        elif effect == "reverse":
            turns.reverse(state["turn"])
            self._end_turn(state)
        elif effect == "take_three":
            state["step"] = {"kind": "draw_more", "count": 3}
        elif effect == "take_one_each":
            state["step"] = {"kind": "take_each", "left": [p for p in state["seats"] if p != player],
                             "taken": 0}
        elif effect.startswith("steal_"):
            state["step"] = {"kind": "steal", "shape": effect.removeprefix("steal_")}
        elif effect == "give_five":
            count = min(5, len(state["hands"][player]))
            state["step"] = {"kind": "discard", "count": count}
            if count == 0:
                self._end_turn(state)
        else:  # skip; shift_projects and change_project also bring events of their own
            self._end_turn(state)

    def _after_gain(self, state: State, player: str) -> None:
        if len(state["hands"][player]) > self.limit(state, player):
            extra = len(state["hands"][player]) - self.limit(state, player)
            state["step"] = {"kind": "discard", "count": extra}
        else:
            self._end_turn(state)

    def _discard_taken(self, state: State, e: Event) -> None:
        state["hands"][e["player"]].append(e["card"])
        state["discard_pile"] -= 1
        state["last_discard"] = None
        self._check_winner(state)
        state["step"] = {"kind": "discard", "count": 1}

    def _discarded(self, state: State, e: Event) -> None:
        hand = state["hands"][e["player"]]
        hand.pop(e["index"])
        state["discard_pile"] += 1
        state["last_discard"] = {"card": e["card"], "by": e["player"]}
        state["step"]["count"] -= 1
        if state["step"]["count"] <= 0:
            self._end_turn(state)

    def _taken(self, state: State, e: Event) -> None:
        state["hands"][e["source"]].pop(e["index"])
        state["hands"][e["player"]].append(e["card"])
        self._after_take(state, e)
        self._check_winner(state)

    def _nothing_taken(self, state: State, e: Event) -> None:
        self._after_take(state, e)

    def _after_take(self, state: State, e: Event) -> None:
        step = state["step"]
        if step["kind"] == "steal":
            if e["type"] == "CardTaken":
                self._after_gain(state, e["player"])
            else:
                self._end_turn(state)
            return
        step["left"].remove(e["source"])
        step["taken"] += e["type"] == "CardTaken"
        if not step["left"]:
            if step["taken"]:
                state["step"] = {"kind": "discard", "count": step["taken"]}
            else:
                self._end_turn(state)

    def _shifted(self, state: State, e: Event) -> None:
        for p, secret in e["secrets"].items():
            state["projects"][p] = secret["project"]
        self._check_winner(state)

    def _end_turn(self, state: State) -> None:
        state["previous"] = turns.current(state["turn"])
        turns.advance(state["turn"])
        state["step"] = {"kind": "draw"}

    def _check_winner(self, state: State) -> None:
        if state["winner"] is not None:
            return
        for p in state["seats"]:
            project = state["projects"].get(p)
            if project and not missing(state["hands"][p], project["elements"]):
                state.update(winner=p, over=True)
                return

    def player_removed(self, state: State, player: str) -> None:
        super().player_removed(state, player)
        if player in state.get("seats", []):
            state["seats"] = [p for p in state["seats"] if p != player]

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
               "shapes": list(SHAPES)}
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
            "steal": f"steal a {step.get('shape')} from another player"}.get(kind, kind)
