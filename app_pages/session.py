"""What every page shares: the session's language and settings, the loaded model, the sentence and its translation.

The model is loaded once per process (st.cache_resource) and only read;
each session's sentence and settings live in st.session_state; results are
cached per input (st.cache_data hands every session its own copy).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from app_pages import page_scripts, server
from i18n import LANGUAGES, translate_key
from model import (
    DEFAULT_BEAM, INSTALL_HINT, MAX_CHARS, CheckpointError, InputError, Notice, TranslationResult, Translator,
    WordLink, marian_available,
)

@dataclass(frozen=True)
class Example:
    """A translate-page pill: a sentence the shipped model translates correctly, and what to look for in it.

    The line under a chosen pill is computed from its result (model/translation/alignment.py): the cross-attention
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
TARGET_LANGUAGE = "target_language"  # a multi-target Marian model's ">>xxx<<" token
ADD_INPUT, ADD_ERROR = "sidebar.add_model", "models.add_error"
PASSCODE_INPUT, DEVICE_CHOICE = "teacher.passcode", "teacher.device"


PRESENT = "present"  # presentation mode: larger type and charts (page_scripts.PRESENT_SCALE), sidebar collapsed


def presenting() -> bool:
    return bool(st.session_state.get(PRESENT))


def chart_scale() -> float:
    return page_scripts.PRESENT_SCALE if presenting() else 1.0


def page_title(title: str, intro: str) -> None:
    """A page's title and its introduction: a caption under the title, or, in presentation mode, where every
    line of the first screen counts, the title's tooltip."""
    if presenting():
        st.title(title, help=intro)
    else:
        st.title(title)
        st.caption(intro)


def t(key: str, **values) -> str:
    """User-facing text in the session's language."""
    return translate_key(st.session_state.get(LANG, "en"), key, **values)


def hardware_name(hardware: str | None) -> str:
    """The training log's machine ("x86_64 CPU, 2 threads", written by model/training/train.py) in the session's language;
    a GPU's name stays as its maker wrote it."""
    found = re.fullmatch(r"(\S+) CPU, (\d+) threads?(.*)", hardware or "")
    if not found:
        return hardware or "—"
    return t("hardware.cpu", machine=found[1], threads=found[2]) + found[3]


# Markdown turns www.…, http(s)://… and e-mail addresses into links even when every character is escaped (GFM's
# autolink literals): a word joiner (U+2060, invisible) inside each trigger keeps them plain text.
AUTOLINK_TRIGGER = re.compile(r"(?i)(www)(?=\\\.)|(https?|ftp|mailto)(?=\\:)|(?=\\@)")
WORD_JOINER = "\u2060"


def md_escape(text: str, special: frozenset[str] = frozenset("\\`*_{}[]()<>#+-.!|~:$&=\"'%^@/;,?")) -> str:
    """Model or user text made inert for st.markdown-based elements: no formatting, links, auto-links, directives
    or LaTeX."""
    escaped = "".join("\\" + ch if ch in special else ch for ch in str(text))
    return AUTOLINK_TRIGGER.sub(lambda m: (m.group(0) or "") + WORD_JOINER, escaped)


def example_line(example: Example, link: WordLink, lang: str) -> str:
    """A pill's line of what to look for (Markdown), with the numbers of its result's strongest link."""
    return translate_key(
        lang, example.hint, zh=md_escape(example.target_word), en=md_escape(" + ".join(link.source_tokens)),
        layer=link.layer + 1, head=link.head + 1, weight=f"{link.weight:.2f}",
        rows=md_escape(translate_key(lang, "example.rows_sep").join(link.rows)),
    )


def checkpoint_names() -> list[str]:
    """Model folders the server offers (server.model_folders): ours, or Marian folders saved with save_pretrained."""
    return list(server.model_folders())


