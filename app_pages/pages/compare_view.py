"""What the compare page shows, computed from its translations and the session's choices without drawing anything
(compare.py draws it): for each comparison, the lines above its maps, the maps as attention_view.MapChart, the
difference map B − A where it has one, and the caption under them. Plain data out; tests/test_compare_view.py reads
it without Streamlit."""

from __future__ import annotations

from dataclasses import dataclass

from app_pages.components import attention_view, charts, chips
from app_pages.components.attention_view import Languages, MapChart, MapView
from app_pages.shell import screen
from app_pages.shell.text import listing, md_escape, sentences, t
from app_pages.state import direction, translations
from lessons.attention_maps import ALL, pick
from lessons.token_alignment import on_spans, span_label, token_spans
from model import ModelConfig, TranslationResult

Pick = tuple[str, int, int]  # a map: (kind, layer, head)


@dataclass(frozen=True)
class MapRoom:
    """The room each map of a comparison may take at 1280×800: its column's width, and the rest of the screen below
    the controls above it, the map's key labels included (a short sentence's cells may then be too small for their
    numbers: the hover and the numbers below give them); plain, and in presentation mode once enlarged."""

    width: int
    height: int
    present_width: int
    present_height: int
    present_zoom: float | None = None  # the enlargement its maps are laid out for (screen.map_limits)

    def limits(self) -> dict:
        """screen.map_limits for a map in this room (in this session: plain or presenting), its colour bar compact
        and its axes titled short: in a narrow column the usual bar would take a third of the map's width, and full
        axis titles three lines each (the caption under the maps says which tokens are on them)."""
        return {**screen.map_limits(plain_px=self.height, max_width=self.width,
                                     present_px=(self.present_width, self.present_height),
                                     present_zoom=self.present_zoom),
                "compact_scale": True, **attention_view.short_axis_titles()}


# Two models: half the page each; their maps start about 460 px down (two rows of controls, the title, a line of
# translations), about 480 in presentation mode. The one-model comparisons: a third of the page each (820 px less
# two 16-px gaps; with the sidebar closed in presentation mode, 1,196 px less two 21-px gaps). Two heads' maps start
# about 500 px down (three rows of controls, a line of labels), in presentation mode about 520, laid out unenlarged:
# the default sentence's maps keep every row's label there. Two sentences' maps start about 475 px (two rows of
# controls, the pairs' row, a line of translations), so A's map and B − A beside it end on the first screen, B under
# A; in presentation mode, laid out for 1.15 times, their rows are 12.7 px tall.
TWO_MODELS_ROOM = MapRoom(screen.HALF_COLUMN_PX, 320, 560, 305)
HEADS_ROOM = MapRoom(262, 290, 370, 270, present_zoom=1.0)
SENTENCES_ROOM = MapRoom(screen.HALF_COLUMN_PX, 430, 560, 430)
# Both ways: half the page each, maps starting about 425 px down (two rows of controls, a line for each model's name
# and translation, two where one wraps), one colour bar for both.
DIRECTIONS_ROOM = MapRoom(screen.HALF_COLUMN_PX, 370, 560, 305)


@dataclass(frozen=True)
class Room:
    """A MapRoom as this run lays maps out in it: its `limits` (MapRoom.limits), the height left for a map once
    enlarged (`present_max_px`), and whether numbers go under the maps (none in presentation mode)."""

    limits: dict
    present_max_px: int
    numbers: bool


@dataclass(frozen=True)
class Side:
    """One model's part of a comparison of two: its offered `name` (what a pin saves), how its line names it
    (`label`), its direction as the page words it (`direction_label`) and as (source, target) codes (`way`), its
    config (its sizes, in the line's tooltip) and its translation."""

    name: str
    label: str
    direction_label: str
    way: Languages
    config: ModelConfig
    result: TranslationResult


@dataclass(frozen=True)
class SideView:
    """A side as drawn: its line (Markdown: who translated, and the translation), the line's tooltip (the model's
    sizes), what it shows where it has fewer layers or heads than asked ("" where none), and its map."""

    line: str
    help: str
    clamped: str
    chart: MapChart


@dataclass(frozen=True)
class DifferenceView:
    """B − A on one grid that holds every token of both maps: its title (Markdown), its map, and the caption that
    says which runs of tokens differ."""

    title: str
    chart: MapChart
    caption: str


@dataclass(frozen=True)
class ModelsView:
    """Two models on one sentence: one title for both maps, each model's side, the caption under them."""

    title: str
    sides: tuple[SideView, SideView]
    caption: str


@dataclass(frozen=True)
class DirectionsView:
    """One sentence pair from both sides: the left model's side and the other direction's on what it wrote (the
    right map transposed on request: `transposed`), whether the toggle that transposes it is offered
    (cross-attention), the caption."""

    sides: tuple[SideView, SideView]
    transposed: bool
    transposable: bool
    caption: str


