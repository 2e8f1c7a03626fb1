"""The session's sentence and its translation with the sidebar's settings, cached per input in the server's one
result cache (result_cache: bounded by bytes, shared read-only by every session). model_result is the one path
from a loaded model to a page: every page asks it, never a Translator of its own, for anything the model computes."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Hashable

import streamlit as st

from app_pages.state import models, result_cache
from app_pages.state.examples import default_sentence
from app_pages.state.state_keys import BEAM, CHECKPOINT, SENTENCE, TARGET_LANGUAGE
from app_pages.state.language import md_escape, t
from model import DEFAULT_BEAM, Attribution, InputError, Notice, TranslationResult


WRONG_LANGUAGE = ("not_chinese", "not_english")  # notices that the sentence is in the language the model writes


def model_result(method: str, checkpoint: str, device: str, *args: Hashable, spinner: str = "", **kwargs: Hashable):
    """Translator.<method>(*args, **kwargs) of the model `checkpoint` on `device`, from the server's result cache.

    The key holds everything that changes the result (model, device, method, arguments), and the model that computes
    it is the one the key names: a page cannot cache one model's result under another's name. `spinner`: the i18n
    key of what to show while it runs ("" for a quick one)."""
    def run():
        with st.spinner(t(spinner)) if spinner else contextlib.nullcontext():
            return getattr(models.load(checkpoint, device), method)(*args, **kwargs)
    key = ("model", method, checkpoint, device, args, tuple(sorted(kwargs.items())))
    return result_cache.shared().get(key, run)


def translate(checkpoint: str, device: str, sentence: str, beam: int, language: str | None = None,
              knock_out: tuple = (), forced_prefix: tuple = ()) -> TranslationResult:
    """The translation with every attention map, from the server's result cache (result_cache: bounded by bytes)."""
    return model_result("translate", checkpoint, device, sentence, beam=beam, language=language, knock_out=knock_out,
                        forced_prefix=forced_prefix, spinner="cache.translating")


def attribution(checkpoint: str, device: str, sentence: str, beam: int, language: str | None, method: str
                ) -> Attribution:
    """How much each source token mattered to each output token of that translation (cached: dozens of passes)."""
    def run() -> Attribution:
        result = translate(checkpoint, device, sentence, beam, language)
        with st.spinner(t("cache.attributing")):
            return models.load(checkpoint, device).attribute(result, method)
    return result_cache.shared().get(("attribute", checkpoint, device, sentence, beam, language, method), run)


def teacher_forced(sentence: str, reference: str) -> TranslationResult:
    """`sentence` with `reference` fed to the decoder as in training, by the sidebar's model on its device (cached
    per input)."""
    return model_result("teacher_forced", st.session_state[CHECKPOINT], models.device(), sentence, reference,
                        spinner="cache.translating")


def model_message(message: InputError | Notice) -> str:
    """An input error or notice of translate() in the session's language (i18n key "model.<key>")."""
    return t(f"model.{message.key}", **message.values)


def show_notices(result: TranslationResult) -> None:
    """Each notice of the translation in a box (the input was cut), but names read as others (names_note)."""
    for notice in result.notices:
        if notice.key in WRONG_LANGUAGE:  # what it wrote is no translation: said before anything else is read
            st.warning(md_escape(model_message(notice)), icon=":material/translate:")
        elif notice.key != "names_read_as":
            st.info(md_escape(model_message(notice)), icon=":material/content_cut:")


def names_note(result: TranslationResult) -> str | None:
    """What to say where the page's tokens read "Tom" for a typed "Alice" (model/translation/names.py), so the
    charts' tokens never surprise; None where no name was swapped."""
    return next((model_message(n) for n in result.notices if n.key == "names_read_as"), None)


def names_caption(result: TranslationResult) -> None:
    if note := names_note(result):
        st.caption(md_escape(note))


def names_notes(*results: TranslationResult) -> list[str]:
    """Each result's names note once, in order, Markdown-escaped: the last sentences of a caption under their maps
    (joined by shell.text.sentences, so that 中文 gets no space after 。)."""
    notes = dict.fromkeys(note for r in results if (note := names_note(r)))  # once each, in order
    return [md_escape(note) for note in notes]


def source_as_read(result: TranslationResult) -> str:
    """The sentence with each swapped name marked by what the model read: "Alice→Tom and Bob→Mary are friends."."""
    text = result.source_text
    for copy in result.names:
        text = re.sub(rf"\b{copy.name}\b", f"{copy.name}→{copy.carrier}", text)
    return text


def current_sentence() -> str:
    """The session's sentence; an empty one stays empty, so the page says so instead of translating another."""
    sentence = st.session_state.get(SENTENCE)
    return default_sentence(models.translator().config.source_language) if sentence is None else sentence


def settings_for(sentence: str, model: str | None = None) -> tuple:
    """(model, device, sentence, beam, language): what translate() and attribution() are cached on."""
    model = model or st.session_state[CHECKPOINT]
    languages = models.translator(model).languages  # surfaces checkpoint errors before translating
    language = st.session_state.get(TARGET_LANGUAGE) if languages else None
    return (model, models.device(), sentence, int(st.session_state.get(BEAM, DEFAULT_BEAM)),
            language if language in languages else None)


def translation_of(sentence: str, model: str | None = None, knock_out: tuple = ()) -> TranslationResult:
    """`sentence` translated with the sidebar's settings (cached per input), by `model` (default: the sidebar's),
    with the heads in `knock_out` knocked out; stops the page with a message on bad input."""
    try:
        return translate(*settings_for(sentence, model), knock_out=knock_out)
    except InputError as exc:
        st.warning(t("error.input", error=md_escape(model_message(exc))))
        st.stop()


def forced_result(prefix: tuple[int, ...]) -> TranslationResult:
    """The session's sentence with the sidebar's settings, its output forced to start with `prefix` (target ids)."""
    try:
        return translate(*settings_for(current_sentence()), forced_prefix=tuple(prefix))
    except InputError as exc:
        st.warning(t("error.input", error=md_escape(model_message(exc))))
        st.stop()


def current_result() -> TranslationResult:
    """The session's sentence translated with the sidebar's settings."""
    return translation_of(current_sentence())
