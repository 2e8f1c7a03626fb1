"""Side by side, in four comparisons: one sentence in two models (e.g. ours and a Marian opus-mt model), one
sentence pair from both sides (the sidebar's model on the sentence, the model of the other direction on what it
wrote), two heads of one sentence, or one head for two sentences; the last two with their difference map, B − A.

Two models and both directions: one set of controls drives both maps. Layer and head numbers count from each
model's first; where one model has fewer layers or heads, it shows its last and says so. Two heads and two
sentences use the sidebar's model, on sentences in the language it reads.
"""

from dataclasses import dataclass

import numpy as np
import streamlit as st

from app_pages.components import attention_view, charts, chips
from app_pages.state import direction, examples, models, state_keys, translations, widget_state
from app_pages.shell import links, presentation, screen
from app_pages.shell.link_values import Param, one_of
from app_pages.shell.text import listing, md_escape, sentences, t
from lessons.attention_maps import ALL, clearest_layer, pick
from lessons.token_alignment import on_spans, span_label, token_spans
from model import MAX_CHARS, TranslationResult

KIND, LEFT, RIGHT, INPUT = "compare.kind", "compare.left", "compare.right", "compare.input"
MODE, SENTENCE_A, SENTENCE_B = "compare.mode", "compare.sentence_a", "compare.sentence_b"
PAIR, WRONG_PAIR = "compare.pair", "compare.wrong_pair"  # pair buttons: examples.PAIRS_BY_LANGUAGE, WRONG_BY_LANGUAGE
TRANSPOSE, SENTENCES_FOR = "compare.transpose", "compare.sentences_for"
MODES = ("models", "directions", "heads", "sentences")
DIRECTIONS_SENTENCE_PX = 330  # Both directions' sentence, beside the layer and head buttons on one row
SENTENCE_PX = 480  # two heads' sentence, on a row of its own: wide enough for a sentence, not the page's width


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
        """screen.map_limits for a map in this room, its colour bar compact and its axes titled short: in a narrow
        column the usual bar took a third of the map's width, and full axis titles took three lines each (the caption
        under the maps says which tokens are on them)."""
        return {**screen.map_limits(plain_px=self.height, max_width=self.width,
                                     present_px=(self.present_width, self.present_height),
                                     present_zoom=self.present_zoom),
                "compact_scale": True, **attention_view.short_axis_titles()}


# Two models: half the page each; their maps start about 460 px down (two rows of controls, the title, a line of
# translations), about 480 in presentation mode. The one-model comparisons: a third of the page each (820 px less
# two 16-px gaps; with the sidebar closed in presentation mode, 1,196 px less two 21-px gaps). Two heads' maps start
# about 500 px down (three rows of controls, a line of labels), in presentation mode about 520: laid out for
# presentation mode's enlargement, the default sentence's maps there kept every other row's label; laid out
# unenlarged, every one. Two sentences' maps start about 475 px (two rows of controls, the pairs' row, a line of
# translations), so A's map and B − A beside it end on the first screen, B under A; in presentation mode, laid out for
# 1.15 times, their rows are 12.7 px tall (10.3 for 1.3 times; unenlarged, the B − A map's labels met).
TWO_MODELS_ROOM = MapRoom(screen.HALF_COLUMN_PX, 320, 560, 305)
HEADS_ROOM = MapRoom(262, 290, 370, 270, present_zoom=1.0)
SENTENCES_ROOM = MapRoom(screen.HALF_COLUMN_PX, 430, 560, 430)
# Both ways: half the page each, maps starting about 425 px down (two rows of controls, a line for each model's name
# and translation, two where one wraps), one colour bar for both.
DIRECTIONS_ROOM = MapRoom(screen.HALF_COLUMN_PX, 370, 560, 305)


def submit() -> None:
    st.session_state[state_keys.SENTENCE] = st.session_state[INPUT]


