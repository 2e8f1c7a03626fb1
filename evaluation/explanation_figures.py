"""The figures docs/findings.md gives for the explanation page, written from the training log the page reads, so the
two cannot disagree: head importance and pruning (evaluation/heads.py) and word alignment (evaluation/alignment).

python -m evaluation.explanation_figures [--checkpoint checkpoints/en-zh]
prints the Markdown rows to paste into docs/findings.md; tests/test_explanation_figures.py checks that it holds each
of them verbatim.
"""

from __future__ import annotations

import argparse

import numpy as np

from lessons.explanation import PruningStep, alignment_rows, largest_drops, pruning_steps, significant, tied_best
from model.loading.training_log import Agreement, Alignment, Completeness, Heads, TrainingLog

KIND_NAMES = {"encoder_self": "encoder self", "decoder_self": "decoder self", "cross": "cross"}


def interval(entry, digits: int = 2) -> str:
    """A drop's paired interval (HeadDrop, PruningPoint: low, high) in words."""
    return f"{entry.low:.{digits}f} to {entry.high:.{digits}f}"


def head_name(entry) -> str:
    """A knocked-out head (HeadDrop: kind, layer, head) named, 1-based."""
    return f"{KIND_NAMES[entry.kind]} · layer {entry.layer + 1} · head {entry.head + 1}"


def largest_text(heads: Heads) -> str:
    """Every head tied for the largest drop on the selection half with its interval, and its drop on the test half
    where the log has it (evaluation.heads --largest-only)."""
    largest = largest_drops(heads.single)
    text = (f"largest drop {largest[0].bleu_drop:.2f}, the maximum of {len(heads.single)} on the same pairs ("
            + "; ".join(f"{head_name(s)}, {interval(s)}" for s in largest) + ")")
    if heads.largest_on_test is None:
        return text + "; on the test half: not measured yet (python -m evaluation.heads --largest-only)"
    return text + "; the same on the test half: " + "; ".join(
        f"{head_name(s)} {s.bleu_drop:.2f} ({interval(s)})" for s in heads.largest_on_test)


def pruning_text(step: PruningStep) -> str:
    """One kind's pruning: the last removal the test half cannot tell from zero, said as the drop it is, then the
    first one it can."""
    kept, after = step.kept, step.after
    text = (f"{KIND_NAMES[step.kind]}: {kept.removed} of {step.total} out, BLEU {kept.bleu:.2f}, "
            f"{kept.bleu_drop:.2f} lower ({interval(kept)})" if kept.removed else
            f"{KIND_NAMES[step.kind]}: none of {step.total} out free")
    if after is not None:
        text += f"; removing {after.removed} costs {after.bleu_drop:.2f} ({interval(after)})"
    return text


def importance_rows(heads: Heads) -> list[str]:
    """The single-head and pruning rows of the findings' table."""
    single = heads.single
    widths = [(s.high - s.low) / 2 for s in single]
    kinds = [pruning_text(step) for step in pruning_steps(heads.pruning)]
    return [
        f"| single head knocked out ({heads.pairs} selection-half dev pairs, greedy, BLEU {heads.bleu:.2f}) "
        f"| paired bootstrap of each drop ({heads.resamples:,} resamples, Koehn 2004): 95 % intervals "
        f"±{min(widths):.2f} to ±{max(widths):.2f} BLEU; {len(significant(single))} of {len(single)} heads' intervals "
        f"exclude 0 (chance alone: about {0.05 * len(single):.1f}); {largest_text(heads)} |",
        f"| pruning, least important first: order chosen on the selection half, BLEU on the {heads.test_pairs} "
        f"test-half pairs (whole model {heads.test_bleu:.2f}) | the last removal whose paired interval holds 0 "
        f"(a drop {heads.test_pairs} pairs cannot tell from zero, not one shown to be zero) and the first that "
        f"excludes it — {'; '.join(kinds)}; all cross heads out: {heads.pruning['cross'][-1].bleu:.2f} |",
    ]


