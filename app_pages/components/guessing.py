"""Guess first, then reveal: the explorer's one-head map with its weights hidden until a student has clicked (or
picked) a row and the key they think it attends to most, and Decoding's candidates hidden until the next token is
guessed.

A reveal holds only for what was guessed: it is stored as the guess's whole identity (sentence, map, row, key), so
another head, row or step is hidden again until it is guessed too. Session state only; one student alone needs no
setup.
"""

from __future__ import annotations

import math

import streamlit as st

from app_pages.components import attention_view, charts, chips
from app_pages.state import direction, widget_state
from app_pages.shell.presentation import chart_scale, presenting
from app_pages.shell.text import md_escape, sentences, t
from app_pages.components.token_names import row_names
from app_pages.shell import screen
from lessons.attention_maps import pick, shown_mask
from lessons.classroom import FLAT_FACTOR, SINK_SHARE, guess_verdict
from model import WORD_START, TranslationResult
from viz.decoding import candidates_chart
from viz.heatmap import clicked_pair, guess_heatmap
from viz.options import Guess, Labels, split_layout
from viz.style import MAX_WIDTH_PX


def toggle(key: str, label: str = "guess.toggle", on_change=None) -> bool:
    """The "Guess first" switch, keyed `key`, for a page's controls row."""
    return st.toggle(t(label), key=key, help=t(f"{label}_help"), persist_state="session", on_change=on_change,
                     value=widget_state.kept(key, (False, True)))


def revealed(key: str, identity: tuple) -> bool:
    return st.session_state.get(f"{key}.revealed") == identity


def reveal(key: str, identity: tuple) -> None:
    st.session_state[f"{key}.revealed"] = identity


def hide(key: str) -> None:
    st.session_state.pop(f"{key}.revealed", None)


def pick_clicked(key: str) -> None:
    """A click on a hidden cell picks its row and key, as the controls beside the map would."""
    cell = clicked_pair(st.session_state[f"{key}.chart"].selection.points)
    if cell is not None:
        st.session_state[f"{key}.query"], st.session_state[f"{key}.key"] = cell


# The guess's controls and verdict, in a panel beside the map: under it they were below the first screen at
# 1280×800 (Reveal at 1,070 px), and reading the verdict scrolled the map away. Wider in presentation mode's type.
PANEL_PX = 280
GAP_PX = 16  # the row's gap, "small"


def beside_panel(layout: dict) -> dict:
    """`layout` (screen.map_limits') for a map that leaves PANEL_PX of the page's width to the panel beside it."""
    zoom = chart_scale()
    page_px = (screen.PRESENT_MAX_PX[0] if presenting() else MAX_WIDTH_PX) - (PANEL_PX + GAP_PX) * zoom
    return {**layout, "max_width": min(layout.get("max_width", MAX_WIDTH_PX), page_px / zoom)}


def map_guess(result: TranslationResult, kind: str, layer: int, head: int, *, key: str, title: str, **layout) -> None:
    """The one-head map hidden until a guess is revealed, and beside it the guess's controls and, once revealed, the
    verdict above them: Reveal, the map and the verdict on one screen. A click on a hidden cell guesses it; the
    controls do the same from the keyboard. The map comes first, so it stays where the explorer's map always is."""
    weights = pick(result.attention(kind), layer, head)  # (Tq, Tk)
    queries, keys = result.axis_tokens(kind)
    mask = shown_mask(kind, *weights.shape)
    query = widget_state.kept(f"{key}.query", range(len(queries)))
    allowed = [j for j in range(len(keys)) if mask is None or mask[query, j]]
    widget_state.keep_valid(f"{key}.key", allowed)
    guess = st.session_state.get(f"{key}.key")
    identity = (result.source_text, result.translation, kind, layer, head, query, guess)
    shown = guess is not None and revealed(key, identity)
    verdict = guess_verdict(weights, query, guess, keys, kind != "cross", mask) if shown else None
    with st.container(horizontal=True, gap="small", key=f"{key}.layout"):
        words, room, rest = split_layout({**attention_view.axis_titles(kind, direction.current()),
                                          **beside_panel(layout)})
        charts.chart(guess_heatmap(
            weights, Labels(queries, keys, masked_label=t("axis.masked"), **words),
            Guess(shown, None if guess is None else (query, guess), (query, verdict.best) if shown else None,
                  t("guess.hidden"), t("guess.click")),
            title=title, mask=mask, room=room, **rest,
        ), key=f"{key}.chart", on_select=lambda: pick_clicked(key), selection_mode="points")
        with st.container(width=round(PANEL_PX * chart_scale()), key=f"{key}.controls"):
            if shown:  # first, beside the map's top: on the first screen in presentation mode's type too
                say_verdict(verdict, keys, len(queries), len(allowed))
            st.selectbox(t("guess.query"), list(range(len(queries))), key=f"{key}.query", index=query,
                         format_func=row_names(result, kind).__getitem__)
            st.pills(t("guess.key"), allowed, key=f"{key}.key", format_func=lambda j: keys[j])
            if shown:
                st.button(t("guess.hide"), key=f"{key}.hide", on_click=hide, args=(key,))
            else:
                st.button(t("guess.reveal"), key=f"{key}.reveal", type="primary", disabled=guess is None,
                          on_click=reveal, args=(key, identity), help=t("guess.pick_first") if guess is None else None)
                st.caption(t("guess.prompt"))


