"""Is attention an explanation? Attribution beside attention on the session's sentence, heads knocked out and the
sentence re-translated, the dev set's evidence (agreement per head, importance, pruning) from the training log, and
attention scored against hand-made gold word alignments (AER) with one gold sentence's links drawn on a head's map:
each a tab, the maps first (teaching_shared.sections: only the open tab runs and is drawn)."""

from collections.abc import Mapping

import numpy as np
import pandas as pd
import streamlit as st

from app_pages.components import attention_view, charts, chips, table_view
from app_pages.state import direction, models, result_cache, translations, widget_state
from app_pages.components.teaching_shared import sections, sentence_banner, show_tables
from app_pages.state.state_keys import CHECKPOINT
from app_pages.shell.text import listing, md_escape, sentences, t
from app_pages.shell import screen
from evaluation.alignment.directions import attention_scores, directed, pair_maps
from evaluation.alignment.gold import GoldError, GoldPair, english_words, load_examples, load_gold
from lessons.explanation import (ALIGN_MARGIN, ROLE_THRESHOLD, agreement, alignment_error_rate, alignment_rows,
                                 argmax_links, best_layer_average, cross_rollout, head_agreement, head_roles,
                                 kept_average, largest_drops, opening_figures, pruning_steps, residual_ratio,
                                 significant, sink_shares, tied_best)
from model import (ATTENTION_KINDS, ATTRIBUTION_GAP_BOUND, ATTRIBUTION_MAX_POINTS, ATTRIBUTION_METHODS,
                   TrainingLog, TranslationResult)
from viz.explanation import gold_links_figure, head_grid_figure, head_roles_figure, pruning_figure
from viz.heatmap import attention_heatmap
from viz.options import Frame, Labels, Room

METHOD, LAYER, HEAD, KNOCK = "explain.method", "explain.layer", "explain.head", "explain.knock"
GOLD_PAIR, GOLD_LAYER, GOLD_HEAD = "explain.align.pair", "explain.align.layer", "explain.align.head"


def shares(attribution: np.ndarray) -> np.ndarray:
    """|attribution| as a share of each row's total: attention's 0–1 scale (an all-zero row stays zero)."""
    magnitude = np.abs(attribution)
    return magnitude / np.maximum(magnitude.sum(axis=1, keepdims=True), 1e-12)


def side_by_side(result: TranslationResult, scores: np.ndarray, method: str, layer: int, head: int) -> None:
    """Attribution, one head, the layer average and rollout: four maps on the same axes."""
    queries, keys = result.axis_tokens("cross")
    maps = [
        (t("explain.maps.attribution", method=t(f"explain.method.{method}")), shares(scores)),
        (t("explain.maps.head", layer=layer + 1, head=head + 1), result.cross[layer, head]),
        (t("explain.maps.layer", layer=layer + 1), result.cross[layer].mean(axis=0)),
        (t("explain.maps.rollout", layer=layer + 1), cross_rollout(result.cross, result.encoder_self, layer)),
    ]
    columns = [*st.columns(2), *st.columns(2)]  # two rows of two: narrower maps would drop the query labels
    for i, (column, (title, weights)) in enumerate(zip(columns, maps)):
        with column:
            st.markdown(f"**{md_escape(title)}**")
            titles = {**attention_view.axis_titles("cross", direction.current()),
                      "value_label": t("explain.maps.value")}
            # Chinese source characters across: a colour bar above or under the map leaves the cells room to stand
            # them upright (English words across turn sideways either way, and keep the bar at the side).
            figure = attention_heatmap(weights, Labels(queries, keys, **titles), room=Room(screen.HALF_COLUMN_PX, 400),
                                       compact_scale=direction.current()[0] == "zh")
            charts.chart(figure, key=f"explain.map.{i}")
    head_rho, head_top1 = agreement(result.cross[layer, head], scores)
    layer_rho, layer_top1 = agreement(result.cross[layer].mean(axis=0), scores)
    roll_rho, roll_top1 = agreement(maps[3][1], scores)
    st.caption(t("explain.maps.caption", head_rho=f"{head_rho:.2f}", head_top1=table_view.percent(head_top1),
                 layer_rho=f"{layer_rho:.2f}", layer_top1=table_view.percent(layer_top1), roll_rho=f"{roll_rho:.2f}",
                 roll_top1=table_view.percent(roll_top1)))


