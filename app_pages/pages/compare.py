"""Side by side, in four comparisons: one sentence in two models (e.g. ours and a Marian opus-mt model), one
sentence pair from both sides (the sidebar's model on the sentence, the model of the other direction on what it
wrote), two heads of one sentence, or one head for two sentences; the last two with their difference map, B − A.

Two models and both directions: one set of controls drives both maps. Layer and head numbers count from each
model's first; where one model has fewer layers or heads, it shows its last and says so. Two heads and two
sentences use the sidebar's model, on sentences in the language it reads.

Each comparison draws its controls, asks for its translations, computes what it shows (compare_view.py: plain data,
no Streamlit) and draws that.
"""

import streamlit as st

from app_pages.components import attention_view
from app_pages.pages import compare_view
from app_pages.pages.compare_view import (DIRECTIONS_ROOM, HEADS_ROOM, SENTENCES_ROOM, TWO_MODELS_ROOM, MapRoom, Room,
                                          Side, SideView)
from app_pages.state import direction, examples, models, state_keys, translations, widget_state
from app_pages.shell import links, presentation
from app_pages.shell.link_values import Param, one_of
from app_pages.shell.text import t
from lessons.attention_maps import clearest_layer
from model import MAX_CHARS, TranslationResult

KIND, LEFT, RIGHT, INPUT = "compare.kind", "compare.left", "compare.right", "compare.input"
MODE, SENTENCE_A, SENTENCE_B = "compare.mode", "compare.sentence_a", "compare.sentence_b"
PAIR, WRONG_PAIR = "compare.pair", "compare.wrong_pair"  # pair buttons: examples.PAIRS_BY_LANGUAGE, WRONG_BY_LANGUAGE
TRANSPOSE, SENTENCES_FOR = "compare.transpose", "compare.sentences_for"
MODES = ("models", "directions", "heads", "sentences")
DIRECTIONS_SENTENCE_PX = 330  # Both directions' sentence, beside the layer and head buttons on one row
SENTENCE_PX = 480  # two heads' sentence, on a row of its own: wide enough for a sentence, not the page's width


def room(of: MapRoom) -> Room:
    """`of` as this session lays maps out in it (plain or presenting)."""
    return Room(of.limits(), of.present_height, not presentation.presenting())


def side(name: str, label: str, result: TranslationResult) -> Side:
    """The offered model `name`'s part of a comparison of two, its line naming it `label`."""
    return Side(name, label, direction.label(name), direction.of(name), models.translator(name).config, result)


def draw_sides(sides: tuple[SideView, SideView]) -> list:
    """Two models' lines, then their maps, each row in two columns: however a translation wraps, the maps stand
    level. Returns the maps' columns, for what goes under them."""
    for column, shown in zip(st.columns(2), sides):
        with column:
            st.markdown(shown.line, help=shown.help)
            if shown.clamped:
                st.caption(shown.clamped)
    columns = st.columns(2)
    for column, shown in zip(columns, sides):
        with column:
            attention_view.draw_map(shown.chart)
    return columns


def draw_difference(shown: compare_view.DifferenceView) -> None:
    attention_view.draw_map(shown.chart)
    st.caption(shown.caption)


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


def model_inputs() -> tuple[str, str]:
    """The two models and the sentence, on the caller's row; returns the models."""
    names = models.model_names()
    if not names:
        models.translator()  # says that there is no model
    chosen = choose_models(names)
    sentence_input()
    return chosen


def two_models(left: str, right: str) -> None:
    """The controls on one row, then one title for both maps (inside a half-width map it would wrap into a column
    of words), each model's line and map, and the caption."""
    sentence = translations.current_sentence()
    results = {name: translations.translation_of(sentence, name) for name in (left, right)}
    layers = max(r.cross.shape[0] for r in results.values())
    heads = max(r.cross.shape[1] for r in results.values())
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="compare.controls"):
        kind = attention_view.kind_picker(KIND, "cross")
        layer, head = attention_view.layer_head_selectors("compare", layers, heads, average_layers=False)
    sides = tuple(side(name, models.model_label(name), results[name]) for name in (left, right))
    draw_models(compare_view.models_view(sides, (kind, layer, head), room(TWO_MODELS_ROOM), len(models.model_names())))


