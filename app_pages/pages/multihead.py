"""Multi-head shapes: the notes' walk-through (64, 12, 10, 300, 6 → 50 per head), your own numbers, the live model,
and why one head is not enough (two of the model's heads against their average, with Pin to deck). What each part
shows is computed in multihead_view.py (plain data); this script draws the pickers and then that."""

from __future__ import annotations

import streamlit as st

from app_pages.components import attention_view, teaching_slides
from app_pages.components.parts import draw_part, draw_parts
from app_pages.components.teaching_shared import head_picker, sections, sentence_banner
from app_pages.pages import multihead_view
from app_pages.shell import links, presentation
from app_pages.shell.text import t
from app_pages.state import models, result_cache, translations
from app_pages.state.state_keys import CHECKPOINT
from lessons import shapes
from model import ATTENTION_KINDS, library_refusal

SECTIONS = ("live", "doc", "why")
KIND = "multihead.why.kind"


def doc_section() -> None:
    """The notes' walk-through with numbers the student picks: every tensor's shape, and the notes' two slips."""
    draw_parts(multihead_view.doc_intro())
    values = {}
    for col, name in zip(st.columns(len(multihead_view.NAMES)), multihead_view.NAMES):
        with col:
            values[name] = int(st.number_input(t(f"multihead.in.{name}"), 1, 4096, shapes.DOC_EXAMPLE[name],
                                               persist_state="session", key=f"multihead.{name}"))
    refusal = multihead_view.refusal_args()
    error = result_cache.shared().get(("multihead.library_refusal", *refusal), lambda: library_refusal(*refusal))
    draw_parts(multihead_view.doc_parts(values, error))


@st.fragment
def live_shapes() -> None:
    """The picked layer's queries split into heads first (the picker above it), then every shape and the check."""
    # The result is asked for here, not passed in: Streamlit keeps a fragment's arguments with the session.
    result = translations.current_result()
    kind, layer, _ = head_picker("multihead.live", result, with_head=False)
    shown = multihead_view.shapes_view(result, models.translator().config, kind, layer)
    draw_part(shown.chart)
    sentence_banner(result)  # under the chart: above it, the chart would start below the first screen
    draw_parts((shown.text, shown.table, shown.check))


@st.fragment
def why_section() -> None:
    """Two heads of the picked layer that look at different keys for one query, and the average one head would
    need; the chart on the left, the pickers and the argument on the right: all of it on the first screen."""
    result = translations.current_result()
    chart, text = st.columns([3, 2], gap="medium")
    with text:
        kind, layer, _ = head_picker("multihead.why", result, with_head=False)
    shown = multihead_view.why_view(result, models.translator().config, kind, layer, st.session_state[CHECKPOINT])
    with chart:
        draw_part(shown.chart)
        if not presentation.presenting():  # Pin to deck under its chart, none where it fills a projector's screen
            attention_view.pin_button(shown.pin, "multihead.why.pin")
    with text:
        draw_part(shown.text)
    draw_part(shown.average)
    sentence_banner(result)
    links.write_link()  # a fragment's run: the address follows its pickers


def page() -> None:
    config = models.translator().config
    links.read_link({"kind": attention_view.kind_param(KIND)})
    kind = st.session_state.get(KIND, ATTENTION_KINDS[0])
    links.link_page({**teaching_slides.link_params("multihead.why", config, kind, with_head=False),
                     "tab": teaching_slides.tab_param("multihead", SECTIONS)})
    presentation.page_title(t("multihead.title"), t("multihead.intro"))
    translations.current_result()  # a sentence the model cannot take stops the page here, on every tab
    sections("multihead", {"live": live_shapes, "doc": doc_section, "why": why_section})


page()
