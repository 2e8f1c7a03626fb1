"""A widget's stored choice kept valid: drawn with the session's own value, forgotten when it became impossible."""

from __future__ import annotations

import streamlit as st


def kept(key: str, options, fallback=None):
    """The choice to draw the widget keyed `key` with, as its default: the session's own, or where it has none among
    `options`, `fallback` (else the first option), stored as the session's. A browser that lost a widget's value (a
    run cut short by the next click, runner.fastReruns) sends none, and Streamlit then returns the widget's default
    as the user's choice: a segmented control without one returns None, an error box on every page (the browser
    benchmark meets it on its way between two pages); a drop-down or slider goes back to its first option."""
    options = list(options)
    if key not in st.session_state or st.session_state[key] not in options:  # None may be an option ("all")
        st.session_state[key] = options[0] if fallback is None else fallback
    return st.session_state[key]


def keep_valid(key: str, options: list) -> None:
    """Forget a widget's stored choice that a new sentence or model made impossible (e.g. step 12 of 8): for a widget
    that may hold no choice (pills); one that always holds one is drawn with kept."""
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
