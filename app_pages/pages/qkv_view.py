"""What the Q·K·V page shows, computed without drawing anything (qkv.py draws it): the notes' "Thinking Machines"
example at a glance, each of its five steps, the matrix form, and one head of the live model walked through for one
query, with that view's slide for Pin to deck. Plain data out (components/parts); tests/test_qkv_view.py reads it
without Streamlit."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from app_pages.components import teaching_slides
from app_pages.components.parts import Caption, Chart, Columns, Expander, Formula, Notice, Parts, Table, Tables, Text
from app_pages.components.teaching_shared import (
    dimension_tables, join, num, positions, table, vector_tex, wrapped_vector,
)
from app_pages.shell import screen
from app_pages.shell.text import t
from lessons import worked_example
from lessons.deck import Slide
from lessons.live import recompute_weights, walk_query
from model import TranslationResult
from viz.options import Room
from viz.teaching_qkv import score_steps_figure, weighted_sum_figure

STEPS = ("project", "dot", "scale", "softmax", "sum")
EXAMPLE_CHART_PX = 440  # the worked example's chart beside its text: with the tabs above it, on the first screen
CHECK_TOLERANCE = 1e-4  # the live recomputation agrees with the model's weights within this


@dataclass(frozen=True)
class Example:
    """The notes' example and the names and sizes its texts use."""

    numbers: worked_example.WorkedExample
    words: tuple[str, ...]
    dims: tuple[str, ...]  # the input's dimensions, as table columns
    out_dims: tuple[str, ...]  # q's, k's and v's
    rounded: tuple[str, ...]  # the notes' two-decimal weights
    sizes: dict


def example() -> Example:
    numbers = worked_example.thinking_machines()
    n_words, n_in = numbers.x.shape  # 2 words, 4 numbers each
    n_out = numbers.w_q.shape[1]  # 3 numbers per q, k, v
    return Example(numbers, tuple(worked_example.WORDS), tuple(str(i) for i in range(n_in)),
                   tuple(str(i) for i in range(n_out)), tuple(f"{w:.2f}" for w in numbers.weights),
                   dict(n=n_in, m=n_out, w=n_words))


def step_label(step: str, shown: Example) -> str:
    return t(f"qkv.step.{step}", root=num(shown.numbers.divisor))


def overview(shown: Example) -> tuple:
    """Where the numbers come from beside the whole computation at a glance (q₁·k, ÷√d_k, softmax), then the
    inputs."""
    ex, words = shown.numbers, shown.words
    results = [num(x) for x in (*ex.scores, *ex.scaled)] + list(shown.rounded)
    figure = score_steps_figure(["k₁", "k₂"], ex.scores, ex.scaled, ex.weights,
                                titles=(t("qkv.fig.example.dot"), t("qkv.fig.example.scaled", root=num(ex.divisor)),
                                        t("qkv.fig.example.weights")),
                                key_title="", room=Room(screen.HALF_COLUMN_PX, EXAMPLE_CHART_PX))
    text = (Text(t("qkv.example.source", **shown.sizes)),
            Notice(t("qkv.example.chosen", results=join(results), **shown.sizes)))
    chart = (Chart(figure, "qkv.example.steps"), Caption(t("qkv.fig.words", a=words[0], b=words[1])))
    inputs = [("x", table(ex.x, [f"x{i} · {w}" for i, w in zip("₁₂", words)], shown.dims))]
    inputs += [(name, table(matrix, shown.dims, shown.out_dims))
               for name, matrix in (("W_Q", ex.w_q), ("W_K", ex.w_k), ("W_V", ex.w_v))]
    return (Columns((text, chart), spec=2, gap="medium"), Tables(tuple(inputs)))