def gap_caption(gap: float, points: int, alignment: Mapping) -> str:
    """What integrated gradients' completeness gap says, with this sentence's gap and, where the log's alignment
    figures hold it, how many gold pairs ended above the bound (the path's point cap)."""
    bound = table_view.percent(ATTRIBUTION_GAP_BOUND)
    cap = t("explain.gap.over", bound=bound) if gap > ATTRIBUTION_GAP_BOUND else ""
    if gold := alignment.get("completeness"):
        cap += t("explain.gap.gold", pairs=gold["pairs"], above=gold["above"], bound=bound,
                 worst=table_view.percent(gold["worst"], 1))
    return t("explain.gap", gap=table_view.percent(gap, 1), points=points, bound=bound, most=ATTRIBUTION_MAX_POINTS,
             cap=cap)


def attention_and_attribution(result: TranslationResult, log: TrainingLog) -> None:
    """The controls and the four maps, then what the research says about reading them."""
    layers, heads = result.cross.shape[:2]
    with st.container(horizontal=True):
        method = st.segmented_control(t("explain.method"), ATTRIBUTION_METHODS, key=METHOD, required=True,
                                      default=widget_state.kept(METHOD, ATTRIBUTION_METHODS, ATTRIBUTION_METHODS[-1]),
                                      format_func=lambda m: t(f"explain.method.{m}"), persist_state="session")
        layer = attention_view.index_picker(LAYER, t("explorer.layer"), list(range(layers)))
        head = attention_view.index_picker(HEAD, t("explorer.head"), list(range(heads)))
    found = translations.attribute(*translations.settings_for(result.source_text), method)
    side_by_side(result, found.scores, method, layer, head)
    if found.gap is not None:
        st.caption(gap_caption(found.gap, found.points, log.alignment or {}))
    with st.expander(t("explain.papers.title")):  # below the maps: the page's first screen is the evidence itself
        st.markdown(t("explain.papers"))


def rho_grid(rho, title: str, key: str) -> None:
    figure = head_grid_figure(rho, Labels(None, None, t("explain.heads.rows"), t("explain.heads.cols"),
                                          t("explain.heads.value")), title=title, bound=1.0,
                              room=Room(screen.HALF_COLUMN_PX, 360))
    charts.chart(figure, key=key)


def which_heads_agree(result: TranslationResult, log: TrainingLog) -> None:
    """Every cross head's agreement with attribution: on this sentence (the method chosen above the maps, kept while
    their tab is closed), and on the dev set from the training log."""
    st.header(t("explain.heads.header"))
    method = widget_state.kept(METHOD, ATTRIBUTION_METHODS, ATTRIBUTION_METHODS[-1])
    scores = translations.attribute(*translations.settings_for(result.source_text), method).scores
    left, right = st.columns(2)
    with left:
        rho_grid(head_agreement(result.cross, scores)[0],
                 t("explain.heads.sentence", method=t(f"explain.method.{method}")), "explain.rho.sentence")
    found = log.agreement
    with right:
        if not found:
            st.info(t("explain.heads.dev_missing", checkpoint=st.session_state[CHECKPOINT]))
            return
        ig = found["integrated_gradients"]
        rho_grid(ig["rho"], t("explain.heads.dev", n=found["sentences"]), "explain.rho.dev")
    rho, top1 = np.array(ig["rho"]), np.array(ig["top1"])
    best = tied_best(rho)
    named = t("explain.heads.best_one" if len(best) == 1 else "explain.heads.best_tied", named=head_names(best),
              rho=f"{rho[best[0]]:.2f}", top1=listing(table_view.percent(top1[b]) for b in best))
    last = len(rho)
    st.markdown(t("explain.heads.dev_summary", n=found["sentences"], best=named, last=last,
                  first_heads=f"{rho[0].mean():.2f}", last_heads=f"{rho[-1].mean():.2f}",
                  first_map=f"{ig['layer_mean'][0][0]:.2f}", first_map_top1=table_view.percent(ig["layer_mean"][0][1]),
                  last_map=f"{ig['layer_mean'][-1][0]:.2f}", last_map_top1=table_view.percent(ig["layer_mean"][-1][1]),
                  roll_rho=f"{ig['rollout'][0]:.2f}", roll_top1=table_view.percent(ig["rollout"][1])))


def head_names(heads: list[tuple[int, int]]) -> str:
    """(layer, head) pairs, 0-based, named for running text: a layer's heads together ("layer 3 · heads 2, 3")."""
    layers = {}
    for layer, head in heads:
        layers.setdefault(layer, []).append(head + 1)
    return listing(t("explain.head_one", layer=layer + 1, head=found[0]) if len(found) == 1 else
                   t("explain.head_many", layer=layer + 1, heads=listing(found)) for layer, found in layers.items())


