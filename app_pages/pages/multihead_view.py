"""What the multi-head page shows, computed without drawing anything (multihead.py draws it): the notes'
walk-through with the student's numbers, the live model's shapes for one layer, and why one head is not enough (two
of the model's heads against their average, with that view's slide for Pin to deck). Plain data out
(components/parts); tests/test_multihead_view.py reads it without Streamlit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from app_pages.components import attention_view, teaching_slides
from app_pages.components.parts import Chart, Formula, Notice, Table, Text
from app_pages.components.teaching_shared import join, positions
from app_pages.shell.text import md_escape, t
from lessons import shapes
from lessons.deck import Slide
from lessons.multihead import most_different_heads
from model import ModelConfig, TranslationResult
from viz.teaching_multihead import head_split_figure

NAMES = ("batch", "query_len", "key_len", "hidden", "heads")  # the walk-through's numbers, as the student types them


def shape_table(steps: list[shapes.ShapeStep]) -> Table:
    frame = pd.DataFrame({
        t("multihead.col.step"): [t(f"multihead.step.{s.key}") for s in steps],
        t("multihead.col.tensor"): [s.tensor for s in steps],
        t("multihead.col.code"): [s.code for s in steps],
        t("multihead.col.shape"): [f"({', '.join(str(n) for n in s.shape)})" for s in steps],
    })
    return Table(frame, hide_index=True, width="stretch")


def doc_intro() -> tuple:
    """The formula and the notes' walk-through, above the numbers the student picks."""
    return (Formula(r"\begin{gathered}\mathrm{MultiHead}(Q,K,V) = \mathrm{Concat}(\mathrm{head}_1,\dots,"
                    r"\mathrm{head}_h)\,W^O \\ \mathrm{head}_i = \mathrm{Attention}(QW_i^Q, KW_i^K, VW_i^V)"
                    r"\end{gathered}"),
            Text(t("multihead.doc.text", **shapes.DOC_EXAMPLE)))


def doc_parts(values: dict[str, int], library_refusal: str) -> tuple:
    """Every tensor's shape for the student's `values` (or why the heads do not divide the width), then the notes'
    two slips; `library_refusal`: what PyTorch's own multi-head attention says to the notes' embed_dim."""
    try:
        width = shapes.head_width(values["hidden"], values["heads"])
    except ValueError:
        shapes_part: tuple = (Notice(t("multihead.indivisible", hidden=values["hidden"], heads=values["heads"],
                                       ratio=f"{values['hidden'] / values['heads']:.2f}",
                                       valid=join(str(h) for h in shapes.valid_heads(values["hidden"]))), "error"),)
    else:
        shapes_part = (Notice(t("multihead.width", hidden=values["hidden"], heads=values["heads"], d=width),
                              "success"),
                       shape_table(shapes.multihead_shapes(**values)))
    doc = shapes.DOC_EXAMPLE
    doc_shapes = {s.key: s.shape for s in shapes.multihead_shapes(**doc)}
    bugs = t("multihead.doc.bugs", bad=shapes.DOC_BAD_EMBED_DIM, hidden=doc["hidden"], lq=doc["query_len"],
             lk=doc["key_len"], error=library_refusal, q_in=list(doc_shapes["project_q"]),
             q_heads=list(doc_shapes["transpose_q"]), k_in=list(doc_shapes["project_kv"]),
             k_heads=list(doc_shapes["split_kv"]))
    return (*shapes_part, Text(t("multihead.why")), Notice(bugs))


def refusal_args() -> tuple:
    """What the notes' slip asks of PyTorch's multi-head attention: embed_dim, batch, query and key lengths, width."""
    doc = shapes.DOC_EXAMPLE
    return (shapes.DOC_BAD_EMBED_DIM, doc["batch"], doc["query_len"], doc["key_len"], doc["hidden"])


@dataclass(frozen=True)
class ShapesView:
    """The picked layer's queries split into heads (the chart), then the text, every shape and the check."""

    chart: Chart
    text: Text
    table: Table
    check: Notice


def shapes_view(result: TranslationResult, config: ModelConfig, kind: str, layer: int) -> ShapesView:
    query_tokens, key_tokens = result.axis_tokens(kind)
    steps = shapes.multihead_shapes(1, len(query_tokens), len(key_tokens), config.d_model, config.n_heads)
    q_heads = result.queries[kind][layer]  # (heads, Tq, d_head)
    q_full = np.concatenate(list(q_heads), axis=1)  # (Tq, d_model): the heads side by side again
    figure = head_split_figure(q_full, config.n_heads, positions(query_tokens),
                               title=t("multihead.live.fig", layer=layer + 1), token_title=t("teach.axis.queries"),
                               dimension_title=t("multihead.live.dim"), head_label=t("explorer.head_n"))
    text = t("multihead.live.text", d_model=config.d_model, heads=config.n_heads, d=config.d_head,
             tq=len(query_tokens), tk=len(key_tokens))
    check = t("multihead.live.check", shape=str(tuple(result.attention(kind).shape)),
              scores=str(next(s.shape for s in steps if s.key == "scores")[2:]), q=str(q_heads[0].shape),
              full=str(q_full.shape))
    return ShapesView(Chart(figure, "multihead.live.split"), Text(text), shape_table(steps), Notice(check, "success"))


@dataclass(frozen=True)
class WhyView:
    """Two heads of a layer that look at different keys for one query, and their average: the chart, the argument
    beside it, what the average loses under them, and Pin to deck's slide of the chart."""

    chart: Chart
    text: Text
    average: Text
    pin: Slide


def why_view(result: TranslationResult, config: ModelConfig, kind: str, layer: int, model: str) -> WhyView:
    query_tokens, key_tokens = result.axis_tokens(kind)
    pair = most_different_heads(result.attention(kind)[layer])
    (a, b), (ka, kb), (wa, wb) = pair.heads, pair.keys, pair.peaks()
    query, keys = positions(query_tokens)[pair.query], positions(key_tokens)
    words = dict(layer=layer + 1, a=a + 1, b=b + 1, query=md_escape(query), ka=md_escape(keys[ka]),
                 kb=md_escape(keys[kb]))
    text = t("multihead.why.text", kind=attention_view.kind_name(kind), wa=f"{wa:.2f}", wb=f"{wb:.2f}", **words)
    average = t("multihead.why.average", avg_a=f"{pair.average[ka]:.2f}", avg_b=f"{pair.average[kb]:.2f}",
                d=config.d_head, **words)
    return WhyView(Chart(teaching_slides.why_figure(pair, keys, layer, query), "multihead.why.fig"), Text(text),
                   Text(average),
                   teaching_slides.pinned("multihead", result.source_text, model, teaching_slides.Pick(kind, layer)))