def step_parts(step: str, shown: Example) -> tuple:
    """One step of the example for the first query: its text, its formulas and (the last) its chart."""
    ex, sizes = shown.numbers, shown.sizes
    q1, (k1, k2), (v1, v2) = ex.q[0], ex.k, ex.v
    parts = Parts()
    if step == "project":
        parts.add(Text(t("qkv.project.text", **sizes)))
        for name, matrix in (("q", ex.q), ("k", ex.k), ("v", ex.v)):  # one line each: fits a projector
            parts.add(Formula(r",\qquad ".join(rf"{name}_{i} = x_{i} W_{name.upper()} = {vector_tex(row)}"
                                               for i, row in enumerate(matrix, start=1))))
    elif step == "dot":
        parts.add(Text(t("qkv.dot.text")))
        for j, k in enumerate((k1, k2), start=1):
            terms = " + ".join(f"{num(a)}\\cdot{num(b)}" for a, b in worked_example.dot_terms(q1, k))
            parts.add(Formula(rf"q_1 \cdot k_{j} = {terms} = {num(ex.scores[j - 1])}"))
    elif step == "scale":
        d_k = worked_example.PAPER_D_K
        parts.add(Text(t("qkv.scale.text", d_k=d_k, d_model=worked_example.PAPER_D_MODEL,
                         heads=worked_example.PAPER_HEADS, root=num(ex.divisor), width=sizes["m"])))
        for j in range(2):
            parts.add(Formula(rf"\frac{{q_1 \cdot k_{j + 1}}}{{\sqrt{{{d_k}}}}} = \frac{{{num(ex.scores[j])}}}"
                              rf"{{{num(ex.divisor)}}} = {num(ex.scaled[j])}"))
        toy = worked_example.thinking_machines(d_k=sizes["m"])
        parts.add(Caption(t("qkv.scale.alt", d=sizes["m"], root=f"{toy.divisor:.3f}", a=f"{toy.scaled[0]:.2f}",
                            b=f"{toy.scaled[1]:.2f}", wa=f"{toy.weights[0]:.5f}", wb=f"{toy.weights[1]:.5f}")))
    elif step == "softmax":
        a, b = ex.scaled
        first, second = worked_example.softmax_of_two(a, b)
        parts.add(Text(t("qkv.softmax.text", a=num(a), b=num(b), diff=num(a - b))),
                  Formula(rf"\frac{{e^{{{num(a)}}}}}{{e^{{{num(a)}}} + e^{{{num(b)}}}}} = "
                          rf"\frac{{1}}{{1 + e^{{{num(b - a)}}}}} = {first:.4f},\qquad "
                          rf"\frac{{e^{{{num(b)}}}}}{{e^{{{num(a)}}} + e^{{{num(b)}}}}} = {second:.4f}"),
                  Text(t("qkv.softmax.rounded", a=shown.rounded[0], b=shown.rounded[1])))
    else:
        w1, w2 = ex.weights
        parts.add(Text(t("qkv.sum.text", wa=f"{w1:.4f}", wb=f"{w2:.4f}", ra=shown.rounded[0], rb=shown.rounded[1])),
                  Formula(rf"z_1 = {w1:.4f}\,{vector_tex(v1)} + {w2:.4f}\,{vector_tex(v2)} = {vector_tex(ex.z1)}"
                          rf"\approx {shown.rounded[0]}\,v_1 + {shown.rounded[1]}\,v_2"),
                  Chart(weighted_sum_figure(ex.weights, ex.v, list(shown.words), title=t("qkv.fig.sum.title"),
                                            dim_title=t("qkv.fig.dim"), output_label="z₁"), "qkv.example.sum"))
    return parts.done()


