"""Q, K, V walkthrough: the notes' "Thinking Machines" example step by step, then one head of the live model, with
Pin to deck under its chart. What each part shows is computed in qkv_view.py (plain data); this script draws the
pickers and then that."""

from __future__ import annotations

import streamlit as st

from app_pages.components import attention_view, exercises, teaching_slides
from app_pages.components.parts import draw_parts
from app_pages.components.teaching_shared import head_picker, query_picker, sections, sentence_banner
from app_pages.pages import qkv_view
from app_pages.shell import links, presentation
from app_pages.shell.text import t
from app_pages.state import models, translations, widget_state
from app_pages.state.state_keys import CHECKPOINT
from model import ATTENTION_KINDS

SECTIONS = ("example", "matrix", "live", "try")
KIND = "qkv.live.kind"


def query_key(kind: str) -> str:
    """One query picker per kind: their query tokens differ, and one shared picker kept showing the last kind's
    label."""
    return f"qkv.live.{kind}.query"


@st.fragment
def step_through(shown: qkv_view.Example) -> None:
    step = st.segmented_control(t("qkv.step.label"), qkv_view.STEPS,
                                format_func=lambda s: qkv_view.step_label(s, shown), persist_state="session",
                                key="qkv.step", required=True, default=widget_state.kept("qkv.step", qkv_view.STEPS))
    draw_parts(qkv_view.step_parts(step, shown))


def draw_example(shown: qkv_view.Example) -> None:
    draw_parts(qkv_view.overview(shown))
    step_through(shown)


@st.fragment
def live_walkthrough() -> None:
    # The result is asked for here, not passed in: Streamlit keeps a fragment's arguments with the session.
    result = translations.current_result()
    kind, layer, head = head_picker("qkv.live", result)
    index = query_picker(f"qkv.live.{kind}", result.axis_tokens(kind)[0])
    draw_live(qkv_view.live_view(result, teaching_slides.Pick(kind, layer, head, index),
                                 st.session_state[CHECKPOINT], models.translator().capabilities.scales_queries_first))
    links.write_link()  # a fragment's run: the address follows its pickers


def draw_live(shown: qkv_view.LiveView) -> None:
    """The walk-through, Pin to deck under its steps' chart (none where the page fills a projector's screen)."""
    draw_parts(shown.before)
    draw_parts((shown.chart,))
    if not presentation.presenting():
        attention_view.pin_button(shown.pin, "qkv.live.pin")
    draw_parts(shown.after)


def live_section() -> None:
    sentence_banner(translations.current_result())
    live_walkthrough()


def page() -> None:
    """The link's view first (its query picker is its kind's), the title, then the open tab."""
    config = models.translator().config
    links.read_link({"kind": attention_view.kind_param(KIND)})
    kind = st.session_state.get(KIND, ATTENTION_KINDS[0])
    links.link_page({**teaching_slides.link_params("qkv.live", config, kind),
                     "query": teaching_slides.query_param(query_key(kind), config),
                     "tab": teaching_slides.tab_param("qkv", SECTIONS)})
    presentation.page_title(t("qkv.title"), t("qkv.intro"))
    shown = qkv_view.example()
    translations.current_result()  # a sentence the model cannot take stops the page here, on every tab
    sections("qkv", {"example": lambda: draw_example(shown),
                     "matrix": lambda: draw_parts(qkv_view.matrix_parts(shown)),
                     "live": live_section, "try": lambda: exercises.qkv_exercise(shown.numbers)})


page()