@dataclass(frozen=True)
class OneMap:
    """Side A or B of the one-model comparisons: its label (with the translation, where each side has its own) and
    its map."""

    line: str
    chart: MapChart


@dataclass(frozen=True)
class HeadsView:
    """Two heads of one sentence: A's map, B's map and B − A side by side, then the one translation and the
    caption."""

    maps: tuple[OneMap, OneMap]
    difference: DifferenceView
    translation: str
    caption: str


@dataclass(frozen=True)
class SentencesView:
    """One head for two sentences: A's line above A's map, B − A beside it, B's map under A's, the caption beside
    B's."""

    a: OneMap
    difference: DifferenceView
    b: OneMap
    caption: str


def says(name: str, translation: str) -> str:
    """Who translated (a model's name, or "A" / "B") and the translation, as one line of Markdown: a long one wraps
    as text does, so the maps under two such lines start level."""
    return f"**{md_escape(name)}** {md_escape(translation) or '∅'}"


def maps_caption(note: str, kind: str, results: tuple[TranslationResult, ...], languages: Languages | None,
                 lead: str = "", axes: str | None = None) -> str:
    """The caption under a comparison's maps: `lead` (if any), what it compares (the text keyed `note`), which tokens
    the maps' short axis titles stand for (in `languages`; or `axes`, said by the caller), what ▁ means where a label
    shows it, and any name the model read as another."""
    tokens = [token for result in results for token in result.source_tokens]
    if axes is None:
        axes = attention_view.axes_note(kind, languages)
    return sentences([f"**{lead}**" if lead else "", t(note), axes, chips.word_start_note(tokens),
                      *translations.names_notes(*results)])


def side_view(which: str, side: Side, shown: Pick, room: Room, transposed: bool = False,
              show_scale: bool = True) -> SideView:
    """Side `which` ("left", "right"): its line, and its map of `shown` (the layer and head clamped to what the
    model has), its rows and columns swapped where `transposed`; `show_scale`: its own colour bar (else the maps
    share the other's)."""
    kind, layer, head = shown
    result = side.result
    layers, heads = result.attention(kind).shape[:2]
    own = MapView.of(result, kind, min(layer, layers - 1), head if head == ALL else min(head, heads - 1))
    config = side.config
    sizes = t("compare.shape", layers=layers, heads=heads, src=f"{config.src_vocab_size:,}",
              tgt=f"{config.tgt_vocab_size:,}", s=len(result.source_tokens), t=len(result.target_tokens))
    clamped = "" if (own.layer, own.head) == (layer, head) else t(
        "compare.clamped", layers=layers, heads=heads, layer=own.layer + 1, head=attention_view.head_name(own.head))
    layout = {**room.limits, **({} if show_scale else {"show_scale": False})}
    if transposed:  # keys down, queries across: the same cells, the other way up
        own = own.transposed()
        layout.update(query_title=t("axis.keys"), key_title=t("axis.queries"))
    chart = attention_view.map_chart_of(own, f"compare.chart.{which}", sentence=result.source_text, model=side.name,
                                        present_max_px=room.present_max_px,
                                        numbers=room.numbers and not transposed, **layout)
    return SideView(says(side.label, result.translation), sizes, clamped, chart)


def models_view(sides: tuple[Side, Side], shown: Pick, room: Room, offered: int) -> ModelsView:
    """Two models on the session's sentence, `offered` the number of models this server offers: the one model
    offered, or one chosen twice, is said beside the title and why in the caption (a box above the maps would push
    them off the first screen); two directions are said to be another comparison."""
    left, right = sides
    same = "" if left.name != right.name else t("compare.same_model" if offered > 1 else "compare.one_model")
    other_way = "" if same or left.way == right.way else t(
        "compare.other_way", left=left.direction_label, right=right.direction_label, mode=t("compare.mode.directions"))
    title = MapView.of(left.result, *shown).title()
    results = (left.result, right.result)
    axes = attention_view.axes_note(shown[0]) if other_way else None  # two directions: no one language
    caption = maps_caption("compare.note", shown[0], results, left.way, lead=same or other_way, axes=axes)
    return ModelsView(f"**{title}**" + (f" · {t('compare.one_map_twice')}" if same else ""),
                      (side_view("left", left, shown, room), side_view("right", right, shown, room)), caption)


def directions_axes(kind: str, ways: tuple[Languages, Languages], transposed: bool) -> str:
    """Which tokens each map's rows and columns are (both maps' short titles), the right map's swapped if
    `transposed`."""
    (left_rows, left_cols), (right_rows, right_cols) = (attention_view.axis_names(kind, way) for way in ways)
    if transposed:
        right_rows, right_cols = right_cols, right_rows
    return sentences(t("compare.side_axes", side=t(side), rows=rows, cols=cols)
                     for side, rows, cols in (("compare.left", left_rows, left_cols),
                                             ("compare.right", right_rows, right_cols)))