def sentence_input() -> None:
    """The session's sentence (shared with the other pages; changed there, or carried across a change of
    direction by the sidebar, the box shows it)."""
    if st.session_state.get(INPUT) != (sentence := translations.current_sentence()):
        st.session_state[INPUT] = sentence
    typed = st.session_state[INPUT]
    st.text_input(t("translate.input"), key=INPUT, max_chars=MAX_CHARS, on_change=submit, help=t("compare.enter"),
                  value=typed)  # value=: widget_state.kept says why


def choose_models(names: list[str]) -> tuple[str, str]:
    """Two model pickers; the second defaults to another model than the sidebar's that translates the same way (a
    Marian one if added), else to the same model: one of the other direction would read a sentence in the language
    it writes (Both ways is that comparison)."""
    left = widget_state.kept(LEFT, names, st.session_state.get(state_keys.CHECKPOINT, names[0]))
    same_way = [n for n in names if n != left and direction.of(n) == direction.of(left)]
    right = widget_state.kept(RIGHT, names, same_way[-1] if same_way else left)
    return (st.selectbox(t("compare.left"), names, key=LEFT, format_func=models.model_label, width=130,
                         index=names.index(left)),
            st.selectbox(t("compare.right"), names, key=RIGHT, format_func=models.model_label, width=130,
                         index=names.index(right)))


def map_title(kind: str, layer: int, head: int) -> str:
    return t("explorer.map_title", kind=attention_view.kind_name(kind), layer=attention_view.layer_name(layer),
             head=attention_view.head_name(head))


def says(name: str, translation: str, help_text: str | None = None) -> None:
    """Who translated (a model's name, or "A" / "B") and the translation, as one line of text: a long one wraps as
    text does (a line of it, not a row of elements, which took 42 px more above a half-page map)."""
    st.markdown(f"**{md_escape(name)}** {md_escape(translation) or '∅'}", help=help_text)


def side_line(which: str, name: str, result: TranslationResult, kind: str, layer: int, head: int,
              label: str = "") -> None:
    """One model's name (or `label`) and translation on one line (its sizes in the tooltip), and where the model has
    fewer layers or heads of `kind` than `layer`/`head` asks, which it shows."""
    layers, heads = result.attention(kind).shape[:2]
    own_layer, own_head = min(layer, layers - 1), head if head == ALL else min(head, heads - 1)
    config = models.translator(name).config
    shape = t("compare.shape", layers=layers, heads=heads, src=f"{config.src_vocab_size:,}",
              tgt=f"{config.tgt_vocab_size:,}", s=len(result.source_tokens), t=len(result.target_tokens))
    says(label or models.model_label(name), result.translation, shape)
    if (own_layer, own_head) != (layer, head):
        st.caption(t("compare.clamped", layers=layers, heads=heads, layer=own_layer + 1,
                     head=attention_view.head_name(own_head)))


def side_map(which: str, name: str, result: TranslationResult, kind: str, layer: int, head: int, room: MapRoom,
             transposed: bool = False, **layout) -> None:
    """One model's map of `kind` (`layer`/`head` clamped to what it has), its rows and columns swapped where
    `transposed`, in `room`; `layout`: more of the map's limits (show_scale=False: the maps share one bar)."""
    weights = result.attention(kind)  # (layers, heads, Tq, Tk)
    layers, heads = weights.shape[:2]
    own_layer, own_head = min(layer, layers - 1), head if head == ALL else min(head, heads - 1)
    queries, keys = result.axis_tokens(kind)
    if transposed:  # keys down, queries across: the same cells, the other way up
        weights, queries, keys = np.swapaxes(weights, -1, -2), keys, queries
        layout = {**layout, "query_title": t("axis.keys"), "key_title": t("axis.queries")}
    attention_view.map_chart(weights, kind, own_layer, own_head, queries, keys, key=f"compare.chart.{which}",
                             sentence=result.source_text, model=name, present_max_px=room.present_height,
                             numbers=not transposed, **{**room.limits(), **layout})


