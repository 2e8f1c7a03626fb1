"""Start here: a teacher's guide to the app: what to show first, three prepared links that open a view, and the
sentences the model gets wrong, offered as such.

The links' layer, head and step are computed from the shipped model's own translations, like the
translate page's pill hints, so they point at what the text says they show. Clicked, a link opens its view in this
tab and this session (presentation mode and the slide deck stay as they are); its address, to copy into slides or a
class chat, keeps presentation mode when the teacher is in it.
"""

from urllib.parse import urlencode, urljoin

import streamlit as st

from app_pages import examples, presentation, registry, state_keys, translations
from app_pages.text import md_escape, t
from lessons import worked_example
from model import word_link


def link(page: str, values: dict) -> str:
    """An absolute link to `page` with `values` in its query string, on whatever host the app is served from; in
    presentation mode it opens in presentation mode."""
    values = {"lang": st.session_state.get(state_keys.LANG, "en"), **values,
              **({"present": "1"} if presentation.presenting() else {})}
    base = st.context.url or "http://localhost:8501/"
    return urljoin(base, f"{registry.PAGE[page].address}?{urlencode(values)}")


def cross_lesson() -> tuple[dict, dict]:
    """The first pill, in the explorer at the cross-attention head that links its key word pair."""
    example = examples.EXAMPLES[0]
    found = word_link(translations.translation_of(example.sentence), example.source_word, example.target_word)
    values = {"s": example.sentence, "kind": "cross", "view": "head"}
    words = {"zh": example.target_word, "en": example.source_word}
    if found is None:  # a retrained model that no longer writes the word: the caption claims no head
        return values, words
    values |= {"layer": found.layer + 1, "head": found.head + 1}
    rows = t("start.rows_sep").join(f"“{md_escape(row)}”" for row in found.rows)  # as the map labels its rows
    return values, words | {"layer": found.layer + 1, "head": found.head + 1, "weight": f"{found.weight:.2f}",
                            "rows": rows}


def decoding_lesson() -> tuple[dict, dict]:
    """The second pill on the decoding page, at the step that writes its key word."""
    example = examples.EXAMPLES[1]
    tokens = translations.translation_of(example.sentence).output_tokens
    step = next((i for i, token in enumerate(tokens) if example.target_word in token), 0)
    return {"s": example.sentence, "step": step + 1, "layer": "average", "head": "average"}, {
        "zh": example.target_word, "step": step + 1}


def lesson(key: str, page: str, values: dict, words: dict) -> None:
    """A prepared link: opened here in this session by its title, and its address to copy."""
    with st.container(border=True, key=f"start.lesson.{page}"):
        st.page_link(registry.PAGE[page].script, label=t(key + ".title", **words), icon=registry.PAGE[page].icon,
                     query_params={"lang": st.session_state.get(state_keys.LANG, "en"), **values})
        st.caption(t(key + (".what" if "head" in words or key != "start.cross" else ".what_any"), **words))
        st.code(link(page, values), language=None, wrap_lines=True)


def where_it_goes_wrong() -> None:
    """The sentences the model mistranslates (examples.WHERE_IT_GOES_WRONG), each opening the translate page, with
    the model's translation and ours."""
    st.subheader(t("start.wrong"))
    st.markdown(t("start.wrong_help"))
    wrong = [item for pair in examples.WHERE_IT_GOES_WRONG for item in zip(pair.sentences, pair.references)]
    for i, (sentence, reference) in enumerate(wrong):
        with st.container(border=True, key=f"start.wrong.{i}"):
            st.page_link(registry.PAGE["translate"].script, label=sentence, icon=":material/error:",
                         query_params={"lang": st.session_state.get(state_keys.LANG, "en"), "s": sentence})
            st.caption(t("start.wrong_line", model=md_escape(translations.translation_of(sentence).translation),
                         reference=md_escape(reference)))


st.title(t("start.title"))
st.markdown(t("start.intro"))
st.subheader(t("start.first"))
example = worked_example.thinking_machines()  # the Q·K·V page's worked example, its numbers as that page shows them
st.markdown(t("start.steps", a=f"{example.scores[0]:g}", b=f"{example.scores[1]:g}", root=f"{example.divisor:g}",
              wa=f"{example.weights[0]:.2f}", wb=f"{example.weights[1]:.2f}"))
st.subheader(t("start.links"))
st.caption(t("start.links_help"))
lesson("start.cross", "translate", *cross_lesson())
lesson("start.decoding", "decoding", *decoding_lesson())
lesson("start.qkv", "qkv", {}, {})
where_it_goes_wrong()
st.subheader(t("start.present"))
st.markdown(t("start.present_help"))