def agreement_row(found: Agreement) -> str:
    """Each cross head's agreement with integrated gradients on unseen dev sentences (evaluation.agreement)."""
    ig = found.integrated_gradients
    rho = np.asarray(ig.rho)
    best = tied_best(rho)
    layers = {}
    for layer, head in best:
        layers.setdefault(layer + 1, []).append(str(head + 1))
    named = "; ".join(f"layer {layer} · head{'s' if len(heads) > 1 else ''} {', '.join(heads)}"
                      for layer, heads in layers.items())
    first, last = ig.layer_mean[0], ig.layer_mean[-1]
    return (f"| agreement with integrated gradients ({found.sentences} unseen dev sentences) | heads one by one "
            f"(each head's ρ, then the mean over the layer): layer 1 ρ = {rho[0].mean():.2f}, layer {len(rho)} ρ = "
            f"{rho[-1].mean():.2f}, best single head{'s' if len(best) > 1 else ''} ρ = {rho[best[0]]:.2f} ({named}); "
            f"one map per layer (heads' weights averaged first, that map's ρ): layer 1 ρ = {first[0]:.2f} (top-1 "
            f"{first[1]:.0%}), layer {len(rho)} ρ = {last[0]:.2f} (top-1 {last[1]:.0%}); rollout ρ = "
            f"{ig.rollout[0]:.2f} (top-1 {ig.rollout[1]:.0%}) |").replace("%)", " %)")


def completeness_row(gaps: Completeness) -> str:
    """Integrated gradients' completeness on the gold pairs (evaluation.alignment's)."""
    return (f"| integrated gradients' completeness on the {gaps.pairs} gold pairs | {gaps.above} of "
            f"{gaps.pairs} ended above {gaps.bound * 100:.0f} % (worst {gaps.worst * 100:.1f} %); "
            f"{gaps.at_cap} took all "
            f"{gaps.most} points: the bound holds only below the cap |")


ALIGNERS = {"chosen": "best cross head, chosen on the other half of the gold ({picked})",
            "integrated_gradients": "attribution, \\|integrated gradients\\|",
            "attribution": "attribution, \\|input × gradient\\|",
            "baseline": "baseline: IBM Model 1 (words × characters, NULL, 5 EM iterations on train.tsv, NumPy)"}


def picked(found: Alignment) -> str:
    return " / ".join(f"layer {p.layer + 1} · head {p.head + 1}" + (", shifted" if p.reading == "shifted" else "")
                      for p in found.chosen.picked)


def alignment_table(found: Alignment) -> list[str]:
    """The findings' AER table: the rows with an interval, then the in-sample heads and the layer averages."""
    rows = alignment_rows(found)
    lines = ["| links read off | AER | 95 % interval |", "|---|---:|---:|"]
    for row in rows:
        if row.kind in ALIGNERS:
            lines.append(f"| {ALIGNERS[row.kind].format(picked=picked(found))} | {row.aer:.3f} | "
                         f"{row.low:.3f}–{row.high:.3f} |")
    plain = [r for r in rows if r.kind == "head_plain"]
    shifted = next(r for r in rows if r.kind == "head_shifted")
    lines.append("| best heads picked on all the gold (flattered): cross "
                 + " / ".join(f"layer {r.layer + 1} · head {r.head + 1}" for r in plain) + " | "
                 + " / ".join(f"{r.aer:.3f}" for r in plain) + " | |")
    lines.append(f"| best shifted head picked on all the gold: cross layer {shifted.layer + 1} · head "
                 f"{shifted.head + 1} | {shifted.aer:.3f} | |")
    for key, layers in (("plain", found.layers_plain), ("shifted", found.layers_shifted)):
        lines.append(f"| layer averages, {key}: layer " + " / ".join(str(i + 1) for i in range(len(layers))) + " | "
                     + " / ".join(f"{a:.3f}" for a in layers) + " | |")
    return lines


def rows(log: TrainingLog) -> list[str]:
    """Every row the log's figures give: head importance, pruning, agreement and completeness on the gold (rows of the
    findings' "measure | result" table), then the AER table after a blank line (a table of its own)."""
    out = importance_rows(log.heads) if log.heads is not None else []
    out += [agreement_row(log.agreement)] if log.agreement is not None else []
    if found := log.alignment:
        gaps = [completeness_row(found.completeness)] if found.completeness is not None else []
        out += gaps + [""] + alignment_table(found)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.explanation_figures", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", default="checkpoints/en-zh")
    print("\n".join(rows(TrainingLog.read(p.parse_args(argv).checkpoint) or TrainingLog())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
