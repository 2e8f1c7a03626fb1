"""What "Is attention an explanation?" shows, computed from the translation, the training log and the session's
choices without drawing anything (explanation.py draws it): the opening's sentences, and each tab as parts
(app_pages.components.parts) around its controls — attribution beside attention, which heads agree, heads knocked
out, head importance and pruning, word alignment against the gold, the caveats. Plain data out;
tests/test_explanation_view.py reads it without Streamlit."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from app_pages.components import attention_view, table_view
from app_pages.components.parts import (Box, Caption, Chart, Chips, Columns, Expander, Heading, Notice, Parts, Plain,
                                        Table, Tables, Text)
from app_pages.shell import screen
from app_pages.shell.text import listing, md_escape, sentences, t
from app_pages.state import translations
from evaluation.alignment.directions import DirectedPair, PairMaps
from lessons.deck import Slide
from lessons.explanation import (ALIGN_MARGIN, ROLE_THRESHOLD, PruningFigures, agreement, alignment_error_rate,
                                 alignment_rows, argmax_links, best_layer_average, cross_rollout, head_agreement,
                                 head_roles, kept_average, largest_drops, opening_figures, pruning_steps,
                                 residual_ratio, significant, sink_shares, tied_best)
from model import (ATTENTION_KINDS, ATTRIBUTION_GAP_BOUND, ATTRIBUTION_MAX_POINTS, Alignment, Attribution, Heads,
                   Interval, TrainingLog, TranslationResult)
from viz.explanation import gold_links_figure, head_grid_figure, head_roles_figure, pruning_figure
from viz.heatmap import attention_heatmap
from viz.options import Frame, Labels, Room

Languages = tuple[str, str]  # (source, target) language codes of the model


@dataclass(frozen=True)
class Session:
    """What every tab reads beside its own inputs: the model's name (in the commands that measure what a log lacks)
    and its languages, as codes and as the session's language names them."""

    checkpoint: str
    languages: Languages
    source_name: str
    target_name: str


def shares(attribution: np.ndarray) -> np.ndarray:
    """|attribution| as a share of each row's total: attention's 0–1 scale (an all-zero row stays zero)."""
    magnitude = np.abs(attribution)
    return magnitude / np.maximum(magnitude.sum(axis=1, keepdims=True), 1e-12)


def signed(x: float) -> str:
    """A BLEU difference as the log holds it (2 decimals: one would turn 0.02 into 0.0), with a true minus sign."""
    return f"{x:.2f}".replace("-", "−")


def head_names(heads: list[tuple[int, int]]) -> str:
    """(layer, head) pairs, 0-based, named for running text: a layer's heads together ("layer 3 · heads 2, 3")."""
    layers = {}
    for layer, head in heads:
        layers.setdefault(layer, []).append(head + 1)
    return listing(t("explain.head_one", layer=layer + 1, head=found[0]) if len(found) == 1 else
                   t("explain.head_many", layer=layer + 1, heads=listing(found)) for layer, found in layers.items())


def head_label(head: tuple) -> str:
    kind, layer, index = head
    return t("explain.knock.head", kind=attention_view.kind_name(kind), layer=layer + 1, head=index + 1)


def weights_note(log: TrainingLog) -> str:
    """The note that the shipped weights were chosen on all of dev, for after a test-half figure; none when they
    were trained with --test-split (the log's test half is untouched)."""
    return "" if log.test is not None and log.test.untouched else t("explain.weights_touched")


def cross_titles(languages: Languages) -> dict:
    return {**attention_view.axis_titles("cross", languages), "value_label": t("explain.maps.value")}


# ---------------------------------------------------------------- the opening


def pruning_opening(found: PruningFigures) -> str:
    """The opening's pruning sentence: each kind's last removal the test half cannot tell from zero, said as the
    drop it is, the next removal's drop, and every head out; all three kinds, none picked as the headline."""
    lines = []
    for step in found.kinds:
        kept, after, kind = step.kept, step.after, t(f"explain.open.kind.{step.kind}")
        key = "explain.open.prune." + ("all" if after is None else "kept" if kept.removed else "first")
        spans = {} if after is None else dict(next_n=after.removed, next_drop=signed(after.bleu_drop),
                                              next_low=signed(after.low), next_high=signed(after.high))
        if kept.removed:
            spans.update(drop=signed(kept.bleu_drop), low=signed(kept.low), high=signed(kept.high))
        lines.append(t(key, kind=kind, n=kept.removed, total=step.total, none=f"{step.none.bleu:.2f}", **spans))
    return t("explain.open.pruning", pairs=f"{found.pairs:,}", whole=f"{found.whole:.2f}") + "".join(
        f"\n   - {line}" for line in lines)