def directions_view(sides: tuple[Side, Side], shown: Pick, room: Room, transposed: bool) -> DirectionsView:
    """The left model on the session's sentence and the model of the other direction on what it wrote, on one
    colour bar (the right map's); the right map transposed where `transposed`, so that both maps have the same
    language on the same axis."""
    left, right = sides
    kind = shown[0]
    words = {key: direction.language_name(code) for key, code in zip(("source", "target"), left.way)}
    turned = {name: t(f"compare.directions_{name}", **words) for name in ("cross", "transposed")}
    caption = sentences([t("compare.directions_note", left=left.direction_label, right=right.direction_label),
                         turned.get("transposed" if transposed else kind, ""), t("compare.one_scale"),
                         directions_axes(kind, (left.way, right.way), transposed),
                         chips.word_start_note([*left.result.source_tokens, *right.result.source_tokens]),
                         *translations.names_notes(left.result, right.result)])
    return DirectionsView((side_view("left", left, shown, room, show_scale=False),
                           side_view("right", right, shown, room, transposed)), transposed, kind == "cross",
                          caption)


def one_map(which: str, result: TranslationResult, shown: Pick, model: str, room: Room) -> MapChart:
    """The map of side `which` ("a", "b") of the one-model comparisons (`model`, the sidebar's), in `room`."""
    return attention_view.map_chart_of(MapView.of(result, *shown), f"compare.chart.{which}",
                                       sentence=result.source_text, model=model, present_max_px=room.present_max_px,
                                       numbers=room.numbers, **room.limits)


def difference_view(a: TranslationResult, b: TranslationResult, kind: str, picks: tuple, room: Room) -> DifferenceView:
    """B − A of `picks` ((layer, head) of A, of B) on one grid that holds every token of both maps
    (lessons/token_alignment.py): their axes lined up, each run that differs one row and column for both, and the
    caption says which."""
    (queries_a, keys_a), (queries_b, keys_b) = a.axis_tokens(kind), b.axis_tokens(kind)
    rows, cols = token_spans(queries_a, queries_b), token_spans(keys_a, keys_b)
    maps = [on_spans(pick(result.attention(kind), layer, head), [getattr(r, side) for r in rows],
                     [getattr(c, side) for c in cols])
            for result, (layer, head), side in zip((a, b), picks, ("a", "b"))]
    row_labels = [span_label(r, queries_a, queries_b) for r in rows]
    col_labels = [span_label(c, keys_a, keys_b) for c in cols]
    figure = charts.fitted_map(
        lambda **fit: attention_view.difference_figure(*maps, kind, row_labels, col_labels, **fit),
        room.limits, room.present_max_px)
    differing = [label for spans, labels in ((rows, row_labels), (cols, col_labels))
                 for span, label in zip(spans, labels) if not span.same]
    lined_up = t("compare.lined_up", runs=md_escape(listing(dict.fromkeys(differing)))) if differing else ""
    return DifferenceView(f"**{t('compare.difference_title')}**",
                          MapChart(figure, "compare.chart.difference", room.present_max_px),
                          sentences([t("compare.difference_help"), lined_up]))


def heads_view(result: TranslationResult, kind: str, picks: tuple, model: str, room: Room,
               languages: Languages) -> HeadsView:
    """Two heads (`picks`: (layer, head) of A, of B) of `model`'s translation, a model reading and writing
    `languages`. The one translation is said once, under the maps: beside "A · layer 1 · head 1" in a third of the
    page it would wrap and push the maps past the first screen; each map's label leads the line above it, with no
    title inside it (the kind, layer and head are in the rows above)."""
    maps = tuple(OneMap(f"**{md_escape(side_label(which, layer, head))}**",
                        one_map(which, result, (kind, layer, head), model, room))
                 for which, (layer, head) in zip("ab", picks))
    return HeadsView(maps, difference_view(result, result, kind, picks, room),
                     t("compare.heads_translation", translation=md_escape(result.translation) or "∅"),
                     maps_caption("compare.heads_note", kind, (result,), languages))


def side_label(which: str, layer: int, head: int) -> str:
    """"A · layer 1 · head 2"."""
    return f"{t(f'compare.side.{which}')} · {attention_view.layer_name(layer)} · {attention_view.head_name(head)}"


def sentences_view(a: TranslationResult, b: TranslationResult, shown: Pick, model: str, room: Room,
                   languages: Languages) -> SentencesView:
    """One head (`shown`) of `model`'s translations of two sentences, a model reading and writing `languages`: A
    and B − A at half the page each on the first screen, B under A (in thirds of the page the maps would be 175 px
    wide, and with A and B side by side the difference, what the pair is for, would begin below the first
    screen)."""
    kind, layer, head = shown
    return SentencesView(OneMap(says(t("compare.side.a"), a.translation), one_map("a", a, shown, model, room)),
                         difference_view(a, b, kind, ((layer, head), (layer, head)), room),
                         OneMap(says(t("compare.side.b"), b.translation), one_map("b", b, shown, model, room)),
                         maps_caption("compare.sentences_note", kind, (a, b), languages))
