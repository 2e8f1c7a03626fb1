"""Masks: causal (the notes' "i have a dream" and the live decoder, with Pin to deck), padding, padding + causal,
cross-attention. What each part shows is computed in masks_view.py (plain data); this script draws the pickers and
then that."""

from __future__ import annotations

import streamlit as st

from app_pages.components import attention_view, exercises, teaching_slides
from app_pages.components.parts import draw_part, draw_parts
from app_pages.components.teaching_shared import head_picker, in_direction, sections, sentence_banner
from app_pages.pages import masks_view
from app_pages.shell import links, presentation
from app_pages.shell.text import t
from app_pages.state import models, translations, widget_state
from app_pages.state.state_keys import CHECKPOINT
from lessons.masks import EXPOSURE_EXAMPLES

SECTIONS = ("doc", "exposure", "live", "pad", "try")


def exposure_pairs():
    """Each example sentence in the language the model reads, its reference, and the model's translation and
    teacher-forced run of it, one pair at a time (the view stops at the first that shows the point)."""
    for sentence, reference in in_direction(EXPOSURE_EXAMPLES):
        yield sentence, reference, translations.translation_of(sentence), translations.teacher_forced(sentence,
                                                                                                     reference)


@st.fragment
def live_causal() -> None:
    # The result is asked for here, not passed in: Streamlit keeps a fragment's arguments with the session.
    result = translations.current_result()
    _, layer, head = head_picker("masks.live", result, kinds=(teaching_slides.MASKS_KIND,))
    shown = masks_view.live_view(result, layer, head, st.session_state[CHECKPOINT])
    draw_parts(shown.parts)
    if not presentation.presenting():  # Pin to deck under its stages, none where they fill a projector's screen
        attention_view.pin_button(shown.pin, "masks.live.pin")
    draw_part(shown.check)
    links.write_link()  # a fragment's run: the address follows its pickers


def live_section() -> None:
    sentence_banner(translations.current_result())
    live_causal()


@st.fragment
def padding_views(batch: masks_view.Batch) -> None:
    rows = range(len(batch.sources))
    row = st.segmented_control(t("masks.pad.pick"), rows, format_func=lambda i: " ".join(batch.sources[i]),
                               persist_state="session", key="masks.pad.row", required=True,
                               default=widget_state.kept("masks.pad.row", rows, 1))
    # One kind at a time: twelve heatmaps at once made this the slowest page to draw.
    kind = st.segmented_control(t("masks.pad.kind"), masks_view.PAD_KINDS,
                                format_func=lambda k: t(f"masks.pad.kind.{k}"), persist_state="session",
                                key="masks.pad.kind", required=True, wrap=True,
                                default=widget_state.kept("masks.pad.kind", masks_view.PAD_KINDS))
    draw_parts(masks_view.padded_parts(batch, row, kind))


def padding_section() -> None:
    batch = masks_view.batch()
    draw_parts(masks_view.batch_parts(batch))
    padding_views(batch)
    st.info(t("masks.convention"))


def page() -> None:
    config = models.translator().config
    links.link_page({**teaching_slides.link_params("masks.live", config, teaching_slides.MASKS_KIND, with_kind=False),
                     "tab": teaching_slides.tab_param("masks", SECTIONS, n=len(masks_view.DOC_TOKENS))})
    presentation.page_title(t("masks.title"), t("masks.intro"))
    draw_part(masks_view.formula())
    translations.current_result()  # a sentence the model cannot take stops the page here, on every tab
    sections("masks", {"doc": lambda: draw_parts(masks_view.doc_parts()),
                       "exposure": lambda: draw_parts(masks_view.exposure_parts(exposure_pairs())),
                       "live": live_section, "pad": padding_section, "try": exercises.masks_exercise},
             n=len(masks_view.DOC_TOKENS))


page()
