"""Translate a sentence, then explore every attention map of that translation: the session's choices read here,
what they show computed in translate_view.py, and drawn here.

The model runs only when the sentence or the sidebar settings change (translations.current_result is cached); the
explorer is a fragment, so choosing a kind, layer, head or view reruns only the explorer and never the model.
"""

import streamlit as st

from app_pages.components import attention_view, charts, chips, guessing, polls, rollout_view
from app_pages.pages import translate_view
from app_pages.pages.translate_view import ALL_QUERIES, LINES, VIEWS, ExplorerSettings, ExplorerView
from app_pages.shell import link_values, links, messages, navigation, page_scripts, presentation, screen
from app_pages.shell.text import t
from app_pages.state import direction, models, state_keys, translations, widget_state
from lessons.attention_maps import ALL
from model import ATTENTION_KINDS, MAX_CHARS, assess
from viz.head_view import clicked_query
from viz.model_view import clicked_map

INPUT, EXAMPLE = "translate.input", "translate.example"
INPUT_OF = "translate.input_of"  # the session's sentence the box last showed: what is typed stays until that changes
KIND, VIEW, QUERY, MIN_WEIGHT = "explorer.kind", "explorer.view", "explorer.query", "explorer.min_weight"
LAYER, HEAD = "explorer.layer", "explorer.head"
FOCUSED = "explorer.focused"  # the head view's focused query (None: all of them), which links and pins carry
GUESS = "explorer.guess"  # "Guess first": the one-head map hidden until a guess is revealed
GRID = "explorer.grid"  # the grid, a click on which opens a head
GUESS_MAP_PX = 400  # the hidden map's height at 1280×800: under the explorer's controls, the whole of it on screen


def submit() -> None:
    st.session_state[state_keys.SENTENCE] = st.session_state[INPUT]
    st.session_state[EXAMPLE] = None


def use_example() -> None:
    if st.session_state[EXAMPLE]:
        st.session_state[state_keys.SENTENCE] = st.session_state[INPUT] = st.session_state[EXAMPLE]


def sentence_input(heading: translate_view.Heading) -> None:
    """The sentence box, Translate, and beside them the example sentences behind a button (one row: the map starts
    on the first screen)."""
    sentence = translations.current_sentence()
    # Changed elsewhere (a change of direction, a link), or the box's value dropped with the page: the box says it.
    if INPUT not in st.session_state or st.session_state.get(INPUT_OF) != sentence:
        st.session_state[INPUT] = st.session_state[INPUT_OF] = sentence
    typed = st.session_state[INPUT]
    with st.container(horizontal=True, vertical_alignment="bottom", key="translate.sentence"):
        with st.form("translate.form", border=False):
            with st.container(horizontal=True, vertical_alignment="bottom"):
                # Streamlit enforces max_chars on the server too; the Translator then applies its own limits.
                st.text_area(heading.input_label, key=INPUT, height=68, max_chars=MAX_CHARS, value=typed,
                             label_visibility="collapsed", placeholder=heading.input_label)  # value=: widget_state.kept
                st.form_submit_button(t("translate.submit"), type="primary", on_click=submit,
                                      key="translate.submit")
        with st.popover(t("translate.examples_button"), icon=":material/list:", key="translate.examples"), \
                st.container(width=screen.POPOVER_PX):
            st.pills(t("translate.examples"), heading.examples, key=EXAMPLE, on_change=use_example, wrap=True)


def draw_verdict(verdict: translate_view.Verdict) -> None:
    st.markdown(verdict.heading, help=verdict.help)
    if verdict.unsure:
        st.markdown(verdict.line)
    else:
        st.caption(verdict.line)


def draw_details(details: translate_view.TokenDetails) -> None:
    """Under the explorer: how sure the model was of each token, the run, the tokens it read and wrote, what it
    knows."""
    confidence = details.confidence
    st.markdown(confidence.title)
    chips.token_chips(confidence.tokens, color="violet", probs=confidence.probs, low=confidence.low,
                      key="translate.confidence", threshold=confidence.threshold)
    if confidence.legend:
        st.caption(confidence.legend)
    st.caption(details.about)
    left, right = st.columns(2)
    with left:
        st.markdown(details.source_title)
        chips.token_chips(details.source_tokens, color="blue")
    with right:
        st.markdown(details.target_title)
        chips.token_chips(details.target_tokens, color="orange")
    st.caption(details.tokens_note)
    with st.container(horizontal=True, vertical_alignment="center", key="translate.knows"):
        st.caption(details.knows)
        navigation.page_link("model_card", details.card_link)


