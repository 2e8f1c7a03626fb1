"""The session's slide deck (state_keys.DECK, pinned with attention_view's Pin to deck): each slide's view checked with
the readers its page's link uses (the explorer's one map, Decoding's step, or a patching view), its chart rebuilt
from that view as the page draws it, the deck exported as one HTML file that opens offline, and read back from one."""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

import plotly.graph_objects as go
import streamlit as st
from streamlit import runtime
from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.script_run_context import SCRIPT_RUN_CONTEXT_ATTR_NAME

from app_pages.components import attention_view, patching_charts, rollout_view, teaching_slides
from app_pages.state import direction, models, translations
from app_pages.shell import links, page_scripts
from app_pages.shell.link_values import BadLinkValue, number_in, one_of
from app_pages.state.state_keys import DECK
from app_pages.shell.text import in_language, language, md_escape, t
from i18n import LANGUAGES
from lessons.attention_maps import pick
from lessons.deck import MAX_TITLE, BadDeck, Slide, from_json, json_in_html, to_json
from model import InputError
from model.causal import PatchingError
from viz.decoding import attention_bar
from viz.style import scaled

# The pages a slide may name and the link names each reads: a pin is the explorer's link to one map, or Decoding's
# link to one step's cross-attention (kind "cross" there, the only kind it shows a step of).
PAGES = {"translate": {"s", "model", "kind", "view", "layer", "head", "query", "min"},
         "decoding": {"s", "model", "step", "layer", "head"},
         patching_charts.PAGE: {"clean", "corrupt", "model", "target", "foil", "view"}, **teaching_slides.PAGES}
REQUIRED = {"translate": ("s", "model", "kind", "layer", "head"), "decoding": ("s", "model", "step", "layer", "head"),
            patching_charts.PAGE: ("clean", "corrupt", "model", "view"), **teaching_slides.REQUIRED}
# A presented slide's chart: the main area at 1280×800 under the mode and Previous / Next rows and the slide's title
# (a heading above the chart: in it, a long one ran under Plotly's mode bar).
SLIDE_PX = (1160, 464)
# In presentation mode, the height left for the enlarged chart under the one row of controls and the title at
# 1280×800 (measured: the chart starts at 300 px; tests/test_explorer_layout_browser checks every slide ends within
# the screen), with a margin for a title that wraps to a second line.
SLIDE_PRESENT_PX = 470
SLIDE_MAX_SCALE = 2.0  # a small chart (a decoding step's few bars) grows at most this much: letters stay readable
PINNED_VIEWS = ("head", "grid", "lines", rollout_view.VIEW)  # the explorer's views (a slide without one: head)


@dataclass(frozen=True)
class View:
    """What a slide shows: the explorer's `view` of `checkpoint`'s translation of `sentence` (one map, every head with
    one opened, the head view's lines, or a rollout), or (step, 1-based) one decoding step's row of a map; layer and
    head as the pickers hold them (ALL: the average)."""

    sentence: str
    checkpoint: str
    kind: str
    layer: int
    head: int
    step: int | None = None
    view: str = "head"
    query: int | None = None  # the head view's focused query (its position; None: every query)
    min_weight: float = attention_view.MIN_WEIGHT[2]  # the head view's threshold


def slides() -> list[Slide]:
    return st.session_state.setdefault(DECK, [])


def view_of(slide: Slide) -> View | patching_charts.PinnedView:
    """A slide's view, each value read as its page's link reads it; BadDeck names a missing value, BadLinkValue (with
    .name) one the models on this server cannot show."""
    missing = [name for name in REQUIRED[slide.page] if name not in slide.query]
    if missing:
        raise BadDeck("field", field=missing[0])
    if slide.page == patching_charts.PAGE:
        return patching_charts.slide_view(slide.query, _read)
    readers = links.shared_params()
    sentence, model = (_read(name, slide.query[name], readers[name].read) for name in ("s", "model"))
    config = models.translator(model).config
    if slide.page in teaching_slides.PAGES:
        return _teaching_view(slide, sentence, model, config)
    decoding = slide.page == "decoding"
    kind = "cross" if decoding else _read("kind", slide.query["kind"], attention_view.kind_param("").read)
    layers = config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers
    layer = _read("layer", slide.query["layer"], attention_view.index_param("", layers, decoding).read)
    head = _read("head", slide.query["head"], attention_view.index_param("", config.n_heads, True).read)
    step = _read("step", slide.query["step"], number_in(1, config.max_len)) if decoding else None
    view = "head" if decoding else _read("view", slide.query.get("view", "head"), one_of(PINNED_VIEWS))
    readers, lines = attention_view.lines_readers(config.max_len), {}
    if "query" in slide.query:
        lines["query"] = _read("query", slide.query["query"], readers["query"])
    if "min" in slide.query:
        lines["min_weight"] = _read("min", slide.query["min"], readers["min"])
    return View(sentence, model, kind, layer, head, step, view, **lines)


