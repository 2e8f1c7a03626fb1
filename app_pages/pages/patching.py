"""Which head carries it? Activation patching between a clean and a corrupted sentence, the logit lens and
contrastive attribution: the session's choices read here, what they show computed in patching_view.py, and drawn
here.

The grids are computed once per pair, target and foil and model (the server's result cache, "patching." keys);
choosing a view, a cell or a guess reruns only the drawing and, for a cell, one re-decoding.
"""

from collections.abc import Callable

import streamlit as st

from app_pages.components import attention_view, guessing, patching_charts
from app_pages.components import polls
from app_pages.components.patching_charts import KINDS, VIEWS, Measured, PinnedView
from app_pages.pages import patching_study_view, patching_view
from app_pages.pages.patching_view import PAIRS, PatchingView, Settings
from app_pages.shell import link_values, links, page_scripts, presentation
from app_pages.shell.text import t
from app_pages.state import models, result_cache, widget_state
from app_pages.state.state_keys import CHECKPOINT
from lessons.deck import Slide
from model import MAX_CHARS, InputError
from model.causal import Cell, PatchingError, Redecoded
from viz.patching import clicked_cell

CLEAN, CORRUPT, BUILTIN = "patching.clean", "patching.corrupt", "patching.builtin"
TARGET, FOIL, VIEW, CELL = "patching.target", "patching.foil", "patching.view", "patching.cell"
GUESS, GUESS_KIND, GUESS_LAYER, GUESS_HEAD = "patching.guess", "patching.guess.kind", "patching.guess.layer", \
    "patching.guess.head"
CHART = "patching.chart"
AUTO = ""  # the target or foil the pair itself gives (where the translations part)
NO_CELL = ""  # the cell picker's "none": a selectbox holding None shows "Choose an option" instead of its name


def redecoded(checkpoint: str, device: str, found: Measured, cell: Cell, inputs: tuple) -> Redecoded:
    return result_cache.shared().get(
        ("patching.redecoded", checkpoint, device, *inputs, cell),
        lambda: patching_view.redecoded(models.load(checkpoint, device), found.patching, cell))


def use_builtin() -> None:
    chosen = st.session_state.get(BUILTIN)
    if chosen:
        st.session_state[CLEAN], st.session_state[CORRUPT] = chosen.split(" / ", 1)
        st.session_state.update({TARGET: AUTO, FOIL: AUTO, CELL: NO_CELL})
    st.session_state[BUILTIN] = None


def forget_choices() -> None:
    st.session_state.update({TARGET: AUTO, FOIL: AUTO, CELL: NO_CELL})


def pair_input(source: str) -> tuple[str, str]:
    """The two sentence boxes and the built-in pairs of the language the model reads (one row)."""
    pairs = PAIRS.get(source, ())
    if CLEAN not in st.session_state or CORRUPT not in st.session_state:
        st.session_state[CLEAN], st.session_state[CORRUPT] = pairs[0] if pairs else ("", "")
    with st.container(horizontal=True, vertical_alignment="bottom", key="patching.pair"):
        for key, label in ((CLEAN, "patching.clean"), (CORRUPT, "patching.corrupt")):
            st.text_input(t(label), key=key, max_chars=MAX_CHARS, on_change=forget_choices, persist_state="session",
                          value=st.session_state[key])  # value=: widget_state.kept says why
        st.selectbox(t("patching.builtin"), [" / ".join(p) for p in pairs], key=BUILTIN, index=None,
                     on_change=use_builtin, placeholder=t("patching.builtin"), label_visibility="collapsed")
    return st.session_state[CLEAN], st.session_state[CORRUPT]


def link_params() -> dict[str, link_values.Param]:
    """The pair, the target and foil, and the view: a link reopens the same grid."""
    keys = {"clean": CLEAN, "corrupt": CORRUPT, "target": TARGET, "foil": FOIL, "view": VIEW}
    return {name: link_values.Param(keys[name], read) for name, read in patching_charts.link_readers().items()}


def open_clicked_cell() -> None:
    """A click on a head grid's cell patches that head when re-decoding."""
    if st.session_state.get(VIEW) != "heads":
        return
    found = clicked_cell(st.session_state[CHART].selection.points)
    if found is not None:
        panel, layer, head = found
        st.session_state[CELL] = ("head", KINDS[panel], layer, head)


