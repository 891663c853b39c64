"""Rank & File as a referee: turns, guesses, the four aces, "number N is done", and the
King and Joker expansions. Players tell the app what the cards showed; the app refuses
entries that contradict what is already public."""

from __future__ import annotations

from typing import Any

from ..core import turns
from ..core.commands import field, int_field
from ..core.context import Context
from ..core.errors import RuleViolation, require
from ..core.events import Event, event
from ..core.game import Game, State
from .rows import COPIES, JOKER, new_row, new_slot, possible_values, revealed_counts

ACES = 4
VARIANTS = {"full": range(2, 11), "easy": range(2, 9)}  # card numbers in play


class RankAndFile(Game):
    name = "rankfile"
    title = "Rank & File"
    min_players = 2
    max_players = 4

    def __init__(self) -> None:
        super().__init__()
        self.commands = {"guess": self.guess, "king_guess": self.king_guess,
                         "declare_done": self.declare_done, "declare_joker": self.declare_joker,
                         "reveal_joker": self.reveal_joker}
        self.folds = {"RowsDealt": self._dealt, "GuessRight": self._right,
                      "GuessWrong": self._wrong, "NumberDone": self._done,
                      "JokerDeclared": self._joker_declared, "JokerRevealed": self._joker_revealed}

    def options(self, raw: dict[str, Any]) -> dict[str, Any]:
        variant = raw.get("variant", "full")
        require(isinstance(variant, str) and variant in VARIANTS, "rankfile/bad_variant",
                "variant must be 'full' or 'easy'")
        opts = {"variant": variant}
        for flag, default in (("helper", True), ("kings", False), ("joker", False)):
            value = raw.get(flag, default)
            require(isinstance(value, bool), "table/bad_options", f"'{flag}' must be true or false")
            opts[flag] = value
        unknown = set(raw) - {"variant", "helper", "kings", "joker"}
        require(not unknown, "table/bad_options", f"unknown options: {', '.join(sorted(unknown))}")
        return opts

    def numbers(self, state: State) -> range:
        return VARIANTS[state["options"]["variant"]]

    # -- commands ------------------------------------------------------------------------
    def start(self, state: State, seats: list[str], ctx: Context) -> list[Event]:
        cards = len(self.numbers(state)) * COPIES
        require(cards % len(seats) == 0, "rankfile/uneven_deal",
                f"{cards} cards do not deal evenly to {len(seats)} players")
        return [event("RowsDealt", seats=seats, length=cards // len(seats))]

    def guess(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        guesser = turns.require_turn(state["turn"], ctx.actor)
        target, position = self._hidden_target(state, cmd, guesser)
        number = self._number(state, cmd)
        if not field(cmd, "correct", bool):
            return [self._wrong_event(state, guesser, [(target, position)], number)]
        own = self._own_match(state, cmd, guesser, number, [(target, position)])
        return [self._right_event(guesser, number, (target, position), own, king=False)]

    def king_guess(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """The King: one number named for two cards; right if either is that number."""
        guesser = turns.require_turn(state["turn"], ctx.actor)
        require(state["options"]["kings"], "rankfile/no_kings", "this table plays without Kings")
        require(guesser not in state["kings_used"], "rankfile/king_used",
                "you have played your King already")
        picks = field(cmd, "picks", list)
        require(len(picks) == 2 and all(isinstance(p, dict) for p in picks), "table/bad_field",
                "a King guess points at two cards: 'picks' is two {player, position}")
        targets = [self._hidden_target(state, p, guesser) for p in picks]
        require(targets[0] != targets[1], "rankfile/same_card", "point at two different cards")
        number = self._number(state, cmd)
        hit = cmd.get("hit")
        if hit is None:
            return [self._wrong_event(state, guesser, targets, number, king=True)]
        require(hit in (0, 1) and not isinstance(hit, bool), "table/bad_field",
                "'hit' is 0 or 1: which of the two cards was the number (or null for neither)")
        target, position = targets[hit]
        own = self._own_match(state, cmd, guesser, number, [(target, position)])
        return [self._right_event(guesser, number, (target, position), own, king=True)]

    def declare_done(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = turns.require_turn(state["turn"], ctx.actor)
        number = self._number(state, cmd)
        positions = field(cmd, "positions", list)
        row = state["rows"][player]
        require(positions and all(isinstance(p, int) and not isinstance(p, bool)
                                  and 0 <= p < len(row) for p in positions)
                and len(set(positions)) == len(positions),
                "table/bad_field", "'positions' lists distinct positions of your row")
        require(all(row[p]["value"] is None for p in positions), "rankfile/already_revealed",
                "those cards must all still be face down")
        have = revealed_counts(state["rows"]).get(number, 0)
        require(have + len(positions) == COPIES, "rankfile/not_complete",
                f"{have} × {number} are face up, so {COPIES - have} must be revealed together "
                f"(you named {len(positions)})")
        self._check_reveals(state, [(player, p) for p in positions], number)
        return [event("NumberDone", player=player, number=number, positions=sorted(positions))]

    def declare_joker(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = ctx.require_player()
        require(state["options"]["joker"], "rankfile/no_joker", "this table plays without the Joker")
        require(state["joker"]["holder"] is None, "rankfile/joker_declared",
                "the Joker's holder is already known")
        require(not state["history_started"], "rankfile/too_late",
                "say you hold the Joker before the first guess")
        return [event("JokerDeclared", player=player)]

    def reveal_joker(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = turns.require_turn(state["turn"], ctx.actor)
        require(state["joker"]["holder"] == player and not state["joker"]["revealed"],
                "rankfile/no_joker_to_reveal", "you have no face-down Joker")
        hidden = [i for i, s in enumerate(state["rows"][player]) if s["value"] is None]
        require(len(hidden) == 1, "rankfile/joker_not_last",
                "the Joker can be revealed once it is your last face-down card")
        return [event("JokerRevealed", player=player, position=hidden[0])]

    # -- checks --------------------------------------------------------------------------
    def _hidden_target(self, state: State, cmd: dict[str, Any], guesser: str) -> tuple[str, int]:
        target = field(cmd, "player", str)
        require(target in state["rows"], "rankfile/unknown_player", "no such player at this table")
        require(target != guesser, "rankfile/own_row", "point at another player's card")
        row = state["rows"][target]
        position = int_field(cmd, "position", 0, len(row) - 1)
        require(row[position]["value"] is None, "rankfile/already_revealed",
                "that card is already face up")
        return target, position

    def _number(self, state: State, cmd: dict[str, Any]) -> int:
        nums = self.numbers(state)
        return int_field(cmd, "number", nums.start, nums.stop - 1)

    def _own_match(self, state: State, cmd: dict[str, Any], guesser: str, number: int,
                   other: list[tuple[str, int]]) -> int | None:
        """Which of the guesser's own face-down cards shows the number too: ``own_position``,
        or ``null`` when they hold no face-down copy of it (then only the pointed card flips,
        and none of their face-down cards can be that number). Someone with nothing face down
        names none."""
        row = state["rows"][guesser]
        hidden = [i for i, s in enumerate(row) if s["value"] is None]
        if not hidden or ("own_position" in cmd and cmd["own_position"] is None):
            self._check_reveals(state, other, number)
            self._check_none_held(state, guesser, number, other)
            return None
        own = int_field(cmd, "own_position", 0, len(row) - 1)
        require(row[own]["value"] is None, "rankfile/already_revealed",
                "choose one of your own face-down cards with that number")
        self._check_reveals(state, [*other, (guesser, own)], number)
        return own

    def _check_none_held(self, state: State, guesser: str, number: int,
                         reveals: list[tuple[str, int]]) -> None:
        """"None of my face-down cards is that number" must fit the face-up cards: where the
        row can hold no completion without it, one of them is it."""
        numbers, joker = self.numbers(state), self._joker_hidden(state, guesser)
        rows = {pid: [dict(s) for s in row] for pid, row in state["rows"].items()}
        for pid, pos in reveals:
            rows[pid][pos]["value"] = number
        counts = revealed_counts(rows)
        before = possible_values(rows[guesser], numbers, counts, joker)
        row = rows[guesser]
        for s in row:
            if s["value"] is None:
                s["ruled_out"] = [*s.get("ruled_out", []), number]
        if any(s["value"] is None for s in row) and not any(possible_values(row, numbers, counts, joker)):
            forced = [i for i, options in enumerate(before) if options == [number]]
            where = f" (position {forced[0] + 1} can be nothing else)" if forced else ""
            raise RuleViolation("rankfile/must_hold", f"your face-down cards must include a "
                                f"{number}{where}: choose which one it is", params={"number": number})

    def _check_wrong(self, state: State, targets: list[tuple[str, int]], number: int) -> None:
        """A "wrong" the face-up cards contradict means someone misread a card: refuse it
        rather than flip an ace and leave a card that could be nothing."""
        counts = revealed_counts(state["rows"])
        for pid in {pid for pid, _ in targets}:
            row = [dict(s) for s in state["rows"][pid]]
            for p, pos in targets:
                if p == pid:
                    row[pos]["wrong"] = [*row[pos]["wrong"], number]
            if not any(possible_values(row, self.numbers(state), counts, self._joker_hidden(state, pid))):
                raise RuleViolation("rankfile/cannot_be_wrong",
                                    f"the face-up cards say that card can only be a {number}: "
                                    "look again, someone misread a card", params={"number": number})

    def _check_reveals(self, state: State, reveals: list[tuple[str, int]], number: int) -> None:
        """Refuse what public information already contradicts, naming the reason."""
        counts = revealed_counts(state["rows"])
        require(counts.get(number, 0) + len(reveals) <= COPIES, "rankfile/too_many",
                f"there are only {COPIES} × {number}; {counts.get(number, 0)} are already face up")
        trial = {pid: [dict(s) for s in row] for pid, row in state["rows"].items()}
        for pid, pos in reveals:
            if number in trial[pid][pos]["wrong"]:
                raise RuleViolation("rankfile/guessed_wrong_before",
                                    f"{number} was already guessed wrong at that position")
            if number in trial[pid][pos].get("ruled_out", ()):
                # the helper ruled the number out of the whole row on the owner's word: one
                # of the two readings of a card was wrong, and the table should look again
                raise RuleViolation("rankfile/said_none_of_mine",
                                    f"{pid} said none of their face-down cards is a {number}: "
                                    "look again, someone misread a card", params={"number": number})
            trial[pid][pos]["value"] = number
        new_counts = revealed_counts(trial)
        for pid in {pid for pid, _ in reveals}:
            row = trial[pid]
            numeric = [(i, s["value"]) for i, s in enumerate(row) if isinstance(s["value"], int)]
            for (_, a), (_, b) in zip(numeric, numeric[1:], strict=False):
                require(a <= b, "rankfile/out_of_order",
                        f"a {number} there breaks the ascending order of the row")
            options = possible_values(row, self.numbers(state), new_counts,
                                      self._joker_hidden(state, pid))
            stuck = [i for i, s in enumerate(row) if s["value"] is None and not options[i]]
            require(not stuck, "rankfile/impossible",
                    f"with a {number} there, position {stuck[0] + 1 if stuck else 0} of that row "
                    "could hold no card at all", params={"number": number})

    @staticmethod
    def _joker_hidden(state: State, pid: str) -> bool:
        return state["joker"]["holder"] == pid and not state["joker"]["revealed"]

    @staticmethod
    def _right_event(guesser: str, number: int, target: tuple[str, int], own: int | None,
                     king: bool) -> Event:
        reveals = [list(target)] + ([[guesser, own]] if own is not None else [])
        return event("GuessRight", guesser=guesser, number=number, reveals=reveals, king=king,
                     none_of_mine=own is None)

    def _wrong_event(self, state: State, guesser: str, targets: list[tuple[str, int]], number: int,
                     king: bool = False) -> Event:
        self._check_wrong(state, targets, number)
        return event("GuessWrong", guesser=guesser, number=number,
                     targets=[list(t) for t in targets], king=king)

    # -- folds ---------------------------------------------------------------------------
    def _dealt(self, state: State, e: Event) -> None:
        state.update(started=True, rows={p: new_row(e["length"]) for p in e["seats"]},
                     turn=turns.new_turn(e["seats"]), aces=0, kings_used=[], outcome=None,
                     joker={"holder": None, "revealed": False}, history_started=False,
                     guesses=[])

    def _after_turn(self, state: State) -> None:
        state["history_started"] = True
        hidden = sum(s["value"] is None for row in state["rows"].values() for s in row)
        if state["aces"] >= ACES:
            state.update(over=True, outcome="lost")
        elif hidden == 0:
            state.update(over=True, outcome="won")
        else:
            turns.advance(state["turn"])

    def _right(self, state: State, e: Event) -> None:
        for pid, pos in e["reveals"]:
            state["rows"][pid][pos]["value"] = e["number"]
        if e.get("none_of_mine"):
            for s in state["rows"][e["guesser"]]:
                if s["value"] is None:
                    s["ruled_out"].append(e["number"])
        if e["king"]:
            state["kings_used"].append(e["guesser"])
        state["guesses"].append({"guesser": e["guesser"], "number": e["number"], "right": True,
                                 "at": e["reveals"][0]})
        self._after_turn(state)

    def _wrong(self, state: State, e: Event) -> None:
        for pid, pos in e["targets"]:
            state["rows"][pid][pos]["wrong"].append(e["number"])
        if e["king"]:
            state["kings_used"].append(e["guesser"])
        state["aces"] += 1
        state["guesses"].append({"guesser": e["guesser"], "number": e["number"], "right": False,
                                 "at": e["targets"][0]})
        self._after_turn(state)

    def _done(self, state: State, e: Event) -> None:
        for pos in e["positions"]:
            state["rows"][e["player"]][pos]["value"] = e["number"]
        self._after_turn(state)

    def _joker_declared(self, state: State, e: Event) -> None:
        state["joker"]["holder"] = e["player"]
        state["rows"][e["player"]].append(new_slot())

    def _joker_revealed(self, state: State, e: Event) -> None:
        state["rows"][e["player"]][e["position"]]["value"] = JOKER
        state["joker"]["revealed"] = True
        self._after_turn(state)

    # -- views ---------------------------------------------------------------------------
    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        if not state["started"]:
            return {"started": False, "options": state["options"]}
        counts = revealed_counts(state["rows"])
        rows = {}
        for pid, row in state["rows"].items():
            helper = (possible_values(row, self.numbers(state), counts, self._joker_hidden(state, pid))
                      if state["options"]["helper"] else None)
            rows[pid] = [{"value": s["value"], "wrong": s["wrong"], "ruled_out": s["ruled_out"],
                          **({"possible": helper[i]} if helper and s["value"] is None else {})}
                         for i, s in enumerate(row)]
        return {"started": True, "options": state["options"], "rows": rows,
                "numbers": [self.numbers(state).start, self.numbers(state).stop - 1],
                "aces_flipped": state["aces"], "aces": ACES,
                "current": None if state["over"] else turns.current(state["turn"]),
                "order": state["turn"]["order"], "kings_used": state["kings_used"],
                "joker": state["joker"], "guessing_started": state["history_started"],
                "revealed": counts, "over": state["over"],
                "outcome": state["outcome"], "guesses": state["guesses"][-30:]}

    def result(self, state: State) -> dict[str, Any]:
        if not state.get("started"):
            return {"scores": {}, "winners": [], "outcome": "not_started"}
        won = state["outcome"] == "won"
        return {"scores": {}, "winners": list(state["rows"]) if won else [],
                "outcome": state["outcome"] or "unfinished", "aces_flipped": state["aces"], "aces": ACES}
