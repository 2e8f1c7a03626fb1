"""Side by side: one sentence, two models (e.g. ours and a Marian opus-mt model), the same attention map of each.

One set of controls drives both maps. Layer and head numbers count from each
model's first; where one model has fewer layers or heads, it shows its last and says so.
"""

import numpy as np
import streamlit as st

from app_pages import session, widgets
from lessons.attention_maps import ALL, pick
from model import ATTENTION_KINDS, TranslationResult
from viz.heatmap import attention_heatmap

KIND, LAYER, HEAD = "compare.kind", "compare.layer", "compare.head"
LEFT, RIGHT, INPUT = "compare.left", "compare.right", "compare.input"


def submit() -> None:
    st.session_state[session.SENTENCE] = st.session_state[INPUT]


def choose_models(names: list[str]) -> tuple[str, str]:
    """Two model pickers; the second defaults to another model than the sidebar's (a Marian one if added)."""
    widgets.keep_valid(LEFT, names)
    widgets.keep_valid(RIGHT, names)
    st.session_state.setdefault(LEFT, st.session_state.get(session.CHECKPOINT, names[0]))
    others = [n for n in names if n != st.session_state[LEFT]]
    st.session_state.setdefault(RIGHT, others[-1] if others else names[0])
    c1, c2 = st.columns(2)  # inside the caller's first column
    return (c1.selectbox(session.t("compare.left"), names, key=LEFT, format_func=session.model_label),
            c2.selectbox(session.t("compare.right"), names, key=RIGHT, format_func=session.model_label))


def side(which: str, name: str, result: TranslationResult, kind: str, layer: int, head: int) -> None:
    """One model's translation and map; `layer`/`head` are clamped to what this model has."""
    weights = result.attention(kind)  # (layers, heads, Tq, Tk)
    layers, heads = weights.shape[:2]
    own_layer = min(layer, layers - 1)
    own_head = head if head == ALL else min(head, heads - 1)
    st.markdown(f"**{session.md_escape(session.model_label(name))}**")
    st.markdown(f"#### {session.md_escape(result.translation) or '∅'}")
    config = session.translator(name).config
    st.caption(session.t("compare.shape", layers=layers, heads=heads, src=f"{config.src_vocab_size:,}",
                         tgt=f"{config.tgt_vocab_size:,}", s=len(result.source_tokens), t=len(result.target_tokens)))
    if (own_layer, own_head) != (layer, head):
        st.caption(session.t("compare.clamped", layers=layers, heads=heads, layer=own_layer + 1,
                             head=widgets.head_name(own_head)))
    queries, keys = result.axis_tokens(kind)
    mask = np.tril(np.ones(weights.shape[2:], dtype=bool)) if kind == "decoder_self" else None
    # The title above the figure: inside a narrow map it would wrap into a column of words.
    st.markdown("**" + session.t("explorer.map_title", kind=session.t(f"kind.{kind}"),
                                 layer=widgets.layer_name(own_layer), head=widgets.head_name(own_head)) + "**")
    figure = attention_heatmap(
        pick(weights, own_layer, own_head), queries, keys, mask=mask,
        masked_label=session.t("axis.masked"), query_title=session.t(f"axis.{kind}.queries"),
        key_title=session.t(f"axis.{kind}.keys"), value_label=session.t("axis.weight"),
        max_width=widgets.HALF_COLUMN_PX, **widgets.map_limits(),
    )
    widgets.chart(figure, key=f"compare.chart.{which}")


st.title(session.t("compare.title"))
st.markdown(session.t("compare.intro"))
names = session.model_names()
if not names:
    session.translator()  # says that there is no model
pickers, typed = st.columns([1, 1])
with pickers:
    left, right = choose_models(names)
st.session_state.setdefault(INPUT, session.current_sentence())
typed.text_input(session.t("translate.input"), key=INPUT, max_chars=session.MAX_CHARS, on_change=submit,
                 help=session.t("compare.enter"))
sentence = session.current_sentence()
results = {name: session.translation_of(sentence, name) for name in (left, right)}
layers = max(r.cross.shape[0] for r in results.values())
heads = max(r.cross.shape[1] for r in results.values())
st.session_state.setdefault(KIND, "cross")
with st.container(horizontal=True, gap="medium", vertical_alignment="bottom"):
    kind = st.segmented_control(session.t("explorer.kind"), ATTENTION_KINDS, format_func=lambda k: session.t(f"kind.{k}"),
                                persist_state="session", key=KIND, required=True)
    layer, head = widgets.layer_head_selectors("compare", layers, heads, average_layers=False)
for column, which, name in zip(st.columns(2), ("left", "right"), (left, right)):
    with column:
        side(which, name, results[name], kind, layer, head)
st.caption(session.t("compare.note"))
