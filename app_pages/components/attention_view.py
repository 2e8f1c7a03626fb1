"""One attention map as the explorer pages draw it (translate, compare, lab, replay): the kind, layer and head
pickers and the link values that carry them, and the map itself (a MapView: the weights, the kind, the layer and head
picked, the tokens on its axes and their languages), queries on rows and keys on columns, with the cells the decoder
may not see greyed out, and under it its numbers (CSV to download, TSV to copy). A page computes a MapChart
(map_chart_of) and draws it (draw_map); each page passes its own keys: links and persisted state name them.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from app_pages.state import direction, widget_state
from app_pages.shell.link_values import BadLinkValue, Param, decimal_in, number_in, one_of
from app_pages.state.state_keys import DECK
from app_pages.shell.text import md_escape, t
from app_pages.components import charts
from app_pages.shell import screen
from lessons.attention_maps import ALL, pick, shown_mask
from lessons.attention_table import MapName, attention_table
from lessons.deck import MAX_SLIDES, MAX_TITLE, Slide, difference
from model import ATTENTION_KINDS, TranslationResult
from viz.heatmap import attention_heatmap, difference_heatmap
from viz.head_view import head_view
from viz.model_view import model_view
from viz.options import Heads, Labels, split_layout


def kind_name(kind: str) -> str:
    return t(f"kind.{kind}")


def kind_picker(key: str, default: str) -> str:
    """The attention kind, keyed `key`; a new session starts on `default` (a link may have set the key)."""
    return st.segmented_control(t("explorer.kind"), ATTENTION_KINDS, format_func=kind_name, persist_state="session",
                                key=key, required=True, default=widget_state.kept(key, ATTENTION_KINDS, default))


def kind_param(key: str) -> Param:
    """The link's "kind" for kind_picker(key, …)."""
    return Param(key, one_of(ATTENTION_KINDS))


def layer_name(layer: int) -> str:
    return t("explorer.all_layers") if layer == ALL else t("explorer.layer_n", n=layer + 1)


def head_name(head: int) -> str:
    return t("explorer.all_heads") if head == ALL else t("explorer.head_n", n=head + 1)


def layer_and_head_name(layer: int, head: int) -> str:
    """"layer 2 · head 3" (either may be an average), as a map's heading or a chart's line names the selection."""
    return t("decoding.which", layer=layer_name(layer), head=head_name(head))


def short_name(index: int) -> str:
    """A layer or head in a compact picker: its 1-based number, or "average"."""
    return t("explorer.average") if index == ALL else str(index + 1)


def index_picker(key: str, label: str, options, first=None) -> int:
    """A segmented layer or head picker, opening on `first` (default the first option); a choice the sentence or
    model made impossible falls back to it."""
    options = list(options)
    chosen = widget_state.kept(key, options, first)  # a link or a grid click may have set the key
    return st.segmented_control(label, options, format_func=short_name, persist_state="session", key=key,
                                required=True, default=chosen)


def layer_head_selectors(prefix: str, layers: int, heads: int, average_layers: bool, side: str = "",
                         first_layer: int | None = None) -> tuple[int, int]:
    """Layer and head pickers keyed under `prefix`, side by side in the caller's container (a horizontal one puts
    them on the row of the caller's other controls); returns (layer, head), ALL for averages. `side` ("A", "B")
    leads their labels where two pairs share a row; `first_layer`: the layer a session opens on (default the first
    option)."""
    layer_options = ([ALL] if average_layers else []) + list(range(layers))
    lead = f"{side} · " if side else ""
    layer = index_picker(f"{prefix}.layer", lead + t("explorer.layer"), layer_options, first_layer)
    head = index_picker(f"{prefix}.head", lead + t("explorer.head"), [ALL, *range(heads)])
    return layer, head


def index_text(index: int) -> str:
    """A layer or head as a link and a file name write it: its 1-based number, or "average" (ALL)."""
    return "average" if index == ALL else str(index + 1)


def index_param(key: str, count: int, average: bool) -> Param:
    """A layer or head in a link: its 1-based number, or "average" (ALL) where the picker offers an average."""
    by_number = number_in(1, count, offset=1)

    def read(text: str) -> int:
        if average and text == "average":
            return ALL
        try:
            return by_number(text)
        except BadLinkValue:
            raise BadLinkValue("number_or_average" if average else "number", low=1, high=count) from None

    return Param(key, read, index_text)


