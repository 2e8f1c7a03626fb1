"""What Start here shows, computed without drawing anything (start.py draws it): the guide's texts, the prepared
links (one cross-attention link per direction the server offers, the decoding step that writes 谁, the Q·K·V worked
example) and the sentences the session's model gets wrong. Plain data out; tests/test_start_view.py reads it without
Streamlit.

The links' layer, head and step are computed from the shipped model's own translations, like the translate page's
pill hints, so they point at what the text says they show. A link opens its view in this tab and this session (its
query keeps the session's presentation mode as it is); its address, to copy into slides or a class chat, starts with
the address students' devices open (links.student_bases) and opens in presentation mode when the teacher is in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app_pages.components.parts import Caption, Heading, Text
from app_pages.shell import registry
from app_pages.shell.link_values import shared_link
from app_pages.shell.text import md_escape, t
from app_pages.state import direction, examples
from lessons import worked_example
from model import TranslationResult, word_link

ENGLISH_TO_CHINESE, CHINESE_TO_ENGLISH = ("en", "zh"), ("zh", "en")
WRONG_ICON = ":material/error:"


@dataclass(frozen=True)
class Session:
    """What the page reads of the session and the server: the interface language, presentation mode, the session's
    model (its folder's name) and its (source, target) languages, the models offered, and the addresses (students' first, the browser's
    own or None where unknown, and whether only this machine opens the server)."""

    lang: str
    presenting: bool
    checkpoint: str | None
    languages: tuple[str, str]
    offered: tuple[str, ...]
    student_base: str
    own_base: str | None = None
    local_only: bool = False


# (sentence, model) → that model's translation, with the session's beam and target language
Translate = Callable[[str, str], TranslationResult]


@dataclass(frozen=True)
class PreparedLink:
    """A link opened in this session (`page`'s script with `query`) by `label`, in a box keyed `key`, with a caption
    under it and, where given, the address to copy."""

    key: str
    page: str
    icon: str
    label: str
    query: dict
    caption: str
    address: str | None = None


@dataclass(frozen=True)
class StartView:
    before: tuple  # the title, the guide and the links' heading with its notes
    lessons: tuple[PreparedLink, ...]
    wrong: tuple  # the heading and text of the sentences the model gets wrong; () where it has none
    mistakes: tuple[PreparedLink, ...]
    after: tuple  # on a projector


def model_for(languages: tuple[str, str], session: Session) -> str | None:
    """The offered model that translates in `languages` (source, target): the session's own if it does, else the
    first; None when the server offers none."""
    names = [name for name in session.offered if direction.of(name) == languages]
    return session.checkpoint if session.checkpoint in names else (names[0] if names else None)


def cross_lesson(model: str, translate: Translate) -> tuple[dict, dict]:
    """The first pill in `model`'s direction, in the explorer at the cross-attention head that links its key word
    pair: "I have a dream." (dream → 梦想) for English → Chinese, our reference 我有一个梦想。 (梦想 → dream) turned
    round."""
    example = examples.EXAMPLES[0]
    english = direction.of(model)[0] == "en"
    sentence, source_word, target_word = ((example.sentence, example.source_word, example.target_word) if english
                                          else (example.reference, example.target_word, example.source_word))
    found = word_link(translate(sentence, model), source_word, target_word)
    values = {"s": sentence, "model": model, "kind": "cross", "view": "head"}
    words = {"zh": target_word, "en": source_word}  # the word written, the word it should look at
    if found is None:  # a model that does not write the word: the caption claims no head
        return values, words
    values |= {"layer": found.layer + 1, "head": found.head + 1}
    rows = t("start.rows_sep").join(f"“{md_escape(row)}”" for row in found.rows)  # as the map labels its rows
    return values, words | {"layer": found.layer + 1, "head": found.head + 1, "weight": f"{found.weight:.2f}",
                            "rows": rows}


def decoding_lesson(model: str, translate: Translate) -> tuple[dict, dict]:
    """The second pill on the decoding page, at the step that writes its key word (English → Chinese)."""
    example = examples.EXAMPLES[1]
    tokens = translate(example.sentence, model).output_tokens
    step = next((i for i, token in enumerate(tokens) if example.target_word in token), 0)
    return {"s": example.sentence, "model": model, "step": step + 1, "layer": "average", "head": "average"}, {
        "zh": example.target_word, "step": step + 1}


def lesson(key: str, page: str, values: dict, words: dict, session: Session) -> PreparedLink:
    """A prepared link titled by the direction of its model first, its query in the session's language, and its
    address to copy (in presentation mode where the teacher is)."""
    title = t(key + ".title", **words)
    if "model" in values:
        title = f"{direction.label(values['model'])} · {title}"
    caption = t(key + (".what" if "head" in words or key != "start.cross" else ".what_any"), **words)
    shared = {"lang": session.lang, **values, **({"present": "1"} if session.presenting else {})}
    return PreparedLink(f"start.lesson.{page}.{values.get('model', '')}", page, registry.PAGE[page].icon, title,
                        {"lang": session.lang, **values}, caption,
                        shared_link(session.student_base, registry.PAGE[page].address, shared))


def lessons(session: Session, translate: Translate) -> tuple[PreparedLink, ...]:
    """One cross-attention link per direction the server offers (the same sentence pair from both sides), then
    decoding and the worked example."""
    english_to_chinese = model_for(ENGLISH_TO_CHINESE, session)
    found = [lesson("start.cross", "translate", *cross_lesson(model, translate), session)
             for model in (english_to_chinese, model_for(CHINESE_TO_ENGLISH, session)) if model]
    if english_to_chinese:
        found.append(lesson("start.decoding", "decoding", *decoding_lesson(english_to_chinese, translate), session))
    return (*found, lesson("start.qkv", "qkv", {}, {}, session))


def mistakes(model: str, session: Session, translate: Translate) -> tuple[PreparedLink, ...]:
    """The sentences `model` mistranslates (examples.WRONG_BY_LANGUAGE, by the language it reads), each opening the
    translate page with that model, with its translation and ours."""
    pairs = examples.WRONG_BY_LANGUAGE.get(direction.of(model)[0], ())
    wrong = [item for pair in pairs for item in zip(pair.sentences, pair.references)]
    return tuple(PreparedLink(f"start.wrong.{i}", "translate", WRONG_ICON, sentence,
                              {"lang": session.lang, "s": sentence, "model": model},
                              t("start.wrong_line", model=md_escape(translate(sentence, model).translation),
                                reference=md_escape(reference)))
                 for i, (sentence, reference) in enumerate(wrong))


def unit(language: str) -> str:
    """What one token of `language` is to a class: an English word, a Chinese character."""
    return t(f"start.unit.{language}")


def guide(session: Session) -> tuple:
    """The title, what to show first (the Q·K·V page's worked example, its numbers as that page shows them) and the
    prepared links' heading, with a note on the address they start with."""
    source, target = session.languages
    names = {"source": direction.language_name(source), "target": direction.language_name(target)}
    example = worked_example.thinking_machines()
    steps = t("start.steps", a=f"{example.scores[0]:g}", b=f"{example.scores[1]:g}", root=f"{example.divisor:g}",
              wa=f"{example.weights[0]:.2f}", wb=f"{example.weights[1]:.2f}", src_unit=unit(source),
              tgt_unit=unit(target), source=names["source"])
    if session.local_only:
        note = Caption(t("start.local_only"))
    elif session.own_base and not session.student_base.startswith(session.own_base):
        # the teacher's address bar says localhost: say what students open
        note = Caption(t("start.student_base", own=md_escape(session.own_base),
                         students=md_escape(session.student_base)))
    else:
        note = None
    return tuple(part for part in (
        Heading(t("start.title"), 1), Text(t("start.intro", **names)), Heading(t("start.first"), 3), Text(steps),
        Heading(t("start.links"), 3), Caption(t("start.links_help")), note) if part is not None)


def view(session: Session, translate: Translate) -> StartView:
    """The whole page for `session`; `translate` makes each model's translations (the session's beam and target
    language). The sentences the model gets wrong are the session's model's: a class on the Chinese → English model
    meets that model's mistakes."""
    model = model_for(session.languages, session)
    found = mistakes(model, session, translate) if model else ()
    wrong = (Heading(t("start.wrong"), 3), Text(t("start.wrong_help"))) if found else ()
    return StartView(guide(session), lessons(session, translate), wrong, found,
                     (Heading(t("start.present"), 3), Text(t("start.present_help"))))