def say_verdict(verdict, keys: list[str], rows: int, n: int) -> None:
    """What the numbers say about a guess: right or not, with both weights, and why, where a rule supports it."""
    values = dict(guess=md_escape(keys[verdict.guess]), guess_weight=f"{verdict.guess_weight:.2f}",
                  best=md_escape(keys[verdict.best]), best_weight=f"{verdict.best_weight:.2f}")
    if verdict.right:
        st.success(t("guess.right", **values), icon=":material/check_circle:")
    else:
        st.info(t("guess.wrong", rank=verdict.rank, n=n, **values), icon=":material/lightbulb:")
    why = {"flat": dict(factor=FLAT_FACTOR, even=f"{verdict.even:.2f}"),
           "sink": dict(led=verdict.rows_led, rows=rows, least=math.ceil(SINK_SHARE * rows), share=f"{SINK_SHARE:.0%}")}
    if verdict.reason:
        st.markdown(t(f"guess.why.{verdict.reason}", **values, **why.get(verdict.reason, {})))
    st.caption(t("guess.marks"))


def next_token_hidden(result: TranslationResult, position: int, *, key: str, toggle_key: str) -> bool:
    """Whether step `position`'s next token is still to be guessed (the page hides it wherever it would tell)."""
    guess = st.session_state.get(f"{key}.pick")
    identity = (result.source_text, result.translation, position, guess)
    return bool(st.session_state.get(toggle_key)) and (guess is None or not revealed(key, identity))


def next_token_guess(result: TranslationResult, position: int, tokens: list[str], probs: list[float], chosen: int,
                     *, key: str, **layout) -> None:
    """Decoding's candidates as pills sorted by their text (not by probability), then, once the guess is revealed,
    the candidates chart with the guess outlined and whether it was the model's most probable token."""
    # By their text (the chart's order would tell), a word-start mark ▁ aside: "▁dream" sorts with "dream".
    order = sorted(range(len(tokens)), key=lambda i: (tokens[i].lstrip(WORD_START).casefold(), tokens[i]))
    identity = (result.source_text, result.translation, position)
    widget_state.keep_valid(f"{key}.pick", order)
    guess = st.session_state.get(f"{key}.pick")
    shown = guess is not None and revealed(key, identity + (guess,))
    if shown:
        charts.chart(candidates_chart(tokens, probs, chosen, guess=guess, **layout), key=f"{key}.chart")
        best = max(range(len(probs)), key=probs.__getitem__)
        values = dict(guess=md_escape(tokens[guess]), guess_prob=f"{probs[guess]:.1%}",
                      best=md_escape(tokens[best]), best_prob=f"{probs[best]:.1%}")
        (st.success if guess == best else st.info)(t("dguess.right" if guess == best else "dguess.wrong", **values))
        st.caption(t("dguess.mark"))
        st.button(t("guess.hide"), key=f"{key}.hide", on_click=hide, args=(key,))
        return
    st.caption(sentences([t("dguess.prompt", k=len(tokens)), chips.word_start_note(tokens)]))  # ▁: English pieces
    st.pills(t("dguess.pick"), order, key=f"{key}.pick", format_func=lambda i: tokens[i])
    st.button(t("guess.reveal"), key=f"{key}.reveal", type="primary", disabled=guess is None,
              on_click=reveal, args=(key, identity + (guess,)))
