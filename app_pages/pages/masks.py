"""Masks: causal (the notes' "i have a dream" and the live decoder), padding, padding + causal, cross-attention."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from app_pages.components import exercises  # the "Try it" tab
from app_pages.shell import presentation
from app_pages.state import translations, widget_state
from app_pages.components.teaching_shared import (as_text, head_picker, in_direction, join, num, positions, sections, sentence_banner,
                                       show_table)
from app_pages.shell.text import md_escape, t
from app_pages.components import charts, table_view
from lessons import masks
from lessons.attention_math import attention_steps, softmax
from viz.options import Labels, Room
from viz.style import MAX_WIDTH_PX
from viz.teaching_masks import mask_stage_figure, padding_figure
from viz.tiling import side_by_side

TOY_DK = 4
STAGE_GAP_PX = 16
STAGE_WIDTH_PX = (MAX_WIDTH_PX - STAGE_GAP_PX) // 2  # two stages side by side share the main column
PAD_KINDS = ("self", "combined", "cross")  # the attentions whose masks the padded batch shows


def show_stages(key: str, mask: np.ndarray, scaled: np.ndarray, weights: np.ndarray, query_labels, key_labels) -> None:
    """Mask M, scores before masking, after masking, after softmax: side by side, queries down, keys across."""
    stages = (
        ("mask", masks.additive_mask(mask)),
        ("scores", scaled),
        ("masked", np.where(mask, scaled, -np.inf)),
        ("weights", weights),
    )
    figures = [mask_stage_figure(stage, values, Labels(query_labels, key_labels, t("teach.axis.queries"),
                                                       t("teach.axis.keys"), t(f"masks.value.{stage}")),
                                 title=t(f"masks.stage.{stage}"), room=Room(STAGE_WIDTH_PX))
               for stage, values in stages]
    # Two stages a row, the panels of a row starting at one height; each row one chart (viz/tiling.py says why: each
    # tab of this page draws them anew).
    for row in (0, 2):
        charts.chart(side_by_side(figures[row : row + 2], STAGE_WIDTH_PX, STAGE_GAP_PX),
                      key=f"{key}.{stages[row][0]}-{stages[row + 1][0]}")
    sums = join(f"{x:.4f}" for x in weights.sum(axis=1))
    st.caption(t("masks.rowsums", sums=sums, above=num(float(np.abs(weights[~mask]).max(initial=0.0)), 6)))


def toy_scores(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Scaled scores and weights of random q, k under `mask` (a few small arrays: 0.3 ms, not worth a cache)."""
    q, k = masks.toy_qk(mask.shape[0], mask.shape[1], TOY_DK)
    steps = attention_steps(q, k, k, mask)
    return steps.scaled, steps.weights


def toy_stages(key: str, mask: np.ndarray, query_labels, key_labels) -> None:
    show_stages(key, mask, *toy_scores(mask), query_labels, key_labels)


presentation.page_title(t("masks.title"), t("masks.intro"))
st.latex(r"\begin{gathered}\mathrm{Attention}(Q,K,V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}} + M\right)V \\ "
         rf"M_{{ij}} = \begin{{cases}} 0 & \text{{{t('masks.tex.allowed')}}} \\ -\infty & \text{{{t('masks.tex.masked')}}} "
         r"\end{cases}\end{gathered}")

doc_tokens = list(masks.DOC_SENTENCE)


# ---------------------------------------------------------------- the notes' 4×4 example
def doc_section() -> None:
    """The four stages of a causal mask on "i have a dream" first, then what each token sees and why −∞, not 0."""
    causal = masks.causal_mask(len(doc_tokens))
    st.caption(t("masks.toy", d=TOY_DK))
    toy_stages("masks.doc", causal, doc_tokens, doc_tokens)
    st.markdown(t("masks.doc.text", n=len(doc_tokens)))
    st.markdown("\n".join(
        t("masks.doc.sees", token=tok, keys=join(seen)) for tok, seen in zip(doc_tokens, masks.visible_keys(causal, doc_tokens))
    ))
    q, k = masks.toy_qk(len(doc_tokens), len(doc_tokens), TOY_DK)
    row = attention_steps(q, k, k).scaled[0]
    zeroed = softmax(np.where(causal[0], row, 0.0))
    st.warning(t("masks.zero_vs_inf", token=doc_tokens[0], zeroed=join(num(x, 3) for x in zeroed),
                 proper=join(num(x, 3) for x in softmax(np.where(causal[0], row, -np.inf)))))