def layer_head_params(prefix: str, layers: int, heads: int, average_layers: bool) -> dict[str, Param]:
    """The link's "layer" and "head" for the pickers of layer_head_selectors(prefix, …)."""
    return {"layer": index_param(f"{prefix}.layer", layers, average_layers),
            "head": index_param(f"{prefix}.head", heads, True)}


# Which sentence a map's rows (queries) and columns (keys) are tokens of, for each kind.
SIDES = {"encoder_self": ("source", "source"), "decoder_self": ("target", "target"), "cross": ("target", "source")}
Languages = tuple[str, str]  # (source, target) language codes of the model whose map it is: ("zh", "en")


def kind_help(kind: str, languages: Languages | None = None) -> str:
    """What a map of `kind` shows, naming the languages of `languages` (the session's model's by default)."""
    source, target = languages or direction.current()
    return t(f"kind.{kind}.help", source=direction.language_name(source), target=direction.language_name(target))


def axis_names(kind: str, languages: Languages | None = None) -> tuple[str, str]:
    """Which tokens a map of `kind` has on its rows and columns: in the languages of `languages` ("queries (Chinese
    source tokens)"), or without languages where the map is of none (the lab's toy tasks)."""
    if languages is None:
        return t(f"axis.{kind}.queries"), t(f"axis.{kind}.keys")
    named = [t(f"axis.{side}_tokens", language=direction.language_name(languages[0 if side == "source" else 1]))
             for side in SIDES[kind]]
    return t("axis.queries_of", tokens=named[0]), t("axis.keys_of", tokens=named[1])


def axis_titles(kind: str, languages: Languages | None = None) -> dict[str, str]:
    """Which tokens a map of `kind` has on its rows (queries) and columns (keys) (axis_names), and what its colour
    means."""
    queries, keys = axis_names(kind, languages)
    return {"query_title": queries, "key_title": keys, "value_label": t("axis.weight")}


def short_axis_titles() -> dict[str, str]:
    """Axis titles for a map in a third of the page ("queries", "keys"): the full ones would wrap to three lines each
    and take a third of Compare's maps' room; the page says once which tokens they are (axes_note)."""
    return {"query_title": t("axis.queries"), "key_title": t("axis.keys")}


def axes_note(kind: str, languages: Languages | None = None) -> str:
    """Which tokens the rows and columns of maps of `kind` are, for a caption under maps with short_axis_titles."""
    queries, keys = axis_names(kind, languages)
    return t("axis.note", queries=queries, keys=keys)


@dataclass(frozen=True)
class MapView:
    """One map of a translation's attention as a page picks it: `weights`, a (layers, heads, Tq, Tk) array of
    `kind`; `layer` and `head` (ALL: their average); the tokens on its rows (`queries`) and columns (`keys`); and
    `languages`, the (source, target) its axes name (None: a map of no language, the lab's toy tasks)."""

    weights: np.ndarray
    kind: str
    layer: int
    head: int
    queries: list[str]
    keys: list[str]
    languages: Languages | None = None

    @classmethod
    def of(cls, result: TranslationResult, kind: str, layer: int, head: int,
           languages: Languages | None = None) -> MapView:
        """`result`'s map of `kind` at `layer` and `head`, on the kind's own axes."""
        return cls(result.attention(kind), kind, layer, head, *result.axis_tokens(kind), languages)

    def picked(self) -> np.ndarray:
        """The (Tq, Tk) weights the map draws."""
        return pick(self.weights, self.layer, self.head)

    def transposed(self) -> MapView:
        """The same cells the other way up: keys down the side, queries across."""
        return replace(self, weights=np.swapaxes(self.weights, -1, -2), queries=self.keys, keys=self.queries)

    def title(self) -> str:
        """"Cross-attention · layer 2 · head 3", as the explorer titles a map."""
        return t("explorer.map_title", kind=kind_name(self.kind), layer=layer_name(self.layer),
                 head=head_name(self.head))

    def figure(self, **layout) -> go.Figure:
        """The one layer and head (or average) as a heatmap, its axes named in `languages` (axis_names); `layout`:
        the heatmap's title and size limits."""
        words, room, rest = split_layout({**axis_titles(self.kind, self.languages), **layout})
        return attention_heatmap(self.picked(), Labels(self.queries, self.keys, masked_label=t("axis.masked"), **words),
                                 mask=shown_mask(self.kind, *self.weights.shape[2:]), room=room, **rest)

    def lines_figure(self, query: int | None, min_weight: float, **layout) -> go.Figure:
        """The layer's head (or the mean over heads, drawn as one head, as the heatmaps do) as lines from each query
        token (only `query`'s, where set) to the keys it reads above `min_weight`; `layout`: the title (the view's
        own by default) and size limits."""
        layout.setdefault("title", t("explorer.lines_title", kind=kind_name(self.kind), layer=layer_name(self.layer)))
        average = self.head == ALL
        weights = self.weights[self.layer]
        words, room, rest = split_layout({**axis_titles(self.kind, self.languages), **layout})
        return head_view(weights.mean(axis=0, keepdims=True) if average else weights,
                         Labels(self.queries, self.keys, **words),
                         heads=Heads(None if average else [self.head], t("explorer.head_n"),
                                     [head_name(ALL)] if average else None),
                         query_index=query, min_weight=min_weight, room=room, **rest)

    def grid_figure(self, **layout) -> go.Figure:
        """Every layer and head as small maps, the picked one outlined (none for an average); `layout`: the title
        (the grid's own by default) and size limits."""
        layout.setdefault("title", t("explorer.grid_title", kind=kind_name(self.kind)))
        words, room, rest = split_layout({**axis_titles(self.kind, self.languages), **layout})
        return model_view(self.weights, Labels(self.queries, self.keys, **words), layer_label=t("explorer.layer_n"),
                          head_label=t("explorer.head_n"),
                          selected=None if self.head == ALL else (self.layer, self.head),
                          click_hint=t("explorer.click_hint"), room=room, **rest)


