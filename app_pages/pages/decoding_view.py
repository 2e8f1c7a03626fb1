"""What the decoding page shows at one output step, computed from the cached translation and the session's choices
without drawing anything (decoding.py draws it): the sentence's line, the step's line and prefix, the causal mask
row, the cross-attention (one head's bar or every head's rows), the candidates, the beam search's tree, and the
finished hypotheses re-scored with other length penalties. Plain data out: texts, figures and table columns;
tests/test_decoding_view.py reads them without Streamlit.

Decoder position t reads target_tokens[t] (<s>, y1, …) and predicts output_tokens[t]; everything here slices the one
result, so moving through the steps never runs the model.
"""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from app_pages.components import attention_view, chips
from app_pages.components.attention_view import Languages
from app_pages.components.teaching_shared import num
from app_pages.shell.text import md_escape, sentences, t
from app_pages.state import direction, translations
from lessons import length_penalty
from lessons.attention_maps import pick
from model import WORD_START, GenerationConfig, TranslationResult
from viz.beam_tree import TreeLabels, beam_tree
from viz.decoding import attention_bar, candidates_chart, causal_mask_row
from viz.heatmap import attention_heatmap
from viz.options import Labels, Room

# Widths of the two chart columns at 1280 px with the sidebar open (in presentation mode the columns are wider and
# the figures 1.3× larger: about the same), so their figures lay out their labels for the room they get.
LEFT_PX, RIGHT_PX = 480, 320
TREE_PX = (LEFT_PX + RIGHT_PX + 20, 480)  # across both columns (and their gap), under them: a screen's height or less
EVERY_HEAD_PX = 680  # 24 rows of layer · head, each tall enough for its 11-px label: below the mask row, on its own screen


@dataclass(frozen=True)
class Settings:
    """The session's choices at a step: which step (from 0), the layer and head of its maps (ALL: averaged), every
    head's rows instead of one head's bar, whether Guess first is on and whether it still hides this step's answer,
    and the model's (source, target) languages."""

    position: int
    layer: int
    head: int
    every_head: bool
    guessing: bool
    hidden: bool
    languages: Languages


@dataclass(frozen=True)
class Candidates:
    """The step's candidates: the top-k and the chosen token where the search took one outside them; `figure`: their
    chart (None while Guess first is on: the guess panel draws them), `caption` under it."""

    title: str
    tokens: list[str]
    probs: list[float]
    chosen: int  # the chosen token's index in `tokens`
    figure: go.Figure | None
    caption: str


@dataclass(frozen=True)
class BeamView:
    """The search's tree up to the step, across the page; a greedy search has no tree, only `caption`."""

    title: str
    figure: go.Figure | None
    caption: str


@dataclass(frozen=True)
class StepView:
    """One step: its line and the tokens written so far, the causal mask row, the cross-attention, the candidates,
    and the beam's tree (None while the guess hides the answer, which the tree tells)."""

    now: str
    prefix: list[str]
    mask_title: str
    mask: go.Figure
    mask_caption: str
    cross_title: str
    cross: go.Figure
    cross_caption: str
    candidates: Candidates
    beam: BeamView | None


@dataclass(frozen=True)
class LengthPenaltyView:
    """The finished hypotheses re-scored with α = 0, 0.6, 1 and the model's own: the formula, the table (None for a
    greedy search, which finishes one hypothesis: `result` then says so), which α picks which, and the caveat."""

    title: str
    formula: str
    columns: dict[str, list] | None
    result: str
    caveat: str


def sentence_line(result: TranslationResult, languages: Languages, guessing: bool) -> str:
    """The sentence and its translation above the steps ("?" while guessing: it would give every step away)."""
    return t("decoding.sentence", source=direction.language_name(languages[0]),
             target=direction.language_name(languages[1]), sentence=md_escape(translations.source_as_read(result)),
             translation="?" if guessing else md_escape(result.translation or "∅"))


def candidate_lists(result: TranslationResult, position: int) -> tuple[list[str], list[float], int]:
    """Top-k tokens and probabilities of step t, with the chosen token added when the search chose one outside
    them."""
    step = result.steps[position]
    candidates = list(step.candidates)
    ids = [c.token_id for c in candidates]
    if step.chosen.token_id not in ids:
        candidates.append(step.chosen)
        ids.append(step.chosen.token_id)
    return [c.token for c in candidates], [c.prob for c in candidates], ids.index(step.chosen.token_id)


def candidate_layout() -> dict:
    """The candidates chart's titles and room (the guess panel draws the same chart)."""
    return dict(token_title=t("axis.candidate"), value_label=t("axis.probability"), room=Room(RIGHT_PX))


def candidates(result: TranslationResult, position: int, guessing: bool) -> Candidates:
    tokens, probs, chosen = candidate_lists(result, position)
    figure = None if guessing else candidates_chart(tokens, probs, chosen, **candidate_layout())
    caption = sentences([t("decoding.candidates_help", k=len(result.steps[position].candidates)),
                         chips.word_start_note(tokens)])
    return Candidates(t("decoding.candidates_title"), tokens, probs, chosen, figure, caption)


def beam_view(result: TranslationResult, position: int) -> BeamView:
    """The search's tree up to this step (the whole of it at the last step, where the search may have gone on to
    rule out longer hypotheses): a column per step."""
    title = t("decoding.beam_title", beam=result.beam_size)
    if result.beam_steps is None:
        return BeamView(title, None, t("decoding.beam_greedy"))
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
    record = records[current]
    caption = sentences([t("decoding.beam_help", last=last + 1, step=current + 1, top=2 * result.beam_size,
                           kept=len(record.kept), finished=len(record.finished), dropped=len(record.dropped)),
                         chips.word_start_note(result.output_tokens)])
    return BeamView(title, fig, caption)


