"""Positional encoding: the PE matrix, its curves, similarity, the rotation property, PE against the embeddings, other
schemes, and the live model on a sentence longer than any it was trained on. What each part shows is computed in
positional_view.py (plain data); this script draws the sliders and pickers and then that."""

from __future__ import annotations

import streamlit as st

from app_pages.components import exercises  # the "Try it" tab
from app_pages.components.parts import draw_part, draw_parts
from app_pages.components.teaching_shared import example_sentences, sections, sentence_banner
from app_pages.pages import positional_view
from app_pages.pages.positional_view import MAX_D, MAX_LENGTH
from app_pages.shell import presentation
from app_pages.shell.text import t
from app_pages.state import direction, models, translations
from model import ModelConfig, TrainingLog

DIMS, CHOSEN_DIMS = "positional.dims", "positional.dims.chosen"  # the multiselect's key; the picks kept across d_model changes
LENGTH, D_MODEL = "positional.length", "positional.d_model"  # the PE table's size, chosen on the matrix tab, used on the rotation tab


def remember_dims(d_model: int) -> None:
    """The widget's new picks, plus earlier picks that the current d_model could not show."""
    hidden = [d for d in st.session_state.get(CHOSEN_DIMS, []) if d >= d_model]
    st.session_state[CHOSEN_DIMS] = sorted(set(st.session_state[DIMS]) | set(hidden))


def chosen_sizes(config: ModelConfig) -> tuple[int, int]:
    """The PE table's length and d_model as the matrix tab's sliders hold them (kept while that tab is closed)."""
    return st.session_state.get(LENGTH, min(config.max_len, MAX_LENGTH)), st.session_state.get(D_MODEL, config.d_model)


def dimension_picker(d_model: int) -> list[int]:
    """The dimensions to draw as curves. The user's picks live in plain state, not only in the widget: a smaller
    d_model hides the picks it has no room for, and they come back when d_model grows again. The widget is drawn
    with those picks as its default too (widget_state.kept says why)."""
    shown = st.session_state[DIMS] = [d for d in st.session_state.get(CHOSEN_DIMS, positional_view.default_dims(d_model))
                                      if d < d_model]
    return st.multiselect(t("positional.curves.pick"), list(range(d_model)), persist_state="session", key=DIMS,
                          default=shown, on_change=remember_dims, args=(d_model,))


def matrix_section(config: ModelConfig) -> None:
    """The PE matrix, with its formula and sizes beside, then its curves and its similarities."""
    formula, sizes = st.columns(2, gap="medium", vertical_alignment="center")
    with formula:
        draw_part(positional_view.MATRIX_FORMULA)
    length, d_model = chosen_sizes(config)
    with sizes:
        length = st.slider(t("positional.length"), 2, MAX_LENGTH, length, persist_state="session", key=LENGTH)
        d_model = st.select_slider(t("positional.d_model"), list(range(2, MAX_D + 1, 2)), value=d_model,
                                   persist_state="session", key=D_MODEL)
    draw_parts(positional_view.matrix_parts(length, d_model, config))
    draw_parts(positional_view.curves_parts(length, d_model, dimension_picker(d_model)))
    draw_parts(positional_view.similarity_parts(length, d_model))


@st.fragment
def rotation_section() -> None:
    # The config is asked for here, not passed in: Streamlit keeps a fragment's arguments with the session.
    length, d_model = chosen_sizes(models.translator().config)
    draw_parts(positional_view.rotation_intro())
    cols = st.columns(3)
    with cols[0]:
        k = st.slider(t("positional.rot.k"), 1, length - 1, min(3, length - 1), persist_state="session",
                      key="positional.rot.k")
    with cols[1]:
        pos = st.slider(t("positional.rot.pos"), 0, length - 1 - k, 0, persist_state="session",
                        key="positional.rot.pos") if length - 1 - k > 0 else 0
    with cols[2]:
        pair = st.slider(t("positional.rot.pair"), 0, d_model // 2 - 1, 0, persist_state="session",
                         key="positional.rot.pair") if d_model > 2 else 0
    draw_parts(positional_view.rotation_parts(positional_view.Rotation(length, d_model, k, pos, pair)))


def size_section(config: ModelConfig) -> None:
    result = translations.current_result()
    sentence_banner(result)
    draw_parts(positional_view.size_parts(result, config.d_model))


def extrapolation_section() -> None:
    """What is known about the trained lengths, the live test past them, then the other ways to encode position."""
    translator = models.translator()
    live = positional_view.Live(translations.current_sentence(), tuple(example_sentences()),
                                translations.translation_of, direction.current()[0])
    lengths = TrainingLog.from_dict(translator.training_log).lengths
    draw_parts(positional_view.extrapolation_parts(lengths, translator.config, translator.max_source_tokens, live))


def page() -> None:
    config = models.translator().config
    presentation.page_title(t("positional.title"), positional_view.intro(config.d_model))
    sections("positional", {"matrix": lambda: matrix_section(config), "rot": rotation_section,
                            "size": lambda: size_section(config), "note": lambda: draw_parts(positional_view.note_parts()),
                            "ext": extrapolation_section, "try": lambda: exercises.pe_exercise(config.d_model)})


page()
