"""Decoding step by step: at output step t, what the decoder saw, where it looked, and what it could say next.

decoding_view.py computes what a step shows from the one cached result (moving through the steps never runs the
model); this module draws it. Previous / Next / Play, the slider and the ← → keys all move one session-state step
(STEP); all but Play rerun only the step's fragment (step_fragment).
"""

import streamlit as st

from app_pages.components import attention_view, charts, chips, decks, guessing, table_view, whatif
from app_pages.components.stepper import stepped_view, stepper
from app_pages.pages import decoding_view
from app_pages.pages.decoding_view import BeamView, Candidates, LengthPenaltyView, Settings, StepView
from app_pages.shell import link_values, links, navigation, page_scripts, presentation
from app_pages.shell.text import t
from app_pages.state import direction, models, translations, widget_state
from app_pages.state.state_keys import CHECKPOINT
from model import TranslationResult

STEP, EVERY_HEAD = "decoding.step", "decoding.every_head"
GUESS = "decoding.guess"  # "Guess first": the candidates hidden until the next token is guessed
GUESSING = "decoding.guessing"  # the guess panel's keys (guessing.next_token_guess)


def draw_beam(beam: BeamView) -> None:
    st.markdown("#### " + beam.title)
    if beam.figure is not None:
        charts.chart(beam.figure, key="decoding.chart.beam")
    st.caption(beam.caption)


def draw_length_penalty(shown: LengthPenaltyView) -> None:
    st.subheader(shown.title)
    st.markdown(shown.formula)
    if shown.columns is None:
        st.caption(shown.result)
        return
    table_view.table(shown.columns, hide_index=True)
    st.markdown(shown.result)
    st.caption(shown.caveat)


def draw_candidates(result: TranslationResult, shown: Candidates, s: Settings) -> None:
    """The step's candidates, or while Guess first is on the guess panel (which shows them once revealed)."""
    st.markdown(f"**{shown.title}**")
    if shown.figure is None:
        guessing.next_token_guess(result, s.position, shown.tokens, shown.probs, shown.chosen, key=GUESSING,
                                  **decoding_view.candidate_layout())
        if s.hidden:
            return
    else:
        charts.chart(shown.figure, key="decoding.chart.candidates")
    st.caption(shown.caption)


def draw_step(result: TranslationResult, shown: StepView, s: Settings) -> None:
    """The charts beside each other, their explanations under them, the beam's tree across both columns."""
    left, right = st.columns([3, 2])
    with left:
        st.markdown(shown.mask_title)
        charts.chart(shown.mask, key="decoding.chart.mask")
        st.caption(shown.mask_caption)
        st.toggle(t("decoding.every_head"), persist_state="session", key=EVERY_HEAD, value=s.every_head)
        st.markdown(shown.cross_title)
        charts.chart(shown.cross, key="decoding.chart.cross")
        # Under the chart its slide shows (as the explorer's pin is under its map): in a row above the charts, a
        # button would push them below the first screen. None where the charts fill a projector's screen.
        if not presentation.presenting():
            attention_view.pin_button(decks.decoding_slide(result.source_text, st.session_state[CHECKPOINT],
                                                           s.position + 1, s.layer, s.head), "decoding.pin")
        st.caption(shown.cross_caption)
    with right:
        draw_candidates(result, shown.candidates, s)
    if shown.beam is not None:  # None while the guess hides the answer, which the tree tells
        draw_beam(shown.beam)


def step_section(result: TranslationResult) -> None:
    """The controls first, then the step's charts: at 1280×800 the controls and the charts of a step are on screen
    together. The step's line sits above the pickers; it is filled once they have been read."""
    number = stepper("decoding", STEP, 1, len(result.steps), t("decoding.step"), width=240)
    layers, heads = result.cross.shape[:2]
    now_row = st.container(horizontal=True, vertical_alignment="center", key="decoding.now")
    with st.container(horizontal=True, gap="medium", key="decoding.pickers"):
        layer, head = attention_view.layer_head_selectors("decoding", layers, heads, average_layers=True)
        guessing.toggle(GUESS, "dguess.toggle")
    s = Settings(number - 1, layer, head, widget_state.kept(EVERY_HEAD, (False, True)),
                 bool(st.session_state.get(GUESS)),
                 guessing.next_token_hidden(result, number - 1, key=GUESSING, toggle_key=GUESS), direction.current())
    shown = decoding_view.step_view(result, s)
    with now_row:
        st.markdown(shown.now, width="content")
        chips.token_chips(shown.prefix, color="orange", key="decoding.prefix")
    draw_step(result, shown, s)


def step_fragment() -> None:
    """Everything a step, a picker or Guess first changes: a fragment, so that Previous / Next, the slider, the layer
    and head rerun only this part, not the whole page (sidebar, title); the URL is written at its end (each fragment
    run's own), so that it stays the view on screen. Autoplay's timer, outside it, reruns the page
    (stepper.stepped_view). It asks for the result itself: a fragment's arguments stay with the session, and would
    keep a result the byte-bounded cache had let go."""
    result = translations.current_result()
    guessing_now = bool(st.session_state.get(GUESS))
    with st.container(horizontal=True, vertical_alignment="center", key="decoding.sentence"):
        st.markdown(decoding_view.sentence_line(result, direction.current(), guessing_now), width="content",
                    help=translations.names_note(result))
        navigation.page_link("translate", t("decoding.change_sentence"), icon=":material/edit:")
    with st.container(key=page_scripts.LINKED_VIEW):  # where a link to a step lands
        step_section(result)
    position = st.session_state[STEP] - 1
    # After the guess only: the what-if candidates would give the answer away.
    if not guessing.next_token_hidden(result, position, key=GUESSING, toggle_key=GUESS):
        whatif.section(result, position)
    # The finished beams hold the whole translation, which Guess first hides at every step (as the sentence's line).
    if not guessing_now:
        draw_length_penalty(decoding_view.length_penalty_view(result, models.translator().generation_config))
    links.write_link()


def page() -> None:
    presentation.page_title(t("decoding.title"), t("decoding.intro", source=direction.source_name()))
    config = models.translator().config
    links.link_page({"step": link_values.Param(STEP, link_values.number_in(1, config.max_len)),
                     **attention_view.layer_head_params("decoding", config.n_decoder_layers, config.n_heads,
                                                        average_layers=True)})
    stepped_view("decoding", step_fragment)


page()