def draw_controls(shown: PatchingView) -> None:
    """View, target, foil and the guess switch in one row."""
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="patching.controls"):
        # labels looked up now, not in format_func: Streamlit may format an option outside the page's run
        views = {v: t(f"patching.view.{v}") for v in VIEWS}
        st.segmented_control(t("patching.view"), VIEWS, format_func=views.__getitem__,
                             key=VIEW, required=True, default=widget_state.kept(VIEW, VIEWS))
        auto_label = t("patching.auto")
        auto = lambda token: auto_label if token == AUTO else token  # noqa: E731
        for key, options, label in ((TARGET, shown.target_options, "patching.target"),
                                    (FOIL, shown.foil_options, "patching.foil")):
            choices = (AUTO, *options)
            st.selectbox(t(label), choices, key=key, format_func=auto, on_change=forget_cell,
                         index=choices.index(widget_state.kept(key, choices)), persist_state="session",
                         help=t(f"{label}_help"), width=120)  # the row holds the guess switch too at 1280×800
        guessing.toggle(GUESS, label="patching.guess.toggle")  # value=: kept by the component


def forget_cell() -> None:
    st.session_state[CELL] = NO_CELL


def draw_guess(shapes: dict[str, tuple[int, int]], identity: tuple, poll: Callable[[], None]) -> None:
    """Which head carries it? Kind, layer and head chosen, then Reveal shows the grids and the verdict; beside Reveal,
    for a teacher, the button that polls the class on the same question."""
    st.markdown(t("patching.guess.question"))
    with st.container(horizontal=True, vertical_alignment="bottom", key="patching.guess.row"):
        kinds = {k: t(f"patching.kind.{k}") for k in KINDS}
        kind = widget_state.kept(GUESS_KIND, KINDS)
        st.selectbox(t("patching.guess.kind"), KINDS, key=GUESS_KIND, format_func=kinds.__getitem__,
                     index=KINDS.index(kind), persist_state="session")
        layers, heads = shapes[kind]
        for key, n, label in ((GUESS_LAYER, layers, "patching.guess.layer"),
                              (GUESS_HEAD, heads, "patching.guess.head")):
            st.selectbox(t(label), range(n), key=key, format_func=lambda i: str(i + 1),
                         index=widget_state.kept(key, range(n)), persist_state="session",
                         width=100)  # a number: the kind's name ("Encoder self-attention") takes the row's room
        st.button(t("patching.guess.reveal"), type="primary", key="patching.guess.reveal",
                  on_click=guessing.reveal, args=(GUESS, identity))
        poll()


def cell_picker(shapes: dict[str, tuple[int, int]]) -> None:
    """The cell whose patch re-decodes the corrupted sentence: any head (a click on the grid sets it too)."""
    options = [NO_CELL] + [("head", kind, layer, head) for kind in KINDS for layer in range(shapes[kind][0])
                        for head in range(shapes[kind][1])]
    chosen = widget_state.kept(CELL, options)
    names = {c: t("patching.cell_none") if c == NO_CELL else patching_view.cell_name(c) for c in options}
    st.selectbox(t("patching.cell_pick"), options, key=CELL, format_func=names.__getitem__,
                 index=options.index(chosen), persist_state="session")


def draw_chart(chart, key: str, clickable: bool, pin: Slide | None = None) -> None:
    """The chart, and under it on one row its CSV and, for the view on screen, Pin to deck."""
    if clickable:
        st.plotly_chart(chart.figure, key=key, on_select=open_clicked_cell, selection_mode="points",
                        config={"displayModeBar": False})
    else:
        st.plotly_chart(chart.figure, key=key, config={"displayModeBar": False})
    with st.container(horizontal=True, vertical_alignment="center", key=f"{key}.files"):
        st.download_button(t("patching.download"), chart.csv, file_name=chart.name, mime="text/csv",
                           key=f"{key}.csv", icon=":material/download:")
        if pin is not None:
            attention_view.pin_button(pin, f"{key}.pin")