def command_line_models(argv: list[str] | None = None) -> list[str]:
    """Models the teacher named when starting the app: streamlit run app.py -- --model NAME [--model NAME2]."""
    argv = sys.argv[1:] if argv is None else argv
    return [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--model"]


def linkable_models() -> list[str]:
    """What a link or a student may choose: never a path or hub id from a URL, only models the server already offers
    (its model folders, the teacher's --model names, hub models a teacher added)."""
    names = checkpoint_names()
    return names + [m for m in [*command_line_models(), *server.shared().hub_models] if m not in names]


def model_names() -> list[str]:
    """The sidebar's choices: every model the server offers (a session cannot add its own)."""
    return linkable_models()


def model_label(name: str) -> str:
    """A model as a picker shows it: a folder by its name (a --model path by its last part), a hub id as itself."""
    return Path(name).name if name in command_line_models() and Path(name).is_dir() else name


def model_location(name: str) -> str | Path:
    """Where an offered model is: its folder, or the teacher's --model path or hub id, as given."""
    return server.model_folders().get(name, name)


def add_model() -> None:
    """The teacher's "add a hub model" box: a valid hub id that loads in time becomes every session's choice."""
    name = st.session_state.get(ADD_INPUT, "").strip()[:200]
    st.session_state[ADD_INPUT] = ""
    if not name or not server.is_teacher():
        return
    problem = server.hub_id_problem(name)
    if problem is None:
        try:
            server.load_in_time(lambda n: _load(n, server.shared().device), name)
        except Exception:  # noqa: BLE001 (offline, unknown id, not a Marian model, too slow: all say the same)
            problem = "failed"
    if problem is not None:
        st.session_state[ADD_ERROR] = (problem, name)
        return
    server.add_hub_model(name)
    st.session_state[CHECKPOINT] = name


def devices() -> list[str]:
    return server.devices()


@dataclass(frozen=True)
class Param:
    """A piece of session state that a link carries: its session-state key, and how it is read from and written to the URL.

    read raises BadLinkValue for a value the app cannot use (a link is typed, pasted, or crafted by anyone).
    """

    key: str
    read: Callable[[str], object]
    write: Callable[[object], str] = str


class BadLinkValue(ValueError):
    """A link's value the app cannot use, said to the user in their language: i18n key link.why.<key> and its values
    (never Python's own message, such as "invalid literal for int()")."""

    def __init__(self, key: str, **values) -> None:
        super().__init__(key)
        self.key, self.values = key, values


def number_in(low: int, high: int, offset: int = 0) -> Callable[[str], int]:
    """A reader of whole numbers low..high as the URL writes them; offset turns a 1-based number into an index."""
    def read(text: str) -> int:
        try:
            value = int(text)  # ValueError for "abc", "1.5", "1e9"
        except ValueError:
            raise BadLinkValue("number", low=low, high=high) from None
        if not low <= value <= high:
            raise BadLinkValue("number", low=low, high=high)
        return value - offset
    return read


def one_of(options) -> Callable[[str], str]:
    def read(text: str) -> str:
        if text not in options:
            raise BadLinkValue("choice", options=", ".join(map(str, options)))
        return text
    return read


def sentence(text: str) -> str:
    if len(text) > MAX_CHARS:
        raise BadLinkValue("long", n=MAX_CHARS)
    return text


def flag(text: str) -> bool:
    return one_of(("0", "1"))(text) == "1"


def shared_params() -> dict[str, Param]:
    """What every page's link carries: the language, the model, the beam size, the sentence, presentation mode."""
    return {
        "lang": Param(LANG, one_of(LANGUAGES)),
        "model": Param(CHECKPOINT, one_of(linkable_models())),
        "beam": Param(BEAM, number_in(1, 8)),
        "s": Param(SENTENCE, sentence),
        "present": Param(PRESENT, flag, lambda on: "1" if on else "0"),
    }


LINK_READ, LINK_PENDING, LINK_NOTICES, LINK_PARAMS = "link.read", "link.pending", "link.notices", "link.params"
LINK_WRITTEN, LINK_NAMES = "link.written", "link.names"  # the last link this session wrote; the names a read link had


def read_link(params: dict[str, Param]) -> None:
    """The link's values of `params` into session state, on the session's first run only (later runs write the link).

    A value that does not read is left out and named in a notice (show_link_notices); it never raises.
    """
    pending: dict[str, str] = st.session_state.get(LINK_PENDING, {})
    notices = st.session_state.setdefault(LINK_NOTICES, [])
    for name, param in params.items():
        if name not in pending:
            continue
        text = pending.pop(name)
        try:
            st.session_state[param.key] = param.read(text)
        except BadLinkValue as exc:
            why = t(f"link.why.{exc.key}", **exc.values)
            notices.append(t("link.ignored", name=md_escape(name), value=md_escape(text[:40]), why=md_escape(why)))


def link_page(params: dict[str, Param]) -> None:
    """A page's own part of the link (e.g. the explorer's kind, layer and head): read on a first run, written on every run."""
    read_link(params)
    st.session_state[LINK_PARAMS] = params
    show_link_notices()


def show_link_notices(unknown: bool = False) -> None:
    """The link's ignored values, once; with `unknown`, also the names no page reads (a typo, or a crafted link)."""
    notices = st.session_state.pop(LINK_NOTICES, [])
    if unknown:
        leftover = st.session_state.get(LINK_PENDING, {})
        notices += [t("link.ignored", name=md_escape(name[:40]), value=md_escape(value[:40]), why=t("link.unknown"))
                    for name, value in leftover.items()]
        leftover.clear()
    if notices:
        st.warning("  \n".join(notices), icon=":material/link_off:")


def write_link() -> None:
    """The URL made to say what is on screen: the shared settings and the current page's own (link_page).

    Called at the end of every run and of each fragment run, so a link copied at any moment reopens that view.
    """
    values = {}
    for name, param in {**shared_params(), **st.session_state.get(LINK_PARAMS, {})}.items():
        value = st.session_state.get(param.key)
        if value is not None and value != "":
            values[name] = param.write(value)
    if values != st.query_params.to_dict():
        st.query_params.from_dict(values)
    st.session_state[LINK_WRITTEN] = values


def begin_run() -> None:
    """Before anything is drawn: on the session's first run the link (st.query_params) sets the shared settings
    and leaves the rest of itself for the page to read (read_link); a bad value is skipped with a notice.
    A link that differs from the one this session last wrote is read the same way: the user pressed Back or
    Forward (or edited the address), and the view follows the address, one history entry per change.
    A page's own controls keep their values across pages themselves (persist_state="session")."""
    query = st.query_params.to_dict()
    written = st.session_state.get(LINK_WRITTEN)
    first = LINK_READ not in st.session_state or (written is not None and query != written)
    st.session_state[LINK_READ] = True
    st.session_state[LINK_PENDING] = query if first else {}
    st.session_state[LINK_NAMES] = set(query) if first else set()
    st.session_state[LINK_PARAMS] = {}
    if first:
        read_link(shared_params())
    st.session_state.setdefault(SENTENCE, DEFAULT_SENTENCE)  # so that every link names its sentence


def first_link_names(names) -> bool:
    """Whether the link this run reads (a first run's, or one the user went Back to) names any of `names`."""
    return bool(st.session_state.get(LINK_NAMES, set()) & set(names))


def read_link_again() -> None:
    """The next run reads the link as a first run does (after a redirect that carries it to another page)."""
    st.session_state.pop(LINK_READ, None)
    st.session_state.pop(LINK_WRITTEN, None)


LAST_PAGE = "page.last"


def scroll_to_top_on_new_page(url_path: str) -> None:
    """A new page starts at its top: Streamlit keeps the main area's scroll position across pages."""
    if st.session_state.get(LAST_PAGE, url_path) != url_path:
        page_scripts.scroll_to_top()
    st.session_state[LAST_PAGE] = url_path


def sidebar() -> None:
    """Language, checkpoint, device, beam size and presentation mode: the settings every page uses."""
    with st.sidebar:
        # Defaults go through session state, not the widgets' default/index: a link may have set these keys.
        st.session_state.setdefault(LANG, "en")
        st.segmented_control(t("sidebar.language"), list(LANGUAGES), format_func=LANGUAGES.get, key=LANG, required=True)
        names = model_names()
        if names:
            st.session_state.setdefault(CHECKPOINT, "en-zh" if "en-zh" in names else names[0])
        if st.session_state.get(CHECKPOINT) not in names and names:
            st.session_state[CHECKPOINT] = names[0]  # a model no longer offered (evicted hub id, removed folder)
        st.selectbox(t("sidebar.checkpoint"), names, key=CHECKPOINT, format_func=model_label)
        language_token_picker()
        st.session_state[DEVICE] = server.shared().device  # server-wide: only a teacher changes it
        st.session_state.setdefault(BEAM, DEFAULT_BEAM)
        st.slider(t("sidebar.beam"), 1, 8, key=BEAM)
        st.toggle(t("sidebar.present"), key=PRESENT, help=t("sidebar.present_help"))
        teacher_sidebar()
    if presenting():
        page_scripts.present_style()
    else:
        page_scripts.page_style()


def teacher_sidebar() -> None:
    """Server-wide controls (server.py): the device and, where allowed, hub models; behind a passcode if one is set."""
    teacher = server.is_teacher()
    if not teacher and not server.PASSCODE:
        return  # a student's browser on another machine: nothing to unlock
    with st.expander(t("teacher.title"), icon=":material/school:"):
        if not teacher:
            st.text_input(t("teacher.passcode"), type="password", key=PASSCODE_INPUT, on_change=try_passcode,
                          max_chars=200)
            if st.session_state.pop("teacher.wrong", False):
                st.caption(t("teacher.wrong"))
            return
        st.caption(t("teacher.help"))
        st.session_state[DEVICE_CHOICE] = server.shared().device
        st.selectbox(t("sidebar.device"), devices(), key=DEVICE_CHOICE, on_change=choose_device)
        if not marian_available():
            st.caption(t("sidebar.marian_missing", command=INSTALL_HINT))
        elif server.ALLOW_HUB:
            st.text_input(t("sidebar.add_model"), key=ADD_INPUT, on_change=add_model, max_chars=200,
                          placeholder="Helsinki-NLP/opus-mt-en-zh", help=t("sidebar.add_model_help"))
        else:
            st.caption(t("teacher.folders", folder=md_escape(server.EXTRA_MODELS or server.CHECKPOINTS)))
        if ADD_ERROR in st.session_state:
            problem, name = st.session_state.pop(ADD_ERROR)
            st.caption(t(f"teacher.hub.{problem}", name=md_escape(name)))


def try_passcode() -> None:
    entered = st.session_state.get(PASSCODE_INPUT, "")
    st.session_state[PASSCODE_INPUT] = ""
    if not server.unlock(entered):
        st.session_state["teacher.wrong"] = True


def choose_device() -> None:
    if server.is_teacher() and st.session_state.get(DEVICE_CHOICE) in devices():
        server.shared().device = st.session_state[DEVICE_CHOICE]


def language_token_picker() -> None:
    """The target language of a multi-target (Marian) model."""
    if not marian_available():
        return
    name = st.session_state.get(CHECKPOINT)
    if not name:
        return  # the page says there is no model
    try:
        loaded = _load(name, st.session_state.get(DEVICE, devices()[0]))
    except CheckpointError:
        return  # the page says why the model cannot load
    if loaded.languages:
        if st.session_state.get(TARGET_LANGUAGE) not in loaded.languages:
            st.session_state[TARGET_LANGUAGE] = loaded.default_language
        st.selectbox(t("sidebar.language_token"), loaded.languages, key=TARGET_LANGUAGE)


@st.cache_resource(show_spinner="Loading the Transformer…", max_entries=server.MAX_MODELS)
def _load(checkpoint: str, device: str) -> Translator:
    return Translator.from_checkpoint(model_location(checkpoint), device=device, gate=server.model_calls())


def translator(name: str | None = None) -> Translator:
    """The shared model `name` (default: the sidebar's) on the sidebar's device; stops the page with a message if it
    cannot load.

    Pages read its `config`, `training_log`, `parameter_counts` and `card` (the checkpoint's data), never its model.
    """
    name = name or st.session_state.get(CHECKPOINT)
    if not name:
        st.error(t("error.checkpoint", error=md_escape(f"no checkpoint folder under {server.CHECKPOINTS}")))
        st.stop()
    try:
        return _load(name, st.session_state.get(DEVICE, devices()[0]))
    except CheckpointError as exc:
        st.error(t("error.checkpoint", error=md_escape(exc)))  # the message, never a traceback
        st.stop()


@st.cache_data(show_spinner="Translating…", max_entries=128)
def _translate(checkpoint: str, device: str, sentence: str, beam: int, language: str | None = None) -> TranslationResult:
    return _load(checkpoint, device).translate(sentence, beam=beam, language=language)


@st.cache_data(show_spinner="Translating…", max_entries=32)
def teacher_forced(checkpoint: str, device: str, sentence: str, reference: str) -> TranslationResult:
    """`sentence` with `reference` fed to the decoder as in training (cached per input)."""
    return _load(checkpoint, device).teacher_forced(sentence, reference)


def model_message(message: InputError | Notice) -> str:
    """An input error or notice of translate() in the session's language (i18n key "model.<key>")."""
    return t(f"model.{message.key}", **message.values)


def current_sentence() -> str:
    """The session's sentence; an empty one stays empty, so the page says so instead of translating another."""
    sentence = st.session_state.get(SENTENCE)
    return DEFAULT_SENTENCE if sentence is None else sentence


def translation_of(sentence: str, model: str | None = None) -> TranslationResult:
    """`sentence` translated with the sidebar's settings (cached per input), by `model` (default: the sidebar's);
    stops the page with a message on bad input."""
    model = model or st.session_state[CHECKPOINT]
    languages = translator(model).languages  # surfaces checkpoint errors before translating
    language = st.session_state.get(TARGET_LANGUAGE) if languages else None
    try:
        return _translate(
            model, st.session_state.get(DEVICE, devices()[0]), sentence, int(st.session_state.get(BEAM, DEFAULT_BEAM)),
            language if language in languages else None,
        )
    except InputError as exc:
        st.warning(t("error.input", error=md_escape(model_message(exc))))
        st.stop()


def current_result() -> TranslationResult:
    """The session's sentence translated with the sidebar's settings."""
    return translation_of(current_sentence())