# ---------------------------------------------------------------- teacher forcing is not decoding
def exposure_section() -> None:
    """Where training's prefix (the reference) and translation's (the model's own tokens) part: exposure bias."""
    for sentence, reference in in_direction(masks.EXPOSURE_EXAMPLES):  # each sentence in the language the model reads
        free = translations.translation_of(sentence)
        forced = translations.teacher_forced(sentence, reference)
        k = masks.first_divergence(free.output_tokens, forced.output_tokens)
        if k is not None and k + 1 < min(len(free.steps), len(forced.steps)):
            break
    else:
        st.info(t("masks.exposure.none"))
        return
    rows = range(min(len(free.steps), len(forced.steps)))
    def pct(p: float) -> str:  # a tiny probability must not read as 0%
        return table_view.percent(p) if p >= 0.005 else f"{p * 100:.1g}%"
    frame = pd.DataFrame({
        t("masks.exposure.train_reads"): [forced.target_tokens[i] for i in rows],
        t("masks.exposure.train_top"): [f"{forced.steps[i].candidates[0].token} ({pct(forced.steps[i].candidates[0].prob)})" for i in rows],
        t("masks.exposure.free_reads"): [free.target_tokens[i] for i in rows],
        t("masks.exposure.free_writes"): [f"{free.steps[i].chosen.token} ({pct(free.steps[i].chosen.prob)})" for i in rows],
    }, index=pd.Index([str(i + 1) + (" ◀" if i == k + 1 else "") for i in rows], name=t("masks.exposure.step")))
    after = forced.steps[k + 1]
    st.markdown(t("masks.exposure.text", english=md_escape(sentence), reference=reference,
                  translation=md_escape(free.translation), step=k + 1, wrote=free.output_tokens[k],
                  right=forced.output_tokens[k], ref_prob=pct(forced.steps[k].chosen.prob),
                  train_prefix=as_text(forced.target_tokens[1 : k + 2]), free_prefix=as_text(free.target_tokens[1 : k + 2]),
                  next=k + 2, train_top=after.candidates[0].token, train_top_prob=pct(after.candidates[0].prob),
                  free_next=free.steps[k + 1].chosen.token))
    table_view.table(frame)


# ---------------------------------------------------------------- the live decoder
result = translations.current_result()


@st.fragment
def live_causal() -> None:
    _, layer, head = head_picker("masks.live", result, kinds=("decoder_self",))
    qkv = result.head("decoder_self", layer, head)
    steps = attention_steps(qkv.q, qkv.k, qkv.v, qkv.mask)
    tokens = positions(result.target_tokens)
    st.markdown(t("masks.live.text", n=len(tokens)))
    show_stages("masks.live", qkv.mask, steps.scaled, steps.weights, tokens, tokens)
    diff = float(np.abs(steps.weights - qkv.weights).max())
    (st.success if diff < 1e-4 else st.error)(t("masks.live.check", diff=f"{diff:.1e}"))


# ---------------------------------------------------------------- padding
sources = [list(s) for s in masks.BATCH_SOURCES]
lengths = [len(s) for s in sources]
padded = masks.pad_tokens(sources)
keep = masks.padding_mask(lengths)


def padded_batch() -> None:
    st.markdown(t("masks.pad.text", a=lengths[0], b=lengths[1], width=keep.shape[1]))
    charts.chart(
        padding_figure(keep, padded, title=t("masks.pad.fig"), sentence_title=t("masks.pad.sentence"),
                       position_title=t("masks.pad.position"), real_label=t("masks.pad.real"), pad_label=t("masks.pad.pad")),
        key="masks.pad.batch",
    )
    show_table(keep.astype(float), [t("masks.pad.row", i=i) for i in range(len(sources))],
               [str(j) for j in range(keep.shape[1])], t("masks.pad.index"))


def padded_views(row: int) -> dict[str, tuple[np.ndarray, list[str], list[str]]]:
    """Per attention kind of the padded batch: its mask for sentence `row`, query labels, key labels."""
    tokens = positions(padded[row])
    targets = [list(x) for x in masks.BATCH_TARGETS]
    target_tokens = positions(masks.pad_tokens(targets)[row])
    return {
        "self": (masks.self_attention_mask(lengths, causal=False)[row], tokens, tokens),
        "combined": (masks.self_attention_mask(lengths, causal=True)[row], tokens, tokens),
        "cross": (masks.cross_mask([len(x) for x in targets], lengths)[row], target_tokens, tokens),
    }


@st.fragment
def padding_views() -> None:
    rows = range(len(sources))
    row = st.segmented_control(t("masks.pad.pick"), rows, format_func=lambda i: " ".join(sources[i]),
                               persist_state="session", key="masks.pad.row", required=True,
                               default=widget_state.kept("masks.pad.row", rows, 1))
    # One kind at a time: twelve heatmaps at once made this the slowest page to draw.
    kind = st.segmented_control(t("masks.pad.kind"), PAD_KINDS, format_func=lambda k: t(f"masks.pad.kind.{k}"),
                                persist_state="session", key="masks.pad.kind", required=True, wrap=True,
                                default=widget_state.kept("masks.pad.kind", PAD_KINDS))
    st.subheader(t(f"masks.{kind}.header"))
    st.markdown(t(f"masks.{kind}.text"))
    toy_stages(f"masks.pad.{kind}", *padded_views(row)[kind])


def live_section() -> None:
    sentence_banner(result)
    live_causal()


def padding_section() -> None:
    padded_batch()
    padding_views()
    st.info(t("masks.convention"))


sections("masks", {"doc": doc_section, "exposure": exposure_section, "live": live_section, "pad": padding_section,
                   "try": exercises.masks_exercise}, n=len(doc_tokens))
