"""Translate a sentence, then explore every attention map of that translation.

The model runs only when the sentence or the sidebar settings change
(translations.current_result is cached); the explorer is a fragment, so choosing a
kind, layer, head or view reruns only the explorer and never the model.
"""

import streamlit as st

from app_pages.components import attention_view, charts, chips, guessing, polls, rollout_view, table_view
from app_pages.state import direction, examples, models, state_keys, translations, widget_state
from app_pages.shell import link_values, links, navigation, page_scripts, presentation, screen
from app_pages.shell.text import listing, md_escape, sentences, t
from lessons.attention_maps import ALL, pick
from model import ATTENTION_KINDS, MAX_CHARS, Confidence, TranslationResult, assess, unread_names, word_link
from viz.head_view import clicked_query
from viz.model_view import clicked_map

INPUT, EXAMPLE = "translate.input", "translate.example"
INPUT_OF = "translate.input_of"  # the session's sentence the box last showed; what is typed there stays until it changes
KIND, VIEW, QUERY, MIN_WEIGHT = "explorer.kind", "explorer.view", "explorer.query", "explorer.min_weight"
FOCUSED = "explorer.focused"  # the head view's focused query (None: all of them), which links and pins carry
ALL_QUERIES = -1  # the query box's "all" option: a box whose value is None shows Streamlit's "Choose an option"
GUESS = "explorer.guess"  # "Guess first": the one-head map hidden until a guess is revealed
GRID, LINES = "explorer.grid", "explorer.chart.lines"  # charts a click selects in
GUESS_MAP_PX = 400  # the hidden map's height at 1280×800: under the explorer's controls, the whole of it on screen
VIEWS = ("head", "grid", "lines", rollout_view.VIEW)


def submit() -> None:
    st.session_state[state_keys.SENTENCE] = st.session_state[INPUT]
    st.session_state[EXAMPLE] = None


def use_example() -> None:
    if st.session_state[EXAMPLE]:
        st.session_state[state_keys.SENTENCE] = st.session_state[INPUT] = st.session_state[EXAMPLE]


def dev_score(log: dict) -> dict | None:
    """The most honest score the training log holds, with the set and the decoding named: the held-out test
    half's (evaluation.study --test-split: it chose nothing) on its pairs unlike training; else the dev BLEU on the
    dev pairs unlike any training pair (the final beam-search score, else the best greedy one)."""
    test = log.get("test") or {}
    if test.get("dedup_bleu") is not None:
        return {"bleu": test["dedup_bleu"], "decoding": t("knows.beam", beam=test["beam"]),
                "set": t("knows.set_test" if test.get("untouched") else "knows.set_test_seen",
                         pairs=f"{test['unseen_pairs']:,}")}
    final, best = log.get("final") or {}, log.get("best") or {}
    score, decoding = (final, t("knows.beam", beam=final.get("beam", "?"))) if final.get("bleu") is not None \
        else (best, t("knows.greedy"))
    if score.get("bleu") is None:
        return None
    if score.get("dedup_bleu") is not None and log.get("dedup_dev_pairs"):
        return {"bleu": score["dedup_bleu"], "decoding": decoding,
                "set": t("knows.set_unseen", pairs=f"{log['dedup_dev_pairs']:,}")}
    return {"bleu": score["bleu"], "decoding": decoding, "set": t("knows.set_dev")}


def model_knows() -> None:
    """One line on what the model learned from and how well it scores (all from its training log), and its card."""
    translator = models.translator()
    if not translator.capabilities.trained_here:  # trained elsewhere: its card says on what
        with st.container(horizontal=True, vertical_alignment="center", key="translate.knows"):
            st.caption(t("knows.marian", name=md_escape(models.model_label(translator.checkpoint))))
            navigation.page_link("model_card", t("knows.card_link"))
        return
    log = translator.training_log or {}
    pairs = log.get("train_pairs")
    languages = {"source": direction.source_name(), "target": direction.target_name()}
    parts = [t("knows.data", pairs=f"{pairs:,}", **languages) if pairs else t("knows.data_unknown", **languages)]
    score = dev_score(log)
    if score:
        parts.append(t("knows.score", **score))
    parts.append(t("knows.limits"))
    with st.container(horizontal=True, vertical_alignment="center", key="translate.knows"):
        st.caption(t("knows.sep").join(parts))
        navigation.page_link("model_card", t("knows.card_link"))


