"""Decoding step by step: at output step t, what the decoder saw, where it looked, and what it could say next.

Decoder position t reads target_tokens[t] (<s>, y1, …) and predicts
output_tokens[t]; everything here slices the one cached result, so moving
through the steps never runs the model. Previous / Next / Play, the slider and
the ← → keys all move one session-state step (STEP); all but Play rerun only the
step's fragment (decoding_view).
"""

import streamlit as st

from app_pages.components import attention_view, charts, chips, decks, guessing, table_view, whatif
from app_pages.state import direction, models, translations, widget_state
from app_pages.shell import link_values, links, navigation, page_scripts, presentation
from app_pages.state.state_keys import CHECKPOINT
from app_pages.components.stepper import stepped_view, stepper
from app_pages.shell.text import md_escape, sentences, t
from app_pages.components.teaching_shared import num
from lessons import length_penalty
from lessons.attention_maps import pick
from model import WORD_START, TranslationResult
from viz.beam_tree import TreeLabels, beam_tree
from viz.decoding import attention_bar, candidates_chart, causal_mask_row
from viz.heatmap import attention_heatmap
from viz.options import Labels, Room

STEP, EVERY_HEAD = "decoding.step", "decoding.every_head"
GUESS = "decoding.guess"  # "Guess first": the candidates hidden until the next token is guessed
# Widths of the two chart columns at 1280 px with the sidebar open (in presentation mode the columns are wider and
# the figures 1.3× larger: about the same), so their figures lay out their labels for the room they get.
LEFT_PX, RIGHT_PX = 480, 320
TREE_PX = (LEFT_PX + RIGHT_PX + 20, 480)  # across both columns (and their gap), under them: a screen's height or less
EVERY_HEAD_PX = 680  # 24 rows of layer · head, each tall enough for its 11-px label: below the mask row, on its own screen


def source_keys() -> str:
    """The cross-attention's keys named in the model's source language: "keys (Chinese source tokens)"."""
    return attention_view.axis_names("cross", direction.current())[1]


def candidate_lists(result: TranslationResult, position: int) -> tuple[list[str], list[float], int]:
    """Top-k tokens and probabilities of step t, with the chosen token added when the search took one outside them."""
    step = result.steps[position]
    candidates = list(step.candidates)
    ids = [c.token_id for c in candidates]
    if step.chosen.token_id not in ids:
        candidates.append(step.chosen)
        ids.append(step.chosen.token_id)
    return [c.token for c in candidates], [c.prob for c in candidates], ids.index(step.chosen.token_id)


def beam_section(result: TranslationResult, position: int) -> None:
    """The search's tree up to this step (the whole of it at the last step, where the search may have gone on to
    rule out longer hypotheses), across the page: a column per step."""
    st.markdown("#### " + t("decoding.beam_title", beam=result.beam_size))
    if result.beam_steps is None:
        st.caption(t("decoding.beam_greedy"))
        return
    records = result.beam_steps
    current = min(position, len(records) - 1)
    last = len(records) - 1 if position >= len(result.steps) - 1 else current
    steps = [{status: [(h.tokens, h.logprob) for h in getattr(record, status)]
              for status in ("kept", "finished", "dropped")} for record in records]
    fig = beam_tree(steps, result.output_tokens,
                    labels=TreeLabels(statuses={s: t(f"beam.{s}") for s in steps[0]}, chosen=t("beam.chosen"),
                                      step_title=t("beam.step"), logprob=t("beam.logprob"),
                                      token_logprob=t("beam.token_logprob")),
                    room=Room(TREE_PX[0], TREE_PX[1]), current=current, last=last)
    charts.chart(fig, key="decoding.chart.beam")
    record = records[current]
    st.caption(sentences([t("decoding.beam_help", last=last + 1, step=current + 1, top=2 * result.beam_size,
                              kept=len(record.kept), finished=len(record.finished), dropped=len(record.dropped)),
                            chips.word_start_note(result.output_tokens)]))


def finished_hypotheses(result: TranslationResult) -> list[tuple[tuple[str, ...], float]]:
    """Every hypothesis the search finished with </s> (tokens with </s>, log-probability), each once, in order."""
    found: dict[tuple[str, ...], float] = {}
    for record in result.beam_steps or []:
        for h in record.finished:
            found.setdefault(h.tokens, h.logprob)
    return list(found.items())


