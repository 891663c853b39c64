"""BLANKO as a referee and score sheet: turns, dictionary checks and challenges, BLANKO
cards, the bank, and the end-of-game rack deductions (rules/blanko.txt).

The board stays on the table: a turn is entered as the words it formed (in the notation of
notation.py), how many tiles it took from the rack, and whether a board letter went back to
the bank. Every dictionary verdict is made here, once, and written into the event.
"""

from __future__ import annotations

from typing import Any

from ..core import hourglass, scores, turns
from ..core.commands import choice_field, field, int_field
from ..core.context import Context
from ..core.errors import require
from ..core.events import Event, event
from ..core.game import Game, State
from . import tiles as letter_set
from .evaluate import laid_word
from .notation import parse_rack, word_of
from .reading import read
from .scoring import previous_turn_points, rack_deduction
from .words import Lexicon, judge

RACK = 8
EXCHANGE_NEEDS = 20
EXCHANGE_COST = 10
CARD_FILLED = 2  # a puzzle or letter card filled completely
LETTER_CARD_SQUARES = 8  # "eight for the empty squares"; the ninth holds the printed letter
MAX_PUZZLE_SQUARES = 40  # the rulebook does not say; a card is far smaller than the board
BLANKO = ("B", "L", "A", "N", "K", "O")
BLANKO_WORD_POINTS = 20
LUCK_CARDS = ("lay_again", "swap_one", "draw_one", "previous_round", "blanko_word")
MAX_WORDS = 12
START_MODES = ("entered", "drawn", "seated")
COLLECTED = ("turn", "bonus")  # the score sheet's kinds that are points won, not deductions