def _teaching_view(slide: Slide, sentence: str, model: str, config) -> View:
    """A teaching page's slide (teaching_slides): its view named by the page (`view`), one layer and head (no
    average), and Q·K·V's query position; the values a page does not choose are 0, Masks' kind the decoder's."""
    values = slide.query
    kind = (_read("kind", values["kind"], attention_view.kind_param("").read) if "kind" in values
            else teaching_slides.MASKS_KIND)
    layers = config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers
    layer = _read("layer", values["layer"], attention_view.index_param("", layers, False).read)
    head = _read("head", values["head"], attention_view.index_param("", config.n_heads, False).read) \
        if "head" in values else 0
    query = _read("query", values["query"], number_in(0, config.max_len - 1)) if "query" in values else 0
    return View(sentence, model, kind, layer, head, view=slide.page, query=query)


def _pick(view: View) -> teaching_slides.Pick:
    return teaching_slides.Pick(view.kind, view.layer, view.head, view.query or 0)


def _read(name: str, text: str, read):
    try:
        return read(text)
    except BadLinkValue as exc:
        exc.name = name
        raise


def why(exc: BadDeck | BadLinkValue) -> str:
    """Why a deck or a slide cannot be used, in the session's language (values escaped for Markdown)."""
    values = {k: md_escape(v) if isinstance(v, str) else v for k, v in exc.values.items()}
    if isinstance(exc, BadDeck):
        return t(f"deck.bad.{exc.key}", **values)
    return t("deck.bad.value", name=md_escape(exc.name), why=md_escape(t(f"link.why.{exc.key}", **values)))


def automatic_title(slide: Slide, lang: str) -> str:
    """The title the app gives the slide's view when pinned in `lang` (BadDeck, BadLinkValue: a view it cannot read)."""
    with in_language(lang):
        view = view_of(slide)
        if slide.page == patching_charts.PAGE:
            return patching_charts.slide_title(view)
        if slide.page in teaching_slides.PAGES:
            return teaching_slides.title(slide.page, view.sentence, _pick(view))
        if slide.page == "decoding":
            return decoding_slide(view.sentence, view.checkpoint, view.step, view.layer, view.head).title
        return attention_view.pinned_view(view.kind, view.layer, view.head, view.sentence, view.checkpoint,
                                          view.view, view.query, view.min_weight).title


def follow_language() -> None:
    """Titles the app made follow the interface's language (pinned in English, read in 中文); a title the teacher
    typed stays as typed."""
    for index, slide in enumerate(slides()):
        try:
            made = {lang: automatic_title(slide, lang) for lang in LANGUAGES}
        except (BadDeck, BadLinkValue):
            continue  # the slide says why where it is drawn
        if slide.title in made.values() and slide.title != made[language()]:
            slides()[index] = replace(slide, title=made[language()])


