"""What the masks page shows, computed without drawing anything (masks.py draws it): the causal mask on the notes'
"i have a dream", where teacher forcing and decoding part, the live decoder's causal mask on one head (with its slide
for Pin to deck), and a padded batch's masks. Plain data out (components/parts); tests/test_masks_view.py reads it
without Streamlit."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from app_pages.components import table_view, teaching_slides
from app_pages.components.parts import Caption, Chart, Formula, Heading, Notice, Parts, Table, Text
from app_pages.components.teaching_shared import as_text, join, num, positions, table
from app_pages.shell.text import md_escape, t
from lessons import masks
from lessons.attention_math import attention_steps, softmax
from lessons.deck import Slide
from model import TranslationResult
from viz.style import MAX_WIDTH_PX
from viz.teaching_masks import padding_figure

TOY_DK = 4
STAGE_WIDTH_PX = (MAX_WIDTH_PX - teaching_slides.STAGE_GAP_PX) // 2  # two stages side by side share the main column
PAD_KINDS = ("self", "combined", "cross")  # the attentions whose masks the padded batch shows
CHECK_TOLERANCE = 1e-4  # the live recomputation agrees with the model's weights within this
DOC_TOKENS = tuple(masks.DOC_SENTENCE)


def formula() -> Formula:
    """Attention with an additive mask M: 0 where allowed, −∞ where masked."""
    return Formula(
        r"\begin{gathered}\mathrm{Attention}(Q,K,V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}} + M\right)V"
        rf" \\ M_{{ij}} = \begin{{cases}} 0 & \text{{{t('masks.tex.allowed')}}} \\ -\infty & "
        rf"\text{{{t('masks.tex.masked')}}} \end{{cases}}\end{{gathered}}")


def stages(key: str, mask: np.ndarray, scaled: np.ndarray, weights: np.ndarray, query_labels, key_labels) -> tuple:
    """Mask M, scores before masking, after masking, after softmax: two to a row, each row one chart (keyed
    `key`.mask-scores and `key`.masked-weights), then the rows' sums and the largest weight where masked."""
    figures = teaching_slides.stage_figures(mask, scaled, weights, query_labels, key_labels, STAGE_WIDTH_PX)
    rows = teaching_slides.stage_rows(figures, STAGE_WIDTH_PX)
    names = teaching_slides.STAGES
    sums = join(f"{x:.4f}" for x in weights.sum(axis=1))
    return (Chart(rows[0], f"{key}.{names[0]}-{names[1]}"), Chart(rows[1], f"{key}.{names[2]}-{names[3]}"),
            Caption(t("masks.rowsums", sums=sums, above=num(float(np.abs(weights[~mask]).max(initial=0.0)), 6))))


def toy_stages(key: str, mask: np.ndarray, query_labels, key_labels) -> tuple:
    """stages() of random q, k under `mask` (a few small arrays: 0.3 ms, not worth a cache)."""
    q, k = masks.toy_qk(mask.shape[0], mask.shape[1], TOY_DK)
    steps = attention_steps(q, k, k, mask)
    return stages(key, mask, steps.scaled, steps.weights, query_labels, key_labels)


def doc_parts() -> tuple:
    """The four stages of a causal mask on "i have a dream" first, then what each token sees and why −∞, not 0."""
    tokens = list(DOC_TOKENS)
    causal = masks.causal_mask(len(tokens))
    q, k = masks.toy_qk(len(tokens), len(tokens), TOY_DK)
    row = attention_steps(q, k, k).scaled[0]
    zeroed = softmax(np.where(causal[0], row, 0.0))
    proper = softmax(np.where(causal[0], row, -np.inf))
    return Parts().add(
        Caption(t("masks.toy", d=TOY_DK)),
        *toy_stages("masks.doc", causal, tokens, tokens),
        Text(t("masks.doc.text", n=len(tokens))),
        Text("\n".join(t("masks.doc.sees", token=tok, keys=join(seen))
                       for tok, seen in zip(tokens, masks.visible_keys(causal, tokens)))),
        Notice(t("masks.zero_vs_inf", token=tokens[0], zeroed=join(num(x, 3) for x in zeroed),
                 proper=join(num(x, 3) for x in proper)), "warning"),
    ).done()


def percent(p: float) -> str:
    """A probability as the exposure table prints it: a tiny one must not read as 0%."""
    return table_view.percent(p) if p >= 0.005 else f"{p * 100:.1g}%"