def sides(names: tuple[str, str], results: tuple, pick: tuple[str, int, int], room: MapRoom,
          labels: tuple[str, str] = ("", ""), transposed: bool = False, one_scale: bool = False) -> list:
    """Two models' lines (side_line), then their maps (side_map) of `pick` (kind, layer, head), each row in two
    columns: however a translation wraps, the maps stand level. The right map transposed where `transposed`;
    `one_scale`: the colour bar on the right map only (both maps' weights on the same fixed scale), its room given to
    the left map's cells. Returns the maps' columns, for what goes under them."""
    for column, which, name, result, label in zip(st.columns(2), ("left", "right"), names, results, labels):
        with column:
            side_line(which, name, result, *pick, label)
    columns = st.columns(2)
    for column, which, name, result, turned, scale in zip(columns, ("left", "right"), names, results,
                                                         (False, transposed), (not one_scale, True)):
        with column:
            side_map(which, name, result, *pick, room, turned, **({} if scale else {"show_scale": False}))
    return columns


def model_inputs() -> tuple[str, str]:
    """The two models and the sentence, on the caller's row; returns the models."""
    names = models.model_names()
    if not names:
        models.translator()  # says that there is no model
    chosen = choose_models(names)
    sentence_input()
    return chosen


def two_models(left: str, right: str) -> None:
    sentence = translations.current_sentence()
    results = {name: translations.translation_of(sentence, name) for name in (left, right)}
    layers = max(r.cross.shape[0] for r in results.values())
    heads = max(r.cross.shape[1] for r in results.values())
    # The controls on one row, then one title for both maps (inside a half-width map it would wrap into a column of
    # words); a model with fewer layers or heads says which it shows.
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="compare.controls"):
        kind = attention_view.kind_picker(KIND, "cross")
        layer, head = attention_view.layer_head_selectors("compare", layers, heads, average_layers=False)
    # The one model offered, or one chosen twice: said beside the title, and why in the caption under the maps (a box
    # above them would push them off the first screen).
    same = "" if left != right else t("compare.same_model" if len(models.model_names()) > 1 else "compare.one_model")
    ways = [direction.of(name) for name in (left, right)]
    other_way = "" if same or ways[0] == ways[1] else t("compare.other_way", **dict(zip(
        ("left", "right"), (direction.label(name) for name in (left, right)))), mode=t("compare.mode.directions"))
    st.markdown(f"**{map_title(kind, layer, head)}**" + (f" · {t('compare.one_map_twice')}" if same else ""))
    sides((left, right), (results[left], results[right]), (kind, layer, head), TWO_MODELS_ROOM)
    maps_caption("compare.note", kind, *results.values(), lead=same or other_way, languages=ways[0],
                 axes=attention_view.axes_note(kind) if other_way else None)  # two directions: no one language


def maps_caption(note: str, kind: str, *results: TranslationResult, lead: str = "",
                 languages: tuple[str, str] | None = None, axes: str | None = None) -> None:
    """The caption under a comparison's maps: `lead` (if any), what it compares (the text keyed `note`), which tokens
    the maps' short axis titles stand for (in `languages`, default the sidebar model's; or `axes`, said by the
    caller), what ▁ means where a label shows it, and any name the model read as another."""
    tokens = [token for result in results for token in result.source_tokens]
    if axes is None:
        axes = attention_view.axes_note(kind, languages or direction.current())
    st.caption(sentences([f"**{lead}**" if lead else "", t(note), axes, chips.word_start_note(tokens),
                          *translations.names_notes(*results)]))


def one_map(which: str, result: TranslationResult, kind: str, layer: int, head: int, label: str,
            with_translation: bool, room: MapRoom) -> None:
    """Side `which` ("a" or "b") of the one-model comparisons: its label (and translation), then its map."""
    # `label` leads the line above the map, with no title inside it: three maps and two rows of controls share the
    # screen (the kind and the layer and head are in the rows above). Two heads of one sentence share one
    # translation, said once under the maps: beside "A · layer 1 · head 1" in a third of the page, a sentence's
    # translation wrapped to a second line and pushed the maps past the first screen.
    if with_translation:
        says(label, result.translation)
    else:
        st.markdown(f"**{md_escape(label)}**")
    map_only(which, result, kind, layer, head, room)


