"""Previous / Play / Next over numbered positions, in one row with a slider: decoding steps, training snapshots.

The position lives in session state under the caller's key, so the caller's own
slider (and a link) set it too. ← and → press Previous and Next (page_scripts.ARROW_KEYS).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_pages import page_scripts
from app_pages.session import t

PLAY_SECONDS = 1.5  # a step long enough to read its charts aloud


def _move(prefix: str, key: str, by: int, first: int, last: int) -> None:
    st.session_state[key] = min(max(st.session_state.get(key, first) + by, first), last)
    st.session_state[f"{prefix}.playing"] = False


def _play(prefix: str, key: str, first: int, last: int) -> None:
    """Play from the shown position, or from the first when the last is showing; a second press pauses."""
    playing = not st.session_state.get(f"{prefix}.playing", False)
    if playing and st.session_state.get(key, first) >= last:
        st.session_state[key] = first
    st.session_state[f"{prefix}.playing"] = playing


@st.fragment(run_every=PLAY_SECONDS)
def _player(prefix: str, key: str, first: int, last: int) -> None:
    """Drawn only while playing: every PLAY_SECONDS the next position, until the last."""
    if st.session_state.get(key, first) < last:
        st.session_state[key] = st.session_state.get(key, first) + 1
    else:
        st.session_state[f"{prefix}.playing"] = False
    st.rerun()


def stepper(prefix: str, key: str, first: int, last: int, slider: Callable[[], object]) -> int:
    """The buttons (keys prefix.prev, prefix.play, prefix.next) and `slider`, a widget the caller draws on `key`
    (shown only when there are two positions or more); returns the position, first … last.

    While playing, `prefix + ".playing"` is True and a fragment advances the position every PLAY_SECONDS.
    """
    if st.session_state.get(key) not in range(first, last + 1):
        st.session_state[key] = first
    position, playing = st.session_state[key], st.session_state.get(f"{prefix}.playing", False)
    with st.container(horizontal=True, vertical_alignment="bottom", key=f"{prefix}.controls"):
        st.button(t("decoding.prev"), key=f"{prefix}.prev", icon=":material/skip_previous:", on_click=_move,
                  args=(prefix, key, -1, first, last), disabled=position <= first)
        st.button(t("decoding.pause" if playing else "decoding.play"), key=f"{prefix}.play",
                  icon=":material/pause:" if playing else ":material/play_arrow:", on_click=_play,
                  args=(prefix, key, first, last), disabled=last <= first)
        st.button(t("decoding.next"), key=f"{prefix}.next", icon=":material/skip_next:", on_click=_move,
                  args=(prefix, key, 1, first, last), disabled=position >= last)
        if last > first:
            slider()
    page_scripts.arrow_keys()
    if playing:
        _player(prefix, key, first, last)
    return st.session_state[key]
