"""Decoding step by step: at output step t, what the decoder saw, where it looked, and what it could say next.

Decoder position t reads target_tokens[t] (<s>, y1, …) and predicts
output_tokens[t]; everything here slices the one cached result, so moving the
slider never runs the model.
"""

import streamlit as st

from app_pages import common
from model import TranslationResult
from viz.decoding import attention_bar, beam_chart, candidates_chart, causal_mask_row
from viz.heatmap import attention_heatmap

STEP, EVERY_HEAD = "decoding.step", "decoding.every_head"


def candidate_lists(result: TranslationResult, t: int) -> tuple[list[str], list[float], int]:
    """Top-k tokens and probabilities of step t, with the chosen token added when the search took one outside them."""
    step = result.steps[t]
    candidates = list(step.candidates)
    ids = [c.token_id for c in candidates]
    if step.chosen.token_id not in ids:
        candidates.append(step.chosen)
        ids.append(step.chosen.token_id)
    return [c.token for c in candidates], [c.prob for c in candidates], ids.index(step.chosen.token_id)


def beam_section(result: TranslationResult, t: int) -> None:
    st.subheader(common.t("decoding.beam_title", beam=result.beam_size))
    if result.beam_steps is None:
        st.caption(common.t("decoding.beam_greedy"))
        return
    if t >= len(result.beam_steps):
        st.caption(common.t("decoding.beam_done", steps=len(result.beam_steps)))
        return
    record = result.beam_steps[t]
    st.caption(common.t("decoding.beam_help", kept=len(record.kept), finished=len(record.finished),
                        dropped=len(record.dropped)))
    groups = {
        status: [(h.tokens, h.logprob) for h in getattr(record, status)]
        for status in ("kept", "finished", "dropped")
    }
    fig = beam_chart(
        groups, status_labels={s: common.t(f"beam.{s}") for s in groups},
        hypothesis_title=common.t("axis.hypothesis"), value_label=common.t("axis.sequence_prob"),
    )
    st.plotly_chart(fig, key="decoding.chart.beam", config=common.PLOTLY_CONFIG)


@st.fragment
def step_view(result: TranslationResult) -> None:
    n_steps = len(result.steps)
    common.keep_valid(STEP, list(range(1, n_steps + 1)))
    number = st.slider(common.t("decoding.step"), 1, n_steps, 1, key=STEP) if n_steps > 1 else 1
    t = number - 1
    chosen = result.steps[t].chosen
    st.markdown(common.t("decoding.now", step=number, steps=n_steps, token=common.md_escape(chosen.token),
                         prob=f"{chosen.prob:.1%}"))
    st.markdown("**" + common.t("decoding.prefix") + "**")
    common.token_chips(result.target_tokens[: t + 1], color="orange")

    layers, heads = result.cross.shape[:2]
    layer, head = common.layer_head_selectors("decoding", layers, heads, average_layers=True)
    which = common.t("decoding.which", layer=common.layer_name(layer), head=common.head_name(head))

    left, right = st.columns([3, 2])
    with left:
        st.subheader(common.t("decoding.mask_title"))
        st.caption(common.t("decoding.mask_help"))
        st.plotly_chart(causal_mask_row(
            common.pick(result.decoder_self[:, :, t], layer, head), result.target_tokens, t, title=which,
            query_title=common.t("axis.step_query"), key_title=common.t("axis.decoder_self.keys"),
            value_label=common.t("axis.weight"), masked_label=common.t("axis.masked"),
        ), width="content", key="decoding.chart.mask", config=common.PLOTLY_CONFIG)

        st.subheader(common.t("decoding.cross_title"))
        every_head = st.toggle(common.t("decoding.every_head"), key=EVERY_HEAD)
        if every_head:
            st.caption(common.t("decoding.every_head_help"))
            rows = result.cross[:, :, t].reshape(layers * heads, -1)  # (layers·heads, S)
            labels = [f"L{l + 1}·H{h + 1}" for l in range(layers) for h in range(heads)]
            fig = attention_heatmap(rows, labels, result.source_tokens, query_title=common.t("axis.layer_head"),
                                    key_title=common.t("axis.cross.keys"), value_label=common.t("axis.weight"))
        else:
            st.caption(common.t("decoding.cross_help"))
            fig = attention_bar(common.pick(result.cross[:, :, t], layer, head), result.source_tokens, title=which,
                                key_title=common.t("axis.cross.keys"), value_label=common.t("axis.weight"))
        st.plotly_chart(fig, width="content", key="decoding.chart.cross", config=common.PLOTLY_CONFIG)
    with right:
        st.subheader(common.t("decoding.candidates_title"))
        st.caption(common.t("decoding.candidates_help", k=len(result.steps[t].candidates)))
        tokens, probs, chosen_index = candidate_lists(result, t)
        st.plotly_chart(candidates_chart(
            tokens, probs, chosen_index, token_title=common.t("axis.candidate"), value_label=common.t("axis.probability"),
        ), key="decoding.chart.candidates", config=common.PLOTLY_CONFIG)
        beam_section(result, t)


st.title(common.t("decoding.title"))
st.caption(common.t("decoding.intro"))
current = common.current_result()
st.markdown(common.t("decoding.sentence", source=common.md_escape(current.source_text),
                     translation=common.md_escape(current.translation or "∅")))
st.page_link("app_pages/translate.py", label=common.t("decoding.change_sentence"), icon=":material/translate:")
st.divider()
step_view(current)
