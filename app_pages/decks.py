"""The session's slide deck (state_keys.DECK, pinned with attention_view's Pin to deck): each slide's view checked with
the readers the explorer's link uses, its map rebuilt from that view as the explorer draws it, the deck exported as
one HTML file that opens offline, and read back from one."""

from __future__ import annotations

import html

import plotly.graph_objects as go
import streamlit as st

from app_pages import attention_view, links, models, page_scripts, translations
from app_pages.link_values import BadLinkValue
from app_pages.state_keys import DECK
from app_pages.text import md_escape, t
from lessons.deck import BadDeck, Slide, from_json, json_in_html, to_json

# The pages a slide may name and the link names each reads: a pin is the explorer's link to one map.
PAGES = {"translate": {"s", "model", "kind", "view", "layer", "head"}}
REQUIRED = ("s", "model", "kind", "layer", "head")


def slides() -> list[Slide]:
    return st.session_state.setdefault(DECK, [])


def view_of(slide: Slide) -> tuple[str, str, str, int, int]:
    """(sentence, model, kind, layer, head) of a slide, each read as the explorer's link reads it; BadDeck names a
    missing value, BadLinkValue (with .name) one the models on this server cannot show."""
    missing = [name for name in REQUIRED if name not in slide.query]
    if missing:
        raise BadDeck("field", field=missing[0])
    readers = links.shared_params()
    values = {}
    for name in ("s", "model"):
        values[name] = _read(name, slide.query[name], readers[name].read)
    kind = _read("kind", slide.query["kind"], attention_view.kind_param("").read)
    config = models.translator(values["model"]).config
    layers = config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers
    layer = _read("layer", slide.query["layer"], attention_view.index_param("", layers, False).read)
    head = _read("head", slide.query["head"], attention_view.index_param("", config.n_heads, True).read)
    return values["s"], values["model"], kind, layer, head


def _read(name: str, text: str, read):
    try:
        return read(text)
    except BadLinkValue as exc:
        exc.name = name
        raise


def why(exc: BadDeck | BadLinkValue) -> str:
    """Why a deck or a slide cannot be used, in the session's language (values escaped for Markdown)."""
    values = {k: md_escape(v) if isinstance(v, str) else v for k, v in exc.values.items()}
    if isinstance(exc, BadDeck):
        return t(f"deck.bad.{exc.key}", **values)
    return t("deck.bad.value", name=md_escape(exc.name), why=md_escape(t(f"link.why.{exc.key}", **values)))


def slide_figure(slide: Slide, **limits) -> go.Figure:
    """The slide's map rebuilt from its view: the translation (cached) and the explorer's map figure, titled."""
    sentence, model, kind, layer, head = view_of(slide)
    result = translations.translation_of(sentence, model)
    return attention_view.map_figure(result.attention(kind), kind, layer, head, *result.axis_tokens(kind),
                                     title=slide.title, **limits)


def document(deck: list[Slide], figures: list[go.Figure]) -> str:
    """One self-contained HTML file: every slide's chart (plotly.js inside the first) and the deck as JSON."""
    charts = [fig.to_html(include_plotlyjs=i == 0, full_html=False, config={"displaylogo": False})
              for i, fig in enumerate(figures)]
    body = "".join(page_scripts.DECK_SLIDE.format(number=i + 1, title=html.escape(slide.title), chart=chart)
                   for i, (slide, chart) in enumerate(zip(deck, charts)))
    return page_scripts.DECK_DOCUMENT.format(title=html.escape(t("deck.title")), slides=body, deck=to_json(deck))


def read_file(content: bytes) -> list[Slide]:
    """The slides of an exported deck, every one checked (schema, then each view's values); raises BadDeck or
    BadLinkValue, whose message why() writes."""
    deck = from_json(json_in_html(content), PAGES)
    for slide in deck:
        view_of(slide)
    return deck


UPLOAD, IMPORTED = "deck.upload", "deck.import_note"


def import_upload() -> None:
    """The uploaded file's slides replace the deck (a callback: before the page lists them); what happened, for
    import_note(): the count, or why the file cannot be read, plainly."""
    uploaded = st.session_state.get(UPLOAD)
    if uploaded is None:
        return
    try:
        st.session_state[DECK] = read_file(uploaded.getvalue())
    except (BadDeck, BadLinkValue) as exc:
        st.session_state[IMPORTED] = ("warning", t("deck.bad", why=why(exc)))
        return
    forget_titles()
    st.session_state[IMPORTED] = ("success", t("deck.imported", n=len(slides())))


def import_note() -> None:
    """What the last import did, once."""
    kind, text = st.session_state.pop(IMPORTED, (None, ""))
    if kind == "warning":
        st.warning(text, icon=":material/error:")
    elif kind == "success":
        st.success(text, icon=":material/upload_file:")


def forget_titles() -> None:
    """The rename boxes start again from the slides' titles (after a move, a delete or an import)."""
    for key in [k for k in st.session_state if str(k).startswith("deck.rename.")]:
        del st.session_state[key]
