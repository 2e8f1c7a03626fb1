"""Side by side: one sentence, two models (e.g. ours and a Marian opus-mt model), the same attention map of each.

One set of controls drives both maps. Layer and head numbers count from each
model's first; where one model has fewer layers or heads, it shows its last and says so.
"""

import streamlit as st

from app_pages import attention_view, models, presentation, state_keys, translations, widgets
from app_pages.text import md_escape, t
from lessons.attention_maps import ALL
from model import MAX_CHARS, TranslationResult

KIND, LEFT, RIGHT, INPUT = "compare.kind", "compare.left", "compare.right", "compare.input"


def submit() -> None:
    st.session_state[state_keys.SENTENCE] = st.session_state[INPUT]


def choose_models(names: list[str]) -> tuple[str, str]:
    """Two model pickers; the second defaults to another model than the sidebar's (a Marian one if added)."""
    widgets.keep_valid(LEFT, names)
    widgets.keep_valid(RIGHT, names)
    st.session_state.setdefault(LEFT, st.session_state.get(state_keys.CHECKPOINT, names[0]))
    others = [n for n in names if n != st.session_state[LEFT]]
    st.session_state.setdefault(RIGHT, others[-1] if others else names[0])
    c1, c2 = st.columns(2)  # inside the caller's first column
    return (c1.selectbox(t("compare.left"), names, key=LEFT, format_func=models.model_label),
            c2.selectbox(t("compare.right"), names, key=RIGHT, format_func=models.model_label))


def side(which: str, name: str, result: TranslationResult, kind: str, layer: int, head: int) -> None:
    """One model's name and translation on one line (its sizes in the tooltip), then its map; `layer`/`head` are
    clamped to what this model has."""
    weights = result.attention(kind)  # (layers, heads, Tq, Tk)
    layers, heads = weights.shape[:2]
    own_layer = min(layer, layers - 1)
    own_head = head if head == ALL else min(head, heads - 1)
    config = models.translator(name).config
    shape = t("compare.shape", layers=layers, heads=heads, src=f"{config.src_vocab_size:,}",
              tgt=f"{config.tgt_vocab_size:,}", s=len(result.source_tokens), t=len(result.target_tokens))
    with st.container(horizontal=True, vertical_alignment="center", key=f"compare.{which}.says"):
        st.markdown(f"**{md_escape(models.model_label(name))}**", width="content")
        st.markdown(f"#### {md_escape(result.translation) or '∅'}", help=shape, width="content")
    if (own_layer, own_head) != (layer, head):
        st.caption(t("compare.clamped", layers=layers, heads=heads, layer=own_layer + 1,
                     head=attention_view.head_name(own_head)))
    attention_view.map_chart(weights, kind, own_layer, own_head, *result.axis_tokens(kind), key=f"compare.chart.{which}",
                             sentence=result.source_text, max_width=widgets.HALF_COLUMN_PX, **widgets.map_limits())


presentation.page_title(t("compare.title"), t("compare.intro"))
names = models.model_names()
if not names:
    models.translator()  # says that there is no model
pickers, typed = st.columns([1, 1])
with pickers:
    left, right = choose_models(names)
st.session_state.setdefault(INPUT, translations.current_sentence())
typed.text_input(t("translate.input"), key=INPUT, max_chars=MAX_CHARS, on_change=submit,
                 help=t("compare.enter"))
sentence = translations.current_sentence()
results = {name: translations.translation_of(sentence, name) for name in (left, right)}
layers = max(r.cross.shape[0] for r in results.values())
heads = max(r.cross.shape[1] for r in results.values())
# The controls, then one title for both maps beside them (inside a half-width map it would wrap into a column of
# words); a model with fewer layers or heads says which it shows instead.
with st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="compare.controls"):
    kind = attention_view.kind_picker(KIND, "cross")
    layer, head = attention_view.layer_head_selectors("compare", layers, heads, average_layers=False)
    st.markdown("**" + t("explorer.map_title", kind=attention_view.kind_name(kind),
                         layer=attention_view.layer_name(layer), head=attention_view.head_name(head)) + "**",
                width="content")
for column, which, name in zip(st.columns(2), ("left", "right"), (left, right)):
    with column:
        side(which, name, results[name], kind, layer, head)
st.caption(t("compare.note") + " " + widgets.word_start_note(results[left].source_tokens + results[right].source_tokens))