def cross_view(result: TranslationResult, s: Settings, which: str) -> tuple[str, go.Figure, str]:
    """(title, figure, caption) of the step's cross-attention: every head's rows, or the chosen head's bar."""
    layers, heads = result.cross.shape[:2]
    keys = attention_view.axis_names("cross", s.languages)[1]
    title = f"**{t('decoding.cross_title', source=direction.language_name(s.languages[0]))}**"
    if s.every_head:
        rows = result.cross[:, :, s.position].reshape(layers * heads, -1)  # (layers·heads, S)
        names = [f"L{layer + 1}·H{head + 1}" for layer in range(layers) for head in range(heads)]
        fig = attention_heatmap(rows, Labels(names, result.source_tokens, t("axis.layer_head"), keys,
                                             t("axis.weight")), room=Room(LEFT_PX, EVERY_HEAD_PX))
    else:
        title += f" · {which}"
        fig = attention_bar(pick(result.cross[:, :, s.position], s.layer, s.head), result.source_tokens,
                            key_title=keys, value_label=t("axis.weight"), max_width=LEFT_PX)
    caption = sentences([t("decoding.every_head_help" if s.every_head else "decoding.cross_help"),
                         chips.word_start_note(result.source_tokens)])
    return title, fig, caption


def step_view(result: TranslationResult, s: Settings) -> StepView:
    """What the page shows at step `s.position` (each chart's layer and head in its heading, not in a figure title
    that would take a chart's worth of lines in a narrow column)."""
    position, n_steps = s.position, len(result.steps)
    chosen = result.steps[position].chosen
    now = (t("dguess.now", step=position + 1, steps=n_steps) if s.hidden else
           t("decoding.now", step=position + 1, steps=n_steps, token=md_escape(chosen.token),
             prob=f"{chosen.prob:.1%}"))
    which = t("decoding.which", layer=attention_view.layer_name(s.layer), head=attention_view.head_name(s.head))
    # At this step the positions after it are not written yet: labelled with the final answer, they would show
    # what the model does not know.
    keys = [*result.target_tokens[: position + 1], *["·"] * (len(result.target_tokens) - position - 1)]
    mask = causal_mask_row(
        pick(result.decoder_self[:, :, position], s.layer, s.head),
        Labels(None, keys, t("axis.step_query"), attention_view.axis_names("decoder_self", s.languages)[1],
               t("axis.weight"), t("decoding.not_yet")),
        position, room=Room(LEFT_PX))
    cross_title, cross, cross_caption = cross_view(result, s, which)
    return StepView(now, list(result.target_tokens[: position + 1]), f"**{t('decoding.mask_title')}** · {which}",
                    mask, t("decoding.mask_help"), cross_title, cross, cross_caption,
                    candidates(result, position, s.guessing), None if s.hidden else beam_view(result, position))


def finished_hypotheses(result: TranslationResult) -> list[tuple[tuple[str, ...], float]]:
    """Every hypothesis the search finished with </s> (tokens with </s>, log-probability), each once, in order."""
    found: dict[tuple[str, ...], float] = {}
    for record in result.beam_steps or []:
        for h in record.finished:
            found.setdefault(h.tokens, h.logprob)
    return list(found.items())


def length_penalty_view(result: TranslationResult, generation: GenerationConfig) -> LengthPenaltyView:
    """The beam's finished hypotheses re-scored with α = 0, 0.6, 1 (and the model's own): which one each α picks."""
    own = generation.length_penalty  # GenerationConfig.penalty's two forms: GNMT's (None) or |Y|^p
    form, own_alpha = ("gnmt", generation.gnmt_alpha) if own is None else ("power", float(own))
    title, formula = t("decoding.lp.title"), t(f"decoding.lp.formula.{form}", alpha=num(own_alpha, 1))
    hypotheses = finished_hypotheses(result)
    if not hypotheses:
        return LengthPenaltyView(title, formula, None, t("decoding.lp.greedy"), "")
    alphas = length_penalty.alphas_with(own_alpha)
    scored = length_penalty.rescore([lp for _, lp in hypotheses], [len(tokens) for tokens, _ in hypotheses], alphas, form)
    texts = ["".join(tokens[:-1]).replace(WORD_START, " ").strip() or "∅" for tokens, _ in hypotheses]
    columns = {t("decoding.lp.col.hypothesis"): texts, t("decoding.lp.col.length"): [int(n) for n in scored.lengths],
               t("decoding.lp.col.logprob"): [f"{lp:.3f}" for lp in scored.logprobs]}
    for j, alpha in enumerate(alphas):
        columns[t("decoding.lp.col.score", alpha=num(alpha, 1))] = [
            f"{s:.3f}" + (" ★" if scored.winners[j] == i else "") for i, s in enumerate(scored.scores[:, j])]
    winners = [t("decoding.lp.winner", alpha=num(a, 1), text=md_escape(texts[w]), n=int(scored.lengths[w]))
               for a, w in zip(alphas, scored.winners)]
    changes = len(set(scored.winners)) > 1
    result_md = (t("decoding.lp.result", n=len(hypotheses), beam=result.beam_size, own=num(own_alpha, 1)) + "\n\n"
                 + "\n".join(f"- {line}" for line in winners) + "\n\n"
                 + t("decoding.lp.changes" if changes else "decoding.lp.same"))
    return LengthPenaltyView(title, formula, columns, result_md, t("decoding.lp.caveat"))
