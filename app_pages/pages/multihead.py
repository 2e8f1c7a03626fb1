"""Multi-head shapes: the notes' walk-through (64, 12, 10, 300, 6 → 50 per head), your own numbers, the live model,
and why one head is not enough (two of the model's heads against their average)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from app_pages.components import attention_view, charts, table_view
from app_pages.state import models, result_cache, translations
from app_pages.shell import presentation
from app_pages.components.teaching_shared import head_picker, join, positions, sections, sentence_banner
from app_pages.shell.text import md_escape, t
from lessons import shapes
from lessons.multihead import most_different_heads
from model import library_refusal
from viz.options import Frame
from viz.teaching_multihead import head_split_figure, two_heads_figure

WHY_CHART_PX = 460  # the whole chart on a 1280×800 screen, under the page's title and tabs


def shape_table(steps: list[shapes.ShapeStep]) -> None:
    frame = pd.DataFrame(
        {
            t("multihead.col.step"): [t(f"multihead.step.{s.key}") for s in steps],
            t("multihead.col.tensor"): [s.tensor for s in steps],
            t("multihead.col.code"): [s.code for s in steps],
            t("multihead.col.shape"): [f"({', '.join(str(n) for n in s.shape)})" for s in steps],
        }
    )
    table_view.table(frame, hide_index=True, width="stretch")


def doc_section() -> None:
    """The notes' walk-through with numbers the student picks: every tensor's shape, and the notes' two slips."""
    st.latex(r"\begin{gathered}\mathrm{MultiHead}(Q,K,V) = \mathrm{Concat}(\mathrm{head}_1,\dots,\mathrm{head}_h)\,W^O \\ "
             r"\mathrm{head}_i = \mathrm{Attention}(QW_i^Q, KW_i^K, VW_i^V)\end{gathered}")
    st.markdown(t("multihead.doc.text", **shapes.DOC_EXAMPLE))
    names = ("batch", "query_len", "key_len", "hidden", "heads")
    values = {}
    for col, name in zip(st.columns(len(names)), names):
        with col:
            values[name] = int(st.number_input(t(f"multihead.in.{name}"), 1, 4096, shapes.DOC_EXAMPLE[name], persist_state="session", key=f"multihead.{name}"))
    try:
        width = shapes.head_width(values["hidden"], values["heads"])
    except ValueError:
        st.error(t("multihead.indivisible", hidden=values["hidden"], heads=values["heads"],
                   ratio=f"{values['hidden'] / values['heads']:.2f}",
                   valid=join(str(h) for h in shapes.valid_heads(values["hidden"]))))
    else:
        st.success(t("multihead.width", hidden=values["hidden"], heads=values["heads"], d=width))
        shape_table(shapes.multihead_shapes(**values))
    st.markdown(t("multihead.why"))
    doc = shapes.DOC_EXAMPLE
    doc_shapes = {s.key: s.shape for s in shapes.multihead_shapes(**doc)}
    refusal = (shapes.DOC_BAD_EMBED_DIM, doc["batch"], doc["query_len"], doc["key_len"], doc["hidden"])
    st.info(t("multihead.doc.bugs", bad=shapes.DOC_BAD_EMBED_DIM, hidden=doc["hidden"], lq=doc["query_len"], lk=doc["key_len"],
              error=result_cache.shared().get(("multihead.library_refusal", *refusal), lambda: library_refusal(*refusal)),
              q_in=list(doc_shapes["project_q"]), q_heads=list(doc_shapes["transpose_q"]),
              k_in=list(doc_shapes["project_kv"]), k_heads=list(doc_shapes["split_kv"])))


presentation.page_title(t("multihead.title"), t("multihead.intro"))

# ---------------------------------------------------------------- the live model
result = translations.current_result()
translator = models.translator()
config = translator.config


@st.fragment
def live_shapes() -> None:
    """The picked layer's queries split into heads first (the picker above it), then every shape and the check."""
    kind, layer, _ = head_picker("multihead.live", result, with_head=False)
    query_tokens, key_tokens = result.axis_tokens(kind)
    steps = shapes.multihead_shapes(1, len(query_tokens), len(key_tokens), config.d_model, config.n_heads)
    q_heads = result.queries[kind][layer]  # (heads, Tq, d_head)
    q_full = np.concatenate(list(q_heads), axis=1)  # (Tq, d_model): the heads side by side again
    charts.chart(
        head_split_figure(q_full, config.n_heads, positions(query_tokens), title=t("multihead.live.fig", layer=layer + 1),
                          token_title=t("teach.axis.queries"), dimension_title=t("multihead.live.dim"),
                          head_label=t("explorer.head_n")),
        key="multihead.live.split",
    )
    sentence_banner(result)  # under the chart: above it, the chart would start below the first screen
    st.markdown(t("multihead.live.text", d_model=config.d_model, heads=config.n_heads, d=config.d_head,
                  tq=len(query_tokens), tk=len(key_tokens)))
    shape_table(steps)
    returned = result.attention(kind).shape
    st.success(t("multihead.live.check", shape=str(tuple(returned)), scores=str(next(s.shape for s in steps if s.key == "scores")[2:]),
                 q=str(q_heads[0].shape), full=str(q_full.shape)))


@st.fragment
def why_section() -> None:
    """Two heads of the picked layer that look at different keys for one query, and the average one head would need."""
    # The chart on the left, the pickers and the argument on the right: all of it on the first screen.
    chart, text = st.columns([3, 2], gap="medium")
    with text:
        kind, layer, _ = head_picker("multihead.why", result, with_head=False)
    query_tokens, key_tokens = result.axis_tokens(kind)
    pair = most_different_heads(result.attention(kind)[layer])
    (a, b), (ka, kb), (wa, wb) = pair.heads, pair.keys, pair.peaks()
    query = positions(query_tokens)[pair.query]
    with chart:
        charts.chart(
            two_heads_figure(positions(key_tokens), pair.rows[0], pair.rows[1], pair.average,
                             frame=Frame(t("multihead.why.fig", layer=layer + 1, query=query), t("teach.axis.keys"),
                                         t("multihead.why.weight")),
                             names=(t("explorer.head_n", n=a + 1), t("explorer.head_n", n=b + 1),
                                    t("multihead.why.mean")),
                             max_height=WHY_CHART_PX),
            key="multihead.why.fig",
        )
    words = dict(layer=layer + 1, a=a + 1, b=b + 1, query=md_escape(query), ka=md_escape(positions(key_tokens)[ka]),
                 kb=md_escape(positions(key_tokens)[kb]))
    text.markdown(t("multihead.why.text", kind=attention_view.kind_name(kind), wa=f"{wa:.2f}", wb=f"{wb:.2f}", **words))
    st.markdown(t("multihead.why.average", avg_a=f"{pair.average[ka]:.2f}", avg_b=f"{pair.average[kb]:.2f}", d=config.d_head,
                  **words))
    sentence_banner(result)


sections("multihead", {"live": live_shapes, "doc": doc_section, "why": why_section})
