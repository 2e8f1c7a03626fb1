"""What every page shares: the session's language and settings, the loaded model, the sentence and its translation.

The model is loaded once per process (st.cache_resource) and only read;
each session's sentence and settings live in st.session_state; results are
cached per input (st.cache_data hands every session its own copy).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st
import torch

from i18n import LANGUAGES, translate_key
from model import CheckpointError, InputError, Notice, TranslationResult, Translator
from model.alignment import WordLink
from model.threads import configure_torch_threads

# Once per process, before the model's first op: every session shares these threads (model/threads.py).
configure_torch_threads()

CHECKPOINTS = Path(__file__).resolve().parent.parent / "checkpoints"


@dataclass(frozen=True)
class Example:
    """A translate-page pill: a sentence the shipped model translates correctly, and what to look for in it.

    The line under a chosen pill is computed from its result (model/alignment.py): the cross-attention
    head that links `target_word` in the translation to `source_word` in the sentence, and its weight.
    tests/test_examples.py runs the shipped checkpoint on every pill: a new model must still get each right.
    """

    sentence: str
    source_word: str  # an English word of the sentence
    target_word: str  # the Chinese word of the translation it should align with
    hint: str  # i18n key of the "what to look for" line ({zh}, {en}, {layer}, {head}, {weight}, {rows})


# Change freely (then run tests/test_examples.py): each must translate correctly with the shipped checkpoint.
# "Thinking Machines" stays the Q·K·V page's worked example; the model mistranslates it, so it is no pill.
EXAMPLES = (
    Example("I have a dream.", "dream", "梦想", "example.dream"),
    Example("Who are you?", "Who", "谁", "example.who"),
    Example("Tom bought three apples yesterday.", "yesterday", "昨天", "example.yesterday"),
    Example("Where is the hospital?", "Where", "哪里", "example.where"),
    Example("I like my dog.", "dog", "狗", "example.dog"),
)
DEFAULT_SENTENCE = "I have a dream."

# Session-state keys. The sidebar's widgets own LANG..BEAM (they render on every page, so their
# state survives navigation). SENTENCE is plain state, set by the translate page's form callback:
# a widget key would be dropped by Streamlit on pages where that widget is not drawn.
LANG, CHECKPOINT, DEVICE, BEAM, SENTENCE = "lang", "checkpoint", "device", "beam", "sentence"


PRESENT = "present"  # presentation mode: larger type and charts, sidebar collapsed
PRESENT_SCALE = 1.3  # charts' size in presentation mode: 14 px labels become 18 px


def chart_scale() -> float:
    return PRESENT_SCALE if st.session_state.get(PRESENT) else 1.0


def t(key: str, **values) -> str:
    """User-facing text in the session's language."""
    return translate_key(st.session_state.get(LANG, "en"), key, **values)


def md_escape(text: str, special: frozenset[str] = frozenset("\\`*_{}[]()<>#+-.!|~:$&=\"'%^@/;,?")) -> str:
    """Model or user text made inert for st.markdown-based elements (no formatting, links, directives or LaTeX)."""
    return "".join("\\" + ch if ch in special else ch for ch in str(text))


def example_line(example: Example, link: WordLink, lang: str) -> str:
    """A pill's line of what to look for (Markdown), with the numbers of its result's strongest link."""
    return translate_key(
        lang, example.hint, zh=md_escape(example.target_word), en=md_escape(" + ".join(link.source_tokens)),
        layer=link.layer + 1, head=link.head + 1, weight=f"{link.weight:.2f}",
        rows=md_escape(translate_key(lang, "example.rows_sep").join(link.rows)),
    )


def checkpoint_names() -> list[str]:
    return sorted(p.name for p in CHECKPOINTS.iterdir() if p.is_dir()) if CHECKPOINTS.is_dir() else []


def devices() -> list[str]:
    return ["cuda", "cpu"] if torch.cuda.is_available() else ["cpu"]


def sidebar() -> None:
    """Language, checkpoint, device and beam size: the settings every page uses."""
    with st.sidebar:
        st.segmented_control(
            t("sidebar.language"), list(LANGUAGES), format_func=LANGUAGES.get, key=LANG, default="en", required=True
        )
        names = checkpoint_names()
        st.selectbox(t("sidebar.checkpoint"), names, key=CHECKPOINT, index=names.index("en-zh") if "en-zh" in names else 0)
        st.selectbox(t("sidebar.device"), devices(), key=DEVICE)
        st.slider(t("sidebar.beam"), 1, 8, 1, key=BEAM)


@st.cache_resource(show_spinner="Loading the Transformer…", max_entries=4)
def _load(checkpoint: str, device: str) -> Translator:
    return Translator.from_checkpoint(CHECKPOINTS / checkpoint, device=device)


def translator() -> Translator:
    """The shared model for the sidebar's checkpoint and device; stops the page with a message if it cannot load.

    Pages read its `config`, `training_log`, `parameter_counts` and `card` (the checkpoint's data), never its model.
    """
    name = st.session_state.get(CHECKPOINT)
    if not name:
        st.error(t("error.checkpoint", error=md_escape(f"no checkpoint folder under {CHECKPOINTS}")))
        st.stop()
    try:
        return _load(name, st.session_state.get(DEVICE, devices()[0]))
    except CheckpointError as exc:
        st.error(t("error.checkpoint", error=md_escape(exc)))  # the message, never a traceback
        st.stop()


@st.cache_data(show_spinner="Translating…", max_entries=128)
def _translate(checkpoint: str, device: str, sentence: str, beam: int) -> TranslationResult:
    return _load(checkpoint, device).translate(sentence, beam=beam)


def model_message(message: InputError | Notice) -> str:
    """An input error or notice of translate() in the session's language (i18n key "model.<key>")."""
    return t(f"model.{message.key}", **message.values)


def current_sentence() -> str:
    """The session's sentence; an empty one stays empty, so the page says so instead of translating another."""
    sentence = st.session_state.get(SENTENCE)
    return DEFAULT_SENTENCE if sentence is None else sentence


def current_result() -> TranslationResult:
    """The session's sentence translated with the sidebar's settings (cached per input)."""
    translator()  # surfaces checkpoint errors before translating
    try:
        return _translate(
            st.session_state[CHECKPOINT], st.session_state.get(DEVICE, devices()[0]), current_sentence(),
            int(st.session_state.get(BEAM, 1)),
        )
    except InputError as exc:
        st.warning(t("error.input", error=md_escape(model_message(exc))))
        st.stop()
