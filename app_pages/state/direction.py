"""Which way a model translates (English → 中文, 中文 → English) and the words a page uses for its two languages.

Each checkpoint states its languages in config.json (ModelConfig.source_language / target_language); a Marian model
translates English into Chinese. The sidebar names a model by its direction, and changing direction carries the
sentence across: what the old model wrote becomes what the new one reads, so a class sees one sentence pair from
both sides.
"""

from __future__ import annotations

import json

import streamlit as st

from app_pages.state import models, server, translations
from app_pages.state.examples import default_sentence
from app_pages.state.state_keys import BEAM, CHECKPOINT, SENTENCE
from app_pages.state.language import t
from model import DEFAULT_BEAM, CheckpointError, InputError

# Each language named in itself, as the sidebar's direction picker shows it in both interface languages.
NATIVE = {"en": "English", "zh": "中文"}
PREVIOUS_MODEL = "direction.previous_model"  # the model the session's sentence was last written for


def of(name: str) -> tuple[str, str]:
    """(source, target) language of the offered model `name`, read from its config without loading it."""
    folder = server.model_folders().get(name)
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8")) if folder else {}
    except (OSError, ValueError):
        config = {}  # the page that loads it says what is wrong
    if not isinstance(config, dict):
        config = {}
    return str(config.get("source_language", "en")), str(config.get("target_language", "zh"))


def label(name: str) -> str:
    """How the model picker shows `name`: "English → 中文 (en-zh)" for a checkpoint trained here; a Marian folder
    or hub id as itself (its name says its languages: opus-mt-en-zh)."""
    folder = server.model_folders().get(name)
    if folder is None or not (folder / "tokenizer_source.json").is_file():
        return models.model_label(name)
    source, target = of(name)
    return f"{NATIVE.get(source, source)} → {NATIVE.get(target, target)} ({name})"


def current() -> tuple[str, str]:
    """(source, target) language of the session's model."""
    config = models.translator().config
    return config.source_language, config.target_language


def language_name(code: str) -> str:
    """A language in the session's language: "English" / "英文", "Chinese" / "中文"."""
    return t(f"language.{code}")


def source_name() -> str:
    return language_name(current()[0])


def target_name() -> str:
    return language_name(current()[1])


def carry_sentence() -> None:
    """The sidebar's model changed: a sentence for the old direction becomes the old model's translation of it
    (the same pair, turned round), or the new direction's first example when it cannot be translated."""
    old, new = st.session_state.get(PREVIOUS_MODEL), st.session_state.get(CHECKPOINT)
    st.session_state[PREVIOUS_MODEL] = new
    if not old or not new or of(old)[0] == of(new)[0]:
        return
    sentence = st.session_state.get(SENTENCE) or ""
    try:  # by the old model itself (not settings_for: a model that cannot load must not stop a callback)
        written = translations.translate(old, models.device(), sentence, int(st.session_state.get(BEAM, DEFAULT_BEAM))
                                         ).translation if sentence else ""
    except (InputError, CheckpointError):
        written = ""
    st.session_state[SENTENCE] = written or default_sentence(of(new)[0])


def remember_model() -> None:
    """Which model the session's sentence is for, at the end of every sidebar (a link may have set the model)."""
    st.session_state[PREVIOUS_MODEL] = st.session_state.get(CHECKPOINT)