def weights_note(log: TrainingLog) -> str:
    """The note that the shipped weights were chosen on all of dev, for after a test-half figure; none when they
    were trained with --test-split (the log's test half is untouched)."""
    return "" if log.test is not None and log.test.untouched else t("explain.weights_touched")


def head_label(head: tuple) -> str:
    kind, layer, index = head
    return t("explain.knock.head", kind=attention_view.kind_name(kind), layer=layer + 1, head=index + 1)


def knock_out(result: TranslationResult) -> None:
    """Pick heads, re-translate without them, mark what changed."""
    st.header(t("explain.knock.header"))
    counts = {kind: result.attention(kind).shape[:2] for kind in ATTENTION_KINDS}
    options = [(kind, layer, head) for kind, (layers, heads) in counts.items()
               for layer in range(layers) for head in range(heads)]
    if st.button(t("explain.knock.all_cross"), key="explain.knock.cross"):
        st.session_state[KNOCK] = [o for o in options if o[0] == "cross"]
    st.session_state[KNOCK] = [h for h in st.session_state.get(KNOCK, []) if h in options]  # another model's heads
    chosen = st.multiselect(t("explain.knock.pick"), options, key=KNOCK, format_func=head_label,
                            placeholder=t("explain.knock.placeholder"), persist_state="session")
    if not chosen:
        st.caption(t("explain.knock.none"))
        return
    knocked = translations.translation_of(result.source_text, knock_out=tuple(chosen))
    st.markdown(t("explain.knock.result", plain=md_escape(result.translation), n=len(chosen),
                  knocked=md_escape(knocked.translation) or "∅"))
    if knocked.output_tokens == result.output_tokens:
        st.caption(t("explain.knock.same"))
        return
    changed = [i >= len(result.output_tokens) or token != result.output_tokens[i]
               for i, token in enumerate(knocked.output_tokens)]
    chips.token_chips([("✱ " if c else "") + token for c, token in zip(changed, knocked.output_tokens)],
                        key="explain.knock.chips")
    st.caption(t("explain.knock.changed", changed=sum(changed), total=len(changed)))
    ablated_maps(result, knocked, chosen)


def ablated_maps(result: TranslationResult, knocked: TranslationResult, chosen: list) -> None:
    """The last layer's cross-attention of the whole model (all heads averaged) and of the ablated run (only the
    heads still in use averaged: a knocked-out head's weights are computed, then its output is zeroed), side by
    side; none for the ablated run when every cross head of that layer is out."""
    layer = knocked.cross.shape[0] - 1
    out = [h for kind, l, h in chosen if kind == "cross" and l == layer]
    kept, heads = knocked.cross.shape[1] - len(set(out)), knocked.cross.shape[1]
    maps = [(t("explain.knock.map_plain_title", layer=layer + 1), result, result.cross[layer].mean(axis=0)),
            (t("explain.knock.map_title" if kept else "explain.knock.map_title_none", layer=layer + 1, kept=kept,
               heads=heads), knocked, kept_average(knocked.cross[layer], out))]
    for i, (column, (title, run, weights)) in enumerate(zip(st.columns(2), maps)):
        with column:
            st.markdown(f"**{md_escape(title)}**")
            if weights is None:
                st.info(t("explain.knock.map_none", layer=layer + 1))
                continue
            titles = {**attention_view.axis_titles("cross", direction.current()),
                      "value_label": t("explain.maps.value")}
            figure = attention_heatmap(weights, Labels(*run.axis_tokens("cross"), **titles),
                                       room=Room(screen.HALF_COLUMN_PX, 400))
            charts.chart(figure, key=("explain.knock.map_plain", "explain.knock.map")[i])