def pinned_view(kind: str, layer: int, head: int, sentence: str, model: str, view: str = "head",
                query: int | None = None, min_weight: float | None = None) -> Slide:
    """A slide of the explorer's `view` (one map, every head with one opened, a rollout, or the head view's lines,
    with their focused `query` and `min_weight`) of `model`'s translation of `sentence`: the explorer's link to it
    (the page where every map of a translation has an address) and a title computed from it, in the session's
    language."""
    query = {"s": sentence, "model": model, "kind": kind, "view": view, "layer": index_text(layer),
             "head": index_text(head), **lines_params(query, min_weight)}
    names = dict(kind=kind_name(kind), layer=layer_name(layer), head=head_name(head), sentence=short_sentence(sentence))
    title = t("deck.slide_title", **names) if view == "head" else t("deck.view_title", view=t(f"view.{view}"), **names)
    return Slide("translate", query, title[:MAX_TITLE])


MIN_WEIGHT = (0.0, 0.5, 0.1, 0.01)  # the head view's threshold: lowest, highest, default, step


def lines_readers(max_len: int) -> dict:
    """How a link's head-view values read (the explorer's link and a deck's slide): `query`, the focused query's
    position, numbered from 0 as its picker shows it; `min`, the threshold."""
    return {"query": number_in(0, max_len - 1), "min": decimal_in(*MIN_WEIGHT[:2])}


def lines_params(query: int | None, min_weight: float | None) -> dict[str, str]:
    """The head view's focused query (its position, from 0 as its picker numbers it) and threshold as a link writes
    them; none where not set."""
    return {**({} if query is None else {"query": str(query)}),
            **({} if min_weight is None else {"min": f"{min_weight:g}"})}


def short_sentence(sentence: str) -> str:
    """A sentence as a slide's title quotes it: 40 characters at most."""
    return sentence if len(sentence) <= 40 else sentence[:39] + "…"


PINNED = "deck.pinned_note"  # what the last Pin to deck did, said by the run it caused (a callback draws nothing)


def _pin(slide: Slide) -> None:
    slides = st.session_state.setdefault(DECK, [])
    if len(slides) >= MAX_SLIDES:
        st.session_state[PINNED] = t("deck.full", n=MAX_SLIDES)
        return
    slides.append(slide)
    st.session_state[PINNED] = t("deck.pinned", n=len(slides), title=md_escape(slide.title))


def pin_button(slide: Slide, key: str) -> None:
    """Pin to deck: adds `slide` (the view on screen) to the session's deck, keyed `key`; says what it did once."""
    st.button(t("deck.pin"), icon=":material/push_pin:", help=t("deck.pin_help"), key=key, on_click=_pin,
              args=(slide,))
    if note := st.session_state.pop(PINNED, None):
        st.toast(note, icon=":material/push_pin:")


