"""Translate a sentence, then explore every attention map of that translation.

The model runs only when the sentence or the sidebar settings change
(common.current_result is cached); the explorer is a fragment, so choosing a
kind, layer, head or view reruns only the explorer and never the model.
"""

import numpy as np
import streamlit as st

from app_pages import common
from model import ATTENTION_KINDS, TranslationResult
from model.translator import MAX_CHARS
from viz.head_view import head_view
from viz.heatmap import attention_heatmap
from viz.model_view import clicked_map, model_view

INPUT, EXAMPLE = "translate.input", "translate.example"
KIND, VIEW, QUERY, MIN_WEIGHT, GRID = "explorer.kind", "explorer.view", "explorer.query", "explorer.min_weight", "explorer.grid"
VIEWS = ("head", "grid", "lines")


def submit() -> None:
    st.session_state[common.SENTENCE] = st.session_state[INPUT]
    st.session_state[EXAMPLE] = None


def use_example() -> None:
    if st.session_state[EXAMPLE]:
        st.session_state[common.SENTENCE] = st.session_state[INPUT] = st.session_state[EXAMPLE]


def axis_titles(kind: str) -> dict[str, str]:
    return {
        "query_title": common.t(f"axis.{kind}.queries"),
        "key_title": common.t(f"axis.{kind}.keys"),
        "value_label": common.t("axis.weight"),
    }


def sentence_input() -> None:
    st.session_state.setdefault(INPUT, common.current_sentence())
    with st.form("translate.form", border=False):
        # Streamlit enforces max_chars on the server too; the Translator then applies its own limits.
        st.text_area(common.t("translate.input"), key=INPUT, height=80, max_chars=MAX_CHARS)
        st.form_submit_button(common.t("translate.submit"), type="primary", on_click=submit, key="translate.submit")
    st.pills(common.t("translate.examples"), common.EXAMPLES, key=EXAMPLE, on_change=use_example)


def translation_summary(result: TranslationResult) -> None:
    for notice in result.notices:
        st.info(common.md_escape(common.model_message(notice)), icon=":material/content_cut:")
    st.caption(common.t("translate.translation"))
    st.markdown("### " + common.md_escape(result.translation or "∅"))
    st.caption(common.t(
        "translate.details", checkpoint=common.md_escape(result.checkpoint.rsplit("/", 1)[-1]),
        device=result.device, beam=result.beam_size, S=len(result.source_tokens), T=len(result.target_tokens),
    ))
    left, right = st.columns(2)
    with left:
        st.markdown("**" + common.t("translate.source_tokens", n=len(result.source_tokens)) + "**")
        common.token_chips(result.source_tokens, color="blue")
    with right:
        st.markdown("**" + common.t("translate.target_tokens", n=len(result.target_tokens)) + "**")
        common.token_chips(result.target_tokens, color="orange")
    st.caption(common.t("translate.tokens_help"))


def open_clicked_map() -> None:
    """A click on a small map in the grid opens that layer and head below it."""
    choice = clicked_map(st.session_state[GRID].selection.points)
    if choice is not None:
        st.session_state["explorer.layer"], st.session_state["explorer.head"] = choice


@st.fragment
def explorer(result: TranslationResult) -> None:
    st.subheader(common.t("explorer.title"))
    with st.container(horizontal=True, gap="large"):
        kind = st.segmented_control(
            common.t("explorer.kind"), ATTENTION_KINDS, format_func=lambda k: common.t(f"kind.{k}"),
            key=KIND, default=ATTENTION_KINDS[0], required=True,
        )
        view = st.segmented_control(
            common.t("explorer.view"), VIEWS, format_func=lambda v: common.t(f"view.{v}"),
            key=VIEW, default=VIEWS[0], required=True,
        )
    st.caption(common.t(f"kind.{kind}.help"))
    weights = result.attention(kind)  # (layers, heads, Tq, Tk)
    layers, heads = weights.shape[:2]
    queries, keys = result.axis_tokens(kind)
    layer, head = common.layer_head_selectors("explorer", layers, heads, average_layers=False)
    titles = axis_titles(kind)
    mask = np.tril(np.ones(weights.shape[2:], dtype=bool)) if kind == "decoder_self" else None

    def one_head_figure():
        title = common.t("explorer.map_title", kind=common.t(f"kind.{kind}"), layer=common.layer_name(layer),
                         head=common.head_name(head))
        return attention_heatmap(common.pick(weights, layer, head), queries, keys, title=title, mask=mask,
                                 masked_label=common.t("axis.masked"), **titles)

    if view == "head":
        st.caption(common.t("view.head.help"))
        st.plotly_chart(one_head_figure(), width="content", key="explorer.chart.head", config=common.PLOTLY_CONFIG)
    elif view == "grid":
        st.caption(common.t("view.grid.help"))
        grid = model_view(
            weights, queries, keys, title=common.t("explorer.grid_title", kind=common.t(f"kind.{kind}")),
            layer_label=common.t("explorer.layer_n"), head_label=common.t("explorer.head_n"),
            selected=None if head == common.ALL else (layer, head), click_hint=common.t("explorer.click_hint"),
            **titles,
        )
        st.plotly_chart(grid, key=GRID, width="content", config=common.PLOTLY_CONFIG, on_select=open_clicked_map,
                        selection_mode="points")
        st.plotly_chart(one_head_figure(), width="content", key="explorer.chart.opened", config=common.PLOTLY_CONFIG)
    else:
        st.caption(common.t("view.lines.help"))
        c1, c2 = st.columns([3, 2])
        with c1:
            query_options = [None, *range(len(queries))]
            common.keep_valid(QUERY, query_options)
            query = st.selectbox(
                common.t("explorer.focus"), query_options, key=QUERY,
                format_func=lambda i: common.t("explorer.focus_all") if i is None else f"{i}: {queries[i]}",
            )
        with c2:
            min_weight = st.slider(common.t("explorer.min_weight"), 0.0, 0.5, 0.1, 0.01, key=MIN_WEIGHT)
        fig = head_view(
            weights[layer], queries, keys, heads=None if head == common.ALL else [head], query_index=query,
            min_weight=min_weight, head_label=common.t("explorer.head_n"),
            title=common.t("explorer.lines_title", kind=common.t(f"kind.{kind}"), layer=common.layer_name(layer)),
            **titles,
        )
        st.plotly_chart(fig, width="content", key="explorer.chart.lines", config=common.PLOTLY_CONFIG)


st.title(common.t("translate.title"))
st.caption(common.t("translate.intro"))
sentence_input()
current = common.current_result()
translation_summary(current)
st.divider()
explorer(current)