def largest_text(found: dict) -> str:
    """The largest single-head drop on the selection half (every head tied for it), what picking the largest of many
    implies, and the same heads' drops on the test half where the log has them."""
    largest, total = largest_drops(found["single"]), len(found["single"])
    named = listing(head_label((s["kind"], s["layer"], s["head"])) for s in largest)
    text = t("explain.importance.largest_one" if len(largest) == 1 else "explain.importance.largest_tied",
             drop=f"{largest[0]['bleu_drop']:.2f}", named=named, total=total,
             intervals=listing(f"{s['low']:.2f} {t('explain.to')} {s['high']:.2f}" for s in largest))
    if "largest_on_test" not in found:
        return sentences([text, t("explain.importance.largest_untested", checkpoint=st.session_state[CHECKPOINT])])
    drops = listing(t("explain.importance.largest_drop", drop=f"{s['bleu_drop']:.2f}", low=f"{s['low']:.2f}",
                      high=f"{s['high']:.2f}", named=head_label((s["kind"], s["layer"], s["head"])))
                    for s in found["largest_on_test"])
    return sentences([text, t("explain.importance.largest_test", pairs=f"{found['test_pairs']:,}", drops=drops)])


def pruning_lines(found: dict) -> list[str]:
    """Per kind: the heads that went before the first significant drop, that point's own drop and interval (a drop
    the test half cannot tell from zero, not one shown to be zero), the next removal's, and all heads out."""
    lines = []
    for step in pruning_steps(found["pruning"]):
        kept, after, kind = step["kept"], step["after"], attention_view.kind_name(step["kind"])
        if kept["removed"]:
            text = t("explain.importance.kind", kind=kind, n=kept["removed"], total=step["total"],
                     kept=f"{kept['bleu']:.2f}", drop=f"{kept['bleu_drop']:.2f}", low=f"{kept['low']:.2f}",
                     high=f"{kept['high']:.2f}", none=f"{step['none']['bleu']:.2f}")
        else:
            text = t("explain.importance.kind_first", kind=kind, total=step["total"],
                     none=f"{step['none']['bleu']:.2f}")
        if after is not None:
            text = sentences([text, t("explain.importance.next", n=after["removed"], drop=f"{after['bleu_drop']:.2f}",
                                      low=f"{after['low']:.2f}", high=f"{after['high']:.2f}")])
        lines.append("- " + text)
    return lines


def importance(log: TrainingLog) -> None:
    """Each head's BLEU drop alone on the dev set's selection half, and the pruning curves in that order on its test
    half, each drop with its paired bootstrap interval (evaluation/heads.py)."""
    st.header(t("explain.importance.header"))
    found = log.heads
    if not found:
        st.info(t("explain.importance.missing", checkpoint=st.session_state[CHECKPOINT]))
        return
    single = found["single"]
    half_widths = [(s["high"] - s["low"]) / 2 for s in single]
    st.markdown(t("explain.importance.intro", pairs=f"{found['pairs']:,}", bleu=f"{found['bleu']:.2f}",
                  resamples=f"{found['resamples']:,}", narrow=f"{min(half_widths):.2f}", wide=f"{max(half_widths):.2f}",
                  significant=len(significant(single)), total=len(single), expected=f"{0.05 * len(single):.1f}",
                  largest=largest_text(found)))
    st.markdown(t("explain.importance.pruning", held_out=f"{found['test_pairs']:,}",
                  held_out_bleu=f"{found['test_bleu']:.2f}"))
    st.markdown("\n".join(pruning_lines(found)))
    if note := weights_note(log):
        st.caption(note)
    kind = attention_view.kind_picker("explain.importance.kind", "cross")  # full width: a half column clips it
    left, right = st.columns(2)
    with left:
        charts.chart(pruning_chart(found["pruning"]), key="explain.pruning")
    with right:
        charts.chart(drop_grid([s for s in found["single"] if s["kind"] == kind], kind), key="explain.drops")


def pruning_chart(pruning: dict):
    """The pruning curves, each point's drop with its paired interval as an error bar (none at 0 removed)."""
    curves = list(pruning.values())
    intervals = [[[p.get("bleu_drop", np.nan), p.get("low", np.nan), p.get("high", np.nan)] for p in c]
                 for c in curves]
    return pruning_figure([p["removed"] for p in curves[0]], [[p["bleu"] for p in c] for c in curves],
                          [attention_view.kind_name(k) for k in pruning],
                          frame=Frame(t("explain.pruning.title"), t("explain.pruning.removed"),
                                      t("explain.pruning.bleu")),
                          drop_title=t("explain.pruning.drop"), intervals=intervals, width=screen.HALF_COLUMN_PX)