def draw_models(shown: compare_view.ModelsView) -> None:
    st.markdown(shown.title)
    draw_sides(shown.sides)
    st.caption(shown.caption)


def two_heads(kind: str) -> None:
    """The sentence on a row of its own (A's and B's layer and head buttons take the next one whole), then A's map,
    B's map and B − A side by side, the translation and the caption."""
    st.session_state.setdefault("compare.a.head", 0)  # two heads of one layer: the first and the second
    st.session_state.setdefault("compare.b.head", 1)
    with st.container(width=SENTENCE_PX):
        sentence_input()
    result = translations.current_result()
    layers, heads = result.attention(kind).shape[:2]
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="compare.controls"):
        picks = tuple(attention_view.layer_head_selectors(f"compare.{which}", layers, heads, average_layers=False,
                                                          side=t(f"compare.side.{which}"))
                      for which in "ab")
    draw_heads(compare_view.heads_view(result, kind, picks, st.session_state[state_keys.CHECKPOINT],
                                       room(HEADS_ROOM), direction.current()))


def draw_heads(shown: compare_view.HeadsView) -> None:
    columns = st.columns(3)
    for column, one in zip(columns, shown.maps):
        with column:
            st.markdown(one.line)
            attention_view.draw_map(one.chart)
    with columns[2]:
        st.markdown(shown.difference.title)
        draw_difference(shown.difference)
    st.markdown(shown.translation)
    st.caption(shown.caption)


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
    """A and B on one row with the layer and head, the pairs to try under them, then A's line and map beside
    B − A, and B's line and map beside the caption (each row's lines first, so the maps stand level)."""
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
    draw_sentences(compare_view.sentences_view(a, b, (kind, layer, head), st.session_state[state_keys.CHECKPOINT],
                                               room(SENTENCES_ROOM), direction.current()))


def draw_sentences(shown: compare_view.SentencesView) -> None:
    a_line, difference_line = st.columns(2)
    with a_line:
        st.markdown(shown.a.line)
    with difference_line:
        st.markdown(shown.difference.title)
    a_map, difference = st.columns(2)
    with a_map:
        attention_view.draw_map(shown.a.chart)
    with difference:
        draw_difference(shown.difference)
    b_map, notes = st.columns(2)
    with b_map:
        st.markdown(shown.b.line)
        attention_view.draw_map(shown.b.chart)
    with notes:
        st.caption(shown.caption)


def reverse_model(name: str) -> str | None:
    """An offered model that translates the other way round from `name` (zh-en for en-zh), or None."""
    source, target = direction.of(name)
    return next((n for n in models.model_names() if n != name and direction.of(n) == (target, source)), None)


def both_directions(kind: str) -> None:
    """The sidebar's model on the session's sentence (left) and the model of the other direction on what it wrote
    (right): one sentence pair seen from both sides. No title row above the maps (the kind, layer and head are the
    buttons above them), and the toggle that transposes the right map under it: at 1280×800 that room goes to the
    maps' cells, so every label shows."""
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
    transposed = kind == "cross" and widget_state.kept(TRANSPOSE, (True, False))
    sides = (side(name, direction.label(name), left), side(other, direction.label(other), right))
    draw_directions(compare_view.directions_view(sides, (kind, layer, head), room(DIRECTIONS_ROOM), transposed))


def draw_directions(shown: compare_view.DirectionsView) -> None:
    columns = draw_sides(shown.sides)
    if shown.transposable:  # under the map it turns
        with columns[1]:
            st.toggle(t("compare.transpose"), key=TRANSPOSE, value=shown.transposed, help=t("compare.transpose_help"),
                      persist_state="session")
    st.caption(shown.caption)


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


def page() -> None:
    """The comparison first, then (two models) the models and the sentence, or (one model) the attention kind; the
    one-model comparisons' sentences and pickers take the next row. One model offered: two models would show one
    map twice, so the page opens on two heads (a link may still ask for two models)."""
    links.link_page({"mode": Param(MODE, one_of(MODES))})
    presentation.page_title(t("compare.title"), t("compare.intro"))
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="compare.how"):
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


page()
