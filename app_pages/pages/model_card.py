"""The checkpoint's model card in the session's language and the confidence calibration in its log. What it shows is
computed in model_card_view.py (plain data); this script reads the session's model and draws that."""

from __future__ import annotations

import streamlit as st

from app_pages.components.parts import draw_parts
from app_pages.pages import model_card_view
from app_pages.pages.model_card_view import Code
from app_pages.shell.text import language
from app_pages.state import direction, models, state_keys
from model import TrainingLog


def session_model() -> model_card_view.Model:
    translator = models.translator()
    return model_card_view.Model(direction.label(st.session_state[state_keys.CHECKPOINT]),
                                 translator.capabilities.trained_here, translator.card_in(language()),
                                 language() in translator.cards, TrainingLog.from_dict(translator.training_log))


def draw(shown: model_card_view.CardView) -> None:
    draw_parts(shown.before)
    for block in shown.card:
        if isinstance(block, Code):
            st.code(block.text, language=None, wrap_lines=True)
        else:
            draw_parts((block,))
    draw_parts(shown.calibration)


draw(model_card_view.view(session_model()))
