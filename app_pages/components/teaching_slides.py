"""Slides of the teaching pages' live views, for the deck (Pin to deck on Q·K·V, Masks and Multi-head): the link
names each page's slide carries, its title, and its chart. The charts are built here, from a translation, by the
functions the pages' views call too: a slide redraws what its page drew.

- Q·K·V: one query's scores, scaled scores and weights over the keys (kind, layer, head, query);
- Masks: the decoder's causal mask on one head, its masked scores beside their weights (layer, head);
- Multi-head: the two heads of a layer that read most differently for one query, beside their average (kind, layer).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from app_pages.components import attention_view
from app_pages.components.teaching_shared import positions
from app_pages.shell.link_values import BadLinkValue, Param, number_in
from app_pages.shell.text import listing, t
from lessons import masks
from lessons.attention_math import attention_steps
from lessons.deck import MAX_TITLE, Slide
from lessons.live import QueryWalk, walk_query
from lessons.multihead import HeadPair, most_different_heads
from model import TranslationResult
from viz.options import Frame, Labels, Room
from viz.style import MAX_HEIGHT_PX, MAX_WIDTH_PX
from viz.teaching_masks import mask_stage_figure
from viz.teaching_multihead import two_heads_figure
from viz.teaching_qkv import score_steps_figure
from viz.tiling import side_by_side

# Each page's slide: the link names it reads (the page's link reads the same), the ones a slide must have.
PAGES = {"qkv": {"s", "model", "tab", "kind", "layer", "head", "query"}, "masks": {"s", "model", "tab", "layer", "head"},
         "multihead": {"s", "model", "tab", "kind", "layer"}}
REQUIRED = {"qkv": ("s", "model", "kind", "layer", "head", "query"), "masks": ("s", "model", "layer", "head"),
            "multihead": ("s", "model", "kind", "layer")}
LIVE_TAB = {"qkv": "live", "masks": "live", "multihead": "why"}  # the tab each page's pinned view is on
MASKS_KIND = "decoder_self"  # the one kind with a causal mask, the live masks section's
STAGE_GAP_PX = 16
STAGES = ("mask", "scores", "masked", "weights")  # a masked head's four stages, two to a row
WHY_PX = 460  # Multi-head's chart beside its text: the whole of it on a 1280×800 screen, under the title and tabs


@dataclass(frozen=True)
class Pick:
    """Which live view a teaching slide shows: the attention kind, layer, head and query position (0-based; the
    pages that do not choose a head or a query leave them 0)."""

    kind: str
    layer: int
    head: int = 0
    query: int = 0


def pinned(page: str, sentence: str, model: str, pick: Pick) -> Slide:
    """The slide of `page`'s live view `pick` of `model`'s translation of `sentence`: the page's link to it and a
    title computed from it, in the session's language."""
    values = {"kind": pick.kind, "layer": str(pick.layer + 1), "head": str(pick.head + 1), "query": str(pick.query)}
    query = {"s": sentence, "model": model, "tab": LIVE_TAB[page],
             **{name: values[name] for name in REQUIRED[page] if name in values}}
    return Slide(page, query, title(page, sentence, pick)[:MAX_TITLE])


def title(page: str, sentence: str, pick: Pick) -> str:
    names = dict(kind=attention_view.kind_name(pick.kind), layer=attention_view.layer_name(pick.layer),
                 head=attention_view.head_name(pick.head), query=pick.query,
                 sentence=attention_view.short_sentence(sentence))
    return t(f"deck.{page}_title", **names)


def qkv_steps_figure(walk: QueryWalk, keys: list[str], room: Room = Room()) -> go.Figure:
    """One query's raw q·k, its scores after ÷√d_k (−∞ where masked) and its weights, over the keys."""
    steps = walk.steps
    return score_steps_figure(keys, steps.scores[0], steps.masked[0], steps.weights[0],
                              titles=(t("qkv.fig.dot"), t("qkv.fig.scaled", root=f"{steps.divisor:.3f}"),
                                      t("qkv.fig.weights")),
                              key_title=t("teach.axis.keys"), masked_label=t("teach.masked"), room=room)