def show_head(layer: int, head: int) -> None:
    """Open one cross-attention head in the explorer (the pill's "what to look for")."""
    st.session_state.update({KIND: "cross", VIEW: "head", LAYER: layer, HEAD: head})


def open_clicked_map() -> None:
    """A click on a small map in the grid opens that layer and head below it."""
    choice = clicked_map(st.session_state[GRID].selection.points)
    if choice is not None:
        st.session_state[LAYER], st.session_state[HEAD] = choice


def link_params() -> dict[str, link_values.Param]:
    """What the translate page's link carries beyond the shared settings: the explorer's view."""
    config = models.translator().config
    layers = max(config.n_encoder_layers, config.n_decoder_layers)
    lines = attention_view.lines_readers(config.max_len)
    return {"kind": attention_view.kind_param(KIND), "view": link_values.Param(VIEW, link_values.one_of(VIEWS)),
            **attention_view.layer_head_params("explorer", layers, config.n_heads, average_layers=False),
            "query": link_values.Param(FOCUSED, lines["query"]),
            "min": link_values.Param(MIN_WEIGHT, lines["min"], lambda w: f"{w:g}")}


def focus_clicked_query() -> None:
    """A click on a query token of the head view shows only its lines."""
    query = clicked_query(st.session_state[LINES].selection.points)
    if query is not None:
        st.session_state[FOCUSED] = query


def focus_chosen_query() -> None:
    """The query box's choice, as the focused query."""
    chosen = st.session_state[QUERY]
    st.session_state[FOCUSED] = None if chosen == ALL_QUERIES else chosen


def focused_query(queries: int) -> int | None:
    """The head view's focused query, forgotten where it is another sentence's; the query box follows it (a link,
    a click, a pin may have set it)."""
    query = st.session_state.get(FOCUSED)
    query = st.session_state[FOCUSED] = query if query in range(queries) else None
    st.session_state[QUERY] = ALL_QUERIES if query is None else query
    return query


def explorer_settings(result) -> ExplorerSettings:
    """The explorer's choices as its pickers will be drawn with them (widget_state.kept): while "Guess first" is on,
    the view is the one head that hides its weights (the grid and the lines would show every weight)."""
    guessing_now = bool(st.session_state.get(GUESS))
    if guessing_now:
        st.session_state[VIEW] = "head"
    kind = widget_state.kept(KIND, ATTENTION_KINDS, ATTENTION_KINDS[0])
    view = widget_state.kept(VIEW, VIEWS)
    layers, heads = result.attention(kind).shape[:2]
    layer = widget_state.kept(LAYER, range(layers))
    head = ALL if view == rollout_view.VIEW else widget_state.kept(HEAD, [ALL, *range(heads)])
    query = focused_query(len(result.axis_tokens(kind)[0])) if view == "lines" else None
    min_weight = st.session_state.get(MIN_WEIGHT, attention_view.MIN_WEIGHT[2])
    return ExplorerSettings(kind, view, layer, head, guessing_now, query, min_weight,
                            st.session_state[state_keys.CHECKPOINT], direction.current(), screen.map_limits(),
                            screen.map_limits(extra_rows=1), screen.map_limits(plain_px=GUESS_MAP_PX),
                            not presentation.presenting())


def draw_controls(shown: ExplorerView) -> None:
    """Two rows of controls above the chart: at 1280×800 the map starts on the first screen."""
    guessing_now = shown.settings.guessing
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="explorer.what"):
        attention_view.kind_picker(KIND, ATTENTION_KINDS[0])
        st.segmented_control(
            t("explorer.view"), VIEWS, format_func=lambda v: t(f"view.{v}"), persist_state="session",
            key=VIEW, required=True, default=widget_state.kept(VIEW, VIEWS), disabled=guessing_now,
            help=t("guess.one_head") if guessing_now else None,
        )
    with st.container(horizontal=True, gap="medium", vertical_alignment="bottom", key="explorer.which"):
        if shown.settings.view == rollout_view.VIEW:  # rollout averages the heads itself: a layer picker only
            rollout_view.layer_picker("explorer", shown.layers)
        else:
            attention_view.layer_head_selectors("explorer", shown.layers, shown.heads, average_layers=False)
        guessing.toggle(GUESS)  # on this row: the map below stays on the first screen


