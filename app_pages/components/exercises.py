"""Ready-made exercises for the teaching pages' "Try it" tabs: a question, the student's answer, Check, and a verdict
whose answer is computed (lessons/classroom.py) from the same arithmetic the page teaches. Session state only: one
student alone needs no setup. A changed answer hides the verdict until it is checked again.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from app_pages.components.teaching_shared import num
from app_pages.shell.text import listing, t
from lessons import classroom, masks, positional
from lessons.worked_example import WORDS, WorkedExample

PE_LENGTH = 10  # rows of the PE exercise's matrix: few enough to pick from


def check(prefix: str) -> None:
    st.session_state[f"{prefix}.checked"] = True


def uncheck(prefix: str) -> None:
    st.session_state[f"{prefix}.checked"] = False


def checked(prefix: str) -> bool:
    return bool(st.session_state.get(f"{prefix}.checked"))


def verdict(right: bool, prefix: str, **values) -> None:
    (st.success if right else st.info)(t(f"{prefix}.{'right' if right else 'wrong'}", **values),
                                       icon=":material/check_circle:" if right else ":material/lightbulb:")


def masks_exercise() -> None:
    """Which keys does the causal mask of "i have a dream" hide from a query? (every key after it)"""
    tokens = list(masks.DOC_SENTENCE)
    n, prefix = len(tokens), "ex.masks"
    st.markdown(t("ex.masks.question", sentence=" ".join(tokens)))
    with st.container(horizontal=True, vertical_alignment="bottom", key=f"{prefix}.row"):
        query = st.selectbox(t("ex.masks.query"), list(range(n)), format_func=lambda i: f"{i}: {tokens[i]}",
                             key=f"{prefix}.query", on_change=uncheck, args=(prefix,), width=200)
        chosen = st.pills(t("ex.masks.keys"), list(range(n)), selection_mode="multi", format_func=tokens.__getitem__,
                          key=f"{prefix}.keys", on_change=uncheck, args=(prefix,))
        st.button(t("ex.check"), key=f"{prefix}.check", on_click=check, args=(prefix,), type="primary")
    if not checked(prefix):
        return
    answer = classroom.hidden_keys(n, query)

    def names(indices) -> str:
        return listing(f"**{tokens[j]}**" for j in indices) or t("ex.none")

    verdict(sorted(chosen) == answer, prefix, keys=names(answer), query=tokens[query], chosen=names(sorted(chosen)),
            visible=names(j for j in range(n) if j not in answer))


def qkv_exercise(example: WorkedExample) -> None:
    """Which raw score of the worked example's first query is larger, q₁·k₁ or q₁·k₂?"""
    prefix = "ex.qkv"
    labels = [f"q₁·k{'₁₂'[j]} ({WORDS[j]})" for j in range(len(WORDS))]
    st.markdown(t("ex.qkv.question"))
    with st.container(horizontal=True, vertical_alignment="bottom", key=f"{prefix}.row"):
        chosen = st.radio(t("ex.qkv.choice"), list(range(len(labels))), format_func=labels.__getitem__, index=None,
                          horizontal=True, key=f"{prefix}.choice", on_change=uncheck, args=(prefix,))
        st.button(t("ex.check"), key=f"{prefix}.check", on_click=check, args=(prefix,), type="primary",
                  disabled=chosen is None)
    if chosen is None or not checked(prefix):
        return
    scores = example.scores
    larger = classroom.larger_score(scores)
    verdict(chosen == larger, prefix, a=num(scores[0]), b=num(scores[1]), larger=labels[larger],
            diff=num(abs(scores[0] - scores[1])))


def pe_exercise(d_model: int) -> None:
    """Which other row of a PE matrix is nearest to a chosen row? (its neighbours: PE·PE depends only on |a − b|)"""
    prefix = "ex.pe"
    table = positional.pe_table(PE_LENGTH, d_model)
    st.markdown(t("ex.pe.question", length=PE_LENGTH, d=d_model))
    rows = list(range(PE_LENGTH))
    with st.container(horizontal=True, vertical_alignment="bottom", key=f"{prefix}.row"):
        row = st.selectbox(t("ex.pe.row"), rows, key=f"{prefix}.pos", on_change=uncheck, args=(prefix,), width=140)
        others = [r for r in rows if r != row]
        if st.session_state.get(f"{prefix}.pick") not in others:
            st.session_state.pop(f"{prefix}.pick", None)
        chosen = st.pills(t("ex.pe.pick"), others, key=f"{prefix}.pick", on_change=uncheck, args=(prefix,))
        st.button(t("ex.check"), key=f"{prefix}.check", on_click=check, args=(prefix,), type="primary",
                  disabled=chosen is None)
    if chosen is None or not checked(prefix):
        return
    answers = classroom.nearest_rows(table, row)
    distance = np.linalg.norm(table - table[row], axis=1)
    verdict(chosen in answers, prefix, chosen=chosen, answers=listing(answers),
            dist=num(distance[answers[0]]), chosen_dist=num(distance[chosen]))