def map_only(which: str, result: TranslationResult, kind: str, layer: int, head: int, room: MapRoom) -> None:
    """The map of side `which` of the one-model comparisons (the sidebar's model), in `room`."""
    attention_view.map_chart(result.attention(kind), kind, layer, head, *result.axis_tokens(kind),
                             key=f"compare.chart.{which}", sentence=result.source_text,
                             model=st.session_state[state_keys.CHECKPOINT], present_max_px=room.present_height,
                             **room.limits())


def difference_column(a: TranslationResult, b: TranslationResult, kind: str, picks: tuple, room: MapRoom,
                      titled: bool = True) -> None:
    """B − A on one grid that holds every token of both maps (lessons/token_alignment.py): their axes lined up, each
    run that differs one row and column for both, and the caption says which; its title above it unless the caller
    drew it (not `titled`)."""
    (queries_a, keys_a), (queries_b, keys_b) = a.axis_tokens(kind), b.axis_tokens(kind)
    rows, cols = token_spans(queries_a, queries_b), token_spans(keys_a, keys_b)
    if titled:
        st.markdown(f"**{t('compare.difference_title')}**")
    maps = [on_spans(pick(result.attention(kind), layer, head), [getattr(r, side) for r in rows],
                     [getattr(c, side) for c in cols])
            for result, (layer, head), side in zip((a, b), picks, ("a", "b"))]
    row_labels = [span_label(r, queries_a, queries_b) for r in rows]
    col_labels = [span_label(c, keys_a, keys_b) for c in cols]
    fig = charts.fitted_map(lambda **fit: attention_view.difference_figure(*maps, kind, row_labels, col_labels, **fit),
                             room.limits(), room.present_height)
    charts.chart(fig, key="compare.chart.difference", present_max_px=room.present_height)
    differing = [label for spans, labels in ((rows, row_labels), (cols, col_labels))
                 for span, label in zip(spans, labels) if not span.same]
    lined_up = t("compare.lined_up", runs=md_escape(listing(dict.fromkeys(differing)))) if differing else ""
    st.caption(sentences([t("compare.difference_help"), lined_up]))


def three_columns(a: TranslationResult, b: TranslationResult, kind: str, picks: tuple, labels: tuple,
                  room: MapRoom, with_translations: bool = True) -> None:
    """A's map, B's map and B − A side by side, in `room`."""
    columns = st.columns(3)
    for column, which, result, (layer, head), label in zip(columns, "ab", (a, b), picks, labels):
        with column:
            one_map(which, result, kind, layer, head, label, with_translations, room)
    with columns[2]:
        difference_column(a, b, kind, picks, room)


def two_heads(kind: str) -> None:
    st.session_state.setdefault("compare.a.head", 0)  # two heads of one layer: the first and the second
    st.session_state.setdefault("compare.b.head", 1)
    # The sentence on a row of its own: A's and B's layer and head buttons (the explorer's) take the next one whole.
    with st.container(width=SENTENCE_PX):
        sentence_input()
    result = translations.current_result()
    layers, heads = result.attention(kind).shape[:2]
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="compare.controls"):
        picks = tuple(attention_view.layer_head_selectors(f"compare.{which}", layers, heads, average_layers=False,
                                                          side=t(f"compare.side.{which}"))
                      for which in "ab")
    labels = [f"{t(f'compare.side.{which}')} · {attention_view.layer_name(layer)} · {attention_view.head_name(head)}"
              for which, (layer, head) in zip("ab", picks)]
    three_columns(result, result, kind, picks, labels, HEADS_ROOM, with_translations=False)
    st.markdown(t("compare.heads_translation", translation=md_escape(result.translation) or "∅"))
    maps_caption("compare.heads_note", kind, result)


def pairs_for(source: str, mistranslated: bool = False) -> tuple[examples.Pair, ...]:
    """Compare's pairs for a model reading `source`, each translated right by the shipped model of that direction
    (examples.PAIRS_BY_LANGUAGE); the mistranslated ones are that model's mistakes (examples.WRONG_BY_LANGUAGE)."""
    return (examples.WRONG_BY_LANGUAGE if mistranslated else examples.PAIRS_BY_LANGUAGE).get(source, ())


