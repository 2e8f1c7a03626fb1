"""Model anatomy and training: parameters per component against the notes' formula, FLOPs, LR schedule, curves, label
smoothing, and the encoder FFN's units that never fire. What each part shows is computed in anatomy_view.py (plain
data); this script draws the ε slider and then that."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app_pages.components.parts import draw_part, draw_parts
from app_pages.components.teaching_shared import example_sentences, sections, sentence_banner
from app_pages.pages import anatomy_view
from app_pages.shell import presentation
from app_pages.shell.text import t
from app_pages.state import direction, models, translations
from model import TrainingLog, Translator


def parameters_tab(translator: Translator, log: TrainingLog) -> None:
    config, counts = translator.config, translator.parameter_counts
    draw_parts(anatomy_view.parameters_parts(config, counts, log.parameters))
    draw_parts(anatomy_view.formula_parts(config, counts, direction.source_name(), direction.target_name()))


def flops_tab(translator: Translator) -> None:
    result = translations.current_result()
    sentence_banner(result)
    draw_parts(anatomy_view.flops_parts(translator.config, result))


def learning_rate_tab(translator: Translator, log: TrainingLog) -> None:
    draw_parts(anatomy_view.learning_rate_parts(translator.config, log, translator.checkpoint))
    draw_parts(anatomy_view.curves_parts(log, translator.checkpoint))


def smoothing_tab(translator: Translator, log: TrainingLog) -> None:
    """The smoothed target for an ε the student picks, starting from the run's own."""
    draw_part(anatomy_view.SMOOTHING_FORMULA)
    epsilon = st.slider(t("anatomy.ls.eps"), 0.0, 0.5, anatomy_view.starting_epsilon(log.args), 0.05,
                        persist_state="session", key="anatomy.ls.eps")
    draw_parts(anatomy_view.smoothing_parts(translator.config, log.args, epsilon, direction.target_name()))


def hidden_of(sentence: str) -> np.ndarray:
    """(encoder layers, S, d_ff): the FFN hidden units of `sentence` (cached per input)."""
    checkpoint, device, _, _, language = translations.settings_for(sentence)
    return translations.ffn_activations(checkpoint, device, sentence, language)


def dead_units_tab(translator: Translator, log: TrainingLog) -> None:
    """The session's sentence and the examples (in the language the model reads: the encoder sees only that); the
    log's dev-set count is read as a mapping: TrainingLog has no typed field for it yet."""
    if translator.config.activation != "relu":
        draw_parts(anatomy_view.dead_units_parts(translator.config, (), hidden_of, log.ffn_units))
        return
    result = translations.current_result()
    draw_parts(anatomy_view.dead_units_parts(translator.config, (result.source_text, *example_sentences()), hidden_of,
                                             log.ffn_units))
    sentence_banner(result)


def page() -> None:
    translator = models.translator()
    log = TrainingLog.from_dict(translator.training_log)
    presentation.page_title(t("anatomy.title"), anatomy_view.intro(translator.config, direction.source_name(),
                                                                   direction.target_name()))
    sections("anatomy", {
        "params": lambda: parameters_tab(translator, log),
        "flops": lambda: flops_tab(translator),
        "lr": lambda: learning_rate_tab(translator, log),
        "ls": lambda: smoothing_tab(translator, log),
        "dead": lambda: dead_units_tab(translator, log),
    })


page()