def sentence_input() -> None:
    """The sentence box, Translate, and beside them the example sentences behind a button: as a row of pills under
    the box they took two rows of the first screen (the map started at 546 px at 1280×800, its top third on screen)."""
    sentence = translations.current_sentence()
    # Changed elsewhere (a change of direction, a link), or the box's value dropped with the page: the box says it.
    if INPUT not in st.session_state or st.session_state.get(INPUT_OF) != sentence:
        st.session_state[INPUT] = st.session_state[INPUT_OF] = sentence
    typed = st.session_state[INPUT]
    label = t("translate.input_in", source=direction.source_name())  # the language to type in: "Chinese sentence"
    with st.container(horizontal=True, vertical_alignment="bottom", key="translate.sentence"):
        with st.form("translate.form", border=False):
            with st.container(horizontal=True, vertical_alignment="bottom"):
                # Streamlit enforces max_chars on the server too; the Translator then applies its own limits.
                st.text_area(label, key=INPUT, height=68, max_chars=MAX_CHARS, value=typed,
                             label_visibility="collapsed", placeholder=label)  # value=: widget_state.kept
                st.form_submit_button(t("translate.submit"), type="primary", on_click=submit,
                                      key="translate.submit")
        with st.popover(t("translate.examples_button"), icon=":material/list:", key="translate.examples"), \
                st.container(width=screen.POPOVER_PX):
            example_pills()


def pill_sentences() -> list[str]:
    """The example sentences offered for the language the model reads; its first sentence where it has none yet."""
    source = direction.current()[0]
    return [e.sentence for e in examples.for_language(source)] or [examples.default_sentence(source)]


def example_pills() -> None:
    st.pills(t("translate.examples"), pill_sentences(), key=EXAMPLE, on_change=use_example, wrap=True)


def verdict(result: TranslationResult, c: Confidence) -> None:
    """The translation and, beside it, how far to trust it as a whole against the checkpoint's calibration: an
    unsure translation says so on an orange line; the evidence is in the translation's tooltip. Names the model read as
    others are said in the same caption (one element less: the map below stays on the first screen)."""
    pct = table_view.percent
    heading = "### " + md_escape(result.translation or "∅")
    names, why = names_lines(result)
    if c.calibration is None:
        st.markdown(heading, help="\n\n".join(filter(None, (t("translate.translation"), why))))
        st.caption(t("confidence.uncalibrated", score=pct(c.score)) + names)
        return
    sentence = c.calibration["sentence"]
    score, threshold = table_view.percents_apart(c.score, sentence["threshold"])  # never "80%, below the 80% line"
    values = {"score": score, "threshold": threshold,
              "below_exact": pct(sentence["below"]["exact"]), "above_exact": pct(sentence["above"]["exact"])}
    evidence = sentences([t("confidence.unsure" if c.unsure else "confidence.sure", **values), beam_note(result, c)])
    st.markdown(heading, help="\n\n".join(filter(None, (t("translate.translation"), evidence, why))))
    if c.unsure:  # a line, not a box (whose padding took 70 px more): the map below stays on the first screen
        st.markdown(":orange-background[:material/help: " + t("confidence.unsure_short", **values) + "]" + names)
    else:
        st.caption(t("confidence.sure_short", **values) + names)


def names_lines(result: TranslationResult) -> tuple[str, str]:
    """(the line under the confidence about names, what the tooltip adds), "" for none: names read as others
    (en→zh), or, in a Chinese source of a model trained here, likely names it cannot read (李明是我的好朋友。 came
    out "It's my friend's wrong." and nothing said why); one short line, so the map below stays on the first screen."""
    note = translations.names_note(result)
    if note:
        return "  \n" + md_escape(note), ""
    translator = models.translator()
    unread = unread_names(result.source_text) \
        if translator.capabilities.trained_here and translator.config.source_language == "zh" else []
    if not unread:
        return "", ""
    return "  \n" + md_escape(t("translate.names_unread", names=listing(unread))), t("translate.names_unread_help")


def token_confidence(result: TranslationResult, c: Confidence) -> None:
    """The output tokens with the model's probability for each, the unsure ones marked (the calibrated line)."""
    pct = table_view.percent
    st.markdown("**" + t("confidence.title") + "**")
    threshold = None if c.calibration is None else c.calibration["token"]["threshold"]
    chips.token_chips(result.output_tokens, color="violet", probs=c.probs, low=c.low, key="translate.confidence",
                      threshold=threshold)
    if c.calibration is not None:
        token = c.calibration["token"]
        st.caption(sentences([
            t("confidence.legend", threshold=pct(token["threshold"], table_view.line_digits(token["threshold"])),
              pairs=f"{c.calibration['pairs']:,}",
              below_right=pct(token["below"]["right"]), above_right=pct(token["above"]["right"])),
            beam_note(result, c)]))


def beam_note(result: TranslationResult, c: Confidence) -> str:
    """At which beam the thresholds were measured, and whether this translation used another (where they were not)."""
    measured = c.calibration.get("beam", 1)
    if measured == result.beam_size:
        return t("confidence.beam_same", beam=measured)
    return t("confidence.beam_other", measured=measured, beam=result.beam_size)


