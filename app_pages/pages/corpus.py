"""Across a corpus: every query and key of a head over the corpus's sentences in one picture (AttentionViz), every
head of a kind side by side, and a token's attention searched across the corpus (exBERT): the session's choices read
here, what they show computed in corpus_view.py, and drawn here.

The model's passes over the corpus and every projection run on the corpus view's background worker
(evaluation/corpus_view/jobs.py), read from its disk cache when it holds them: a page shows their progress and polls
until they are done, so a t-SNE never holds a run. PCA of one head finishes within the run that asked for it.
"""

from functools import partial

import streamlit as st

from app_pages.components import attention_view, charts, table_view
from app_pages.pages import corpus_view
from app_pages.pages.corpus_view import COLOURS, KINDS, METHOD_NAMES, VIEWS, PageView, Settings
from app_pages.shell import link_values, links, page_scripts, presentation, registry
from app_pages.shell.text import md_escape, t
from app_pages.state import direction, models, widget_state
from app_pages.state.state_keys import CHECKPOINT, LANG
from evaluation.corpus_view import (METHODS, CorpusError, HeadError, ProjectionCache, ProjectionUnavailable,
                                    available, head_view, matrix_view, search, typed_tokens)
from evaluation.corpus_view import jobs
from evaluation.corpus_view.roles import every_role
from evaluation.corpus_view.search import query_tokens
from model import InputError
from viz.corpus import clicked_panel, clicked_point

VIEW, KIND, LAYER, HEAD = "corpus.view", "corpus.kind", "corpus.layer", "corpus.head"
METHOD, COLOUR, TOKEN, USER, USER_TEXT = "corpus.method", "corpus.colour", "corpus.token", "corpus.user", \
    "corpus.user_text"
CHART, MATRIX, SENTENCE, OPEN = "corpus.chart", "corpus.matrix", "corpus.sentence", "corpus.open"
PCA_WAIT_S, MATRIX_WAIT_S, RUN_WAIT_S = 3.0, 6.0, 1.0  # how long a run waits for a job before it shows progress
EXPECTED_S = {"pca": 2.0, "tsne": 40.0, "umap": 40.0, "matrix": 10.0}  # a progress bar's pace where none is said
POLL_S = 1.0


def link_params(layers: int, heads: int) -> dict[str, link_values.Param]:
    """The view, kind, layer, head, projection, colouring and searched token: a link reopens the same picture."""
    return {"view": link_values.Param(VIEW, link_values.one_of(VIEWS)),
            "kind": attention_view.kind_param(KIND),
            "layer": attention_view.index_param(LAYER, layers, False),
            "head": attention_view.index_param(HEAD, heads, False),
            "projection": link_values.Param(METHOD, link_values.one_of(METHODS)),
            "colour": link_values.Param(COLOUR, link_values.one_of(COLOURS)),
            "token": link_values.Param(TOKEN, link_values.sentence)}


def choose(label: str, options, key: str, names: dict) -> str:
    return st.segmented_control(label, options, format_func=names.__getitem__, key=key, required=True,
                                persist_state="session", default=widget_state.kept(key, options))


def pick(label: str, options, key: str, names: dict, width: int) -> str:
    """A drop-down of `options` keyed `key` (a row of them fits beside the segmented pickers at 1280 px)."""
    options = list(options)
    chosen = widget_state.kept(key, options)
    return st.selectbox(label, options, format_func=names.__getitem__, key=key, index=options.index(chosen),
                        persist_state="session", width=width)