def stage_figures(mask: np.ndarray, scaled: np.ndarray, weights: np.ndarray, query_labels, key_labels,
                  stage_px: float, max_height: float = MAX_HEIGHT_PX) -> list[go.Figure]:
    """Mask M, scores before masking, after masking, after softmax (queries down, keys across), each laid out for
    `stage_px` × `max_height`."""
    values = {"mask": masks.additive_mask(mask), "scores": scaled, "masked": np.where(mask, scaled, -np.inf),
              "weights": weights}
    return [mask_stage_figure(stage, values[stage],
                              Labels(query_labels, key_labels, t("teach.axis.queries"), t("teach.axis.keys"),
                                     t(f"masks.value.{stage}")),
                              title=t(f"masks.stage.{stage}"), room=Room(stage_px, max_height))
            for stage in STAGES]


def stage_rows(figures: list[go.Figure], stage_px: float) -> list[go.Figure]:
    """The four stages two to a row, each row one figure, the panels of a row starting at one height."""
    return [side_by_side(figures[row: row + 2], stage_px, STAGE_GAP_PX) for row in (0, 2)]


def why_figure(pair: HeadPair, key_labels: list[str], layer: int, query: str, max_height: float = WHY_PX
               ) -> go.Figure:
    """The two heads of `pair` over the keys for its query, beside their average."""
    a, b = pair.heads
    return two_heads_figure(key_labels, pair.rows[0], pair.rows[1], pair.average,
                            frame=Frame(t("multihead.why.fig", layer=layer + 1, query=query), t("teach.axis.keys"),
                                        t("multihead.why.weight")),
                            names=(t("explorer.head_n", n=a + 1), t("explorer.head_n", n=b + 1),
                                   t("multihead.why.mean")),
                            max_height=max_height)


def figure(page: str, result: TranslationResult, pick: Pick, max_width: float = MAX_WIDTH_PX,
           max_height: float = MAX_HEIGHT_PX) -> go.Figure:
    """A teaching slide's chart of `result`, as its page draws it (Masks: its second row, the masked scores and
    their weights), within max_width × max_height."""
    if page == "multihead":
        query_tokens, key_tokens = result.axis_tokens(pick.kind)
        pair = most_different_heads(result.attention(pick.kind)[pick.layer])
        return why_figure(pair, positions(key_tokens), pick.layer, positions(query_tokens)[pair.query], max_height)
    head = result.head(pick.kind, pick.layer, pick.head)
    if page == "qkv":
        keys = positions(result.axis_tokens(pick.kind)[1])
        walk = walk_query(head.q, head.k, head.v, head.mask, head.weights, pick.query)
        return qkv_steps_figure(walk, keys, Room(max_width, max_height))
    steps = attention_steps(head.q, head.k, head.v, head.mask)
    tokens = positions(result.target_tokens)
    stage_px = (max_width - STAGE_GAP_PX) // 2
    figures = stage_figures(head.mask, steps.scaled, steps.weights, tokens, tokens, stage_px, max_height)
    return stage_rows(figures, stage_px)[1]



def tab_param(prefix: str, names: tuple[str, ...], **values) -> Param:
    """A teaching page's open tab in its link, by its name (the tab's state is its label, in the session's
    language: teaching_shared.sections); `values`, what the labels hold."""
    labels = {name: t(f"{prefix}.tab.{name}", **values) for name in names}

    def read(text: str) -> str:
        if text not in labels:
            raise BadLinkValue("choice", options=listing(names))
        return labels[text]

    return Param(f"{prefix}.tab", read, lambda label: next((n for n, shown in labels.items() if shown == label),
                                                              names[0]))


def link_params(prefix: str, config, kind: str, with_head: bool = True, with_kind: bool = True) -> dict[str, Param]:
    """A teaching page's live view in its link, as its pickers hold it (keys under `prefix`; `kind`, the kind the
    layer counts are of): the kind (where the page offers a choice), layer and head (1-based)."""
    layers = config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers
    params = {"kind": attention_view.kind_param(f"{prefix}.kind")} if with_kind else {}
    params["layer"] = attention_view.index_param(f"{prefix}.layer", layers, False)
    if with_head:
        params["head"] = attention_view.index_param(f"{prefix}.head", config.n_heads, False)
    return params


def query_param(key: str, config) -> Param:
    """Q·K·V's query position in its link (from 0, as its picker shows it), its picker keyed `key`."""
    return Param(key, number_in(0, config.max_len - 1))
