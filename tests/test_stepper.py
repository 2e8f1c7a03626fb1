"""Play's pace, on an injected clock: each position is timed from its start, and a run slower than the speed skips
positions instead of queueing ticks (issue 51: "Fast", 0.75 s a position, took ~3 s a position on a busy 2-core
machine, where each page run took about that long)."""

from __future__ import annotations

import pytest

from app_pages.components import stepper
from app_pages.components.stepper import SOONEST_TICK_S, SPEEDS, frames_due, next_tick_s, tick


@pytest.mark.parametrize(("elapsed", "due"), [(0.0, 0), (0.3, 0), (0.7, 1), (0.8, 1), (1.4, 2), (3.1, 4), (-0.2, 0)])
def test_frames_due_counts_the_intervals_passed(elapsed, due):
    assert frames_due(elapsed, SPEEDS["fast"]) == due


def test_each_position_is_timed_from_its_start():
    state = {"p.speed": "fast", "p.started": 10.0}
    assert tick(state, "p", 10.8) == 1 and state["p.started"] == pytest.approx(10.75)  # due, not when it ran
    assert tick(state, "p", 10.9) == 0 and state["p.started"] == pytest.approx(10.75)  # too soon: nothing moves
    assert tick(state, "p", 13.9) == 4 and state["p.started"] == pytest.approx(13.75)  # a slow run: 3 skipped
    fresh = {"p.speed": "slow"}  # no start kept (a lost session value): timed from this tick
    assert tick(fresh, "p", 5.0) == 0 and fresh["p.started"] == 5.0


def test_the_timer_waits_only_what_is_left_of_the_interval():
    state = {"p.speed": "fast", "p.started": 10.0}
    assert next_tick_s(state, "p", 10.2) == pytest.approx(0.55)  # a 0.2-s run: the rest of the 0.75 s
    assert next_tick_s(state, "p", 13.0) == SOONEST_TICK_S  # a run longer than the speed: at once


def simulated_positions(run_s: float, speed: str, seconds: float) -> int:
    """Where playback stands `seconds` after Play when each page run takes run_s, as the browser times it: a page
    run clears the timer and draws it again at its end with next_tick_s; a tick with a position due reruns the page,
    the others cost nothing and the timer ticks again after the same time."""
    state = {"p.speed": speed, "p.started": 0.0}
    position, now = 0, run_s  # Play's own run
    every = next_tick_s(state, "p", now)
    while (now := now + every) <= seconds:
        due = tick(state, "p", now)
        if due:
            position, now = position + due, now + run_s
            every = next_tick_s(state, "p", now)
    return position


@pytest.mark.parametrize("run_s", [0.1, 3.0])
def test_a_slow_machine_keeps_the_pace(run_s):
    """30 s of "Fast" reach position 40, less at most the run still drawing (a timer of 0.75 s started at each run's
    end, one position a tick: 8 with 3-s runs)."""
    on_time, position = 30.0 / SPEEDS["fast"], simulated_positions(run_s, "fast", 30.0)
    assert on_time - run_s / SPEEDS["fast"] - 1 <= position <= on_time


def test_the_player_reads_its_clock(monkeypatch):
    """Play and a speed change time the shown position from the clock's now (the clock a test injects)."""
    state: dict = {}
    monkeypatch.setattr(stepper.st, "session_state", state)
    monkeypatch.setattr(stepper, "clock", lambda: 42.0)
    stepper._play("p", "p.position", 1, 9)
    assert state["p.playing"] and state["p.started"] == 42.0
    monkeypatch.setattr(stepper, "clock", lambda: 50.0)
    stepper._keep_playing("p")
    assert state["p.started"] == 50.0