def draw_controls(layers: int, heads: int):
    """The view, layer and head on one row; the attention kind, projection and colouring on the next (each shown
    where the view uses it): the picture starts on the first screen at 1280×800. Returns the settings and the second
    row, where the search's token picker goes once the corpus's tokens are known."""
    with st.container(horizontal=True, vertical_alignment="bottom", key="corpus.row1"):
        view = choose(t("corpus.view"), VIEWS, VIEW, {v: t(f"corpus.view.{v}") for v in VIEWS})
        if view != "matrix":
            layer = attention_view.index_picker(LAYER, t("explorer.layer"), range(layers))
            head = attention_view.index_picker(HEAD, t("explorer.head"), range(heads))
        else:
            layer, head = widget_state.kept(LAYER, range(layers)), widget_state.kept(HEAD, range(heads))
    row2 = st.container(horizontal=True, vertical_alignment="bottom", key="corpus.row2")
    with row2:
        kind = pick(t("explorer.kind"), KINDS, KIND, {k: t(f"kind.{k}") for k in KINDS}, 300)
        methods = [m for m in METHODS if available()[m]]
        method = choose(t("corpus.method"), methods, METHOD, METHOD_NAMES) if view == "head" else \
            widget_state.kept(METHOD, methods)
        colour = pick(t("corpus.colour"), COLOURS, COLOUR, {c: t(f"corpus.colour.{c}") for c in COLOURS}, 180) \
            if view != "search" else widget_state.kept(COLOUR, COLOURS)
    return Settings(kind, layer, head, method, colour, presentation.presenting()), row2


def waiting(job: jobs.Job, text: str, expected_s: float) -> None:
    """The job's progress, redrawn each second until it is done; then the whole page runs again to show it."""
    def poll() -> None:
        if job.done:
            st.rerun()
        share = job.progress if job.progress is not None else min(0.95, job.elapsed / expected_s)
        st.progress(share, text=text.format(done=job.done_steps, total=job.total_steps, seconds=round(job.elapsed)))

    st.fragment(poll, run_every=POLL_S)()


def passes(translator, checkpoint: str, lines) -> jobs.Job:
    """The job of the model's passes over the shipped corpus and the user's sentences (each cached on disk)."""
    language = translator.config.source_language
    cache = ProjectionCache()
    shipped, _ = corpus_view.corpus_of(language, "")
    user = corpus_view.user_corpus(language, lines)

    def work(progress) -> object:
        total = len(shipped.sentences) + (len(user.sentences) if user else 0)
        run = corpus_view.cached_run(translator, shipped, cache, lambda done, _: progress(done, total))
        extra = None if user is None else corpus_view.cached_run(
            translator, user, cache, lambda done, _: progress(len(shipped.sentences) + done, total))
        return corpus_view.joined(run, extra)

    key = ("corpus.passes", checkpoint, models.device(), shipped.digest(), user.digest() if user else "")
    return jobs.shared().start(key, work)


def result_of(job: jobs.Job, wait_s: float, text: str, expected_s: float):
    """The job's result once done within `wait_s`, else None with its progress drawn."""
    if job.wait(wait_s):
        return job.result()
    waiting(job, text, expected_s)
    return None


def projection_of(run, settings: Settings):
    cache = ProjectionCache()
    s = settings
    key = ("corpus.projection", run.weights_sha256, run.corpus.digest(), s.kind, s.layer, s.head, s.method)
    job = jobs.shared().start(key, lambda _: head_view(run, s.kind, s.layer, s.head, s.method,
                                                       corpus_view.SEED, cache))
    points = sum(len(trace.axis_tokens(s.kind)[0]) + len(trace.axis_tokens(s.kind)[1]) for trace in run.traces)
    return result_of(job, PCA_WAIT_S, t("corpus.projecting", method=METHOD_NAMES[s.method], points=points),
                     EXPECTED_S[s.method])


def matrix_of(run, settings: Settings):
    cache = ProjectionCache()
    key = ("corpus.matrix", run.weights_sha256, run.corpus.digest(), settings.kind)
    job = jobs.shared().start(key, lambda _: matrix_view(run, settings.kind, corpus_view.SEED, cache))
    return result_of(job, MATRIX_WAIT_S, t("corpus.projecting_matrix", heads=run.layers[settings.kind] * run.heads),
                     EXPECTED_S["matrix"])