def draw_one_head(shown: ExplorerView) -> None:
    """The one map (or, while "Guess first" is on, the map hidden until a guess is revealed)."""
    s = shown.settings
    if shown.one_head is None:
        guessing.map_guess(shown.result, s.kind, s.layer, s.head, key="explorer.guess", title=shown.title,
                           **s.guess_limits)
    else:
        attention_view.draw_map(shown.one_head)


def draw_lines(shown: ExplorerView) -> None:
    """The query box and the threshold, then one layer's heads as lines from each query token to the keys it reads
    above the threshold, and their numbers."""
    c1, c2 = st.columns([3, 2])
    with c1:
        options = list(shown.queries)
        st.selectbox(t("explorer.focus"), options, key=QUERY, on_change=focus_chosen_query,
                     index=options.index(st.session_state[QUERY]), format_func=shown.queries.__getitem__)
    with c2:
        low, high, default, step = attention_view.MIN_WEIGHT
        st.slider(t("explorer.min_weight"), low, high, default, step, persist_state="session", key=MIN_WEIGHT)
    lines = shown.lines
    charts.chart(lines.figure, key=LINES, on_select=focus_clicked_query, selection_mode="points")
    if lines.numbers is not None:
        attention_view.draw_numbers(lines.numbers, LINES, lines.pin)


def draw_hint(hint: translate_view.Hint) -> None:
    if hint.head is None:
        st.info(hint.text, icon=":material/search_off:")
        return
    with st.container(horizontal=True, vertical_alignment="center", key="translate.hint"):
        st.info(hint.text, icon=":material/lightbulb:")
        st.button(t("example.show"), key="translate.show_head", on_click=show_head, args=hint.head)


def draw_explorer(shown: ExplorerView) -> None:
    s = shown.settings
    with st.container(key=page_scripts.LINKED_VIEW):  # where a link to a view lands
        draw_controls(shown)
        if s.view == "grid":
            charts.chart(shown.grid, key=GRID, on_select=open_clicked_map, selection_mode="points")
        if s.view in ("head", "grid"):
            draw_one_head(shown)
        elif s.view == "lines":
            draw_lines(shown)
        else:
            rollout_view.rollout_chart(shown.result, s.kind, s.layer, key="explorer.chart.rollout",
                                       model=s.checkpoint, languages=s.languages, **s.limits)
    if s.view != rollout_view.VIEW:  # a poll asks about one raw map, not a rollout
        polls.start_control(shown.result, s.kind, s.layer, s.head)
    st.caption(shown.caption)
    if shown.hint is not None:  # in the fragment: "Guess first" hides it, and its button opens a head here
        draw_hint(shown.hint)
    links.write_link()


@st.fragment
def explorer() -> None:
    # The result is asked for here, not passed in: Streamlit keeps a fragment's arguments with the session (and a
    # closed tab's session for two minutes), beyond the byte-bounded cache's reach (benchmarks/README.md, "Memory").
    result = translations.current_result()
    draw_explorer(translate_view.explorer_view(result, explorer_settings(result)))


def page() -> None:
    """The heading and the sentence box, then (the sentence translated: a bad one stops the page under its box)
    the translation and how sure the model was beside the box, the explorer, and the tokens under it."""
    links.link_page(link_params())
    translator = models.translator()
    heading = translate_view.heading(translator)
    presentation.page_title(heading.title, heading.intro, tooltip=True)  # its map starts on the first screen
    sentence_column, translation_column = st.columns([3, 2], gap="medium")
    with sentence_column:
        sentence_input(heading)
    result = translations.current_result()
    shown = translate_view.view(translator, result, assess([step.chosen.prob for step in result.steps],
                                                           translator.training_log))
    with translation_column:
        messages.draw_notices(shown.notices)
        with st.container(key="translate.verdict"):  # page_scripts styles its heading
            draw_verdict(shown.verdict)
    explorer()
    draw_details(shown.details)


page()