def show_head(layer: int, head: int) -> None:
    """Open one cross-attention head in the explorer (the pill's "what to look for")."""
    st.session_state.update({KIND: "cross", VIEW: "head", "explorer.layer": layer, "explorer.head": head})


def example_hint(result: TranslationResult) -> None:
    """Under a pill's translation, one line on what to look for, computed from this result's cross-attention (none
    while "Guess first" is on: it names where a word looks most)."""
    example = next((e for e in examples.for_language(direction.current()[0]) if e.sentence == result.source_text),
                   None)
    if example is None or st.session_state.get(GUESS):
        return
    link = word_link(result, example.source_word, example.target_word)
    if link is None:
        st.info(t("example.missing", target=md_escape(example.target_word),
                  source=md_escape(example.source_word)), icon=":material/search_off:")
        return
    with st.container(horizontal=True, vertical_alignment="center", key="translate.hint"):
        st.info(examples.example_line(example, link, st.session_state.get(state_keys.LANG, "en")), icon=":material/lightbulb:")
        st.button(t("example.show"), key="translate.show_head", on_click=show_head, args=(link.layer, link.head))


def translation_summary(result: TranslationResult, c: Confidence) -> None:
    """The translation and how sure the model was of it: beside the sentence, above the explorer."""
    translations.show_notices(result)
    with st.container(key="translate.verdict"):  # page_scripts styles its heading
        verdict(result, c)


def token_details(result: TranslationResult, c: Confidence) -> None:
    """Under the explorer: what the model read and wrote, token by token, how sure it was of each, what it knows."""
    token_confidence(result, c)
    st.caption(t(
        "translate.details", checkpoint=md_escape(result.checkpoint.rsplit("/", 1)[-1]),
        device=result.device, beam=result.beam_size, S=len(result.source_tokens), T=len(result.target_tokens),
    ))
    left, right = st.columns(2)
    with left:
        st.markdown("**" + t("translate.source_tokens", n=len(result.source_tokens), language=direction.source_name())
                    + "**")
        chips.token_chips(result.source_tokens, color="blue")
    with right:
        st.markdown("**" + t("translate.target_tokens", n=len(result.target_tokens), language=direction.target_name())
                    + "**")
        chips.token_chips(result.target_tokens, color="orange")
    tokens = result.source_tokens + result.target_tokens
    st.caption(sentences([t("translate.tokens_help"), chips.word_start_note(tokens), chips.byte_note(tokens)]))
    model_knows()


def open_clicked_map() -> None:
    """A click on a small map in the grid opens that layer and head below it."""
    choice = clicked_map(st.session_state[GRID].selection.points)
    if choice is not None:
        st.session_state["explorer.layer"], st.session_state["explorer.head"] = choice


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


def explorer_controls(result: TranslationResult) -> tuple[str, str, int, int]:
    """Two rows of controls, then the chart: at 1280×800 the map starts on the first screen. While "Guess first" is
    on, the view is the one head that hides its weights (the grid and the lines would show every weight)."""
    guessing_now = bool(st.session_state.get(GUESS))
    if guessing_now:
        st.session_state[VIEW] = "head"
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="explorer.what"):
        kind = attention_view.kind_picker(KIND, ATTENTION_KINDS[0])
        view = st.segmented_control(
            t("explorer.view"), VIEWS, format_func=lambda v: t(f"view.{v}"), persist_state="session",
            key=VIEW, required=True, default=widget_state.kept(VIEW, VIEWS), disabled=guessing_now,
            help=t("guess.one_head") if guessing_now else None,
        )
    layers, heads = result.attention(kind).shape[:2]
    with st.container(horizontal=True, gap="medium", vertical_alignment="bottom", key="explorer.which"):
        if view == rollout_view.VIEW:  # rollout averages the heads itself: a layer picker only
            layer, head = rollout_view.layer_picker("explorer", layers), ALL
        else:
            layer, head = attention_view.layer_head_selectors("explorer", layers, heads, average_layers=False)
        guessing.toggle(GUESS)  # on this row: the map below stays on the first screen
    return kind, view, layer, head


def one_head_chart(result: TranslationResult, kind: str, layer: int, head: int, key: str, view: str = "head") -> None:
    """One map; `view`: the explorer's view it is part of (what its Pin to deck saves)."""
    title = t("explorer.map_title", kind=attention_view.kind_name(kind), layer=attention_view.layer_name(layer),
              head=attention_view.head_name(head))
    if st.session_state.get(GUESS):
        guessing.map_guess(result, kind, layer, head, key="explorer.guess", title=title,
                           **screen.map_limits(plain_px=GUESS_MAP_PX))
        return
    attention_view.map_chart(result.attention(kind), kind, layer, head, *result.axis_tokens(kind), key=key,
                             sentence=result.source_text, model=st.session_state[state_keys.CHECKPOINT], view=view,
                             title=title, languages=direction.current(), **screen.map_limits())