def exposure_parts(pairs: Iterable[tuple[str, str, TranslationResult, TranslationResult]]) -> tuple:
    """Where training's prefix (the reference) and translation's (the model's own tokens) part, on the first of
    `pairs` (sentence, reference, its free translation, its teacher-forced run: read lazily) where they part
    before the last step; a note where none does."""
    for sentence, reference, free, forced in pairs:
        k = masks.first_divergence(free.output_tokens, forced.output_tokens)
        if k is not None and k + 1 < min(len(free.steps), len(forced.steps)):
            break
    else:
        return (Notice(t("masks.exposure.none")),)
    rows = range(min(len(free.steps), len(forced.steps)))
    frame = pd.DataFrame({
        t("masks.exposure.train_reads"): [forced.target_tokens[i] for i in rows],
        t("masks.exposure.train_top"): [f"{forced.steps[i].candidates[0].token} "
                                        f"({percent(forced.steps[i].candidates[0].prob)})" for i in rows],
        t("masks.exposure.free_reads"): [free.target_tokens[i] for i in rows],
        t("masks.exposure.free_writes"): [f"{free.steps[i].chosen.token} ({percent(free.steps[i].chosen.prob)})"
                                          for i in rows],
    }, index=pd.Index([str(i + 1) + (" ◀" if i == k + 1 else "") for i in rows], name=t("masks.exposure.step")))
    after = forced.steps[k + 1]
    text = t("masks.exposure.text", english=md_escape(sentence), reference=reference,
             translation=md_escape(free.translation), step=k + 1, wrote=free.output_tokens[k],
             right=forced.output_tokens[k], ref_prob=percent(forced.steps[k].chosen.prob),
             train_prefix=as_text(forced.target_tokens[1: k + 2]), free_prefix=as_text(free.target_tokens[1: k + 2]),
             next=k + 2, train_top=after.candidates[0].token, train_top_prob=percent(after.candidates[0].prob),
             free_next=free.steps[k + 1].chosen.token)
    return (Text(text), Table(frame))


@dataclass(frozen=True)
class LiveView:
    """The live decoder's causal mask on one head: its parts, and Pin to deck's slide of it (drawn under its
    stages, before the check)."""

    parts: tuple
    pin: Slide
    check: Notice


def live_view(result: TranslationResult, layer: int, head: int, model: str) -> LiveView:
    """`model`'s translation `result`: decoder self-attention's `layer`, `head` recomputed through the four
    stages, checked against the model's own weights."""
    qkv = result.head(teaching_slides.MASKS_KIND, layer, head)
    steps = attention_steps(qkv.q, qkv.k, qkv.v, qkv.mask)
    tokens = positions(result.target_tokens)
    diff = float(np.abs(steps.weights - qkv.weights).max())
    parts = (Text(t("masks.live.text", n=len(tokens))),
             *stages("masks.live", qkv.mask, steps.scaled, steps.weights, tokens, tokens))
    pick = teaching_slides.Pick(teaching_slides.MASKS_KIND, layer, head)
    return LiveView(parts, teaching_slides.pinned("masks", result.source_text, model, pick),
                    Notice(t("masks.live.check", diff=f"{diff:.1e}"), "success" if diff < CHECK_TOLERANCE else "error"))


@dataclass(frozen=True)
class Batch:
    """The notes' padded batch: each sentence's tokens, their lengths, the batch padded, its padding mask."""

    sources: tuple[tuple[str, ...], ...]
    lengths: tuple[int, ...]
    padded: list
    keep: np.ndarray


def batch() -> Batch:
    sources = tuple(tuple(s) for s in masks.BATCH_SOURCES)
    lengths = tuple(len(s) for s in sources)
    return Batch(sources, lengths, masks.pad_tokens([list(s) for s in sources]), masks.padding_mask(list(lengths)))


def batch_parts(shown: Batch) -> tuple:
    """The padded batch as a chart and as its 0/1 mask."""
    keep = shown.keep
    figure = padding_figure(keep, shown.padded, title=t("masks.pad.fig"), sentence_title=t("masks.pad.sentence"),
                            position_title=t("masks.pad.position"), real_label=t("masks.pad.real"),
                            pad_label=t("masks.pad.pad"))
    return (Text(t("masks.pad.text", a=shown.lengths[0], b=shown.lengths[1], width=keep.shape[1])),
            Chart(figure, "masks.pad.batch"),
            Table(table(keep.astype(float), [t("masks.pad.row", i=i) for i in range(len(shown.sources))],
                        [str(j) for j in range(keep.shape[1])], t("masks.pad.index"))))


def padded_views(shown: Batch, row: int) -> dict[str, tuple[np.ndarray, list[str], list[str]]]:
    """Per attention kind of the padded batch: its mask for sentence `row`, query labels, key labels."""
    lengths = list(shown.lengths)
    tokens = positions(shown.padded[row])
    targets = [list(x) for x in masks.BATCH_TARGETS]
    target_tokens = positions(masks.pad_tokens(targets)[row])
    return {
        "self": (masks.self_attention_mask(lengths, causal=False)[row], tokens, tokens),
        "combined": (masks.self_attention_mask(lengths, causal=True)[row], tokens, tokens),
        "cross": (masks.cross_mask([len(x) for x in targets], lengths)[row], target_tokens, tokens),
    }


def padded_parts(shown: Batch, row: int, kind: str) -> tuple:
    """One kind of attention's mask on sentence `row` of the batch, through the four stages."""
    return (Heading(t(f"masks.{kind}.header"), 3), Text(t(f"masks.{kind}.text")),
            *toy_stages(f"masks.pad.{kind}", *padded_views(shown, row)[kind]))