def length_penalty_section(result: TranslationResult) -> None:
    """The beam's finished hypotheses re-scored with α = 0, 0.6, 1 (and the model's own): which one each α picks."""
    st.subheader(t("decoding.lp.title"))
    generation = models.translator().generation_config
    own = generation.length_penalty  # GenerationConfig.penalty's two forms: GNMT's (None) or |Y|^p
    form, own_alpha = ("gnmt", generation.gnmt_alpha) if own is None else ("power", float(own))
    st.markdown(t(f"decoding.lp.formula.{form}", alpha=num(own_alpha, 1)))
    hypotheses = finished_hypotheses(result)
    if not hypotheses:
        st.caption(t("decoding.lp.greedy"))
        return
    alphas = length_penalty.alphas_with(own_alpha)
    scored = length_penalty.rescore([lp for _, lp in hypotheses], [len(tokens) for tokens, _ in hypotheses], alphas, form)
    texts = ["".join(tokens[:-1]).replace(WORD_START, " ").strip() or "∅" for tokens, _ in hypotheses]
    columns = {t("decoding.lp.col.hypothesis"): texts, t("decoding.lp.col.length"): [int(n) for n in scored.lengths],
               t("decoding.lp.col.logprob"): [f"{lp:.3f}" for lp in scored.logprobs]}
    for j, alpha in enumerate(alphas):
        columns[t("decoding.lp.col.score", alpha=num(alpha, 1))] = [
            f"{s:.3f}" + (" ★" if scored.winners[j] == i else "") for i, s in enumerate(scored.scores[:, j])]
    table_view.table(columns, hide_index=True)
    winners = [t("decoding.lp.winner", alpha=num(a, 1), text=md_escape(texts[w]), n=int(scored.lengths[w]))
               for a, w in zip(alphas, scored.winners)]
    changes = len(set(scored.winners)) > 1
    st.markdown(t("decoding.lp.result", n=len(hypotheses), beam=result.beam_size, own=num(own_alpha, 1)) + "\n\n"
                + "\n".join(f"- {line}" for line in winners) + "\n\n"
                + t("decoding.lp.changes" if changes else "decoding.lp.same"))
    st.caption(t("decoding.lp.caveat"))


def step_controls(n_steps: int) -> int:
    """Previous / Play / Next and the slider, in one row above the charts; returns the step number (1-based)."""
    return stepper("decoding", STEP, 1, n_steps, t("decoding.step"), width=240)


def step_view(result: TranslationResult) -> None:
    """The controls first, then the charts beside each other, their explanations under them: at 1280×800 the
    controls and the charts of a step are on screen together (each chart's layer and head in its heading, not in a
    figure title that would take a chart's worth of lines in a narrow column)."""
    n_steps = len(result.steps)
    number = step_controls(n_steps)
    layers, heads = result.cross.shape[:2]
    position = number - 1
    chosen = result.steps[position].chosen
    hidden = guessing.next_token_hidden(result, position, key="decoding.guessing", toggle_key=GUESS)
    with st.container(horizontal=True, vertical_alignment="center", key="decoding.now"):
        st.markdown(t("dguess.now", step=number, steps=n_steps) if hidden else
                    t("decoding.now", step=number, steps=n_steps, token=md_escape(chosen.token),
                      prob=f"{chosen.prob:.1%}"), width="content")
        chips.token_chips(result.target_tokens[: position + 1], color="orange", key="decoding.prefix")
    with st.container(horizontal=True, gap="medium", key="decoding.pickers"):
        layer, head = attention_view.layer_head_selectors("decoding", layers, heads, average_layers=True)
        guessing.toggle(GUESS, "dguess.toggle")
    which = t("decoding.which", layer=attention_view.layer_name(layer), head=attention_view.head_name(head))

    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{t('decoding.mask_title')}** · {which}")
        # At this step the positions after it are not written yet: labelled with the final answer, they would show
        # what the model does not know.
        keys = [*result.target_tokens[: position + 1], *["·"] * (len(result.target_tokens) - position - 1)]
        charts.chart(causal_mask_row(
            pick(result.decoder_self[:, :, position], layer, head),
            Labels(None, keys, t("axis.step_query"), attention_view.axis_names("decoder_self", direction.current())[1],
                   t("axis.weight"), t("decoding.not_yet")),
            position, room=Room(LEFT_PX),
        ), key="decoding.chart.mask")
        st.caption(t("decoding.mask_help"))

        every_head = st.toggle(t("decoding.every_head"), persist_state="session", key=EVERY_HEAD,
                               value=widget_state.kept(EVERY_HEAD, (False, True)))
        if every_head:
            st.markdown(f"**{t('decoding.cross_title', source=direction.source_name())}**")
            rows = result.cross[:, :, position].reshape(layers * heads, -1)  # (layers·heads, S)
            labels = [f"L{l + 1}·H{h + 1}" for l in range(layers) for h in range(heads)]
            fig = attention_heatmap(rows, Labels(labels, result.source_tokens, t("axis.layer_head"), source_keys(),
                                                 t("axis.weight")), room=Room(LEFT_PX, EVERY_HEAD_PX))
        else:
            st.markdown(f"**{t('decoding.cross_title', source=direction.source_name())}** · {which}")
            fig = attention_bar(pick(result.cross[:, :, position], layer, head), result.source_tokens,
                                key_title=source_keys(), value_label=t("axis.weight"),
                                max_width=LEFT_PX)
        charts.chart(fig, key="decoding.chart.cross")
        # Under the chart its slide shows (as the explorer's pin is under its map): in a row above the charts, a
        # button would push them below the first screen. None where the charts fill a projector's screen.
        if not presentation.presenting():
            attention_view.pin_button(decks.decoding_slide(result.source_text, st.session_state[CHECKPOINT], number,
                                                           layer, head), "decoding.pin")
        st.caption(sentences([t("decoding.every_head_help" if every_head else "decoding.cross_help"),
                              chips.word_start_note(result.source_tokens)]))
    with right:
        candidates_column(result, position)
    # Under both columns, across the page (a column per step): hidden while the guess is, as it tells the answer.
    if not guessing.next_token_hidden(result, position, key="decoding.guessing", toggle_key=GUESS):
        beam_section(result, position)