def matrix_parts(shown: Example) -> tuple:
    """Both words at once: Q, K, V and every step as matrices, checked against the step-by-step z₁."""
    ex, words, out_dims = shown.numbers, list(shown.words), shown.out_dims
    s = ex.steps
    qk_index = t("qkv.matrix.index")
    projections = tuple((name, table(matrix, words, out_dims))
                        for name, matrix in (("Q = X·W_Q", ex.q), ("K = X·W_K", ex.k), ("V = X·W_V", ex.v)))
    products = tuple((name, table(matrix, words, head, qk_index if head is words else ""))
                     for name, matrix, head in (
                         ("QKᵀ", s.scores, words), (f"QKᵀ / √{worked_example.PAPER_D_K}", s.scaled, words),
                         ("softmax(QKᵀ / √d_k)", s.weights, words), ("Z = softmax(QKᵀ / √d_k)·V", s.output, out_dims)))
    check = t("qkv.matrix.check", diff=f"{float(np.abs(s.output[0] - ex.z1).max()):.1e}", a=num(s.scores[0, 0]),
              b=num(s.scores[0, 1]))
    return (Text(t("qkv.matrix.text", root=num(ex.divisor), **shown.sizes)),
            Formula(r"Z = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right) V"),
            Tables(projections), Tables(products), Notice(check, "success"))


@dataclass(frozen=True)
class LiveView:
    """One head of the live model walked through for one query: what goes above the steps' chart (`before`), the
    chart, Pin to deck's slide of it, and what goes under it (`after`: the output and the check)."""

    before: tuple
    chart: Chart
    pin: Slide
    after: tuple


def live_view(result: TranslationResult, pick: teaching_slides.Pick, model: str, scales_queries_first: bool
              ) -> LiveView:
    """`pick`'s head of `model`'s translation `result`, for its query: q, every k and v, the table of scores,
    the steps' chart, the weighted sum and the check against the model's own weights (a Marian model scales q
    before the dot product: `scales_queries_first` says so)."""
    kind, index = pick.kind, pick.query
    query_tokens, key_tokens = result.axis_tokens(kind)
    head = result.head(kind, pick.layer, pick.head)
    walk = walk_query(head.q, head.k, head.v, head.mask, head.weights, index)
    d_head = head.q.shape[1]
    keys = positions(key_tokens)
    before = Parts().add(
        Text(t(f"qkv.live.explain.{kind}", layer=pick.layer + 1, head=pick.head + 1, d=d_head,
               root=f"{math.sqrt(d_head):.3f}")),
        Text(t("qkv.live.q", d=d_head)),
        Caption(t("qkv.live.marian", inv=f"{1 / math.sqrt(d_head):.4f}", root=f"{math.sqrt(d_head):.3f}"))
        if scales_queries_first else None,
        Table(wrapped_vector(walk.q, index_name=positions(query_tokens)[index])),
        Expander(t("qkv.live.kv"), tuple(part for name, values in (("k", walk.k), ("v", walk.v))
                                         for part in (Text(f"**{name}**"), Tables(tuple(dimension_tables(values, keys)))))),
        Text(t("qkv.live.table")),
    )
    steps = walk.steps
    per_key = np.stack([steps.scores[0], steps.scaled[0], walk.allowed.astype(float), steps.masked[0],
                        steps.weights[0], walk.model_weights])
    columns = [t(f"qkv.live.col.{c}") for c in ("dot", "scaled", "allowed", "masked", "weight", "model")]
    before.add(Table(table(per_key.T, keys, columns)))
    whole = float(np.abs(recompute_weights(head.q, head.k, head.mask) - head.weights).max())
    check = t("qkv.live.check", diff=f"{walk.max_difference:.1e}", n=len(query_tokens), whole=f"{whole:.1e}")
    after = (Text(t("qkv.live.output")),
             Chart(weighted_sum_figure(steps.weights[0], walk.v, keys, title=t("qkv.fig.sum.title"),
                                       dim_title=t("qkv.fig.dim"), output_label=t("qkv.fig.output")), "qkv.live.sum"),
             Notice(check, "success" if max(whole, walk.max_difference) < CHECK_TOLERANCE else "error"))
    return LiveView(before.done(), Chart(teaching_slides.qkv_steps_figure(walk, keys), "qkv.live.steps"),
                    teaching_slides.pinned("qkv", result.source_text, model, pick), after)