def grid_view(result: TranslationResult, kind: str, layer: int, head: int) -> None:
    """Every layer and head as small maps; a click opens one in the map below them."""
    grid = attention_view.grid_figure(result.attention(kind), kind, layer, head, *result.axis_tokens(kind),
                                      direction.current(), **screen.map_limits())
    charts.chart(grid, key=GRID, on_select=open_clicked_map, selection_mode="points")
    one_head_chart(result, kind, layer, head, key="explorer.chart.opened", view="grid")  # its pin saves the grid


def lines_view(result: TranslationResult, kind: str, layer: int, head: int) -> None:
    """One layer's heads as lines from each query token to the keys it reads, above a weight threshold."""
    weights = result.attention(kind)  # (layers, heads, Tq, Tk)
    queries, keys = result.axis_tokens(kind)
    c1, c2 = st.columns([3, 2])
    with c1:
        query_options = [ALL_QUERIES, *range(len(queries))]
        query = st.session_state.get(FOCUSED)
        query = st.session_state[FOCUSED] = query if query in query_options else None  # another sentence's is gone
        st.session_state[QUERY] = ALL_QUERIES if query is None else query  # the box follows a link, a click, a pin
        st.selectbox(t("explorer.focus"), query_options, key=QUERY, on_change=focus_chosen_query,
                     index=query_options.index(st.session_state[QUERY]),
                     format_func=lambda i: t("explorer.focus_all") if i == ALL_QUERIES else f"{i}: {queries[i]}")
    with c2:
        low, high, default, step = attention_view.MIN_WEIGHT
        min_weight = st.slider(t("explorer.min_weight"), low, high, default, step, persist_state="session", key=MIN_WEIGHT)
    fig = attention_view.lines_figure(weights, kind, layer, head, queries, keys, query, min_weight,
                                      direction.current(), **screen.map_limits(extra_rows=1))  # + query, min row
    charts.chart(fig, key=LINES, on_select=focus_clicked_query, selection_mode="points")
    pin = attention_view.pinned_view(kind, layer, head, result.source_text, st.session_state[state_keys.CHECKPOINT],
                                     "lines", query, min_weight)
    attention_view.numbers_out(pick(weights, layer, head), kind, layer, head, queries, keys, result.source_text, LINES,
                               pin)  # the weights the lines draw, every one of them (the threshold only hides lines)


@st.fragment
def explorer() -> None:
    # The result is asked for here, not passed in: Streamlit keeps a fragment's arguments with the session (and a
    # closed tab's session for two minutes), which kept results the byte-bounded cache had let go (benchmarks/README.md,
    # "Memory").
    result = translations.current_result()
    with st.container(key=page_scripts.LINKED_VIEW):  # where a link to a view lands
        kind, view, layer, head = explorer_controls(result)
        if view == "head":
            one_head_chart(result, kind, layer, head, key="explorer.chart.head")
        elif view == "grid":
            grid_view(result, kind, layer, head)
        elif view == "lines":
            lines_view(result, kind, layer, head)
        else:
            rollout_view.rollout_chart(result, kind, layer, key="explorer.chart.rollout",
                                       model=st.session_state[state_keys.CHECKPOINT], languages=direction.current(),
                                       **screen.map_limits())
    if view != rollout_view.VIEW:  # a poll asks about one raw map, not a rollout
        polls.start_control(result, kind, layer, head)
    queries, keys = result.axis_tokens(kind)  # ▁ is explained where this map shows it: English pieces, either side
    st.caption(sentences([attention_view.kind_help(kind), t(f"view.{view}.help"),
                          chips.word_start_note([*queries, *keys]), chips.byte_note([*queries, *keys])]))
    example_hint(result)  # in the fragment: "Guess first" hides it, and its button opens a head here
    links.write_link()


links.link_page(link_params())
intro = "translate.intro" if models.translator().capabilities.trained_here else "translate.intro_marian"
presentation.page_title(t("translate.title"), t(intro, source=direction.source_name(), target=direction.target_name()),
                        tooltip=True)  # its map starts on the first screen
sentence_column, translation_column = st.columns([3, 2], gap="medium")
with sentence_column:
    sentence_input()
current = translations.current_result()
marks = assess([step.chosen.prob for step in current.steps], models.translator().training_log)
with translation_column:
    translation_summary(current, marks)
explorer()
token_details(current, marks)