def opening(log: TrainingLog, words: str) -> Box | None:
    """What the evidence below says, in sentences a teacher can say aloud, each with its number from the log
    (lessons.explanation.opening_figures); `words`: the gold pairs' mean English words. None where the log holds none
    of it."""
    found = opening_figures(log.agreement, log.heads, log.alignment)
    lines = []
    if (agreed := found.agreement) is not None:
        best = agreed.best
        named = t("explain.open.best_one" if len(best) == 1 else "explain.open.best_tied", heads=agreed.heads,
                  named=head_names(best), rho=f"{agreed.rho:.2f}")
        lines.append(t("explain.open.agreement", n=agreed.sentences, mean=f"{agreed.mean:.2f}", best=named,
                       last_map=f"{agreed.last_map:.2f}"))
    if found.pruning is not None:
        lines.append(pruning_opening(found.pruning))
    if (alignment := found.alignment) is not None:
        names = {"chosen": alignment.chosen, "ig": alignment.integrated_gradients, "ibm": alignment.baseline}
        lines.append(t("explain.open.alignment", pairs=alignment.pairs, words=words,
                       longer=t("explain.align.longer"), **{
                           f"{name}_{part}": f"{value:.3f}" for name, values in names.items()
                           for part, value in zip(("aer", "low", "high"), values)}))
    if not lines:
        return None
    return Box((Text("\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1))),), "explain.opening")


@dataclass(frozen=True)
class PageHeading:
    """The page's title, its opening box (None: the log has none of its figures), its introduction and the
    sentence's lines."""

    title: str
    opening: Box | None
    intro: str
    banner: tuple


def banner(result: TranslationResult) -> tuple:
    """The sentence the live sections use, as plain text, and the note on names the model read as others."""
    note = translations.names_note(result)
    return Parts().add(Caption(t("teach.sentence.caption")), Plain(f"{result.source_text}  →  {result.translation}"),
                       Caption(md_escape(note)) if note else None).done()


def heading(log: TrainingLog, words: str, result: TranslationResult) -> PageHeading:
    return PageHeading(t("explain.title"), opening(log, words), t("explain.intro"), banner(result))


# ---------------------------------------------------------------- 1: attribution beside attention


@dataclass(frozen=True)
class MapsView:
    """Tab 1 under its controls: the four maps (two rows of two), the slide Pin to deck adds (the head's map, in
    the explorer), and the captions and the papers under them."""

    maps: tuple
    pin: Slide
    notes: tuple


def gap_caption(gap: float, points: int, alignment: Alignment | None) -> str:
    """What integrated gradients' completeness gap says, with this sentence's gap and, where the log's alignment
    figures hold it, how many gold pairs ended above the bound (the path's point cap)."""
    bound = table_view.percent(ATTRIBUTION_GAP_BOUND)
    cap = t("explain.gap.over", bound=bound) if gap > ATTRIBUTION_GAP_BOUND else ""
    if alignment is not None and (gold := alignment.completeness) is not None:
        cap += t("explain.gap.gold", pairs=gold.pairs, above=gold.above, bound=bound,
                 worst=table_view.percent(gold.worst, 1))
    return t("explain.gap", gap=table_view.percent(gap, 1), points=points, bound=bound, most=ATTRIBUTION_MAX_POINTS,
             cap=cap)


def maps_view(result: TranslationResult, found: Attribution, method: str, layer: int, head: int, log: TrainingLog,
              session: Session) -> MapsView:
    """Attribution (`found`, by `method`), one head, the layer average and rollout: four maps on the same axes, and
    how far each agrees with attribution."""
    scores = found.scores
    queries, keys = result.axis_tokens("cross")
    maps = [
        (t("explain.maps.attribution", method=t(f"explain.method.{method}")), shares(scores)),
        (t("explain.maps.head", layer=layer + 1, head=head + 1), result.cross[layer, head]),
        (t("explain.maps.layer", layer=layer + 1), result.cross[layer].mean(axis=0)),
        (t("explain.maps.rollout", layer=layer + 1), cross_rollout(result.cross, result.encoder_self, layer)),
    ]
    cells = []
    for i, (title, weights) in enumerate(maps):
        # Chinese source characters across: a colour bar above or under the map leaves the cells room to stand
        # them upright (English words across turn sideways either way, and keep the bar at the side).
        figure = attention_heatmap(weights, Labels(queries, keys, **cross_titles(session.languages)),
                                   room=Room(screen.HALF_COLUMN_PX, 400), compact_scale=session.languages[0] == "zh")
        cells.append((Text(f"**{md_escape(title)}**"), Chart(figure, f"explain.map.{i}")))
    rows = (Columns(tuple(cells[:2])), Columns(tuple(cells[2:])))  # narrower maps would drop the query labels
    head_rho, head_top1 = agreement(result.cross[layer, head], scores)
    layer_rho, layer_top1 = agreement(result.cross[layer].mean(axis=0), scores)
    roll_rho, roll_top1 = agreement(maps[3][1], scores)
    notes = Parts().add(
        Caption(t("explain.maps.caption", head_rho=f"{head_rho:.2f}", head_top1=table_view.percent(head_top1),
                  layer_rho=f"{layer_rho:.2f}", layer_top1=table_view.percent(layer_top1),
                  roll_rho=f"{roll_rho:.2f}", roll_top1=table_view.percent(roll_top1))),
        Caption(gap_caption(found.gap, found.points, log.alignment)) if found.gap is not None else None,
        Expander(t("explain.papers.title"), (Text(t("explain.papers")),)))  # below the maps: the evidence first
    pin = attention_view.pinned_view("cross", layer, head, result.source_text, session.checkpoint)
    return MapsView(rows, pin, notes.done())


# ---------------------------------------------------------------- 2: which heads agree


def rho_grid(rho, title: str, key: str) -> Chart:
    figure = head_grid_figure(rho, Labels(None, None, t("explain.heads.rows"), t("explain.heads.cols"),
                                          t("explain.heads.value")), title=title, bound=1.0,
                              room=Room(screen.HALF_COLUMN_PX, 360))
    return Chart(figure, key)


def heads_view(result: TranslationResult, scores: np.ndarray, method: str, log: TrainingLog,
               session: Session) -> tuple:
    """Every cross head's agreement with attribution: on this sentence (`scores`, by `method`), and on the dev set
    from the training log."""
    sentence = rho_grid(head_agreement(result.cross, scores)[0],
                        t("explain.heads.sentence", method=t(f"explain.method.{method}")), "explain.rho.sentence")
    found = log.agreement
    if not found:
        return (Heading(t("explain.heads.header")),
                Columns(((sentence,), (Notice(t("explain.heads.dev_missing", checkpoint=session.checkpoint)),))))
    ig = found.integrated_gradients
    dev = rho_grid(ig.rho, t("explain.heads.dev", n=found.sentences), "explain.rho.dev")
    rho, top1 = np.array(ig.rho), np.array(ig.top1)
    best = tied_best(rho)
    named = t("explain.heads.best_one" if len(best) == 1 else "explain.heads.best_tied", named=head_names(best),
              rho=f"{rho[best[0]]:.2f}", top1=listing(table_view.percent(top1[b]) for b in best))
    summary = t("explain.heads.dev_summary", n=found.sentences, best=named, last=len(rho),
                first_heads=f"{rho[0].mean():.2f}", last_heads=f"{rho[-1].mean():.2f}",
                first_map=f"{ig.layer_mean[0][0]:.2f}", first_map_top1=table_view.percent(ig.layer_mean[0][1]),
                last_map=f"{ig.layer_mean[-1][0]:.2f}", last_map_top1=table_view.percent(ig.layer_mean[-1][1]),
                roll_rho=f"{ig.rollout[0]:.2f}", roll_top1=table_view.percent(ig.rollout[1]))
    return Heading(t("explain.heads.header")), Columns(((sentence,), (dev,))), Text(summary)


# ---------------------------------------------------------------- 3: heads knocked out


@dataclass(frozen=True)
class KnockView:
    """Tab 3: its header, the heads one may knock out (every kind's, in order) with their names, the labels of its
    button and picker, and what the re-translation without the chosen heads shows, under them."""

    header: str
    options: tuple[tuple[str, int, int], ...]
    names: dict
    all_cross: str
    pick: str
    placeholder: str
    after: tuple


def head_options(result: TranslationResult) -> tuple[tuple[str, int, int], ...]:
    counts = {kind: result.attention(kind).shape[:2] for kind in ATTENTION_KINDS}
    return tuple((kind, layer, head) for kind, (layers, heads) in counts.items()
                 for layer in range(layers) for head in range(heads))


def ablated_maps(result: TranslationResult, knocked: TranslationResult, chosen: list, languages: Languages) -> Columns:
    """The last layer's cross-attention of the whole model (all heads averaged) and of the ablated run (only the
    heads still in use averaged: a knocked-out head's weights are computed, then its output is zeroed), side by
    side; none for the ablated run when every cross head of that layer is out."""
    layer = knocked.cross.shape[0] - 1
    out = [h for kind, l, h in chosen if kind == "cross" and l == layer]
    kept, heads = knocked.cross.shape[1] - len(set(out)), knocked.cross.shape[1]
    maps = [(t("explain.knock.map_plain_title", layer=layer + 1), result, result.cross[layer].mean(axis=0)),
            (t("explain.knock.map_title" if kept else "explain.knock.map_title_none", layer=layer + 1, kept=kept,
               heads=heads), knocked, kept_average(knocked.cross[layer], out))]
    columns = []
    for key, (title, run, weights) in zip(("explain.knock.map_plain", "explain.knock.map"), maps):
        if weights is None:
            columns.append((Text(f"**{md_escape(title)}**"), Notice(t("explain.knock.map_none", layer=layer + 1))))
            continue
        figure = attention_heatmap(weights, Labels(*run.axis_tokens("cross"), **cross_titles(languages)),
                                   room=Room(screen.HALF_COLUMN_PX, 400))
        columns.append((Text(f"**{md_escape(title)}**"), Chart(figure, key)))
    return Columns(tuple(columns))


def knock_view(result: TranslationResult, chosen: list, knocked: TranslationResult | None,
               languages: Languages) -> KnockView:
    """Tab 3 with the `chosen` heads knocked out of `result`'s translation (`knocked`: the re-translation without
    them; None where none is chosen): what changed, marked, and the maps of both runs."""
    options = head_options(result)
    after = Parts()
    if not chosen or knocked is None:
        after.add(Caption(t("explain.knock.none")))
    else:
        after.add(Text(t("explain.knock.result", plain=md_escape(result.translation), n=len(chosen),
                         knocked=md_escape(knocked.translation) or "∅")))
        if knocked.output_tokens == result.output_tokens:
            after.add(Caption(t("explain.knock.same")))
        else:
            changed = [i >= len(result.output_tokens) or token != result.output_tokens[i]
                       for i, token in enumerate(knocked.output_tokens)]
            after.add(Chips(tuple(("✱ " if c else "") + token for c, token in zip(changed, knocked.output_tokens)),
                            "explain.knock.chips"),
                      Caption(t("explain.knock.changed", changed=sum(changed), total=len(changed))),
                      ablated_maps(result, knocked, chosen, languages))
    return KnockView(t("explain.knock.header"), options, {o: head_label(o) for o in options},
                     t("explain.knock.all_cross"), t("explain.knock.pick"), t("explain.knock.placeholder"),
                     after.done())


# ---------------------------------------------------------------- 4: head importance and pruning


def largest_text(found: Heads, checkpoint: str) -> str:
    """The largest single-head drop on the selection half (every head tied for it), what picking the largest of many
    implies, and the same heads' drops on the test half where the log has them."""
    largest, total = largest_drops(found.single), len(found.single)
    named = listing(head_label((s.kind, s.layer, s.head)) for s in largest)
    text = t("explain.importance.largest_one" if len(largest) == 1 else "explain.importance.largest_tied",
             drop=f"{largest[0].bleu_drop:.2f}", named=named, total=total,
             intervals=listing(f"{s.low:.2f} {t('explain.to')} {s.high:.2f}" for s in largest))
    if found.largest_on_test is None:
        return sentences([text, t("explain.importance.largest_untested", checkpoint=checkpoint)])
    drops = listing(t("explain.importance.largest_drop", drop=f"{s.bleu_drop:.2f}", low=f"{s.low:.2f}",
                      high=f"{s.high:.2f}", named=head_label((s.kind, s.layer, s.head)))
                    for s in found.largest_on_test)
    return sentences([text, t("explain.importance.largest_test", pairs=f"{found.test_pairs:,}", drops=drops)])


def pruning_lines(found: Heads) -> list[str]:
    """Per kind: the heads that went before the first significant drop, that point's own drop and interval (a drop
    the test half cannot tell from zero, not one shown to be zero), the next removal's, and all heads out."""
    lines = []
    for step in pruning_steps(found.pruning):
        kept, after, kind = step.kept, step.after, attention_view.kind_name(step.kind)
        if kept.removed:
            text = t("explain.importance.kind", kind=kind, n=kept.removed, total=step.total, kept=f"{kept.bleu:.2f}",
                     drop=f"{kept.bleu_drop:.2f}", low=f"{kept.low:.2f}", high=f"{kept.high:.2f}",
                     none=f"{step.none.bleu:.2f}")
        else:
            text = t("explain.importance.kind_first", kind=kind, total=step.total, none=f"{step.none.bleu:.2f}")
        if after is not None:
            text = sentences([text, t("explain.importance.next", n=after.removed, drop=f"{after.bleu_drop:.2f}",
                                      low=f"{after.low:.2f}", high=f"{after.high:.2f}")])
        lines.append("- " + text)
    return lines


def pruning_chart(pruning: Mapping[str, tuple]):
    """The pruning curves (kind → its PruningPoints), each point's drop with its paired interval as an error bar
    (none at 0 removed)."""
    curves = list(pruning.values())
    nan = lambda x: np.nan if x is None else x  # noqa: E731
    intervals = [[[nan(p.bleu_drop), nan(p.low), nan(p.high)] for p in c] for c in curves]
    return pruning_figure([p.removed for p in curves[0]], [[p.bleu for p in c] for c in curves],
                          [attention_view.kind_name(k) for k in pruning],
                          frame=Frame(t("explain.pruning.title"), t("explain.pruning.removed"),
                                      t("explain.pruning.bleu")),
                          drop_title=t("explain.pruning.drop"), intervals=intervals, width=screen.HALF_COLUMN_PX)


def drop_grid(drops: list, kind: str):
    """One kind's heads (HeadDrops), each cell its BLEU drop alone, its paired interval in the hover."""
    shape = (max(s.layer for s in drops) + 1, max(s.head for s in drops) + 1)
    grid, spans = np.zeros(shape), np.zeros((*shape, 2))
    for s in drops:
        grid[s.layer, s.head] = s.bleu_drop
        spans[s.layer, s.head] = s.low, s.high
    return head_grid_figure(grid, Labels(None, None, t("explain.heads.rows"), t("explain.heads.cols"), "BLEU"),
                            title=t("explain.importance.drop", kind=attention_view.kind_name(kind)),
                            bound=max(1.0, float(np.abs(grid).max())), intervals=spans,
                            interval_title=t("explain.importance.interval"), room=Room(screen.HALF_COLUMN_PX, 360))


@dataclass(frozen=True)
class ImportanceView:
    """Tab 4: the parts above its kind picker (None where the log has no head importance: then no picker), and
    the charts under it."""

    before: tuple
    picker: bool
    after: tuple


def importance_view(log: TrainingLog, kind: str, checkpoint: str) -> ImportanceView:
    """Each head's BLEU drop alone on the dev set's selection half, and the pruning curves in that order on its test
    half, each drop with its paired bootstrap interval (evaluation/heads.py); the drop grid of `kind`'s heads."""
    header = Heading(t("explain.importance.header"))
    found = log.heads
    if found is None:
        return ImportanceView((header, Notice(t("explain.importance.missing", checkpoint=checkpoint))), False, ())
    single = found.single
    half_widths = [(s.high - s.low) / 2 for s in single]
    note = weights_note(log)
    before = Parts().add(
        header,
        Text(t("explain.importance.intro", pairs=f"{found.pairs:,}", bleu=f"{found.bleu:.2f}",
               resamples=f"{found.resamples:,}", narrow=f"{min(half_widths):.2f}", wide=f"{max(half_widths):.2f}",
               significant=len(significant(single)), total=len(single), expected=f"{0.05 * len(single):.1f}",
               largest=largest_text(found, checkpoint))),
        Text(t("explain.importance.pruning", held_out=f"{found.test_pairs:,}",
               held_out_bleu=f"{found.test_bleu:.2f}")),
        Text("\n".join(pruning_lines(found))),
        Caption(note) if note else None)
    charts = Columns(((Chart(pruning_chart(found.pruning), "explain.pruning"),),
                      (Chart(drop_grid([s for s in single if s.kind == kind], kind), "explain.drops"),)))
    return ImportanceView(before.done(), True, (charts,))


# ---------------------------------------------------------------- 5: word alignment


def picked_heads(found: Alignment) -> str:
    """The heads the halves of the gold chose for each other, each named once (both halves may choose the same)."""
    names = [t("explain.align.pick_" + p.reading, layer=p.layer + 1, head=p.head + 1) for p in found.chosen.picked]
    return " / ".join(dict.fromkeys(names))


def aer_table(found: Alignment) -> tuple:
    """The stored AER of the chosen head, attribution and the baseline with their intervals, then the best heads as
    picked on all the gold and the layer averages, as a table."""
    lines = [f"| {t('explain.align.col.aligner')} | AER | {t('explain.align.col.interval')} |", "|---|---:|---:|"]
    method = (found.attribution.method if found.attribution is not None else "") or "integrated_gradients"
    for row in alignment_rows(found):
        label = t(f"explain.align.row.{row.kind}", layer=(row.layer or 0) + 1, head=(row.head or 0) + 1,
                  method=t(f"explain.method.{method}"), picked=picked_heads(found))
        interval = f"{row.low:.3f}–{row.high:.3f}" if row.low is not None else "—"
        lines.append(f"| {md_escape(label)} | {row.aer:.3f} | {interval} |")
    return Text("\n".join(lines)), Caption(t("explain.align.table_caption", resamples=f"{found.resamples:,}"))


def compared(difference: Interval, better: str, worse: str, same: str) -> str:
    """Which of two aligners the paired interval of AER(first) − AER(second) favours: `better` when the first's
    AER is lower beyond noise, `worse` when higher, `same` when the interval holds 0."""
    if difference.high < 0:
        return better
    return worse if difference.low > 0 else same


def layer_average_text(found: Alignment) -> str:
    """How the best layer's head average compares with the chosen head (no head picked, the layer on the same gold)."""
    best = best_layer_average(found)
    shifted = t("explain.align.shifted") if best.reading == "shifted" else ""
    better = best.aer < found.chosen.aer
    return t("explain.align.layer_better" if better else "explain.align.layer_worse", layer=best.layer + 1,
             shifted=shifted, aer=f"{best.aer:.3f}")


def unit_names(languages: Languages) -> dict[str, str]:
    """What the model reads and writes in the gold's units, for the tab's wording: {source_unit}, {source_units},
    {target_unit}, {target_units} ("English word(s)", "Chinese character(s)" in the session's language)."""
    source, target = languages
    return {"source_unit": t(f"explain.align.unit.{source}"), "source_units": t(f"explain.align.units.{source}"),
            "target_unit": t(f"explain.align.unit.{target}"), "target_units": t(f"explain.align.units.{target}")}


def stored_intro(found: Alignment, words: str, languages: Languages) -> str:
    """The tab's first paragraph from a log's alignment figures (python -m evaluation.alignment)."""
    chosen, ig, baseline = found.chosen, found.integrated_gradients, found.baseline
    span = lambda x: {"aer": f"{x.aer:.3f}", "low": f"{x.low:.3f}", "high": f"{x.high:.3f}"}  # noqa: E731
    differences = found.differences
    verdict = [compared(differences["chosen - integrated_gradients"], t("explain.align.head_beats_ig"),
                        t("explain.align.ig_beats_head"), t("explain.align.head_ties_ig")),
               compared(differences["integrated_gradients - baseline"], t("explain.align.ig_beats_ibm"),
                        t("explain.align.ibm_beats_ig"), t("explain.align.ig_ties_ibm"))]
    return t("explain.align.intro", pairs=found.pairs, picked=picked_heads(found), words=words,
             how=t(f"explain.align.how.{languages[0]}"), **unit_names(languages),
             **{f"chosen_{k}": v for k, v in span(chosen).items()}, **{f"ig_{k}": v for k, v in span(ig).items()},
             **{f"ibm_{k}": v for k, v in span(baseline).items()}, verdict=sentences(verdict),
             layers=layer_average_text(found), longer=t("explain.align.longer"))


def live_intro(found: Alignment, words: str, session: Session) -> str:
    """The tab's first paragraph for figures measured now: what was measured, the chosen head, and what is not."""
    chosen = found.chosen
    return t("explain.align.intro_live", pairs=found.pairs, gold=found.gold_pairs, picked=picked_heads(found),
             how=t(f"explain.align.how.{session.languages[0]}"), source=session.source_name,
             target=session.target_name, aer=f"{chosen.aer:.3f}", low=f"{chosen.low:.3f}",
             high=f"{chosen.high:.3f}", checkpoint=session.checkpoint, words=words,
             layers=layer_average_text(found), longer=t("explain.align.longer"))


@dataclass(frozen=True)
class AlignView:
    """Tab 5's figures: the parts above its gold sentence (header, introduction, AER table; or what is missing),
    whether the figures were measured now (`live`), and the head the gold sentence's map opens on (the best head
    on the gold; None where there are no figures)."""

    before: tuple
    live: bool
    best: tuple[int, int] | None


def align_view(log: TrainingLog, found: Alignment | None, live: bool, words: str, session: Session) -> AlignView:
    """The AER figures (`found`: the log's, or measured now where `live`; None where neither could be had)."""
    header = Heading(t("explain.align.header"))
    if found is None or not found.pairs:
        return AlignView((header, Notice(t("explain.align.missing" if found is None else "explain.align.none_fit",
                                           checkpoint=session.checkpoint))), live, None)
    rows = alignment_rows(found)
    best = min(rows, key=lambda r: r.aer if r.kind == "head_plain" else 2.0)
    intro = (live_intro(found, words, session) if live
             else sentences([stored_intro(found, words, session.languages), weights_note(log)]))
    return AlignView((header, Text(intro), *aer_table(found)), live, (best.layer, best.head))


def gold_view(pair: DirectedPair, maps: PairMaps | None, layer: int, head: int, source: str, scored: int,
              languages: Languages) -> tuple:
    """One gold sentence (`pair`, turned to the model's direction; `source`: "dev" or "example", where it comes
    from): `layer` and `head`'s map over its units (target units as rows, source units as columns) with the gold
    links drawn on it; `scored`: how many gold pairs the figures above were measured on."""
    if maps is None:
        return (Notice(t("explain.align.not_characters")),)
    weights = maps.plain[layer, head]  # (target units, source units)
    units = unit_names(languages)
    figure = gold_links_figure(weights, Labels(pair.target_units, pair.source_units, t("explain.align.rows", **units),
                                               t("explain.align.cols", **units), t("explain.maps.value")),
                               pair.sure, pair.possible, title=t("explain.maps.head", layer=layer + 1, head=head + 1),
                               room=Room(screen.HALF_COLUMN_PX * 2, 520))
    links = argmax_links(weights)
    caption = sentences([t(f"explain.align.source_{source}", line=pair.gold.line, pairs=scored),
                         t("explain.align.caption", sure=len(pair.sure), possible=len(pair.possible),
                           hits=len(links & (pair.sure | pair.possible)), rows=len(links),
                           aer=f"{alignment_error_rate(links, pair.sure, pair.possible):.2f}",
                           units=t(f"explain.align.map_units.{languages[0]}"))])
    return Chart(figure, "explain.align.map"), Caption(caption)


@dataclass(frozen=True)
class RolesView:
    """The heads' roles under the gold sentence: the parts above its kind picker, whether the picker is drawn (the
    log has roles), and the grid with its caption under it."""

    before: tuple
    picker: bool
    after: tuple


def roles_view(log: TrainingLog, kind: str, aligned: Alignment | None, session: Session) -> RolesView:
    """Each head's role on the gold pairs (previous / next token, sink, rare word, alignment) and the statistic that
    earned it, for `kind`; `aligned`: the log's alignment figures of the same run (None: none)."""
    found = log.head_roles
    header = Heading(t("explain.roles.header"), 3)
    if found is None:  # measured by python -m evaluation.alignment, never live
        return RolesView((header, Notice(t("explain.roles.missing", checkpoint=session.checkpoint))), False, ())
    aer = np.minimum(aligned.heads_plain, aligned.heads_shifted) if kind == "cross" and aligned is not None else None
    labels, values = head_roles(found.of(kind), aer)
    names = [[t(f"explain.roles.{label}") for label in row] for row in labels]
    figure = head_roles_figure(values.astype(float), names, title=t("explain.roles.title",
                                                                     kind=attention_view.kind_name(kind)),
                               row_title=t("explain.heads.rows"), col_title=t("explain.heads.cols"),
                               value_label=t("explain.roles.value"), max_width=screen.HALF_COLUMN_PX * 2)
    counts = {role: int((labels == role).sum()) for role in ("previous", "next", "sink", "rare", "alignment", "mixed")}
    caption = t("explain.roles.caption", pairs=found.pairs, threshold=table_view.percent(ROLE_THRESHOLD),
                margin=f"{ALIGN_MARGIN:.2f}", source=session.source_name, **counts)
    return RolesView((header,), True, (Chart(figure, "explain.roles.grid"), Caption(caption)))


# ---------------------------------------------------------------- 6: caveats


def sink_tables(result: TranslationResult) -> tuple[list, list[tuple[str, float, float, str, int]]]:
    """One table per attention kind: each layer's share of attention on the sink tokens, and uniform attention's.
    Returns the tables and every (kind name, share, uniform share, token, layer) for the text under them."""
    tables, found = [], []
    for kind in ATTENTION_KINDS:
        queries, keys = result.axis_tokens(kind)
        mask = np.tril(np.ones((len(queries), len(keys)))) if kind == "decoder_self" else None  # the causal mask
        sinks, on_sinks, uniform = sink_shares(result.attention(kind), keys, mask=mask)
        if not sinks:
            continue
        rows = [t("explain.caveat.layer", n=layer + 1) for layer in range(len(on_sinks))] + [
            t("explain.caveat.uniform")]
        cells = [[f"{x:.0%}" for x in row] for row in np.vstack([on_sinks, uniform])]
        tables.append((attention_view.kind_name(kind), pd.DataFrame(cells, index=rows, columns=sinks)))
        found += [(attention_view.kind_name(kind), on_sinks[layer, j], uniform[j], sinks[j], layer + 1)
                  for layer in range(len(on_sinks)) for j in range(len(sinks))]
    return tables, found


def caveat_view(result: TranslationResult) -> tuple:
    """Attention is not explanation: mass on sink tokens, and the residual stream that goes round attention."""
    tables, found = sink_tables(result)
    parts = Parts().add(Heading(t("explain.caveat.header")), Text(t("explain.caveat.sinks")), Tables(tuple(tables)))
    if found:
        kind, share, uniform, token, layer = max(found, key=lambda f: f[1] - f[2])
        parts.add(Text(t("explain.caveat.most", kind=kind, layer=layer, share=f"{share:.0%}", token=md_escape(token),
                         uniform=f"{uniform:.0%}")))
    enc, dec = result.encoder_sublayers, result.decoder_sublayers
    ratios = {"encoder_self": residual_ratio(enc["input"], enc["self_attn_out"]),
              "decoder_self": residual_ratio(dec["input"], dec["self_attn_out"]),
              "cross": residual_ratio(dec["norm1"], dec["cross_attn_out"])}  # cross-attention's residual is norm1
    layers = max(len(r) for r in ratios.values())
    low = min(((k, i, x) for k, r in ratios.items() for i, x in enumerate(r)), key=lambda f: f[2])
    return parts.add(
        Text(t("explain.caveat.residual")),
        Table(pd.DataFrame({attention_view.kind_name(k): [f"{x:.2f}" for x in r] for k, r in ratios.items()},
                           index=[t("explain.caveat.layer", n=i + 1) for i in range(layers)])),
        Text(t("explain.caveat.residual_result", kind=attention_view.kind_name(low[0]), layer=low[1] + 1,
               ratio=f"{low[2]:.2f}"))).done()
