"""The session's sentence and its translation with the sidebar's settings, and every result a loaded model
computes, cached per input in the server's one result cache (result_cache: bounded by bytes, shared read-only by
every session). The typed result functions below (translate, translate_all, teacher_forced, attribute,
ffn_activations, encode_pairs) are the one path from a loaded model to a page: every page asks them, never a
Translator of its own, for anything the model computes, and each names the method it runs in code, not in a
string."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import streamlit as st

from app_pages.state import models, page_errors, result_cache
from app_pages.state.examples import default_sentence
from app_pages.state.language import md_escape, t
from app_pages.state.state_keys import BEAM, CHECKPOINT, SENTENCE, TARGET_LANGUAGE
from model import DEFAULT_BEAM, Attribution, InputError, Notice, TranslationResult, Translator

WRONG_LANGUAGE = ("not_chinese", "not_english")  # notices that the sentence is in the language the model writes
T = TypeVar("T")


def _model_result(kind: str, checkpoint: str, device: str, inputs: tuple[Hashable, ...],
                  run: Callable[[Translator], T], spinner: str = "") -> T:
    """run(the model `checkpoint` on `device`), from the server's result cache under ("model", kind, checkpoint,
    device, inputs): the typed function's name and everything that changes its result. The model that computes it
    is the one the key names, so a page cannot cache one model's result under another's name. `spinner`: the i18n
    key of what to show while it runs ("" for a quick one)."""
    def compute() -> T:
        with st.spinner(t(spinner)) if spinner else contextlib.nullcontext():
            return run(models.load(checkpoint, device))
    return result_cache.shared().get(("model", kind, checkpoint, device, inputs), compute)


def translate(checkpoint: str, device: str, sentence: str, beam: int, language: str | None = None,
              knock_out: tuple = (), forced_prefix: tuple = ()) -> TranslationResult:
    """The translation with every attention map."""
    return _model_result("translate", checkpoint, device, (sentence, beam, language, knock_out, forced_prefix),
                         lambda model: model.translate(sentence, beam=beam, language=language, knock_out=knock_out,
                                                       forced_prefix=forced_prefix),
                         spinner="cache.translating")


def translate_all(checkpoint: str, device: str, sentences: tuple[str, ...], beam: int = 1) -> list[str]:
    """The translated text of many sentences, in padded batches (no maps)."""
    return _model_result("translate_all", checkpoint, device, (sentences, beam),
                         lambda model: model.translations(list(sentences), beam=beam))


def teacher_forced(sentence: str, reference: str, checkpoint: str | None = None, device: str | None = None
                   ) -> TranslationResult:
    """`sentence` with `reference` fed to the decoder as in training, by `checkpoint` on `device` (default: the
    sidebar's model on its device)."""
    checkpoint, device = checkpoint or st.session_state[CHECKPOINT], device or models.device()
    return _model_result("teacher_forced", checkpoint, device, (sentence, reference),
                         lambda model: model.teacher_forced(sentence, reference), spinner="cache.translating")


def attribute(checkpoint: str, device: str, sentence: str, beam: int, language: str | None, method: str
              ) -> Attribution:
    """How much each source token mattered to each output token of translate()'s translation (dozens of passes)."""
    return _model_result("attribute", checkpoint, device, (sentence, beam, language, method),
                         lambda model: model.attribute(translate(checkpoint, device, sentence, beam, language), method),
                         spinner="cache.attributing")


def ffn_activations(checkpoint: str, device: str, sentence: str, language: str | None = None) -> np.ndarray:
    """(encoder layers, S, d_ff): each encoder layer's FFN hidden units for `sentence`."""
    return _model_result("ffn_activations", checkpoint, device, (sentence, language),
                         lambda model: model.ffn_activations(sentence, language=language))


def encode_pairs(checkpoint: str, device: str, pairs: tuple[tuple[str, str], ...]) -> list:
    """Sentence pairs tokenised as the trainer tokenises them (its Examples), with the model's own tokenizers."""
    return _model_result("encode_pairs", checkpoint, device, (pairs,), lambda model: model.encode_pairs(list(pairs)))


def model_message(message: InputError | Notice) -> str:
    """An input error or notice of translate() in the session's language (i18n key "model.<key>")."""
    return t(f"model.{message.key}", **message.values)


@dataclass(frozen=True)
class NoticeLine:
    """A notice of translate() as a page says it: `text`, in the session's language and Markdown-escaped;
    `wrong_language`: the sentence is in the language the model writes, so what it wrote is no translation (a
    warning, said before anything else is read), else a note (the input was cut)."""

    text: str
    wrong_language: bool


def notice_lines(result: TranslationResult) -> list[NoticeLine]:
    """The translation's notices as the page says them, but names read as others (names_note says those)."""
    return [NoticeLine(md_escape(model_message(n)), n.key in WRONG_LANGUAGE)
            for n in result.notices if n.key != "names_read_as"]


def names_note(result: TranslationResult) -> str | None:
    """What to say where the page's tokens read "Tom" for a typed "Alice" (model/translation/names.py), so the
    charts' tokens never surprise; None where no name was swapped."""
    return next((model_message(n) for n in result.notices if n.key == "names_read_as"), None)


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
    """(model, device, sentence, beam, language): what translate() and attribute() are cached on."""
    model = model or st.session_state[CHECKPOINT]
    languages = models.translator(model).languages  # surfaces checkpoint errors before translating
    language = st.session_state.get(TARGET_LANGUAGE) if languages else None
    return (model, models.device(), sentence, int(st.session_state.get(BEAM, DEFAULT_BEAM)),
            language if language in languages else None)


def translation_of(sentence: str, model: str | None = None, knock_out: tuple = (), forced_prefix: tuple = ()
                   ) -> TranslationResult:
    """`sentence` translated with the sidebar's settings (cached per input), by `model` (default: the sidebar's),
    with the heads in `knock_out` knocked out and its output forced to start with `forced_prefix` (target ids); on
    input the model refuses, the page ends with the shell's message (page_errors.stop)."""
    try:
        return translate(*settings_for(sentence, model), knock_out=knock_out, forced_prefix=tuple(forced_prefix))
    except InputError as error:
        page_errors.stop(error)


def forced_result(prefix: tuple[int, ...]) -> TranslationResult:
    """The session's sentence with the sidebar's settings, its output forced to start with `prefix` (target ids)."""
    return translation_of(current_sentence(), forced_prefix=prefix)


def current_result() -> TranslationResult:
    """The session's sentence translated with the sidebar's settings."""
    return translation_of(current_sentence())