def slide_figure(slide: Slide, **limits) -> go.Figure:
    """The slide's chart rebuilt from its view, titled: the translation (cached), then the explorer's map (its grid
    of every head, its head view's lines, or its rollout), the bars of where Decoding's step looked in the source,
    or a patching view's grids, or a teaching page's chart (teaching_slides: untitled, as its page draws it; the
    deck's heading names it); BadDeck where the step or query is past this translation's end or the pair cannot be
    patched."""
    view = view_of(slide)
    if slide.page == patching_charts.PAGE:
        try:
            return patching_charts.slide_figure(view, slide.title, **limits)
        except (PatchingError, InputError) as exc:  # a crafted deck's pair; a pinned one was patched on its page
            raise BadDeck("patching", why=patching_charts.error_text(exc, escape=False)) from None
    result = translations.translation_of(view.sentence, view.checkpoint)
    if view.view in teaching_slides.PAGES:
        queries = len(result.axis_tokens(view.kind)[0])
        if view.query >= queries:
            raise BadDeck("query", query=view.query, n=queries)
        return teaching_slides.figure(view.view, result, _pick(view), **limits)
    if view.view == rollout_view.VIEW:
        return rollout_view.rollout_figure(result, view.kind, view.layer, title=slide.title, **limits)
    shown = attention_view.MapView.of(result, view.kind, view.layer, view.head)
    if view.view == "lines":
        query = view.query if view.query is not None and view.query < len(shown.queries) else None
        return shown.lines_figure(query, view.min_weight, title=slide.title, **limits)
    if view.step is None:
        draw = shown.grid_figure if view.view == "grid" else shown.figure
        return draw(title=slide.title, **limits)
    if view.step > len(result.steps):
        raise BadDeck("step", step=view.step, steps=len(result.steps))
    keys = attention_view.axis_names("cross", direction.of(view.checkpoint))[1]  # in the slide's model's languages
    return attention_bar(pick(result.cross[:, :, view.step - 1], view.layer, view.head), result.source_tokens,
                         title=slide.title, key_title=keys, value_label=t("axis.weight"), **limits)


def filled(fig: go.Figure) -> go.Figure:
    """A presented slide's chart enlarged as a whole until it fills the slide's width or height (at most
    SLIDE_MAX_SCALE times): a decoding step's bars are drawn for a column of the page and looked lost on a
    projector's screen."""
    factor = min(SLIDE_MAX_SCALE, SLIDE_PX[0] / fig.layout.width, SLIDE_PX[1] / fig.layout.height)
    return scaled(fig, factor) if factor > 1 else fig


def decoding_slide(sentence: str, model: str, step: int, layer: int, head: int) -> Slide:
    """A slide of Decoding's step `step` (1-based) of `model`'s translation of `sentence`: the page's link to it and a
    title computed from it, in the session's language (not the token written there: a guess may still be pending)."""
    query = {"s": sentence, "model": model, "step": str(step), "layer": attention_view.index_text(layer),
             "head": attention_view.index_text(head)}
    title = t("deck.decoding_title", step=step, layer=attention_view.layer_name(layer),
              head=attention_view.head_name(head), sentence=attention_view.short_sentence(sentence))
    return Slide("decoding", query, title[:MAX_TITLE])


def view_link(slide: Slide) -> str:
    """The address that opens the slide's view where students reach the app (links.share_links), in the session's
    language: what a class opens from a shared deck file."""
    return links.share_links(slide.page, {"lang": language(), **slide.query})[0]


def document(deck: list[Slide], figures: list[go.Figure]) -> str:
    """One self-contained HTML file: every slide's title, a link to its view (view_link), its chart (plotly.js
    inside the first), and the deck as JSON."""
    charts = [fig.to_html(include_plotlyjs=i == 0, full_html=False, config={"displaylogo": False})
              for i, fig in enumerate(figures)]
    body = "".join(page_scripts.DECK_SLIDE.format(number=i + 1, title=html.escape(slide.title),
                                                  href=html.escape(view_link(slide)), link=html.escape(t("deck.open")),
                                                  chart=chart)
                   for i, (slide, chart) in enumerate(zip(deck, charts)))
    return page_scripts.DECK_DOCUMENT.format(title=html.escape(t("deck.title")), slides=body, deck=to_json(deck))


def saved_figures() -> list[go.Figure]:
    """Every slide's chart at its figure's own size, titled, for a saved file."""
    return [slide_figure(slide) for slide in slides()]


def saved_document() -> str:
    """The deck as it is now, as one HTML file (document)."""
    return document(list(slides()), saved_figures())