def candidates_column(result: TranslationResult, position: int) -> None:
    """The step's candidates (hidden behind a guess while "Guess first" is on)."""
    st.markdown(f"**{t('decoding.candidates_title')}**")
    tokens, probs, chosen_index = candidate_lists(result, position)
    labels = dict(token_title=t("axis.candidate"), value_label=t("axis.probability"), room=Room(RIGHT_PX))
    if st.session_state.get(GUESS):
        guessing.next_token_guess(result, position, tokens, probs, chosen_index, key="decoding.guessing", **labels)
        if guessing.next_token_hidden(result, position, key="decoding.guessing", toggle_key=GUESS):
            return
    else:
        charts.chart(candidates_chart(tokens, probs, chosen_index, **labels), key="decoding.chart.candidates")
    st.caption(sentences([t("decoding.candidates_help", k=len(result.steps[position].candidates)),
                          chips.word_start_note(tokens)]))


def decoding_view() -> None:
    """Everything a step, a picker or Guess first changes: a fragment, so that Previous / Next, the slider, the layer
    and head rerun only this part, not the whole page (sidebar, title); the URL is written at its end (each fragment
    run's own), so that it stays the view on screen. Autoplay's timer, outside it, reruns the page
    (stepper.stepped_view). It asks for the result itself: a fragment's arguments stay with the session, and would
    keep a result the byte-bounded cache had let go."""
    result = translations.current_result()
    with st.container(horizontal=True, vertical_alignment="center", key="decoding.sentence"):
        guessing_now = st.session_state.get(GUESS)  # the whole translation would give every step's answer away
        st.markdown(t("decoding.sentence", source=direction.source_name(), target=direction.target_name(),
                      sentence=md_escape(translations.source_as_read(result)),
                      translation="?" if guessing_now else md_escape(result.translation or "∅")), width="content",
                    help=translations.names_note(result))
        navigation.page_link("translate", t("decoding.change_sentence"), icon=":material/edit:")
    with st.container(key=page_scripts.LINKED_VIEW):  # where a link to a step lands
        step_view(result)
    # After the guess only: the what-if candidates would give the answer away.
    if not guessing.next_token_hidden(result, st.session_state[STEP] - 1, key="decoding.guessing", toggle_key=GUESS):
        whatif.section(result, st.session_state[STEP] - 1)
    # The finished beams hold the whole translation, which Guess first hides at every step (as the sentence's line).
    if not guessing_now:
        length_penalty_section(result)
    links.write_link()


presentation.page_title(t("decoding.title"), t("decoding.intro", source=direction.source_name()))
config = models.translator().config
links.link_page({"step": link_values.Param(STEP, link_values.number_in(1, config.max_len)),
                 **attention_view.layer_head_params("decoding", config.n_decoder_layers, config.n_heads,
                                                    average_layers=True)})
stepped_view("decoding", decoding_view)