def drop_grid(drops: list[dict], kind: str):
    """One kind's heads, each cell its BLEU drop alone, its paired interval in the hover."""
    shape = (max(s["layer"] for s in drops) + 1, max(s["head"] for s in drops) + 1)
    grid, spans = np.zeros(shape), np.zeros((*shape, 2))
    for s in drops:
        grid[s["layer"], s["head"]] = s["bleu_drop"]
        spans[s["layer"], s["head"]] = s["low"], s["high"]
    return head_grid_figure(grid, Labels(None, None, t("explain.heads.rows"), t("explain.heads.cols"), "BLEU"),
                            title=t("explain.importance.drop", kind=attention_view.kind_name(kind)),
                            bound=max(1.0, float(np.abs(grid).max())), intervals=spans,
                            interval_title=t("explain.importance.interval"), room=Room(screen.HALF_COLUMN_PX, 360))


def picked_heads(found: dict) -> str:
    """The heads the halves of the gold chose for each other, each named once (both halves may choose the same)."""
    names = [t("explain.align.pick_" + p["reading"], layer=p["layer"] + 1, head=p["head"] + 1)
             for p in found["chosen"]["picked"]]
    return " / ".join(dict.fromkeys(names))


def aer_table(found: dict) -> None:
    """The stored AER of the chosen head, attribution and the baseline with their intervals, then the best heads as
    picked on all the gold and the layer averages, as a table."""
    lines = [f"| {t('explain.align.col.aligner')} | AER | {t('explain.align.col.interval')} |", "|---|---:|---:|"]
    for row in alignment_rows(found):
        method = (found.get("attribution") or {}).get("method", "integrated_gradients")
        label = t(f"explain.align.row.{row['kind']}", layer=(row["layer"] or 0) + 1, head=(row["head"] or 0) + 1,
                  method=t(f"explain.method.{method}"), picked=picked_heads(found))
        interval = f"{row['low']:.3f}–{row['high']:.3f}" if row.get("low") is not None else "—"
        lines.append(f"| {md_escape(label)} | {row['aer']:.3f} | {interval} |")
    st.markdown("\n".join(lines))
    st.caption(t("explain.align.table_caption", resamples=f"{found['resamples']:,}"))


def compared(difference: dict, better: str, worse: str, same: str) -> str:
    """Which of two aligners the paired interval of AER(first) − AER(second) favours: `better` when the first's
    AER is lower beyond noise, `worse` when higher, `same` when the interval holds 0."""
    if difference["high"] < 0:
        return better
    return worse if difference["low"] > 0 else same


def gold_pairs() -> list[GoldPair]:
    """The gold alignments with their shipped sentences, read once for every session (the server's result cache)."""
    return result_cache.shared().get(("explain.gold_pairs",), load_gold)


def shown_pairs() -> tuple[list[GoldPair], str]:
    """The gold pairs and "dev", or — where the shipped pairs cannot be read or no longer fit the gold links (a
    damaged copy) — the pairs written for the app and "example", saying why."""
    try:
        return gold_pairs(), "dev"
    except OSError:
        st.info(t("explain.align.no_dev"))
    except GoldError:
        st.info(t("explain.align.bad_dev"))
    return load_examples(), "example"


def gold_words() -> str:
    """The gold pairs' mean English words, as the texts that describe the gold give it; "—" where they cannot be read
    (the tab says why)."""
    try:
        return f"{np.mean([len(english_words(pair.english)) for pair in gold_pairs()]):.1f}"
    except (OSError, GoldError):
        return "—"


def layer_average_text(found: dict) -> str:
    """How the best layer's head average compares with the chosen head (no head picked, the layer on the same gold)."""
    best = best_layer_average(found)
    shifted = t("explain.align.shifted") if best["reading"] == "shifted" else ""
    better = best["aer"] < found["chosen"]["aer"]
    return t("explain.align.layer_better" if better else "explain.align.layer_worse", layer=best["layer"] + 1,
             shifted=shifted, aer=f"{best['aer']:.3f}")


def unit_names() -> dict[str, str]:
    """What the model reads and writes in the gold's units, for the tab's wording: {source_unit}, {source_units},
    {target_unit}, {target_units} ("English word(s)", "Chinese character(s)" in the session's language)."""
    source, target = direction.current()
    return {"source_unit": t(f"explain.align.unit.{source}"), "source_units": t(f"explain.align.units.{source}"),
            "target_unit": t(f"explain.align.unit.{target}"), "target_units": t(f"explain.align.units.{target}")}


