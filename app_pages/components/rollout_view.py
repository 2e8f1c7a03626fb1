"""The explorer's rollout view (Abnar & Zuidema 2020): where a layer's information came from in the input tokens,
not one layer's raw weights. Each layer's map is averaged over heads, the residual connection added as half of
each row, and the layers multiplied from the bottom up (lessons/explanation.py):

- encoder (or decoder) self-attention, layer L: rolled out through self-attention layers 1 … L;
- cross-attention, decoder layer L: its head average times the encoder's rollout through all its layers, since
  the encoder outputs it reads are themselves mixtures of the input tokens (cross_rollout). The decoder side is
  not rolled out: decoder layers below L (self-attention, residual) are left out, as the view's help says.

Heads are averaged by the method, so the view has a layer picker and no head picker.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from app_pages.components import attention_view, charts
from app_pages.shell.text import t
from app_pages.shell import presentation
from lessons.attention_maps import ALL, shown_mask
from lessons.explanation import cross_rollout, rollout
from model import TranslationResult
from viz.heatmap import attention_heatmap
from viz.options import Labels, split_layout

VIEW = "rollout"  # the explorer's view name, in its picker and its link


def rollout_map(result: TranslationResult, kind: str, layer: int) -> np.ndarray:
    """(Tq, Tk) rollout of `kind` into layer `layer` (0-based) of `result`, as the view draws it."""
    if kind == "cross":
        return cross_rollout(result.cross, result.encoder_self, layer)
    return rollout(result.attention(kind)[: layer + 1])


def layer_picker(prefix: str, layers: int) -> int:
    """The layer the rollout goes into, keyed as the explorer's own layer picker (so the link and the other views
    keep it)."""
    return attention_view.index_picker(f"{prefix}.layer", t("explorer.layer"), list(range(layers)))


def rollout_figure(result: TranslationResult, kind: str, layer: int, languages: attention_view.Languages | None = None,
                   **layout) -> go.Figure:
    """The rollout map on the kind's query and key axes (named in `languages`, attention_view.axis_names), with the
    same heatmap as the raw maps; `layout`: the title (the view's own by default) and size limits."""
    matrix = rollout_map(result, kind, layer)
    queries, keys = result.axis_tokens(kind)
    labels = {**attention_view.axis_titles(kind, languages), "value_label": t("rollout.value")}
    layout.setdefault("title", t(f"rollout.title.{kind}", layer=layer + 1))
    words, room, rest = split_layout({**labels, **layout})
    return attention_heatmap(matrix, Labels(queries, keys, masked_label=t("axis.masked"), **words),
                             mask=shown_mask(kind, *matrix.shape), room=room, **rest)


def rollout_chart(result: TranslationResult, kind: str, layer: int, *, key: str, model: str,
                  languages: attention_view.Languages | None = None, **layout) -> None:
    """rollout_figure drawn, its numbers under it with Pin to deck for `model`'s translation (none in presentation
    mode); `languages`: `model`'s (source, target); `layout`: size limits (screen.map_limits)."""
    charts.chart(rollout_figure(result, kind, layer, languages, **layout), key=key)
    if presentation.presenting():  # the map and its controls fill the screen
        return
    shown = attention_view.MapView.of(result, kind, layer, ALL, languages)
    numbers = attention_view.numbers_of(rollout_map(result, kind, layer), shown, result.source_text, computed=VIEW)
    attention_view.draw_numbers(numbers, key, attention_view.pinned_view(kind, layer, ALL, result.source_text, model,
                                                                         VIEW))