def difference_figure(a, b, kind: str, queries: list[str], keys: list[str], languages: Languages | None = None,
                      **layout) -> go.Figure:
    """B − A of two (Tq, Tk) maps of `kind` on the same axes, centred on 0; `layout`: the title and size limits."""
    words, room, rest = split_layout({**axis_titles(kind, languages), "value_label": t("compare.difference"),
                                      **layout})
    return difference_heatmap(difference(a, b), Labels(queries, keys, masked_label=t("axis.masked"), **words),
                              mask=shown_mask(kind, *a.shape), room=room, **rest)


@dataclass(frozen=True)
class Numbers:
    """The (Tq, Tk) weights a chart draws as text: `csv` to download as `file_name`, `tsv` to copy into a
    spreadsheet."""

    csv: str
    tsv: str
    file_name: str


def numbers_of(drawn, shown: MapView, sentence: str, computed: str | None = None) -> Numbers:
    """The numbers of `drawn`, the (Tq, Tk) weights a chart of `shown` draws (its picked map, or numbers computed
    from the weights, which `computed` names in the header: "rollout"), of the translation of `sentence`. The table
    is written once, as CSV; the TSV is its rows again with tabs (every weight formatted once)."""
    about = dict(kind=shown.kind, layer=shown.layer, head=shown.head, sentence=sentence, view=computed)
    table = attention_table(drawn, shown.queries, shown.keys, about=MapName(**about))
    header, rows = table.split("\n", 1)
    tsv = io.StringIO()
    tsv.write(header + "\n")
    csv.writer(tsv, delimiter="\t", lineterminator="\n").writerows(csv.reader(io.StringIO(rows)))
    name = (f"attention-{shown.kind}{'-' + computed if computed else ''}-layer-{index_text(shown.layer)}"
            f"-head-{index_text(shown.head)}.csv")
    return Numbers(table, tsv.getvalue(), name)


def draw_numbers(numbers: Numbers, key: str, pin: Slide | None = None) -> None:
    """`numbers` as a CSV download and as TSV to copy, and Pin to deck for `pin` (the view on screen, where it is a
    translation's), on one row keyed under `key`."""
    with st.container(horizontal=True, vertical_alignment="center", key=f"{key}.numbers"):
        if pin is not None:
            pin_button(pin, f"{key}.pin")
        st.download_button(t("numbers.csv"), numbers.csv, file_name=numbers.file_name, mime="text/csv",
                           icon=":material/download:", on_click="ignore", key=f"{key}.csv")
        with st.popover(t("numbers.tsv"), icon=":material/content_copy:"), st.container(width=screen.POPOVER_PX):
            st.caption(t("numbers.tsv_help"))  # the table scrolls sideways in its box
            st.code(numbers.tsv, language=None)


@dataclass(frozen=True)
class MapChart:
    """A map as a page draws it: its figure, keyed `key`; `present_max_px`, the height left for it once enlarged
    (charts.chart); its `numbers` and Pin to deck's slide `pin`, where the page gives them."""

    figure: go.Figure
    key: str
    present_max_px: int | None = None
    numbers: Numbers | None = None
    pin: Slide | None = None


def map_chart_of(shown: MapView, key: str, *, sentence: str, model: str | None = None, view: str = "head",
                 present_max_px: int | None = None, numbers: bool = True, **layout) -> MapChart:
    """`shown` as a MapChart, its figure fitted to `layout` (screen.map_limits; charts.fitted_map), with its
    numbers unless not `numbers` (none in presentation mode); `sentence` names what the map is of in the numbers'
    header; `model`: the model whose translation of `sentence` it is, for Pin to deck (None for maps that are not a
    translation's: the lab's, training snapshots); `view`: the explorer's view the map is part of, which the pin
    saves."""
    figure = charts.fitted_map(shown.figure, layout, present_max_px)
    if not numbers:
        return MapChart(figure, key, present_max_px)
    pin = None if model is None else pinned_view(shown.kind, shown.layer, shown.head, sentence, model, view)
    return MapChart(figure, key, present_max_px, numbers_of(shown.picked(), shown, sentence), pin)


def draw_map(chart: MapChart) -> None:
    """The map's figure (charts.chart), its numbers under it where it has them."""
    charts.chart(chart.figure, key=chart.key, present_max_px=chart.present_max_px)
    if chart.numbers is not None:
        draw_numbers(chart.numbers, chart.key, chart.pin)
