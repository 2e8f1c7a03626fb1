"""Start here: a teacher's guide to the app: what to show first, and three prepared links that open a view.

The links' layer, head and step are computed from the shipped model's own translations, like the
translate page's pill hints, so they point at what the text says they show.
"""

from urllib.parse import urlencode, urljoin

import streamlit as st

from app_pages import examples, registry, state_keys, translations
from app_pages.text import t
from lessons import worked_example
from model import word_link


def link(page: str, values: dict) -> str:
    """An absolute link to `page` with `values` in its query string, on whatever host the app is served from."""
    values = {"lang": st.session_state.get(state_keys.LANG, "en"), **values}
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
    return values, words | {"layer": found.layer + 1, "head": found.head + 1, "weight": f"{found.weight:.2f}"}


def decoding_lesson() -> tuple[dict, dict]:
    """The second pill on the decoding page, at the step that writes its key word."""
    example = examples.EXAMPLES[1]
    tokens = translations.translation_of(example.sentence).output_tokens
    step = next((i for i, token in enumerate(tokens) if example.target_word in token), 0)
    return {"s": example.sentence, "step": step + 1, "layer": "average", "head": "average"}, {
        "zh": example.target_word, "step": step + 1}


def lesson(key: str, page: str, values: dict, words: dict) -> None:
    url = link(page, values)
    with st.container(border=True, key=f"start.lesson.{page}"):
        st.markdown(f"**[{t(key + '.title', **words)}]({url})**")
        st.caption(t(key + (".what" if "head" in words or key != "start.cross" else ".what_any"), **words))
        st.code(url, language=None, wrap_lines=True)


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
st.subheader(t("start.present"))
st.markdown(t("start.present_help"))
