"""Why divide by √d_k: Var(q·k) grows with d_k, and unscaled scores saturate the softmax; and why the embeddings are
multiplied by √d_model (the shipped model's embedding rows against the PE's length). What each part shows is computed
in scaling_view.py (plain data); this script draws the d_k slider and then that."""

from __future__ import annotations

import streamlit as st

from app_pages.components.parts import draw_part, draw_parts
from app_pages.components.teaching_shared import sections
from app_pages.pages import scaling_view
from app_pages.shell import presentation
from app_pages.shell.text import t
from app_pages.state import models
from lessons import scaling


def dk_section() -> None:
    """The argument and the one control of the page side by side: the first chart follows right under them."""
    formula, control = st.columns([3, 2], gap="medium", vertical_alignment="center")
    with formula:
        draw_part(scaling_view.VARIANCE_FORMULA)
    with control:
        d_k = st.select_slider(t("scaling.dk"), scaling.D_K_CHOICES, value=scaling_view.DEFAULT_D_K,
                               persist_state="session", key="scaling.dk")
    draw_parts(scaling_view.dk_parts(d_k))


def embedding_section() -> None:
    translator = models.translator()
    draw_parts(scaling_view.embedding_parts(translator.config, translator.weight("src_embed.weight"),
                                            translator.weight("tgt_embed.weight")))


def page() -> None:
    presentation.page_title(t("scaling.title"), t("scaling.intro"))
    sections("scaling", {"dk": dk_section, "emb": embedding_section})


page()
