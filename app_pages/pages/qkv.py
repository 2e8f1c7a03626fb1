"""Q, K, V walkthrough: the notes' "Thinking Machines" example step by step, then one head of the live model."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from app_pages.components import exercises  # the "Try it" tab
from app_pages.state import models, translations, widget_state
from app_pages.shell import presentation, screen
from app_pages.components.teaching_shared import (
    dimension_tables, head_picker, join, num, positions, query_picker, sections, sentence_banner, show_table,
    show_tables, table, vector_tex, wrapped_vector,
)
from app_pages.shell.text import t
from app_pages.components import charts, table_view
from lessons import worked_example
from lessons.live import recompute_weights, walk_query
from viz.options import Room
from viz.teaching_qkv import score_steps_figure, weighted_sum_figure

STEPS = ("project", "dot", "scale", "softmax", "sum")
EXAMPLE_CHART_PX = 440  # the worked example's chart beside its text: with the tabs above it, on the first screen

presentation.page_title(t("qkv.title"), t("qkv.intro"))

# ---------------------------------------------------------------- the worked example
example = worked_example.thinking_machines()
words = list(worked_example.WORDS)
n_words, n_in = example.x.shape  # 2 words, 4 numbers each
n_out = example.w_q.shape[1]  # 3 numbers per q, k, v
DIMS, OUT_DIMS = [str(i) for i in range(n_in)], [str(i) for i in range(n_out)]
rounded = [f"{w:.2f}" for w in example.weights]  # the notes' two-decimal weights
sizes = dict(n=n_in, m=n_out, w=n_words)


def example_overview() -> None:
    """Where the numbers come from beside the whole computation at a glance (q₁·k, ÷√d_k, softmax), then the inputs."""
    text, chart = st.columns(2, gap="medium")
    with text:
        st.markdown(t("qkv.example.source", **sizes))
        results = [num(x) for x in (*example.scores, *example.scaled)] + rounded
        st.info(t("qkv.example.chosen", results=join(results), **sizes))
    with chart:
        charts.chart(
            score_steps_figure(["k₁", "k₂"], example.scores, example.scaled, example.weights,
                               titles=(t("qkv.fig.example.dot"), t("qkv.fig.example.scaled", root=num(example.divisor)),
                                       t("qkv.fig.example.weights")),
                               key_title="", room=Room(screen.HALF_COLUMN_PX, EXAMPLE_CHART_PX)),
            key="qkv.example.steps",
        )
        st.caption(t("qkv.fig.words", a=words[0], b=words[1]))
    show_tables([("x", table(example.x, [f"x{i} · {w}" for i, w in zip("₁₂", words)], DIMS))]
                + [(name, table(matrix, DIMS, OUT_DIMS))
                   for name, matrix in (("W_Q", example.w_q), ("W_K", example.w_k), ("W_V", example.w_v))])


def show_step(step: str) -> None:
    q1, (k1, k2), (v1, v2) = example.q[0], example.k, example.v
    if step == "project":
        st.markdown(t("qkv.project.text", **sizes))
        for name, matrix in (("q", example.q), ("k", example.k), ("v", example.v)):  # one line each: fits a projector
            st.latex(r",\qquad ".join(rf"{name}_{i} = x_{i} W_{name.upper()} = {vector_tex(row)}"
                                      for i, row in enumerate(matrix, start=1)))
    elif step == "dot":
        st.markdown(t("qkv.dot.text"))
        for j, k in enumerate((k1, k2), start=1):
            terms = " + ".join(f"{num(a)}\\cdot{num(b)}" for a, b in worked_example.dot_terms(q1, k))
            st.latex(rf"q_1 \cdot k_{j} = {terms} = {num(example.scores[j - 1])}")
    elif step == "scale":
        st.markdown(t("qkv.scale.text", d_k=worked_example.PAPER_D_K, d_model=worked_example.PAPER_D_MODEL, heads=worked_example.PAPER_HEADS,
                      root=num(example.divisor), width=n_out))
        for j in range(2):
            st.latex(rf"\frac{{q_1 \cdot k_{j + 1}}}{{\sqrt{{{worked_example.PAPER_D_K}}}}} = \frac{{{num(example.scores[j])}}}"
                     rf"{{{num(example.divisor)}}} = {num(example.scaled[j])}")
        toy = worked_example.thinking_machines(d_k=n_out)
        st.caption(t("qkv.scale.alt", d=n_out, root=f"{toy.divisor:.3f}", a=f"{toy.scaled[0]:.2f}",
                     b=f"{toy.scaled[1]:.2f}", wa=f"{toy.weights[0]:.5f}", wb=f"{toy.weights[1]:.5f}"))
    elif step == "softmax":
        a, b = example.scaled
        first, second = worked_example.softmax_of_two(a, b)
        st.markdown(t("qkv.softmax.text", a=num(a), b=num(b), diff=num(a - b)))
        st.latex(rf"\frac{{e^{{{num(a)}}}}}{{e^{{{num(a)}}} + e^{{{num(b)}}}}} = \frac{{1}}{{1 + e^{{{num(b - a)}}}}}"
                 rf" = {first:.4f},\qquad \frac{{e^{{{num(b)}}}}}{{e^{{{num(a)}}} + e^{{{num(b)}}}}} = {second:.4f}")
        st.markdown(t("qkv.softmax.rounded", a=rounded[0], b=rounded[1]))
    else:
        w1, w2 = example.weights
        st.markdown(t("qkv.sum.text", wa=f"{w1:.4f}", wb=f"{w2:.4f}", ra=rounded[0], rb=rounded[1]))
        st.latex(rf"z_1 = {w1:.4f}\,{vector_tex(v1)} + {w2:.4f}\,{vector_tex(v2)} = {vector_tex(example.z1)}"
                 rf"\approx {rounded[0]}\,v_1 + {rounded[1]}\,v_2")
        charts.chart(
            weighted_sum_figure(example.weights, example.v, words, title=t("qkv.fig.sum.title"),
                                dim_title=t("qkv.fig.dim"), output_label="z₁"),
            key="qkv.example.sum",
        )


@st.fragment
def step_through() -> None:
    step = st.segmented_control(t("qkv.step.label"), STEPS, format_func=lambda s: t(f"qkv.step.{s}", root=num(example.divisor)),
                                persist_state="session", key="qkv.step", required=True,
                                default=widget_state.kept("qkv.step", STEPS))
    show_step(step)


def matrix_form() -> None:
    """Both words at once: Q, K, V and every step as matrices, checked against the step-by-step z₁."""
    st.markdown(t("qkv.matrix.text", root=num(example.divisor), **sizes))
    st.latex(r"Z = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right) V")
    s = example.steps
    qk_index = t("qkv.matrix.index")
    show_tables([(name, table(matrix, words, OUT_DIMS))
                 for name, matrix in (("Q = X·W_Q", example.q), ("K = X·W_K", example.k), ("V = X·W_V", example.v))])
    show_tables([
        (name, table(matrix, words, head, qk_index if head is words else ""))
        for name, matrix, head in (
            ("QKᵀ", s.scores, words), (f"QKᵀ / √{worked_example.PAPER_D_K}", s.scaled, words),
            ("softmax(QKᵀ / √d_k)", s.weights, words), ("Z = softmax(QKᵀ / √d_k)·V", s.output, OUT_DIMS),
        )
    ])
    st.success(t("qkv.matrix.check", diff=f"{float(np.abs(s.output[0] - example.z1).max()):.1e}",
                 a=num(s.scores[0, 0]), b=num(s.scores[0, 1])))


def example_section() -> None:
    example_overview()
    step_through()

# ---------------------------------------------------------------- the live model
result = translations.current_result()


@st.fragment
def live_walkthrough() -> None:
    kind, layer, head = head_picker("qkv.live", result)
    query_tokens, key_tokens = result.axis_tokens(kind)
    # One picker per kind: their query tokens differ, and one shared picker kept showing the last kind's label.
    index = query_picker(f"qkv.live.{kind}", query_tokens)
    qkv = result.head(kind, layer, head)
    walk = walk_query(qkv.q, qkv.k, qkv.v, qkv.mask, qkv.weights, index)
    d_head = qkv.q.shape[1]
    st.markdown(t(f"qkv.live.explain.{kind}", layer=layer + 1, head=head + 1, d=d_head, root=f"{math.sqrt(d_head):.3f}"))
    keys = positions(key_tokens)
    st.markdown(t("qkv.live.q", d=d_head))
    if models.translator().capabilities.scales_queries_first:
        st.caption(t("qkv.live.marian", inv=f"{1 / math.sqrt(d_head):.4f}", root=f"{math.sqrt(d_head):.3f}"))
    table_view.table(wrapped_vector(walk.q, index_name=positions(query_tokens)[index]))
    with st.expander(t("qkv.live.kv")):
        for name, values in (("k", walk.k), ("v", walk.v)):
            st.markdown(f"**{name}**")
            show_tables(dimension_tables(values, keys))
    st.markdown(t("qkv.live.table"))
    steps = walk.steps
    per_key = np.stack([steps.scores[0], steps.scaled[0], walk.allowed.astype(float), steps.masked[0],
                        steps.weights[0], walk.model_weights])
    show_table(per_key.T, keys, [t(f"qkv.live.col.{c}") for c in ("dot", "scaled", "allowed", "masked", "weight", "model")])
    charts.chart(
        score_steps_figure(keys, steps.scores[0], steps.masked[0], steps.weights[0],
                           titles=(t("qkv.fig.dot"), t("qkv.fig.scaled", root=f"{steps.divisor:.3f}"),
                                   t("qkv.fig.weights")),
                           key_title=t("teach.axis.keys"), masked_label=t("teach.masked")),
        key="qkv.live.steps",
    )
    st.markdown(t("qkv.live.output"))
    charts.chart(
        weighted_sum_figure(steps.weights[0], walk.v, keys, title=t("qkv.fig.sum.title"),
                            dim_title=t("qkv.fig.dim"), output_label=t("qkv.fig.output")),
        key="qkv.live.sum",
    )
    whole = float(np.abs(recompute_weights(qkv.q, qkv.k, qkv.mask) - qkv.weights).max())
    message = t("qkv.live.check", diff=f"{walk.max_difference:.1e}", n=len(query_tokens), whole=f"{whole:.1e}")
    (st.success if max(whole, walk.max_difference) < 1e-4 else st.error)(message)


def live_section() -> None:
    sentence_banner(result)
    live_walkthrough()


sections("qkv", {"example": example_section, "matrix": matrix_form, "live": live_section,
                 "try": lambda: exercises.qkv_exercise(example)})