def use_pair(key: str, pairs: tuple) -> None:
    """A pair button's callback: its two sentences into A and B (the other row of buttons let go)."""
    chosen = st.session_state[key]
    st.session_state[PAIR if key == WRONG_PAIR else WRONG_PAIR] = None
    if chosen is not None:
        st.session_state[SENTENCE_A], st.session_state[SENTENCE_B] = pairs[chosen].sentences


def pair_buttons(source: str) -> None:
    """The pairs to try, the model's mistranslations on a row of their own, labelled as such (none where the
    model reads another language than the one they were measured on)."""
    for key, label, pairs in ((PAIR, "compare.pairs", pairs_for(source)),
                              (WRONG_PAIR, "compare.goes_wrong", pairs_for(source, mistranslated=True))):
        if not pairs:
            continue
        st.pills(t(label), range(len(pairs)), format_func=lambda i, pairs=pairs: pairs[i].label(), key=key,
                 on_change=use_pair, args=(key, pairs), help=t(label + "_help"))


def sentences_in_direction(source: str) -> None:
    """A and B in the language the sidebar's model reads: the first pair of its direction (the session's sentence
    twice for a language without pairs) where they were typed for a model of the other direction (the sidebar's
    model changed), kept otherwise."""
    pairs = pairs_for(source)
    first = pairs[0].sentences if pairs else (translations.current_sentence(),) * 2
    turned = st.session_state.get(SENTENCES_FOR, source) != source
    for key, default in zip((SENTENCE_A, SENTENCE_B), first):
        if turned or key not in st.session_state:
            st.session_state[key] = default
    st.session_state[SENTENCES_FOR] = source
    if turned:
        st.session_state[PAIR] = st.session_state[WRONG_PAIR] = None


def two_sentences(kind: str) -> None:
    source = direction.current()[0]
    sentences_in_direction(source)
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="compare.controls"):
        for key, label in zip((SENTENCE_A, SENTENCE_B), ("compare.sentence_a", "compare.sentence_b")):
            st.text_input(t(label), key=key, max_chars=MAX_CHARS, persist_state="session")
        a, b = (translations.translation_of(st.session_state[key]) for key in (SENTENCE_A, SENTENCE_B))
        layers, heads = a.attention(kind).shape[:2]
        layer, head = attention_view.layer_head_selectors("compare", layers, heads, average_layers=False,
                                                          first_layer=clearest_layer(a.attention(kind),
                                                                                     b.attention(kind)))
    with st.container(horizontal=True, gap="medium", key="compare.pairs"):
        pair_buttons(source)
    # A and the difference B − A at half the page each on the first screen, B under A: in thirds of the page the maps
    # were 175 px wide, and with A and B side by side the difference, what the pair is for, began below the first
    # screen. Their lines first, in a row of their own, so that the two maps stand level however A's wraps.
    a_line, difference_line = st.columns(2)
    with a_line:
        says(t("compare.side.a"), a.translation)
    with difference_line:
        st.markdown(f"**{t('compare.difference_title')}**")
    a_map, difference = st.columns(2)
    with a_map:
        map_only("a", a, kind, layer, head, SENTENCES_ROOM)
    with difference:
        difference_column(a, b, kind, ((layer, head), (layer, head)), SENTENCES_ROOM, titled=False)
    b_map, notes = st.columns(2)
    with b_map:
        one_map("b", b, kind, layer, head, t("compare.side.b"), True, SENTENCES_ROOM)
    with notes:
        maps_caption("compare.sentences_note", kind, a, b)


def reverse_model(name: str) -> str | None:
    """An offered model that translates the other way round from `name` (zh-en for en-zh), or None."""
    source, target = direction.of(name)
    return next((n for n in models.model_names() if n != name and direction.of(n) == (target, source)), None)