def roles_of(run):
    """Every head's role (the worked readings' numbers): computed once per corpus on the worker, not waited for."""
    job = jobs.shared().start(("corpus.roles", run.weights_sha256, run.corpus.digest()), lambda _: every_role(run))
    return job.result() if job.done else None


def searched(run, translator, settings: Settings, row):
    """The token picked (or typed) among the corpus's query tokens of the kind, in the controls' second `row` (the
    commonest word at first), searched on the head."""
    kind = settings.kind
    options = [token for token, _ in query_tokens(run, kind)]
    chosen = st.session_state.get(TOKEN) or corpus_view.first_word(options)
    with row:
        st.selectbox(t("corpus.search_token"), options if chosen in options else [chosen, *options], key=TOKEN,
                     index=(options.index(chosen) if chosen in options else 0), accept_new_options=True,
                     help=t("corpus.search_help"), width=320)
    typed = st.session_state.get(TOKEN) or chosen
    tokens = (typed,) if typed in options else typed_tokens(translator, typed, kind)
    return search(run, kind, settings.layer, settings.head, tokens)


def open_clicked(run, settings: Settings, sentence_of: tuple[int, ...]) -> None:
    """A click on a point opens its sentence in the explorer on this head (the next run switches page)."""
    index = clicked_point(st.session_state[CHART].selection.points)
    if index is not None:
        st.session_state[OPEN] = corpus_view.explorer_link(run, sentence_of[index], settings,
                                                           st.session_state[CHECKPOINT])