def draw_pair_lines(shown: PatchingView) -> None:
    st.markdown(shown.pair_lines[0] + "  \n" + shown.pair_lines[1])
    st.caption(shown.metric + (" " + shown.unpatched if shown.unpatched else ""))


def draw(shown: PatchingView, shapes: dict[str, tuple[int, int]], identity: tuple, pin: Slide,
         poll: Callable[[], None]) -> None:
    """The pair, its metric, the chosen view and what it does not show; `poll` draws a teacher's class poll on the
    guess, beside Reveal and, once revealed, under the verdict. In presentation mode the pair's lines come under the
    chart: above it, at presentation mode's type, they pushed the chart's bottom below a 1280×800 screen."""
    lines_first = not presentation.presenting()
    if lines_first:
        draw_pair_lines(shown)
    draw_controls(shown)
    with st.container(key=page_scripts.LINKED_VIEW):
        view = st.session_state[VIEW]
        if view == "heads" and shown.chart is None:
            draw_guess(shapes, identity, poll)
        elif shown.second is not None:
            left, right = st.columns(2)
            with left:
                draw_chart(shown.chart, CHART, False, pin)
            with right:
                draw_chart(shown.second, f"{CHART}.second", False)
        else:
            draw_chart(shown.chart, CHART, view == "heads", pin)
        if not lines_first:
            draw_pair_lines(shown)
        if shown.verdict:
            st.info(shown.verdict, icon=":material/lightbulb:")
            poll()
        if shown.chart is not None:  # before a guess's reveal, no caption of hidden grids nor a patched head to try
            st.caption(shown.caption)
            if view == "heads":
                cell_picker(shapes)
                if shown.redecoded:
                    st.markdown("  \n".join(shown.redecoded))
    with st.expander(t("patching.limits")):
        st.markdown("\n".join(f"- {line}" for line in shown.limits))


def draw_study(studies: tuple[patching_study_view.StudyView, ...]) -> None:
    """The built-in study over many pairs, one expander per kind of pair, under the one pair's grids."""
    for study in studies:
        with st.expander(study.title):
            st.markdown("\n\n".join(study.lines))
            if study.chart is not None:
                draw_chart(study.chart, f"{CHART}.study.{study.kind}", False)


def page() -> None:
    links.link_page(link_params())
    translator = models.translator()
    presentation.page_title(t("patching.title"), t("patching.intro"), tooltip=True)  # the grid on the first screen
    clean, corrupt = pair_input(translator.config.source_language)
    checkpoint, device = st.session_state[CHECKPOINT], models.device()
    target, foil = st.session_state.get(TARGET) or None, st.session_state.get(FOIL) or None
    try:
        found = patching_charts.measured(checkpoint, device, clean, corrupt, target, foil)
    except (PatchingError, InputError) as exc:
        if getattr(exc, "key", None) == "not_trained_here":  # a model choice, not a mistake: said as a note
            st.info(patching_charts.error_text(exc), icon=":material/info:")
        else:
            st.error(patching_charts.error_text(exc), icon=":material/error:")
        links.write_link()
        return
    identity = (checkpoint, clean, corrupt, target, foil)
    guessing_now = bool(st.session_state.get(GUESS))
    guess = ("head", st.session_state.get(GUESS_KIND, KINDS[0]), st.session_state.get(GUESS_LAYER, 0),
             st.session_state.get(GUESS_HEAD, 0))
    revealed = guessing.revealed(GUESS, identity)
    settings = Settings(widget_state.kept(VIEW, VIEWS), st.session_state.get(CELL) or None,
                        guess if guessing_now else None, guessing_now, revealed and guessing_now)
    cell = settings.cell
    again = redecoded(checkpoint, device, found, cell, identity[1:]) if cell else None
    shapes = {kind: found.patching.heads[kind].shape for kind in KINDS}
    pin = patching_charts.pinned(PinnedView(checkpoint, clean, corrupt, target, foil, settings.view))
    # a teacher polls the class on the guess (polls.py: its options, the measured answer)
    poll = lambda: polls.patching_start_control(found.patching, translator.config.source_language)  # noqa: E731
    draw(patching_view.view(found, settings, again), shapes, identity, pin, poll)
    draw_study(patching_study_view.view(translator.training_log, checkpoint))
    links.write_link()


page()
