"""The shared sand-timer, modelled as a real hourglass.

Stored: the glass's size and either the moment its top runs empty (``ends_at_ms``, while
running) or how much sand is left on top (``left_ms``, while stopped). The remaining time is
always computed from that and ``now_ms``, never stored, so every phone and the server agree on
it from one deadline. Turning the glass over (``flip``) swaps top and bottom: what had run down
is what now remains. Events carry the computed deadline, so replays never consult a clock.

Once a game is decided (it ended, or its final tally began) the glass is ``stop``ped for good:
the sand stays where it was, nothing counts down on any phone, and no command turns it again
(a rematch brings a new glass).
"""

from __future__ import annotations

from typing import Any

from .commands import int_field
from .context import Context
from .errors import RuleViolation
from .events import Event, event

DEFAULT_SECONDS = 60
MAX_SECONDS = 3600
Glass = dict[str, Any]


def new_glass(duration_ms: int = DEFAULT_SECONDS * 1000) -> Glass:
    return {"duration_ms": duration_ms, "running": False, "ends_at_ms": None, "left_ms": duration_ms,
            "started": False, "stopped": False}


def remaining_ms(glass: Glass, now_ms: int) -> int:
    if glass["running"]:
        return max(0, min(glass["duration_ms"], glass["ends_at_ms"] - now_ms))
    return glass["left_ms"]


def phase(glass: Glass, now_ms: int) -> str:
    """``ready`` (never started since reset), ``running``, ``paused``, ``done`` (sand out) or
    ``stopped`` (put away: the game is decided)."""
    if glass["stopped"]:
        return "stopped"
    left = remaining_ms(glass, now_ms)
    if left == 0 and glass["started"]:
        return "done"
    if glass["running"]:
        return "running"
    return "paused" if glass["started"] else "ready"


def view(glass: Glass, now_ms: int) -> dict[str, Any]:
    left = remaining_ms(glass, now_ms)
    return {
        "running": glass["running"] and left > 0,
        "duration_ms": glass["duration_ms"],
        "remaining_ms": left,
        "ends_at_ms": glass["ends_at_ms"] if glass["running"] else None,
        "phase": phase(glass, now_ms),
    }


def started(seconds: int, now_ms: int) -> Event:
    """The event of a glass set going for ``seconds`` (also used by games that run it per turn)."""
    return event("TimerStarted", duration_ms=seconds * 1000, ends_at_ms=now_ms + seconds * 1000)


def stop(glass: Glass, now_ms: int) -> list[Event]:
    """The event that puts the glass away with its sand where it is now (none if it is away)."""
    if glass["stopped"]:
        return []
    return [event("TimerStopped", left_ms=remaining_ms(glass, now_ms))]


def turn_passed(glass: Glass, now_ms: int) -> list[Event]:
    """The event that sets a glass whose sand ran out back (ready, its size kept) once the
    turn passes: "time is up" was the turn's that ran out, not the next player's."""
    return [event("TimerReset")] if phase(glass, now_ms) == "done" else []


def decide(glass: Glass, command: dict[str, Any], ctx: Context) -> list[Event]:
    if glass["stopped"]:
        raise RuleViolation("timer/stopped", "the game is decided: the hourglass is put away",
                            "conflict")
    verb = command["type"].removeprefix("timer.")
    now = ctx.now_ms
    left = remaining_ms(glass, now)
    current = phase(glass, now)
    if verb == "start":
        seconds = int_field(command, "seconds", 1, MAX_SECONDS, glass["duration_ms"] // 1000)
        return [started(seconds, now)]
    if verb == "flip":
        # A glass that was never started, or whose sand has all run out, has all its sand at
        # the bottom: turning it over starts a full run.
        new_left = glass["duration_ms"] if current in ("ready", "done") else glass["duration_ms"] - left
        if current == "paused":
            return [event("TimerFlipped", running=False, left_ms=new_left, ends_at_ms=None)]
        return [event("TimerFlipped", running=True, left_ms=new_left, ends_at_ms=now + new_left)]
    if verb == "pause":
        if current != "running":
            raise RuleViolation("timer/not_running", "the hourglass is not running", "conflict")
        return [event("TimerPaused", left_ms=left)]
    if verb == "resume":
        if current != "paused":
            raise RuleViolation("timer/not_paused", "the hourglass is not paused", "conflict")
        return [event("TimerResumed", ends_at_ms=now + left)]
    if verb == "reset":
        return [event("TimerReset")]
    raise RuleViolation("table/unknown_command", f"the hourglass has no command '{command['type']}'")


def evolve(glass: Glass, e: Event) -> None:
    t = e["type"]
    if t == "TimerStarted":
        glass.update(duration_ms=e["duration_ms"], running=True, ends_at_ms=e["ends_at_ms"],
                     left_ms=e["duration_ms"], started=True)
    elif t == "TimerFlipped":
        glass.update(running=e["running"], ends_at_ms=e["ends_at_ms"], left_ms=e["left_ms"],
                     started=True)
    elif t == "TimerPaused":
        glass.update(running=False, ends_at_ms=None, left_ms=e["left_ms"])
    elif t == "TimerResumed":
        glass.update(running=True, ends_at_ms=e["ends_at_ms"])
    elif t == "TimerReset":
        glass.update(new_glass(glass["duration_ms"]))
    elif t == "TimerStopped":
        glass.update(running=False, ends_at_ms=None, left_ms=e["left_ms"], stopped=True)


EVENT_TYPES = frozenset({"TimerStarted", "TimerFlipped", "TimerPaused", "TimerResumed", "TimerReset",
                         "TimerStopped"})
