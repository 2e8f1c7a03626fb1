"""Previous / Play / Next, a slider and a speed over numbered positions: decoding steps, training snapshots.

The position is the slider's own session-state key (the caller's: links read it, and it persists across pages).
Autoplay is a timed fragment that only leaves a mark and reruns the page; the page's next run moves the slider
before drawing it: Streamlit refuses a write to a widget's key once that widget is drawn, so a fragment that moved
the slider itself would put an error box over the whole playback. ← and → press Previous and Next
(page_scripts.ARROW_KEYS).

Playing stops at the last position, on Pause, on Previous / Next / the slider, and on any other control of the
page: every rerun while playing must be the timer's own (it leaves a mark) or a speed change; any other means
the user touched something.

Each position is timed from its start (`started`, on the player's `clock`), not from the end of the run that drew
it. The browser starts the timer only when a page run has drawn it, so a timer of the speed's interval would make
every position last a run longer ("Fast", 0.75 s, about 3 s on a busy 2-core machine): the timer is set to what is left
of the interval (next_tick_s), and a tick moves as many positions as intervals have passed since the start
(tick), so a machine slower than the speed skips positions and keeps the pace; a tick that comes too soon moves
none, and is not queued as another page run.

A page draws the part its stepper changes with stepped_view: a fragment, so that Previous / Next, the slider and the
page's pickers rerun only that part, with the timer outside it (a timed fragment drawn inside another one stalled
after a tick or two, Streamlit 1.67). A fragment run that starts or stops the playback reruns the page once, which
draws or removes the timer.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, MutableMapping

import streamlit as st

from app_pages.shell import page_scripts
from app_pages.shell.text import t
from app_pages.state.widget_state import kept
from app_pages.state import widget_state

SPEEDS = {"slow": 3.0, "normal": 1.5, "fast": 0.75}  # seconds a position stays; normal: long enough to read aloud
clock = time.monotonic  # the player's clock, in seconds (a test passes its own)
SOONEST_TICK_S = 0.1  # a run that took longer than the speed: the next tick right after it


def _keys(prefix: str) -> dict[str, str]:
    return {name: f"{prefix}.{name}" for name in ("playing", "ticked", "drawn", "advance", "speed", "shown", "before",
                                                        "timer", "page_run", "started")}


def _stop(prefix: str) -> None:
    st.session_state[_keys(prefix)["playing"]] = False


def _slider_moved(prefix: str, key: str) -> None:
    """The slider reports a new value: the user moved it (playing stops), or the browser is echoing the position
    the last run drew. A timer tick that left the browser before that run's slider arrived carries the position
    before it; Streamlit then sees a change and calls this, and a stop there would leave the page showing Pause
    with nothing playing (the stall a loaded class machine met). Only a position other than the one drawn stops.
    While playing, a tick may also carry the position drawn before that one (its run's slider had not reached the
    browser when the timer fired: on a loaded machine Decoding stalled at its second step): it stays drawn."""
    keys = _keys(prefix)
    moved_to = st.session_state.get(key)
    if moved_to == st.session_state.get(keys["shown"]):
        return
    if st.session_state.get(keys["playing"]) and moved_to == st.session_state.get(keys["before"]):
        st.session_state[key] = st.session_state[keys["shown"]]
        return
    _stop(prefix)


def _move(prefix: str, key: str, by: int, first: int, last: int) -> None:
    st.session_state[key] = min(max(st.session_state.get(key, first) + by, first), last)
    _stop(prefix)


def _play(prefix: str, key: str, first: int, last: int) -> None:
    """Play from the shown position, or from the first when the last is showing; a second press pauses."""
    keys = _keys(prefix)
    playing = not st.session_state.get(keys["playing"], False)
    if playing and st.session_state.get(key, first) >= last:
        st.session_state[key] = first
    st.session_state[keys["playing"]] = playing
    st.session_state[keys["ticked"]] = playing  # this rerun is the player's own
    st.session_state[keys["started"]] = clock()


def _keep_playing(prefix: str) -> None:
    """A new speed goes on playing at that speed, the shown position timed from now."""
    keys = _keys(prefix)
    st.session_state[keys["ticked"]] = True
    st.session_state[keys["started"]] = clock()


def frames_due(elapsed: float, interval: float) -> int:
    """How many positions a tick `elapsed` seconds after the shown position's start moves: one per interval passed,
    rounded (a timer's tick comes a little early or late); 0 under half an interval (a tick queued behind a run)."""
    return max(0, math.floor(elapsed / interval + 0.5))


def tick(state: MutableMapping, prefix: str, now: float) -> int:
    """A timer tick at `now`: the positions to move (frames_due), the shown position's start moved on by as many
    intervals, so the next is timed from when it was due, however long the run that draws it takes."""
    keys = _keys(prefix)
    interval = SPEEDS[state.get(keys["speed"], "normal")]
    started = state.setdefault(keys["started"], now)
    due = frames_due(now - started, interval)
    state[keys["started"]] = started + due * interval
    return due


def next_tick_s(state: MutableMapping, prefix: str, now: float) -> float:
    """Seconds from `now` (the end of a page run) until the shown position has had its interval: the timer's."""
    keys = _keys(prefix)
    left = state.get(keys["started"], now) + SPEEDS[state.get(keys["speed"], "normal")] - now
    return max(SOONEST_TICK_S, left)


def _player(prefix: str) -> None:
    """Drawn only while playing; the timed fragment around it moves to the next position and reruns the page.

    A fragment's body also runs when the page draws it: that run only sets the timer (`drawn`). A tick with no
    position due does nothing: it is not queued as another page run."""
    keys = _keys(prefix)
    if st.session_state.pop(keys["drawn"], False) or not st.session_state.get(keys["playing"]):
        return
    due = tick(st.session_state, prefix, clock())
    if due:
        st.session_state[keys["advance"]], st.session_state[keys["ticked"]] = due, True
        st.rerun()


def _still_playing(prefix: str, key: str, last: int) -> bool:
    """Whether to go on playing in this run: only when the run is the player's own (or a speed change). A run the
    player asked for moves on by the positions due (tick), before the slider is drawn."""
    keys = _keys(prefix)
    playing = st.session_state.get(keys["playing"], False) and st.session_state.get(keys["ticked"], False)
    due = st.session_state.pop(keys["advance"], 0)
    if due and playing:
        st.session_state[key] = min(st.session_state[key] + due, last)
        playing = st.session_state[key] < last
    st.session_state[keys["playing"]], st.session_state[keys["ticked"]] = playing, False
    return playing


def stepper(prefix: str, key: str, first: int, last: int, label: str,
            format_func: Callable[[int], str] = str, width: int = 360, lead: Callable[[], object] | None = None) -> int:
    """The buttons (keys prefix.prev, prefix.play, prefix.next), a slider labelled `label` over first … last (shown
    when there are two positions or more; `format_func` names a position) and the speed, after `lead` (another
    control drawn first on their row); returns the position.

    Drawn inside stepped_view(prefix, …), whose timed fragment advances the position while playing.
    """
    keys = _keys(prefix)
    if st.session_state.get(key) not in range(first, last + 1):
        st.session_state[key] = first
    playing = _still_playing(prefix, key, last)
    if playing != st.session_state.get(keys["timer"], False) and not st.session_state.get(keys["page_run"]):
        st.session_state[keys["ticked"]] = playing  # the page's run goes on playing (Play) or not (a stop)
        st.rerun()  # a fragment's run: the page draws or removes the timer (stepped_view)
    if st.session_state[key] != st.session_state.get(keys["shown"]):
        st.session_state[keys["before"]] = st.session_state.get(keys["shown"])
    position = st.session_state[keys["shown"]] = st.session_state[key]
    speed = kept(keys["speed"], SPEEDS, "normal")
    with st.container(horizontal=True, vertical_alignment="bottom", key=f"{prefix}.controls"):
        if lead is not None:
            lead()
        st.button(t("decoding.prev"), key=f"{prefix}.prev", icon=":material/skip_previous:", on_click=_move,
                  args=(prefix, key, -1, first, last), disabled=position <= first)
        st.button(t("decoding.pause" if playing else "decoding.play"), key=f"{prefix}.play",
                  icon=":material/pause:" if playing else ":material/play_arrow:", on_click=_play,
                  args=(prefix, key, first, last), disabled=last <= first)
        st.button(t("decoding.next"), key=f"{prefix}.next", icon=":material/skip_next:", on_click=_move,
                  args=(prefix, key, 1, first, last), disabled=position >= last)
        if last > first:
            # value=, default=: the session's own (widget_state.kept says why)
            st.select_slider(label, options=list(range(first, last + 1)), format_func=format_func, value=position,
                             persist_state="session", key=key, on_change=_slider_moved, args=(prefix, key), width=width)
            st.segmented_control(t("stepper.speed"), list(SPEEDS), format_func=lambda s: t(f"stepper.speed.{s}"),
                                 persist_state="session", key=keys["speed"], required=True, default=speed,
                                 on_change=_keep_playing, args=(prefix,))
    page_scripts.arrow_keys()
    return position


def stepped_view(prefix: str, view: Callable, *args) -> None:
    """`view(*args)`, the part of a page that draws stepper(prefix, …) and what its position shows, as a fragment;
    then, while playing, the timed fragment that moves the position (its tick reruns the page)."""
    keys = _keys(prefix)
    st.session_state[keys["page_run"]] = True  # the fragment's body runs now, within the page's run
    st.fragment(view)(*args)
    st.session_state[keys["page_run"]] = False
    playing = st.session_state[keys["timer"]] = bool(st.session_state.get(keys["playing"]))
    if playing:
        st.session_state[keys["drawn"]] = True
        st.fragment(_player, run_every=next_tick_s(st.session_state, prefix, clock()))(prefix)