class Blanko(Game):
    name = "blanko"
    title = "BLANKO"
    min_players = 2
    max_players = 4

    def __init__(self, lexicon: Lexicon) -> None:
        super().__init__()
        self.lexicon = lexicon
        self.commands = {"lay": self.lay, "challenge": self.challenge, "exchange": self.exchange,
                         "pass": self.pass_turn, "bonus": self.bonus, "approve_word": self.approve_word,
                         "finish": self.finish, "rack": self.rack, "start_letter": self.start_letter}
        self.folds = {"StartingLettersDrawn": self._drawn_for_start, "BlankoStarted": self._started,
                      "StartingLetterEntered": self._start_letter,
                      "WordsLaid": self._laid, "ChallengeUpheld": self._upheld,
                      "ChallengeRejected": self._challenge_rejected, "LettersExchanged": self._exchanged,
                      "TurnPassed": self._passed, "BonusRecorded": self._bonus,
                      "WordApproved": self._approved, "TurnReinstated": self._reinstated,
                      "FinalTallyStarted": self._final, "RackCounted": self._rack_counted}

    # -- options -------------------------------------------------------------------------
    def options(self, raw: dict[str, Any]) -> dict[str, Any]:
        allowed = {"check", "judge_mode", "allow_names", "auto_timer", "timer_seconds",
                   "start", "draw_start", "letter_values", "letter_counts"}
        unknown = set(raw) - allowed
        require(not unknown, "table/bad_options", f"unknown options: {', '.join(sorted(unknown))}")
        opts: dict[str, Any] = {"check": raw.get("check", "challenge")}
        require(opts["check"] in ("challenge", "auto"), "table/bad_options",
                "check is 'challenge' (only when challenged) or 'auto' (every turn)")
        for flag, default in (("judge_mode", False), ("allow_names", False), ("auto_timer", False)):
            opts[flag] = raw.get(flag, default)
            require(isinstance(opts[flag], bool), "table/bad_options", f"'{flag}' must be true or false")
        opts["start"] = self._start_option(raw)
        opts["timer_seconds"] = int_field(raw, "timer_seconds", 10, 600, 60)
        for key in ("letter_values", "letter_counts"):
            value = raw.get(key, {})
            require(isinstance(value, dict), "table/bad_options", f"'{key}' maps tiles to numbers")
            opts[key] = value
        letter_set.values(opts["letter_values"])
        letter_set.counts(opts["letter_counts"])
        return opts

    @staticmethod
    def _start_option(raw: dict[str, Any]) -> str:
        """Who begins: each phone enters the letter its player drew (``entered``, the
        rulebook's way with real tiles), the app draws (``drawn``), or the first seat begins
        (``seated``). ``draw_start`` is the older name: true for the app's draw, false for seats."""
        if "draw_start" in raw:
            require(isinstance(raw["draw_start"], bool) and "start" not in raw, "table/bad_options",
                    "'draw_start' is true or false, and is not given with 'start'")
            return "drawn" if raw["draw_start"] else "seated"
        start = raw.get("start", "entered")
        require(start in START_MODES, "table/bad_options", f"start is one of {', '.join(START_MODES)}")
        return str(start)

    def values(self, state: State) -> dict[str, int]:
        return letter_set.values(state["options"]["letter_values"])

    # -- start ---------------------------------------------------------------------------
    def start(self, state: State, seats: list[str], ctx: Context) -> list[Event]:
        counts = letter_set.counts(state["options"]["letter_counts"])
        total = sum(counts.values())
        require(total >= RACK * len(seats) + len(seats), "blanko/bag_too_small",
                f"{total} tiles are not enough for {len(seats)} racks")
        out: list[Event] = []
        first = 0
        # a table created before ``start`` existed kept its options as ``draw_start``
        mode = state["options"].get("start", "drawn" if state["options"].get("draw_start") else "seated")
        if mode == "entered":  # the game waits for the letters; the hourglass for the first turn
            return [event("BlankoStarted", seats=seats, first=first, bag=total - RACK * len(seats),
                          start_letters=True)]
        if mode == "drawn":
            values = self.values(state)
            bag = [t for t, c in counts.items() for _ in range(c)]
            candidates, rounds = list(seats), []
            for _ in range(50):
                drawn = dict(zip(candidates, ctx.rng.sample(bag, len(candidates)), strict=True))
                rounds.append(drawn)
                worth = {p: values.get(t, 0) for p, t in drawn.items()}
                candidates = scores.leaders(worth)
                if len(candidates) == 1:
                    break
            first = seats.index(candidates[0])
            out.append(event("StartingLettersDrawn", rounds=rounds, first=candidates[0]))
        out.append(event("BlankoStarted", seats=seats, first=first, bag=total - RACK * len(seats)))
        if state["options"]["auto_timer"]:
            out.append(hourglass.started(state["options"]["timer_seconds"], ctx.now_ms))
        return out

    def start_letter(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """The letter a player drew to see who begins, entered on their phone (or by the host
        for them). "The player who drew the letter with the highest value begins ... In case
        of a tie, draw again": the tied players draw again, the others are done."""
        require(state["phase"] == "start", "blanko/start_decided", "who begins is already decided",
                "conflict")
        player = self._seat_of(state, cmd, ctx, "enter another player's starting letter")
        draw = state["start_draw"]
        require(player in draw["candidates"], "blanko/start_letter_not_drawing",
                "you are not drawing for the start now: a tie between others is being drawn again",
                "conflict")
        require(player not in draw["rounds"][-1], "blanko/start_letter_entered",
                "your starting letter is in; the others are still drawing", "conflict")
        tiles = parse_rack(field(cmd, "letter", str))
        require(len(tiles) == 1, "blanko/start_letter_one", "enter the one letter you drew")
        tile = str(tiles[0]) or letter_set.JOKER
        # The letters of a round are drawn from the bank at once and go back only after it:
        # a round holds no more of a tile than the set has (one TY, two jokers).
        held = letter_set.counts(state["options"]["letter_counts"])[tile]
        require(list(draw["rounds"][-1].values()).count(tile) < held, "blanko/start_letter_gone",
                f"the set has {held} {tile}, and this round cannot have more: check the letter you drew",
                "conflict", params={"tile": tile, "count": held})
        out = [event("StartingLetterEntered", player=player, tile=tile)]
        round_ = {**draw["rounds"][-1], player: tile}
        if len(self._start_leaders(state, round_, draw["candidates"])) == 1:
            out += self._after_turn(state, ctx)  # the first turn begins now
        return out

    def _start_leaders(self, state: State, round_: dict[str, str], candidates: list[str]) -> list[str]:
        """Who drew the highest letter once every candidate has entered one (none before)."""
        if any(p not in round_ for p in candidates):
            return []
        values = self.values(state)
        return scores.leaders({p: values.get(round_[p], 0) for p in candidates})

    # -- turns ---------------------------------------------------------------------------
    def _my_turn(self, state: State, ctx: Context) -> str:
        self._require_play(state)
        return turns.require_turn(state["turn"], ctx.actor)

    @staticmethod
    def _require_play(state: State) -> None:
        require(state["phase"] != "start", "blanko/start_letters",
                "every player first enters the letter they drew to see who begins", "conflict")
        require(state["phase"] == "play", "blanko/final_tally",
                "the game is in its final tally: enter the letters left on your rack", "conflict")

    def _after_turn(self, state: State, ctx: Context) -> list[Event]:
        if state["options"]["auto_timer"]:
            return [hourglass.started(state["options"]["timer_seconds"], ctx.now_ms)]
        return []

    def _words(self, state: State, raw: Any) -> list[dict[str, Any]]:
        require(isinstance(raw, list) and 0 < len(raw) <= MAX_WORDS
                and all(isinstance(w, str) for w in raw), "blanko/bad_words",
                f"'words' lists the words the turn formed (1 to {MAX_WORDS})")
        values = self.values(state)
        return [laid_word(text, self.lexicon, values) for text in raw]

    def _judge(self, state: State, words: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"word": w["word"], **vars(judge(w["word"], self.lexicon, state["house"],
                                                 state["options"]["allow_names"], w["tiles"]))}
                for w in words]

    def _verdicts(self, state: State, verdicts: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """In judge mode the table learns only whether the whole play stands, not which word
        failed, so per-word verdicts are not even recorded."""
        return None if state["options"]["judge_mode"] else verdicts

    def lay(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = self._my_turn(state, ctx)
        words = self._words(state, cmd.get("words"))
        if not state["first_laid"]:
            require(len(words[0]["tiles"]) >= 2, "blanko/first_word_short",
                    "the first word has at least 2 letters")
        rack = state["racks"][player]
        placed = int_field(cmd, "placed", 1, max(1, rack))
        require(placed <= sum(len(w["tiles"]) for w in words), "blanko/placed_too_many",
                "more tiles placed than the words have letters")
        returned = int_field(cmd, "returned", 0, 1, 0)
        # The rulebook has the first word cover a BLANKO square; a player may still say it did not.
        covered = field(cmd, "covered_blanko", bool, not state["first_laid"])
        valid: bool | None = None
        verdicts = None
        if state["options"]["check"] == "auto":
            checked = self._judge(state, words)
            valid = all(v["valid"] for v in checked)
            verdicts = self._verdicts(state, checked)
        drawn = min(placed, state["bag"] + returned) if valid is not False else 0
        points = sum(w["points"] for w in words) if valid is not False else 0
        return [event("WordsLaid", n=len(state["turns"]), player=player, words=words, placed=placed,
                      returned=returned, drawn=drawn, points=points, valid=valid, verdicts=verdicts,
                      covered_blanko=covered), *self._after_turn(state, ctx)]

    def pending(self, state: State) -> dict[str, Any] | None:
        """The lay that may still be challenged: the last one, until the next word is laid."""
        lays = [t for t in state["turns"] if t["kind"] == "lay"]
        if lays and lays[-1]["status"] == "unchecked":
            return lays[-1]
        return None

    def challenge(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        target = self.pending(state)
        require(target is not None, "blanko/nothing_to_challenge",
                "no laid word can be challenged now (the next word has been laid)", "conflict")
        assert target is not None
        require(ctx.actor != target["player"], "blanko/own_turn", "you cannot challenge your own words")
        checked = self._judge(state, target["words"])
        kind = "ChallengeUpheld" if not all(v["valid"] for v in checked) else "ChallengeRejected"
        return [event(kind, n=target["n"], by=ctx.actor or "host", verdicts=self._verdicts(state, checked))]

    def exchange(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = self._my_turn(state, ctx)
        # "Only if they have already collected at least 20 points": what the player collected,
        # words and BLANKO cards, before any deduction (an earlier exchange's cost included).
        have = scores.totals(state["sheet"], COLLECTED)[player]
        require(have >= EXCHANGE_NEEDS, "blanko/exchange_needs_20",
                f"exchanging needs at least {EXCHANGE_NEEDS} points collected (you have {have})")
        return [event("LettersExchanged", n=len(state["turns"]), player=player, cost=EXCHANGE_COST),
                *self._after_turn(state, ctx)]

    def pass_turn(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        player = self._my_turn(state, ctx)
        return [event("TurnPassed", n=len(state["turns"]), player=player), *self._after_turn(state, ctx)]

    # -- BLANKO cards --------------------------------------------------------------------
    def bonus(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """A BLANKO card drawn for the player's lay that covered a BLANKO square. Its points
        are kept apart and count at the end (the rulebook: "note it down, to be added at the
        end of the game"). A luck card's second lay, and its BLANKO, move tiles like a lay.
        The player enters it in the turn of that lay; once another turn has been played only
        the host (the referee) can, for any lay of the player's that covered a square and has
        no card yet (``n``; by default their last), until the game ends, and the event says so
        (``by: host``, ``late``)."""
        by_host = cmd.get("player") not in (None, ctx.actor)
        player = self._seat_of(state, cmd, ctx, "enter another player's BLANKO card")
        named = int_field(cmd, "n", 0, len(state["turns"]) - 1) if "n" in cmd else None
        turn = self.card_turn(state, player, named)
        require(turn is not None, "blanko/bonus_not_covered",
                "no word of this player that stands covered a BLANKO square, so no BLANKO card is drawn")
        assert turn is not None
        require(turn["bonus"] is None, "blanko/no_bonus", "the BLANKO card of that word is in already")
        late = turn is not state["turns"][-1]
        require(by_host or not late, "blanko/bonus_late",
                "a BLANKO card is drawn in the turn of the word that earned it; another turn has been "
                "played since, so the host can enter it for you")
        kind = choice_field(cmd, "card", ("luck", "puzzle", "letter"))
        detail: dict[str, Any] = {"card": kind}
        if kind in ("puzzle", "letter"):
            detail.update(self._card_count(kind, cmd))
            # "the words laid on the card are counted double or triple": not the +2 for filling it
            points = detail["counted"] * detail["squares"] + (CARD_FILLED if detail["filled"] else 0)
            del detail["counted"]
        else:
            luck = choice_field(cmd, "instruction", LUCK_CARDS)
            detail["instruction"] = luck
            if luck in ("lay_again", "draw_one"):
                words = self._words(state, cmd.get("words")) if cmd.get("words") else []
                checked = self._judge(state, words)
                ok = all(v["valid"] for v in checked)
                points = sum(w["points"] for w in words) if ok else 0
                detail.update(words=words, verdicts=self._verdicts(state, checked), valid=ok,
                              **self._second_lay(state, turn, luck, words, cmd, ok, late))
            elif luck == "previous_round":
                points = previous_turn_points(state["turns"], player, turn["n"])
            elif luck == "blanko_word":
                detail["succeeded"] = field(cmd, "succeeded", bool)
                points = BLANKO_WORD_POINTS if detail["succeeded"] else 0
                if detail["succeeded"]:
                    detail.update(valid=True, **self._blanko_tiles(state, turn, late))
            else:
                points = 0
        if by_host:
            detail["by"] = "host"
        if late:
            detail["late"] = True
        return [event("BonusRecorded", n=turn["n"], player=player, points=points, **detail)]

    @staticmethod
    def covering_lays(state: State, player: str) -> list[dict[str, Any]]:
        """The player's lays that stand and covered a BLANKO square, oldest first: each earned
        a BLANKO card (entered already when its ``bonus`` is set)."""
        return [t for t in state["turns"] if t["kind"] == "lay" and t["player"] == player
                and t["covered_blanko"] and t["status"] != "rejected"]

    @classmethod
    def card_turn(cls, state: State, player: str, n: int | None = None) -> dict[str, Any] | None:
        """The turn a BLANKO card of ``player``'s belongs to: turn ``n`` when named, else
        their latest covering lay (a card sent twice is refused, never taken for an older
        one). None where that is no covering lay of theirs."""
        lays = cls.covering_lays(state, player)
        if n is not None:
            return next((t for t in lays if t["n"] == n), None)
        return lays[-1] if lays else None

    @staticmethod
    def _card_count(kind: str, cmd: dict[str, Any]) -> dict[str, Any]:
        """A puzzle or letter card's count, within what the card can hold. A letter card has
        eight empty squares and a printed letter, which counts only beside a laid letter; a
        puzzle card has the blue squares the player reads off it. Filled means every square
        holds a counted letter."""
        squares = int_field(cmd, "squares", 1, 3, 1)
        filled = field(cmd, "filled", bool, False)
        if kind == "puzzle":
            blue = int_field(cmd, "blue_squares", 1, MAX_PUZZLE_SQUARES)
            letters = int_field(cmd, "letters", 0, MAX_PUZZLE_SQUARES)
            require(letters <= blue, "blanko/letters_over_squares",
                    f"the card has {blue} blue squares: at most {blue} letters count", params={"blue": blue})
            require(not filled or letters == blue, "blanko/not_filled",
                    f"a filled card has a counted letter on each of its {blue} blue squares",
                    params={"squares": blue})
            return {"blue_squares": blue, "letters": letters, "filled": filled, "squares": squares,
                    "counted": letters}
        letters = int_field(cmd, "letters", 0, LETTER_CARD_SQUARES)
        printed = field(cmd, "bonus_letter_used", bool, False)
        require(not printed or letters > 0, "blanko/bonus_letter_alone",
                "the printed letter counts as part of a word laid on the card")
        require(not filled or (letters == LETTER_CARD_SQUARES and printed), "blanko/not_filled",
                f"a filled card has a counted letter on each of its {LETTER_CARD_SQUARES} empty squares "
                "and uses its printed letter", params={"squares": LETTER_CARD_SQUARES})
        return {"letters": letters, "bonus_letter_used": printed, "filled": filled, "squares": squares,
                "counted": letters + printed}

    @staticmethod
    def _before_refill(state: State, turn: dict[str, Any], late: bool) -> tuple[int | None, int]:
        """What the bank and the player's rack held between the lay and its refill, when the
        card was drawn. For the turn that just ended the app knows; for a card the host enters
        late, turns have moved tiles since, so the table is taken at its word: the bank then is
        unknown (None: not checked) and the rack held at most a full rack less the lay's tiles.
        Either way the card's tiles leave the bank as it is now."""
        if late:
            return None, RACK - turn["placed"]
        return state["bag"] + turn["drawn"], state["racks"][turn["player"]] - turn["drawn"]

    @classmethod
    def _blanko_tiles(cls, state: State, turn: dict[str, Any], late: bool) -> dict[str, int]:
        """The six tiles of "lay out the word BLANKO", in the terms of a second lay's
        ``placed`` and ``drawn``. They come from the ten letters drawn from the bank before the
        rack is refilled, so a bank the refill has left short of six gives the rack less."""
        bank, _ = cls._before_refill(state, turn, late)
        require(bank is None or bank >= len(BLANKO), "blanko/bank_short",
                f"the bank had fewer than {len(BLANKO)} letters: no BLANKO could be laid")
        short = max(0, len(BLANKO) - state["bag"])  # what the refill took that BLANKO needed
        return {"placed": len(BLANKO), "drawn": len(BLANKO) - short}

    def _second_lay(self, state: State, turn: dict[str, Any], luck: str, words: list[dict[str, Any]],
                    cmd: dict[str, Any], ok: bool, late: bool) -> dict[str, int]:
        """The tiles of a luck card's second lay. It happens before the rack is refilled, so it
        lays from what the first lay left on the rack (plus the one letter "draw one" takes from
        the bank); afterwards the rack is filled to 8 for both lays. A failed draw puts its
        letter back, and words that do not stand go back to the rack, as a refused lay does."""
        if not words:
            return {"placed": 0, "drawn": 0}
        extra = 1 if luck == "draw_one" else 0
        bank, left = self._before_refill(state, turn, late)
        require(not extra or bank is None or bank > 0, "blanko/bag_empty",
                "the bank is empty: no letter to draw")
        left += extra
        placed = int_field(cmd, "placed", 1, max(1, left))
        require(placed <= sum(len(w["tiles"]) for w in words), "blanko/placed_too_many",
                "more tiles placed than the words have letters")
        return {"placed": placed, "drawn": min(placed, state["bag"]) if ok else 0}

    # -- house words, end ----------------------------------------------------------------
    def approve_word(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """House rules: the host accepts a word the dictionary lacks; it counts as ``house``
        from then on, and a turn rejected only for such words is reinstated. The word is read
        as a laid word is (MÉZSÁRGA as méz + sárga, a ``.`` where the host types one), and the
        event carries that reading, so the table sees which tiles it is accepted with."""
        ctx.require_host("approve a house word")
        tiles = read(field(cmd, "word", str), self.lexicon).tiles
        word = word_of(tiles).lower()
        require(word not in state["house"], "blanko/already_house", f"{word} is already a house word")
        out = [event("WordApproved", word=word, tiles=[t.letter for t in tiles])]
        house = [*state["house"], word]
        for t in state.get("turns", []):
            if t["kind"] == "lay" and t["status"] == "rejected":
                if all(judge(w["word"], self.lexicon, house, state["options"]["allow_names"],
                             w["tiles"]).valid for w in t["words"]):
                    out.append(event("TurnReinstated", n=t["n"]))
        return out

    def finish(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        ctx.require_host("start the final tally")
        self._require_play(state)
        return [event("FinalTallyStarted", reason="host")]

    def rack(self, state: State, cmd: dict[str, Any], ctx: Context) -> list[Event]:
        """A player enters every letter left on their rack, as many as the app counted there;
        the referee (host) may count any player's rack, for a count the app has wrong."""
        by_referee = cmd.get("player") not in (None, ctx.actor)
        player = self._seat_of(state, cmd, ctx, "count another player's rack")
        require(state["phase"] == "final", "blanko/not_final",
                "racks are counted once the game ends", "conflict")
        require(player not in state["counted"], "blanko/rack_counted", "your rack is already counted")
        tiles = parse_rack(field(cmd, "letters", str, ""))
        held = state["racks"][player]
        require(by_referee or len(tiles) == held, "blanko/rack_count",
                f"your rack holds {held} letters; enter every one of them ({len(tiles)} entered)",
                params={"held": held, "entered": len(tiles)})
        require(len(tiles) <= RACK, "blanko/rack_too_big", f"a rack holds at most {RACK} letters")
        deduction = rack_deduction(tiles, self.values(state), letter_set.JOKER_PENALTY)
        return [event("RackCounted", player=player, tiles=[str(t) or "?" for t in tiles],
                      deduction=deduction)]

    @staticmethod
    def _seat_of(state: State, cmd: dict[str, Any], ctx: Context, doing: str) -> str:
        """The player a command is for: the sender, or whoever the host (the referee) names."""
        if cmd.get("player") not in (None, ctx.actor):
            ctx.require_host(doing)
            player = field(cmd, "player", str)
        else:
            player = ctx.require_player()
        require(player in state["racks"], "blanko/not_seated", "you are not playing this game")
        return player

    # -- folds ---------------------------------------------------------------------------
    def _drawn_for_start(self, state: State, e: Event) -> None:
        state["start_draw"] = {"rounds": e["rounds"], "first": e["first"]}

    def _started(self, state: State, e: Event) -> None:
        state.update(started=True, turn=turns.new_turn(e["seats"], e["first"]),
                     sheet=scores.new_sheet(e["seats"]), bag=e["bag"],
                     racks={p: RACK for p in e["seats"]}, turns=[], passes=0, phase="play",
                     counted={}, house=state.get("house", []), first_laid=False,
                     start_draw=state.get("start_draw"), final_reason=None)
        if e.get("start_letters"):
            state.update(phase="start", start_draw={"rounds": [{}], "first": None,
                                                    "candidates": list(e["seats"])})

    def _start_letter(self, state: State, e: Event) -> None:
        state["start_draw"]["rounds"][-1][e["player"]] = e["tile"]
        self._settle_start(state)

    def _settle_start(self, state: State) -> None:
        """Once every candidate's letter is in: the one highest begins; a tie draws again."""
        draw = state["start_draw"]
        leaders = self._start_leaders(state, draw["rounds"][-1], draw["candidates"])
        if len(leaders) == 1:
            draw["first"] = leaders[0]
            state["turn"]["index"] = state["turn"]["order"].index(leaders[0])
            state["phase"] = "play"
        elif leaders:
            draw["candidates"] = leaders
            draw["rounds"].append({})

    def _turn(self, state: State, e: Event, kind: str, **extra: Any) -> dict[str, Any]:
        t = {"n": e["n"], "player": e["player"], "kind": kind, "points": 0, "status": "valid",
             "bonus": None, **extra}
        state["turns"].append(t)
        turns.advance(state["turn"])
        return t

    def _laid(self, state: State, e: Event) -> None:
        status = {None: "unchecked", True: "valid", False: "rejected"}[e["valid"]]
        t = self._turn(state, e, "lay", words=e["words"], placed=e["placed"], returned=e["returned"],
                       drawn=e["drawn"], verdicts=e["verdicts"], covered_blanko=e["covered_blanko"])
        t.update(status=status, points=e["points"])
        state["passes"] = 0
        if status != "rejected":
            self._take_tiles(state, t, +1)
        scores.add(state["sheet"], e["player"], e["points"], "turn", e["n"])
        self._check_end(state)

    def _bonus_tiles(self, state: State, t: dict[str, Any], sign: int) -> None:
        """The bank and the rack after a luck card's second lay or its BLANKO (logs from
        before they moved tiles have no ``drawn``, and move none)."""
        b = t["bonus"]
        if b and b.get("valid") and b.get("drawn") is not None:
            state["bag"] -= sign * b["drawn"]
            state["racks"][t["player"]] += sign * (b["drawn"] - b["placed"])

    def _take_tiles(self, state: State, t: dict[str, Any], sign: int) -> None:
        """The bank and the rack after a lay (sign +1), or after taking it back (-1)."""
        state["bag"] += sign * (t["returned"] - t["drawn"])
        state["racks"][t["player"]] += sign * (t["drawn"] - t["placed"])
        state["first_laid"] = any(x["kind"] == "lay" and x["status"] != "rejected" for x in state["turns"])

    def _check_end(self, state: State) -> None:
        if state["phase"] != "play":
            return
        if state["bag"] == 0 and any(r == 0 for r in state["racks"].values()):
            state.update(phase="final", final_reason="out")
        elif state["passes"] >= len(state["turn"]["order"]):
            state.update(phase="final", final_reason="passes")

    def _upheld(self, state: State, e: Event) -> None:
        t = state["turns"][e["n"]]
        t.update(status="rejected", challenged_by=e["by"], verdicts=e["verdicts"])
        self._take_tiles(state, t, -1)
        self._bonus_tiles(state, t, -1)
        scores.void(state["sheet"], "turn", e["n"])
        scores.void(state["sheet"], "bonus", e["n"])
        if state["phase"] == "final" and state["final_reason"] == "out" and not state["counted"]:
            state.update(phase="play", final_reason=None)

    def _challenge_rejected(self, state: State, e: Event) -> None:
        state["turns"][e["n"]].update(status="valid", challenged_by=e["by"], verdicts=e["verdicts"])

    def _reinstated(self, state: State, e: Event) -> None:
        t = state["turns"][e["n"]]
        if t["drawn"] == 0 and t.get("challenged_by") is None:
            t["drawn"] = min(t["placed"], state["bag"] + t["returned"])  # auto-checked: no draw yet
        t["status"] = "valid"
        self._take_tiles(state, t, +1)
        self._bonus_tiles(state, t, +1)
        t["points"] = sum(w["points"] for w in t["words"])
        scores.set_points(state["sheet"], "turn", e["n"], t["points"])
        scores.restore(state["sheet"], "bonus", e["n"])
        self._check_end(state)

    def _exchanged(self, state: State, e: Event) -> None:
        t = self._turn(state, e, "exchange")
        t["points"] = -e["cost"]
        state["passes"] = 0
        scores.add(state["sheet"], e["player"], -e["cost"], "exchange", e["n"])

    def _passed(self, state: State, e: Event) -> None:
        self._turn(state, e, "pass")
        state["passes"] += 1
        self._check_end(state)

    def _bonus(self, state: State, e: Event) -> None:
        detail = {k: v for k, v in e.items() if k not in ("type", "n", "player")}
        t = state["turns"][e["n"]]
        t["bonus"] = detail
        self._bonus_tiles(state, t, +1)
        scores.add(state["sheet"], e["player"], e["points"], "bonus", e["n"])
        self._check_end(state)

    def _approved(self, state: State, e: Event) -> None:
        state["house"].append(e["word"])

    def _final(self, state: State, e: Event) -> None:
        state.update(phase="final", final_reason=e["reason"])

    def _rack_counted(self, state: State, e: Event) -> None:
        state["counted"][e["player"]] = {"tiles": e["tiles"], "deduction": e["deduction"]}
        scores.add(state["sheet"], e["player"], -e["deduction"], "rack")
        if set(state["counted"]) == set(state["racks"]):
            state.update(phase="over", over=True)

    def player_removed(self, state: State, player: str) -> None:
        super().player_removed(state, player)
        if player in state.get("racks", {}):
            del state["racks"][player]  # no rack to wait for in the final tally
            if state["phase"] == "start":  # nor a starting letter
                draw = state["start_draw"]
                draw["candidates"] = [p for p in draw["candidates"] if p != player]
                draw["rounds"][-1].pop(player, None)
                self._settle_start(state)
            if state["phase"] == "final" and set(state["counted"]) >= set(state["racks"]):
                state.update(phase="over", over=True)

    def pre_start_commands(self) -> frozenset[str]:
        return frozenset({"approve_word"})

    # -- views ---------------------------------------------------------------------------
    def score_table(self, state: State) -> dict[str, dict[str, int]]:
        sheet = state["sheet"]
        parts = {k: scores.totals(sheet, (k,)) for k in ("turn", "exchange", "bonus", "rack")}
        total = scores.totals(sheet)
        return {p: {"words": parts["turn"][p], "exchanges": parts["exchange"][p],
                    "bonus": parts["bonus"][p], "rack": parts["rack"][p], "total": total[p]}
                for p in sheet["players"]}

    def cards_open(self, state: State) -> dict[str, list[int]]:
        """Per player, the turns whose BLANKO card is still to be entered, oldest first: what
        the host's screen offers to enter late (the player's own phone asks in the turn
        itself). A card forgotten on an earlier lay stays open after a later one is entered."""
        out = {}
        for p in state["turn"]["order"]:
            open_ = [t["n"] for t in self.covering_lays(state, p) if t["bonus"] is None]
            if open_:
                out[p] = open_
        return out

    def decided(self, state: State) -> bool:
        return state.get("phase") == "final" or super().decided(state)

    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        if not state["started"]:
            return {"started": False, "options": state["options"], "house": state.get("house", [])}
        pending = self.pending(state)
        return {"started": True, "options": state["options"], "phase": state["phase"],
                "final_reason": state["final_reason"], "current": turns.current(state["turn"]),
                "order": state["turn"]["order"], "bag": state["bag"], "racks": state["racks"],
                "turns": state["turns"], "scores": self.score_table(state),
                "pending": pending["n"] if pending else None, "house": state["house"],
                "start_draw": state["start_draw"], "counted": state["counted"],
                "first_laid": state["first_laid"], "values": self.values(state),
                "cards_open": self.cards_open(state),
                "joker_penalty": letter_set.JOKER_PENALTY,  # what a joker left on a rack costs
                "over": state["over"], "winners": scores.leaders(scores.totals(state["sheet"]))
                if state["over"] else []}

    def first_player(self, state: State) -> str | None:
        return (state.get("start_draw") or {}).get("first")

    def result(self, state: State) -> dict[str, Any]:
        if not state.get("started"):
            return {"scores": {}, "winners": [], "outcome": "not_started"}
        totals = scores.totals(state["sheet"])
        best = scores.leaders(totals)
        return {"scores": totals, "winners": best,
                "outcome": "final" if state["over"] else "unfinished", "top_score": max(totals.values())}

    def initial(self, options: dict[str, Any]) -> State:
        return {**super().initial(options), "house": []}