def gold_overlay(best: tuple[int, int], scored: int) -> None:
    """One gold sentence (selectbox): a head's map over its units (the model's target units as rows, its source
    units as columns), the gold links, turned to the model's direction, drawn on it; `scored`: how many gold pairs
    the figures above were measured on."""
    gold, source = shown_pairs()
    translator = models.translator()
    reads = translator.config.source_language
    layers, heads = translator.config.n_decoder_layers, translator.config.n_heads
    st.session_state.setdefault(GOLD_LAYER, min(best[0], layers - 1))
    st.session_state.setdefault(GOLD_HEAD, min(best[1], heads - 1))
    shown = [directed(pair, reads) for pair in gold]
    index = st.selectbox(t(f"explain.align.pick_{source}"), range(len(gold)), key=GOLD_PAIR, persist_state="session",
                         index=widget_state.kept(GOLD_PAIR, range(len(gold))),
                         format_func=lambda i: f"{shown[i].source} — {shown[i].target}")
    with st.container(horizontal=True):
        layer = attention_view.index_picker(GOLD_LAYER, t("explorer.layer"), list(range(layers)))
        head = attention_view.index_picker(GOLD_HEAD, t("explorer.head"), list(range(heads)))
    pair = shown[index]
    # Cached for every session, as the masks page's teacher forcing: one model run per gold pair, not per page run.
    maps = pair_maps(translations.teacher_forced(pair.source, pair.target), pair)
    if maps is None:
        st.info(t("explain.align.not_characters"))
        return
    weights = maps.plain[layer, head]  # (target units, source units)
    units = unit_names()
    figure = gold_links_figure(weights, Labels(pair.target_units, pair.source_units, t("explain.align.rows", **units),
                                               t("explain.align.cols", **units), t("explain.maps.value")),
                               pair.sure, pair.possible, title=t("explain.maps.head", layer=layer + 1, head=head + 1),
                               room=Room(screen.HALF_COLUMN_PX * 2, 520))
    charts.chart(figure, key="explain.align.map")
    links = argmax_links(weights)
    st.caption(sentences([t(f"explain.align.source_{source}", line=pair.gold.line, pairs=scored),
                          t("explain.align.caption", sure=len(pair.sure), possible=len(pair.possible),
                            hits=len(links & (pair.sure | pair.possible)), rows=len(links),
                            aer=f"{alignment_error_rate(links, pair.sure, pair.possible):.2f}",
                            units=t(f"explain.align.map_units.{reads}"))]))


def live_alignment() -> dict | None:
    """The attention rows of the alignment figures measured now on the session's model (attention_scores: every
    gold pair teacher-forced, links turned to its direction), once per model for every session; None where the
    shipped gold pairs cannot be read."""
    name, device = st.session_state[CHECKPOINT], models.device()
    try:
        gold = [directed(pair, direction.current()[0]) for pair in gold_pairs()]
    except (OSError, GoldError):
        return None

    def run() -> dict:
        with st.spinner(t("explain.align.measuring", pairs=len(gold))):
            return attention_scores(lambda source, target: translations.teacher_forced(source, target, name, device),
                                    gold)
    return result_cache.shared().get(("explain.live_alignment", name, device), run)


def stored_intro(found: dict) -> str:
    """The tab's first paragraph from a log's "alignment" entry (python -m evaluation.alignment)."""
    chosen, ig, baseline = found["chosen"], found["integrated_gradients"], found["baseline"]
    span = lambda x: {"aer": f"{x['aer']:.3f}", "low": f"{x['low']:.3f}", "high": f"{x['high']:.3f}"}  # noqa: E731
    differences = found["differences"]
    verdict = [compared(differences["chosen - integrated_gradients"], t("explain.align.head_beats_ig"),
                        t("explain.align.ig_beats_head"), t("explain.align.head_ties_ig")),
               compared(differences["integrated_gradients - baseline"], t("explain.align.ig_beats_ibm"),
                        t("explain.align.ibm_beats_ig"), t("explain.align.ig_ties_ibm"))]
    return t("explain.align.intro", pairs=found["pairs"], picked=picked_heads(found), words=gold_words(),
             how=t(f"explain.align.how.{direction.current()[0]}"), **unit_names(),
             **{f"chosen_{k}": v for k, v in span(chosen).items()}, **{f"ig_{k}": v for k, v in span(ig).items()},
             **{f"ibm_{k}": v for k, v in span(baseline).items()}, verdict=sentences(verdict),
             layers=layer_average_text(found), longer=t("explain.align.longer"))


