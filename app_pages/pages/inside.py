"""Inside the Transformer: the student's sentence followed through every block of the encoder–decoder.

A diagram of the architecture (the checkpoint's layer counts) opens a block on click, or from the picker
below it; each block shows the sentence's tensors there, with every step recomputed in NumPy
(lessons/inside.py) next to the model's own numbers. The session's choices are read here, what they show is
computed in inside_view.py, and drawn here.
"""

from __future__ import annotations

import streamlit as st

from app_pages.components import charts
from app_pages.components.parts import draw_parts
from app_pages.components.teaching_shared import example_sentences
from app_pages.pages import inside_view
from app_pages.pages.inside_view import SRC_TOKEN, TGT_TOKEN, InsideView, Live, Settings
from app_pages.shell import link_values, links, page_scripts
from app_pages.shell.presentation import presenting
from app_pages.state import models, translations, widget_state
from viz.teaching_inside import DIAGRAM_WIDTH_PX, architecture_blocks, clicked_block

BLOCK, DIAGRAM, DETAILS = "inside.block", "inside.diagram", "inside.details"
SCROLL = "inside.scroll"  # set by a click or the picker: the next run scrolls to the open block
# The diagram's column and the text's: at 1280×800 the main area is 820 px wide with the sidebar open (two columns
# 16 px apart), 1196 px in presentation mode, where the diagram is enlarged up to 1.3 times.
PAGE_COLUMNS = [DIAGRAM_WIDTH_PX + 16, 820 - DIAGRAM_WIDTH_PX - 16]
PRESENT_COLUMNS = [11, 9]


def open_clicked_block() -> None:
    """A click on a block of the diagram opens it below, and the page scrolls to it."""
    block = clicked_block(st.session_state[DIAGRAM].selection.points)
    if block is not None:
        st.session_state[BLOCK] = block
        scroll_to_block()


def scroll_to_block() -> None:
    """The run that follows brings the open block's section into view (Streamlit does not scroll by itself)."""
    st.session_state[SCROLL] = True


def settings(blocks: list[str], result) -> Settings:
    """The open block (the diagram frames it before its picker is drawn) and each side's token, kept in range when
    the sentence (and its length) changes."""
    return Settings(widget_state.kept(BLOCK, blocks), widget_state.kept(SRC_TOKEN, range(len(result.source_tokens))),
                    widget_state.kept(TGT_TOKEN, range(len(result.target_tokens))))


def draw_block(shown: inside_view.BlockView, shown_page: InsideView) -> None:
    """The block picker (another way to open a block), the block's heading, its parts and its token picker."""
    blocks = list(shown_page.blocks)
    st.selectbox(shown_page.picker_label, blocks, format_func=shown_page.block_names.__getitem__,
                 persist_state="session", key=BLOCK, on_change=scroll_to_block,
                 index=blocks.index(widget_state.kept(BLOCK, blocks)))
    st.header(shown.heading)
    draw_parts(shown.before)
    picker = shown.picker
    with st.columns(3)[0]:
        st.selectbox(shown_page.token_label, range(len(picker.labels)), format_func=picker.labels.__getitem__,
                     persist_state="session", key=picker.key, index=picker.index)
    draw_parts(shown.after)


def draw(shown: InsideView) -> None:
    """The diagram beside the introduction and the sentence, under the title (in presentation mode, where the
    enlarged diagram needs the whole screen's height, the title heads the text instead); the open block's section
    (its picker first) below both, where a click on the diagram scrolls to."""
    if not presenting():
        st.title(shown.title)
    diagram_column, text_column = st.columns(PRESENT_COLUMNS if presenting() else PAGE_COLUMNS)
    with diagram_column:
        charts.chart(shown.diagram, key=DIAGRAM, on_select=open_clicked_block, selection_mode="points")
    with text_column:
        if presenting():
            st.title(shown.title)
        st.markdown(shown.intro)
        draw_parts(shown.banner)
    with st.container(key=DETAILS):
        draw_block(shown.block, shown)
    if st.session_state.pop(SCROLL, False):
        page_scripts.scroll_to_details()


def page() -> None:
    translator = models.translator()
    config = translator.config
    result = translations.current_result()
    blocks = architecture_blocks(config.n_encoder_layers, config.n_decoder_layers)
    links.link_page({"block": link_values.Param(BLOCK, link_values.one_of(blocks))})
    live = Live(translator, result, tuple(example_sentences()), translations.translation_of)
    draw(inside_view.view(live, settings(blocks, result)))


page()
