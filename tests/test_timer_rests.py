"""The hourglass rests once a game is decided: at its end (by the rules or by the host) and
through BLANKO's final tally. Decided in the table's pure rules, so every phone agrees."""

import random

import pytest

from companion.games.blanko.rules import Blanko
from companion.games.blanko.words import WordSet
from companion.games.core import hourglass
from companion.games.core.context import Context
from companion.games.core.errors import RuleViolation
from companion.games.rankfile.rules import RankAndFile
from companion.table.rules import TableRules, created

T0 = 1_700_000_000_000
RULES = TableRules({"blanko": Blanko(WordSet(["alma"])), "rankfile": RankAndFile()})


class Table:
    def __init__(self, game: str, options: dict) -> None:
        self.state = {}
        RULES.evolve(self.state, created("ABCD", game, RULES.games[game].options(options), T0))

    def send(self, actor: str | None, cmd: dict, now: int = T0) -> list[dict]:
        ctx = Context(actor, actor is None, now, random.Random(3))
        if cmd["type"].startswith("table.join"):
            events = [RULES.join(self.state, cmd["id"], cmd["id"], now)]
            RULES.evolve(self.state, events[0])
            return events
        events, after = RULES.decide(self.state, [], cmd, ctx)
        self.state = after
        return events

    def timer(self, now: int) -> dict:
        return hourglass.view(self.state["timer"], now)


def seated(game: str, options: dict) -> Table:
    t = Table(game, options)
    for pid in ("anna", "bela"):
        t.send(None, {"type": "table.join", "id": pid})
    t.send(None, {"type": "table.start_game"})
    return t


def test_the_host_ending_the_game_stops_the_sand():
    t = seated("rankfile", {})
    t.send("anna", {"type": "timer.start", "seconds": 30}, T0)
    events = t.send(None, {"type": "table.end_game"}, T0 + 10_000)
    assert [e["type"] for e in events] == ["GameEnded", "TimerStopped"]
    assert t.timer(T0 + 60_000) == {"running": False, "duration_ms": 30_000, "remaining_ms": 20_000,
                                    "ends_at_ms": None, "phase": "stopped"}
    with pytest.raises(RuleViolation) as e:
        t.send("bela", {"type": "timer.flip"}, T0 + 61_000)
    assert e.value.code == "timer/stopped"


def test_blankos_final_tally_stops_the_sand_for_everyone():
    t = seated("blanko", {"draw_start": False, "auto_timer": True, "timer_seconds": 30})
    assert t.timer(T0 + 1)["phase"] == "running"
    events = t.send(None, {"type": "blanko.finish"}, T0 + 5_000)
    assert [e["type"] for e in events] == ["FinalTallyStarted", "TimerStopped"]
    assert t.timer(T0 + 99_000)["phase"] == "stopped"
    # Counting the racks ends the game; the glass, already at rest, is not stopped twice.
    t.send("anna", {"type": "blanko.rack", "letters": "AAAAAAAA"}, T0 + 6_000)
    events = t.send("bela", {"type": "blanko.rack", "letters": "BBBBBBBB"}, T0 + 7_000)
    assert [e["type"] for e in events][-1] == "GameEnded"
    assert t.state["status"] == "ended" and t.timer(T0 + 99_000)["phase"] == "stopped"


def test_time_up_belongs_to_the_turn_that_ran_out():
    """Once the turn passes, nobody's time is up: the glass that ran out is set back, ready for
    the next player (with the command that passed the turn, so an undo brings it back)."""
    t = seated("blanko", {"draw_start": False})
    t.send("anna", {"type": "timer.start", "seconds": 30}, T0)
    assert t.timer(T0 + 31_000)["phase"] == "done"
    events = t.send("anna", {"type": "blanko.lay", "words": ["ALMA"], "placed": 4}, T0 + 35_000)
    assert [e["type"] for e in events][-1] == "TimerReset"
    assert t.timer(T0 + 36_000)["phase"] == "ready"


def test_a_glass_still_running_or_a_turn_still_on_is_left_alone():
    t = seated("blanko", {"draw_start": False})
    t.send("anna", {"type": "timer.start", "seconds": 30}, T0)
    events = t.send("anna", {"type": "blanko.lay", "words": ["ALMA"], "placed": 4}, T0 + 10_000)
    assert "TimerReset" not in [e["type"] for e in events]
    assert t.timer(T0 + 11_000)["phase"] == "running"  # the table turns its glass itself
    assert t.timer(T0 + 31_000)["phase"] == "done"  # Béla's turn's time is up, until it passes
