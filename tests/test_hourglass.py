"""The hourglass's arithmetic: a real glass turned over, paused and resumed (property tests)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.core import hourglass
from companion.games.core.context import Context
from companion.games.core.errors import RuleViolation

T0 = 1_700_000_000_000


def run(glass, kind, now, **fields):
    for e in hourglass.decide(glass, {"type": f"timer.{kind}", **fields}, Context(None, True, now)):
        hourglass.evolve(glass, e)


def test_default_is_sixty_seconds():
    glass = hourglass.new_glass()
    run(glass, "start", T0)
    assert hourglass.view(glass, T0 + 1) == {"running": True, "duration_ms": 60_000,
                                             "remaining_ms": 59_999, "ends_at_ms": T0 + 60_000,
                                             "phase": "running"}


def test_flip_is_a_real_hourglass():
    glass = hourglass.new_glass()
    run(glass, "start", T0, seconds=60)
    run(glass, "flip", T0 + 20_000)  # 20 s of sand had run down: that is what now remains
    assert hourglass.remaining_ms(glass, T0 + 20_000) == 20_000
    assert hourglass.phase(glass, T0 + 40_000) == "done"
    run(glass, "flip", T0 + 45_000)  # all the sand is at the bottom: a full run
    assert hourglass.remaining_ms(glass, T0 + 45_000) == 60_000


def test_flip_while_paused_stays_paused():
    glass = hourglass.new_glass()
    run(glass, "start", T0)
    run(glass, "pause", T0 + 15_000)
    run(glass, "flip", T0 + 30_000)
    assert hourglass.view(glass, T0 + 99_000)["remaining_ms"] == 15_000
    assert hourglass.phase(glass, T0 + 99_000) == "paused"


actions = st.lists(st.tuples(st.sampled_from(["start", "flip", "pause", "resume", "reset"]),
                             st.integers(0, 90_000)), max_size=30)


@given(actions, st.integers(1, 600))
def test_remaining_stays_within_the_glass(steps, seconds):
    glass, now = hourglass.new_glass(seconds * 1000), T0
    for kind, dt in steps:
        now += dt
        try:
            run(glass, kind, now)
        except RuleViolation as e:  # refused commands (pause when not running) change nothing
            assert e.kind == "conflict"
        left = hourglass.remaining_ms(glass, now)
        assert 0 <= left <= glass["duration_ms"]


@given(st.integers(1, 600), st.integers(0, 600_000))
def test_two_flips_give_back_the_same_sand(seconds, elapsed):
    glass = hourglass.new_glass(seconds * 1000)
    run(glass, "start", T0)
    now = T0 + min(elapsed, seconds * 1000 - 1)
    before = hourglass.remaining_ms(glass, now)
    run(glass, "flip", now)
    run(glass, "flip", now)
    assert hourglass.remaining_ms(glass, now) == before


@given(st.integers(1, 600), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
def test_pause_stops_the_sand_and_resume_continues(seconds, run_for, paused_for, later):
    glass = hourglass.new_glass(seconds * 1000)
    run(glass, "start", T0)
    pause_at = T0 + run_for % (seconds * 1000)
    run(glass, "pause", pause_at)
    left = hourglass.remaining_ms(glass, pause_at)
    assert hourglass.remaining_ms(glass, pause_at + paused_for) == left
    run(glass, "resume", pause_at + paused_for)
    resumed = pause_at + paused_for
    assert hourglass.remaining_ms(glass, resumed + later) == max(0, left - later)


@given(st.integers(1, 600), st.integers(0, 10**6))
def test_remaining_is_computed_from_the_deadline(seconds, dt):
    glass = hourglass.new_glass()
    run(glass, "start", T0, seconds=seconds)
    v = hourglass.view(glass, T0 + dt)
    assert v["remaining_ms"] == max(0, seconds * 1000 - dt)
    assert v["ends_at_ms"] == T0 + seconds * 1000
    assert v["running"] == (dt < seconds * 1000)


def test_a_stopped_glass_keeps_its_sand_and_takes_no_more_commands():
    glass = hourglass.new_glass()
    run(glass, "start", T0, seconds=60)
    for e in hourglass.stop(glass, T0 + 20_000):
        hourglass.evolve(glass, e)
    # An hour later nothing has run: no deadline for a phone to count down to, no "time is up".
    assert hourglass.view(glass, T0 + 3_600_000) == {"running": False, "duration_ms": 60_000,
                                                     "remaining_ms": 40_000, "ends_at_ms": None,
                                                     "phase": "stopped"}
    assert hourglass.stop(glass, T0 + 30_000) == []
    for kind in ("start", "flip", "pause", "resume", "reset"):
        with pytest.raises(RuleViolation) as e:
            run(glass, kind, T0 + 30_000)
        assert (e.value.code, e.value.kind) == ("timer/stopped", "conflict")


@pytest.mark.parametrize("before", [[], ["start"], ["start", "pause"]])
def test_any_glass_can_be_stopped(before):
    glass = hourglass.new_glass()
    for kind in before:
        run(glass, kind, T0)
    for e in hourglass.stop(glass, T0 + 5_000):
        hourglass.evolve(glass, e)
    assert hourglass.phase(glass, T0 + 99_000) == "stopped"