def directions_axes(kind: str, ways: tuple, transposed: bool) -> str:
    """Which tokens each map's rows and columns are (both maps' short titles), the right map's swapped if
    `transposed`."""
    (left_rows, left_cols), (right_rows, right_cols) = (attention_view.axis_names(kind, way) for way in ways)
    if transposed:
        right_rows, right_cols = right_cols, right_rows
    return sentences(t("compare.side_axes", side=t(side), rows=rows, cols=cols)
                     for side, rows, cols in (("compare.left", left_rows, left_cols),
                                             ("compare.right", right_rows, right_cols)))


def both_directions(kind: str) -> None:
    """The sidebar's model on the session's sentence (left) and the model of the other direction on what it wrote
    (right): one sentence pair seen from both sides, the right map transposed on request so that both maps have the
    same language on the same axis."""
    name = st.session_state[state_keys.CHECKPOINT]
    other = reverse_model(name)
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="compare.controls"):
        with st.container(width=DIRECTIONS_SENTENCE_PX):
            sentence_input()
        if other is None:
            st.info(t("compare.no_reverse", model=direction.label(name)))
            return
        left = translations.translation_of(translations.current_sentence(), name)
        if not left.translation.strip():
            st.info(t("compare.nothing_written"))
            return
        right = translations.translation_of(left.translation, other)
        layers = max(r.attention(kind).shape[0] for r in (left, right))
        heads = max(r.attention(kind).shape[1] for r in (left, right))
        # A session opens on the layer whose maps show most (in the first, every head averaged is nearly even).
        layer, head = attention_view.layer_head_selectors("compare", layers, heads, average_layers=False,
                                                          first_layer=clearest_layer(left.attention(kind),
                                                                                     right.attention(kind)))
    # No title row above the maps (the kind, layer and head are the buttons above them), and the toggle under the map
    # it turns: at 1280×800 that room went to the maps' cells, so every label shows.
    transposed = kind == "cross" and widget_state.kept(TRANSPOSE, (True, False))
    columns = sides((name, other), (left, right), (kind, layer, head), DIRECTIONS_ROOM,
                    tuple(direction.label(model) for model in (name, other)), transposed, one_scale=True)
    if kind == "cross":
        with columns[1]:
            st.toggle(t("compare.transpose"), key=TRANSPOSE, value=transposed, help=t("compare.transpose_help"),
                      persist_state="session")
    ways = (direction.of(name), direction.of(other))
    words = {key: direction.language_name(code) for key, code in zip(("source", "target"), ways[0])}
    turned = {kind: t(f"compare.directions_{kind}", **words) for kind in ("cross", "transposed")}
    st.caption(sentences([t("compare.directions_note", left=direction.label(name), right=direction.label(other)),
                          turned.get("transposed" if transposed else kind, ""), t("compare.one_scale"),
                          directions_axes(kind, ways, transposed),
                          chips.word_start_note([*left.source_tokens, *right.source_tokens]),
                          *translations.names_notes(left, right)]))


def first_mode() -> str:
    """What the page opens on: two models where another model reads the same language as the sidebar's, both
    directions where one translates the other way, two heads where this server offers one model."""
    name = st.session_state.get(state_keys.CHECKPOINT)
    names = models.model_names()
    if name in names and any(n != name and direction.of(n) == direction.of(name) for n in names):
        return "models"
    if name in names and reverse_model(name):
        return "directions"
    return MODES[0] if len(names) > 1 else "heads"


links.link_page({"mode": Param(MODE, one_of(MODES))})
presentation.page_title(t("compare.title"), t("compare.intro"))
# The comparison first, then (two models) the models and the sentence, or (one model) the attention kind; the
# one-model comparisons' sentences and pickers take the next row.
with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="compare.how"):
    # One model offered: two models would show one map twice, so the page opens on two heads (a link may still ask).
    mode = st.segmented_control(t("compare.mode"), MODES, format_func=lambda m: t(f"compare.mode.{m}"), key=MODE,
                                required=True, default=widget_state.kept(MODE, MODES, first_mode()),
                                persist_state="session")
    if mode == "models":
        chosen = model_inputs()
    else:
        one_model_kind = attention_view.kind_picker(KIND, "cross")
if mode == "models":
    two_models(*chosen)
else:
    {"directions": both_directions, "heads": two_heads, "sentences": two_sentences}[mode](one_model_kind)