def read_file(content: bytes) -> list[Slide]:
    """The slides of an exported deck, every one checked (schema, then each view's values); raises BadDeck or
    BadLinkValue, whose message why() writes."""
    deck = from_json(json_in_html(content), PAGES)
    for slide in deck:
        view_of(slide)
    return deck


UPLOAD, IMPORTED = "deck.upload", "deck.import_note"
SLIDE = "deck.slide"  # the presented slide's position (0-based): the Present stepper's slider key
PLAYING = "deck.playing"  # whether Present's Play runs (stepper's key under its prefix "deck")


def import_upload() -> None:
    """The uploaded file's slides replace the deck (a callback: before the page lists them), and Present starts
    again at their first slide; what happened, for import_note(): the count, or why the file cannot be read,
    plainly."""
    uploaded = st.session_state.get(UPLOAD)
    if uploaded is None:
        return
    try:
        deck = read_file(uploaded.getvalue())
    except (BadDeck, BadLinkValue) as exc:
        st.session_state[IMPORTED] = ("warning", t("deck.bad", why=why(exc)))
        return
    st.session_state[DECK] = deck
    st.session_state[SLIDE], st.session_state[PLAYING] = 0, False
    forget_titles()
    st.session_state[IMPORTED] = ("success", t("deck.imported", n=len(slides())))


def import_note() -> None:
    """What the last import did, once."""
    kind, text = st.session_state.pop(IMPORTED, (None, ""))
    if kind == "warning":
        st.warning(text, icon=":material/error:")
    elif kind == "success":
        st.success(text, icon=":material/upload_file:")


TITLES_ROUND = "deck.titles_round"  # how many times the slides moved, went or came: part of the title boxes' keys


def title_key(index: int) -> str:
    """The key of the title box of slide `index`: a new one each time the slides change places (forget_titles). Keyed
    by position alone, a box kept in the browser the title it showed before a move (the browser sends a box's value
    back for as long as its key lives), so after Move up a teacher renamed another slide than the one read. The
    language is part of it too: a box drawn in English would keep its English title after a switch to 中文."""
    return f"deck.rename.{st.session_state.get(TITLES_ROUND, 0)}.{language()}.{index}"


def forget_titles() -> None:
    """The rename boxes start again from the slides' titles (after a move, a delete or an import), under new keys."""
    for key in [k for k in st.session_state if str(k).startswith("deck.rename.")]:
        del st.session_state[key]
    st.session_state[TITLES_ROUND] = st.session_state.get(TITLES_ROUND, 0) + 1

Built = TypeVar("Built")
SETTLE_S = 30  # the longest a download waits for the page's runs before it is built
# How long a download waits for the rerun its own click may cause: the browser sends the value of the box the click
# leaves (a title typed without Enter) on blur, and that message may reach the server just after the download's.
CLICK_RERUN_S = 0.5


def when_clicked(build: Callable[[], Built]) -> Callable[[], Built]:
    """`build` as a download button's data, built when the button is clicked and after the runs that the click
    itself caused: a title typed without Enter is committed as the click leaves its box, a rerun asked for just
    before the click asks for the file. The file is then built from what the page shows (the renamed slide), in
    a server thread given this session (its language, its deck, its translations). Outside a server (AppTest),
    `build` as it is."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not runtime.exists():
        return build

    def built() -> Built:
        _wait_for_runs(ctx.session_id)
        thread = threading.current_thread()
        before = getattr(thread, SCRIPT_RUN_CONTEXT_ATTR_NAME, None)
        add_script_run_ctx(thread, ctx)
        try:
            return build()
        finally:
            setattr(thread, SCRIPT_RUN_CONTEXT_ATTR_NAME, before)

    return built


def _wait_for_runs(session_id: str) -> None:
    """Until the session runs no script and has none queued (at most SETTLE_S), after CLICK_RERUN_S for the rerun
    the click itself may have asked for (the session's script runner, private to Streamlit 1.67: none between runs)."""
    session = runtime.get_instance().get_app_session(session_id)
    end = time.monotonic() + SETTLE_S
    time.sleep(CLICK_RERUN_S)
    while getattr(session, "_scriptrunner", None) is not None and time.monotonic() < end:
        time.sleep(0.05)
