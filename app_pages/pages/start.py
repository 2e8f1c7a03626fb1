"""Start here: a teacher's guide to the app: what to show first, three prepared links that open a view, and the
sentences the model gets wrong, offered as such.

The links' layer, head and step are computed from the shipped model's own translations, like the
translate page's pill hints, so they point at what the text says they show. Clicked, a link opens its view in this
tab and this session (presentation mode and the slide deck stay as they are); its address, to copy into slides or a
class chat, is one the students' devices open (ATTENTION_PUBLIC_URL, else this server's LAN address: links.share_links)
and keeps presentation mode when the teacher is in it.
"""

import streamlit as st

from app_pages.state import direction, examples, server, state_keys, translations
from app_pages.shell import links, presentation, registry
from app_pages.shell.text import md_escape, t
from lessons import worked_example
from model import word_link

ENGLISH_TO_CHINESE, CHINESE_TO_ENGLISH = ("en", "zh"), ("zh", "en")


def link(page: str, values: dict) -> str:
    """The link to `page` with `values` in its query string at the address students use (links.share_links: never the
    teacher's own localhost); in presentation mode it opens in presentation mode."""
    values = {"lang": st.session_state.get(state_keys.LANG, "en"), **values,
              **({"present": "1"} if presentation.presenting() else {})}
    return links.share_links(page, values)[0]


def model_for(languages: tuple[str, str]) -> str | None:
    """The offered model folder that translates in `languages` (source, target): the session's own if it does, else
    the first; None when the server offers none."""
    names = [name for name in server.model_folders() if direction.of(name) == languages]
    session = st.session_state.get(state_keys.CHECKPOINT)
    return session if session in names else (names[0] if names else None)


def cross_lesson(model: str) -> tuple[dict, dict]:
    """The first pill in `model`'s direction, in the explorer at the cross-attention head that links its key word pair:
    "I have a dream." (dream → 梦想) for English → Chinese, our reference 我有一个梦想。 (梦想 → dream) turned round."""
    example = examples.EXAMPLES[0]
    english = direction.of(model)[0] == "en"
    sentence, source_word, target_word = ((example.sentence, example.source_word, example.target_word) if english
                                          else (example.reference, example.target_word, example.source_word))
    result = translations.translation_of(sentence, model=model)
    found = word_link(result, source_word, target_word)
    values = {"s": sentence, "model": model, "kind": "cross", "view": "head"}
    words = {"zh": target_word, "en": source_word}  # the word written, the word it should look at
    if found is None:  # a retrained model that no longer writes the word: the caption claims no head
        return values, words
    values |= {"layer": found.layer + 1, "head": found.head + 1}
    rows = t("start.rows_sep").join(f"“{md_escape(row)}”" for row in found.rows)  # as the map labels its rows
    return values, words | {"layer": found.layer + 1, "head": found.head + 1, "weight": f"{found.weight:.2f}",
                            "rows": rows}


def decoding_lesson(model: str) -> tuple[dict, dict]:
    """The second pill on the decoding page, at the step that writes its key word (English → Chinese)."""
    example = examples.EXAMPLES[1]
    tokens = translations.translation_of(example.sentence, model=model).output_tokens
    step = next((i for i, token in enumerate(tokens) if example.target_word in token), 0)
    return {"s": example.sentence, "model": model, "step": step + 1, "layer": "average", "head": "average"}, {
        "zh": example.target_word, "step": step + 1}


def lesson(key: str, page: str, values: dict, words: dict) -> None:
    """A prepared link: opened here in this session by its title (the direction of its model first), and its address
    to copy."""
    title = t(key + ".title", **words)
    if "model" in values:
        title = f"{direction.label(values['model'])} · {title}"
    with st.container(border=True, key=f"start.lesson.{page}.{values.get('model', '')}"):
        st.page_link(registry.PAGE[page].script, label=title, icon=registry.PAGE[page].icon,
                     query_params={"lang": st.session_state.get(state_keys.LANG, "en"), **values})
        st.caption(t(key + (".what" if "head" in words or key != "start.cross" else ".what_any"), **words))
        st.code(link(page, values), language=None, wrap_lines=True)


def where_it_goes_wrong(model: str) -> None:
    """The sentences `model` mistranslates (examples.WRONG_BY_LANGUAGE, by the language it reads), each opening the
    translate page with that model, with its translation and ours."""
    pairs = examples.WRONG_BY_LANGUAGE.get(direction.of(model)[0], ())
    if not pairs:
        return
    st.subheader(t("start.wrong"))
    st.markdown(t("start.wrong_help"))
    wrong = [item for pair in pairs for item in zip(pair.sentences, pair.references)]
    for i, (sentence, reference) in enumerate(wrong):
        with st.container(border=True, key=f"start.wrong.{i}"):
            st.page_link(registry.PAGE["translate"].script, label=sentence, icon=":material/error:",
                         query_params={"lang": st.session_state.get(state_keys.LANG, "en"), "s": sentence,
                                       "model": model})
            st.caption(t("start.wrong_line", model=md_escape(translations.translation_of(sentence, model=model).translation),
                         reference=md_escape(reference)))


def unit(language: str) -> str:
    """What one token of `language` is to a class: an English word, a Chinese character."""
    return t(f"start.unit.{language}")


source, target = direction.current()
st.title(t("start.title"))
st.markdown(t("start.intro", source=direction.source_name(), target=direction.target_name()))
st.subheader(t("start.first"))
example = worked_example.thinking_machines()  # the Q·K·V page's worked example, its numbers as that page shows them
st.markdown(t("start.steps", a=f"{example.scores[0]:g}", b=f"{example.scores[1]:g}", root=f"{example.divisor:g}",
              wa=f"{example.weights[0]:.2f}", wb=f"{example.weights[1]:.2f}", src_unit=unit(source),
              tgt_unit=unit(target), source=direction.source_name()))
st.subheader(t("start.links"))
st.caption(t("start.links_help"))
students, own = links.student_bases()[0], links.browser_base()
if links.local_only():
    st.caption(t("start.local_only"))
elif own and not students.startswith(own):  # the teacher's address bar says localhost: say what students open
    st.caption(t("start.student_base", own=md_escape(own), students=md_escape(students)))
# One cross-attention link per direction the server offers (the same sentence pair from both sides), then decoding
# and the worked example.
english_to_chinese, chinese_to_english = model_for(ENGLISH_TO_CHINESE), model_for(CHINESE_TO_ENGLISH)
for model in (english_to_chinese, chinese_to_english):
    if model:
        lesson("start.cross", "translate", *cross_lesson(model))
if english_to_chinese:
    lesson("start.decoding", "decoding", *decoding_lesson(english_to_chinese))
lesson("start.qkv", "qkv", {}, {})
# The session's direction: a class on the Chinese → English model meets that model's mistakes.
if session_model := model_for((source, target)):
    where_it_goes_wrong(session_model)
st.subheader(t("start.present"))
st.markdown(t("start.present_help"))