def live_intro(found: dict) -> str:
    """The tab's first paragraph for figures measured now: what was measured, the chosen head, and what is not."""
    chosen = found["chosen"]
    return t("explain.align.intro_live", pairs=found["pairs"], gold=found["gold_pairs"], picked=picked_heads(found),
             how=t(f"explain.align.how.{direction.current()[0]}"), source=direction.source_name(),
             target=direction.target_name(), aer=f"{chosen['aer']:.3f}", low=f"{chosen['low']:.3f}",
             high=f"{chosen['high']:.3f}", checkpoint=st.session_state[CHECKPOINT], words=gold_words(),
             layers=layer_average_text(found), longer=t("explain.align.longer"))


def gold_alignment(log: TrainingLog) -> None:
    """The AER figures (the log's, or measured now where the log has none: a newly trained model, another
    direction), the table, one gold sentence's map and the heads' roles."""
    st.header(t("explain.align.header"))
    found, live = log.alignment, False
    if not found or found.get("source_language", "en") != direction.current()[0]:
        found, live = live_alignment(), True
    if not found or not found.get("pairs"):
        st.info(t("explain.align.missing" if found is None else "explain.align.none_fit",
                  checkpoint=st.session_state[CHECKPOINT]))
        return
    rows = alignment_rows(found)
    best = min(rows, key=lambda r: r["aer"] if r["kind"] == "head_plain" else 2.0)
    st.markdown(live_intro(found) if live else sentences([stored_intro(found), weights_note(log)]))
    aer_table(found)
    gold_overlay((best["layer"], best["head"]), found["pairs"])
    roles_grid(log, None if live else found)


def roles_grid(log: TrainingLog, aligned: Mapping | None) -> None:
    """Each head's role on the gold pairs (previous / next token, sink, rare word, alignment) and the statistic that
    earned it, for one attention kind; `aligned`: the log's alignment figures of the same run (None: none)."""
    found = log.head_roles
    st.subheader(t("explain.roles.header"))
    if not found:  # measured by python -m evaluation.alignment, never live
        st.info(t("explain.roles.missing", checkpoint=st.session_state[CHECKPOINT]))
        return
    kind = attention_view.kind_picker("explain.roles.kind", "cross")
    aer = np.minimum(aligned["heads_plain"], aligned["heads_shifted"]) if kind == "cross" and aligned else None
    labels, values = head_roles(found[kind], aer)
    names = [[t(f"explain.roles.{label}") for label in row] for row in labels]
    title = t("explain.roles.title", kind=attention_view.kind_name(kind))
    figure = head_roles_figure(values.astype(float), names, title=title,
                               row_title=t("explain.heads.rows"), col_title=t("explain.heads.cols"),
                               value_label=t("explain.roles.value"), max_width=screen.HALF_COLUMN_PX * 2)
    charts.chart(figure, key="explain.roles.grid")
    counts = {role: int((labels == role).sum()) for role in ("previous", "next", "sink", "rare", "alignment", "mixed")}
    st.caption(t("explain.roles.caption", pairs=found["pairs"], threshold=table_view.percent(ROLE_THRESHOLD),
                 margin=f"{ALIGN_MARGIN:.2f}", source=direction.source_name(), **counts))
def sink_tables(result: TranslationResult) -> list[tuple[str, float, float, str, int]]:
    """One table per attention kind: each layer's share of attention on the sink tokens, and uniform attention's.
    Returns every (kind name, share, uniform share, token, layer) for the text under the tables."""
    tables, found = [], []
    for kind in ATTENTION_KINDS:
        queries, keys = result.axis_tokens(kind)
        mask = np.tril(np.ones((len(queries), len(keys)))) if kind == "decoder_self" else None  # the causal mask
        sinks, shares, uniform = sink_shares(result.attention(kind), keys, mask=mask)
        if not sinks:
            continue
        rows = [t("explain.caveat.layer", n=layer + 1) for layer in range(len(shares))] + [t("explain.caveat.uniform")]
        cells = [[f"{x:.0%}" for x in row] for row in np.vstack([shares, uniform])]
        tables.append((attention_view.kind_name(kind), pd.DataFrame(cells, index=rows, columns=sinks)))
        found += [(attention_view.kind_name(kind), shares[layer, j], uniform[j], sinks[j], layer + 1)
                  for layer in range(len(shares)) for j in range(len(sinks))]
    show_tables(tables)
    return found