def open_clicked_head(heads: int) -> None:
    """A click on a small projection opens that head's own picture."""
    panel = clicked_panel(st.session_state[MATRIX].selection.points)
    if panel is not None:
        st.session_state.update({VIEW: "head", LAYER: panel // heads, HEAD: panel % heads})


def show_head(reading: corpus_view.Reading) -> None:
    st.session_state.update({VIEW: "head", KIND: reading.kind, LAYER: reading.layer, HEAD: reading.head,
                             COLOUR: reading.colour})


def explorer_row(run, settings: Settings, sentence_of: tuple[int, ...]) -> None:
    """A sentence of the corpus (the last clicked, else the first shown) opened in the explorer on this head, and
    pinned to the deck as the explorer shows it."""
    numbers = sorted(set(sentence_of)) or [0]
    chosen = widget_state.kept(SENTENCE, numbers)
    checkpoint = st.session_state[CHECKPOINT]
    with st.container(horizontal=True, vertical_alignment="bottom", key="corpus.explorer"):
        number = st.selectbox(t("corpus.open_sentence"), numbers, key=SENTENCE, index=numbers.index(chosen),
                              format_func=lambda i: f"{i + 1}. {run.corpus.sentences[i].source}", width=420)
        link = corpus_view.explorer_link(run, number, settings, checkpoint)
        st.page_link(registry.PAGE["translate"].script, label=t("corpus.open"), icon=":material/open_in_new:",
                     query_params={"lang": st.session_state.get(LANG, "en"), **link})
        if not settings.presenting:
            attention_view.pin_button(attention_view.pinned_view(settings.kind, settings.layer, settings.head,
                                                                 link["s"], checkpoint), "corpus.pin")


def draw_head(shown: PageView, run, settings: Settings) -> None:
    head = shown.head
    charts.chart(head.figure, CHART, on_select=partial(open_clicked, run, settings, head.sentence_of),
                 selection_mode="points")
    st.caption(head.caption)
    st.download_button(t("corpus.download"), head.csv, file_name=head.csv_name, mime="text/csv", key="corpus.csv",
                       icon=":material/download:")
    explorer_row(run, settings, head.sentence_of)


def draw_matrix(shown: PageView, heads: int) -> None:
    charts.chart(shown.matrix, MATRIX, on_select=partial(open_clicked_head, heads), selection_mode="points")
    st.caption(t("corpus.matrix_hint"))


def draw_search(shown: PageView, run, settings: Settings) -> None:
    st.markdown(shown.search.summary)
    if shown.search.rows:
        table_view.table(shown.search.rows, hide_index=True)
        explorer_row(run, settings, shown.search.sentence_of)


def draw_corpus(shown: PageView) -> None:
    """Which corpus, the user's own lines (a form: they count once submitted) and what was refused of them."""
    st.caption(shown.corpus)
    for notice in shown.notices:
        st.warning(notice, icon=":material/rule:")
    with st.expander(t("corpus.user_title")):
        with st.form("corpus.user_form", border=False):
            st.text_area(t("corpus.user_label"), key=USER_TEXT, help=shown.user_help, height=120,
                         value=st.session_state.get(USER, ""))
            st.form_submit_button(t("corpus.user_add"), on_click=lambda: st.session_state.update(
                {USER: st.session_state.get(USER_TEXT, "")}))


def draw_teaching(shown: PageView) -> None:
    with st.expander(t("corpus.teach_title")):
        st.markdown("\n".join(f"- {line}" for line in shown.limits))
        if not shown.readings:
            st.caption(t("corpus.readings_pending"))
        for i, reading in enumerate(shown.readings):
            st.markdown(reading.text)
            st.button(t("corpus.show_head"), key=f"corpus.reading.{i}", on_click=show_head, args=(reading,),
                      icon=":material/visibility:")
        if shown.roles:
            st.markdown(shown.roles_title + "\n\n" + "\n".join(f"- {line}" for line in shown.roles))


def draw(shown: PageView, run, settings: Settings, view: str) -> None:
    with st.container(key=page_scripts.LINKED_VIEW):
        if view == "head" and shown.head is not None:
            draw_head(shown, run, settings)
        elif view == "matrix" and shown.matrix is not None:
            draw_matrix(shown, run.heads)
        elif view == "search" and shown.search is not None:
            draw_search(shown, run, settings)
    draw_corpus(shown)
    draw_teaching(shown)


def computed(run, translator, settings: Settings, view: str, row) -> dict:
    """The view's result where it is ready ({} while its job runs: its progress is drawn)."""
    if view == "head":
        found = projection_of(run, settings)
        return {} if found is None else {"projection": found}
    if view == "matrix":
        found = matrix_of(run, settings)
        return {} if found is None else {"matrix": found}
    return {"found": searched(run, translator, settings, row)}


def page() -> None:
    translator = models.translator()
    config = translator.config
    layers = max(config.n_encoder_layers, config.n_decoder_layers)
    links.link_page(link_params(layers, config.n_heads))
    presentation.page_title(t("corpus.title"), t("corpus.intro"), tooltip=True)
    checkpoint = st.session_state[CHECKPOINT]
    if not translator.capabilities.trained_here:
        st.info(t("corpus.not_trained_here", checkpoint=md_escape(checkpoint)), icon=":material/info:")
        links.write_link()
        return
    if (link := st.session_state.pop(OPEN, None)) is not None:  # a point clicked: its sentence in the explorer
        st.switch_page(registry.PAGE["translate"].script, query_params={"lang": st.session_state.get(LANG, "en"),
                                                                       **link})
    settings, row = draw_controls(layers, config.n_heads)
    _, lines = corpus_view.corpus_of(config.source_language, st.session_state.get(USER, ""))
    try:
        run = result_of(passes(translator, checkpoint, lines), RUN_WAIT_S, t("corpus.running"), 60.0)
        if run is not None:
            view = st.session_state[VIEW]
            found = computed(run, translator, settings, view, row)
            shown = corpus_view.view(run, lines, direction.current(), settings, roles=roles_of(run), **found)
            draw(shown, run, settings, view)
    except (CorpusError, HeadError, InputError, ProjectionUnavailable) as exc:
        st.error(t("corpus.error", why=md_escape(str(exc))), icon=":material/error:")
    links.write_link()


page()