def caveat(result: TranslationResult) -> None:
    """Attention is not explanation: mass on sink tokens, and the residual stream that goes round attention."""
    st.header(t("explain.caveat.header"))
    st.markdown(t("explain.caveat.sinks"))
    found = sink_tables(result)
    if found:
        kind, share, uniform, token, layer = max(found, key=lambda f: f[1] - f[2])
        st.markdown(t("explain.caveat.most", kind=kind, layer=layer, share=f"{share:.0%}", token=md_escape(token),
                      uniform=f"{uniform:.0%}"))
    enc, dec = result.encoder_sublayers, result.decoder_sublayers
    ratios = {"encoder_self": residual_ratio(enc["input"], enc["self_attn_out"]),
              "decoder_self": residual_ratio(dec["input"], dec["self_attn_out"]),
              "cross": residual_ratio(dec["norm1"], dec["cross_attn_out"])}  # cross-attention's residual is norm1
    st.markdown(t("explain.caveat.residual"))
    layers = max(len(r) for r in ratios.values())
    table_view.table(pd.DataFrame({attention_view.kind_name(k): [f"{x:.2f}" for x in r] for k, r in ratios.items()},
                               index=[t("explain.caveat.layer", n=i + 1) for i in range(layers)]))
    low = min(((k, i, x) for k, r in ratios.items() for i, x in enumerate(r)), key=lambda f: f[2])
    st.markdown(t("explain.caveat.residual_result", kind=attention_view.kind_name(low[0]), layer=low[1] + 1,
                  ratio=f"{low[2]:.2f}"))


def signed(x: float) -> str:
    """A BLEU difference as the log holds it (2 decimals: one would turn 0.02 into 0.0), with a true minus sign."""
    return f"{x:.2f}".replace("-", "−")


def pruning_opening(found: dict) -> str:
    """The opening's pruning sentence: each kind's last removal the test half cannot tell from zero, said as the
    drop it is, the next removal's drop, and every head out; all three kinds, none picked as the headline."""
    lines = []
    for step in found["kinds"]:
        kept, after, kind = step["kept"], step["after"], t(f"explain.open.kind.{step['kind']}")
        key = "explain.open.prune." + ("all" if after is None else "kept" if kept["removed"] else "first")
        spans = {} if after is None else dict(next_n=after["removed"], next_drop=signed(after["bleu_drop"]),
                                              next_low=signed(after["low"]), next_high=signed(after["high"]))
        if kept["removed"]:
            spans.update(drop=signed(kept["bleu_drop"]), low=signed(kept["low"]), high=signed(kept["high"]))
        lines.append(t(key, kind=kind, n=kept["removed"], total=step["total"], none=f"{step['none']['bleu']:.2f}",
                       **spans))
    return t("explain.open.pruning", pairs=f"{found['pairs']:,}", whole=f"{found['whole']:.2f}") + "".join(
        f"\n   - {line}" for line in lines)


def opening(log: dict) -> None:
    """What the evidence below says, in sentences a teacher can say aloud, each with its number from the log."""
    found = opening_figures(log)
    lines = []
    if agreement := found.get("agreement"):
        best = agreement["best"]
        named = t("explain.open.best_one" if len(best) == 1 else "explain.open.best_tied", heads=agreement["heads"],
                  named=head_names(best), rho=f"{agreement['rho']:.2f}")
        lines.append(t("explain.open.agreement", n=agreement["sentences"], mean=f"{agreement['mean']:.2f}",
                       best=named, last_map=f"{agreement['last_map']:.2f}"))
    if pruning := found.get("pruning"):
        lines.append(pruning_opening(pruning))
    if alignment := found.get("alignment"):
        names = {"chosen": "chosen", "ig": "integrated_gradients", "ibm": "baseline"}
        lines.append(t("explain.open.alignment", pairs=alignment["pairs"], words=gold_words(),
                       longer=t("explain.align.longer"), **{
                           f"{name}_{part}": f"{value:.3f}" for name, key in names.items()
                           for part, value in zip(("aer", "low", "high"), alignment[key])}))
    if lines:
        with st.container(border=True, key="explain.opening"):
            st.markdown("\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1)))


st.title(t("explain.title"))
written = models.translator().training_log or {}
opening(written)  # lessons.explanation.opening_figures reads the log as written; the sections read it typed
log = TrainingLog.from_dict(written)
st.caption(t("explain.intro"))
result = translations.current_result()
sentence_banner(result)
sections("explain", {"maps": lambda: attention_and_attribution(result, log),
                     "heads": lambda: which_heads_agree(result, log),
                     "knock": lambda: knock_out(result), "importance": lambda: importance(log),
                     "align": lambda: gold_alignment(log), "caveat": lambda: caveat(result)})
