"""The figures docs/findings.md gives for the explanation page, written from the training log the page reads, so the
two cannot disagree: head importance and pruning (evaluation/heads.py) and word alignment (evaluation/alignment).

python -m evaluation.explanation_figures [--checkpoint checkpoints/en-zh]
prints the Markdown rows to paste into docs/findings.md; tests/test_explanation_figures.py checks that it holds each
of them verbatim.
"""

from __future__ import annotations

import argparse

from lessons.explanation import alignment_rows, free_pruning, significant
from model.loading.checkpoint import read_training_log

KIND_NAMES = {"encoder_self": "encoder self", "decoder_self": "decoder self", "cross": "cross"}


def interval(entry: dict, digits: int = 2) -> str:
    return f"{entry['low']:.{digits}f} to {entry['high']:.{digits}f}"


def importance_rows(heads: dict) -> list[str]:
    """The single-head and pruning rows of the findings' table."""
    single = heads["single"]
    worst = max(single, key=lambda s: s["bleu_drop"])
    widths = [(s["high"] - s["low"]) / 2 for s in single]
    head = f"{KIND_NAMES[worst['kind']]} · layer {worst['layer'] + 1} · head {worst['head'] + 1}"
    kinds = []
    for kind, curve in heads["pruning"].items():
        kept = free_pruning(curve)
        text = f"{KIND_NAMES[kind]}: {kept['removed']} of {len(curve) - 1} out, BLEU {kept['bleu']:.2f}"
        if kept["removed"] + 1 < len(curve):
            after = curve[kept["removed"] + 1]
            text += f" (removing {after['removed']} costs {after['bleu_drop']:.2f}, {interval(after)})"
        kinds.append(text)
    return [
        f"| single head knocked out ({heads['pairs']} selection-half dev pairs, greedy, BLEU {heads['bleu']:.2f}) "
        f"| paired bootstrap of each drop ({heads['resamples']:,} resamples, Koehn 2004): 95 % intervals "
        f"±{min(widths):.2f} to ±{max(widths):.2f} BLEU; {len(significant(single))} of {len(single)} heads' intervals "
        f"exclude 0 (chance alone: about {0.05 * len(single):.1f}); largest drop {worst['bleu_drop']:.2f} ({head}, {interval(worst)}) |",
        f"| pruning, least important first: order chosen on the selection half, BLEU on the {heads['test_pairs']} "
        f"test-half pairs (whole model {heads['test_bleu']:.2f}) | heads out before the first drop whose paired "
        f"interval excludes 0 — {'; '.join(kinds)}; all cross heads out: {heads['pruning']['cross'][-1]['bleu']:.2f} |",
    ]


ALIGNERS = {"chosen": "best cross head, chosen on the other half of the gold ({picked})",
            "integrated_gradients": "attribution, \\|integrated gradients\\|",
            "attribution": "attribution, \\|input × gradient\\|",
            "baseline": "baseline: IBM Model 1 (words × characters, NULL, 5 EM iterations on train.tsv, NumPy)"}


def picked(found: dict) -> str:
    return " / ".join(f"layer {p['layer'] + 1} · head {p['head'] + 1}" + (", shifted" if p["reading"] == "shifted"
                                                                          else "") for p in found["chosen"]["picked"])


def alignment_table(found: dict) -> list[str]:
    """The findings' AER table: the rows with an interval, then the in-sample heads and the layer averages."""
    rows = alignment_rows(found)
    lines = ["| links read off | AER | 95 % interval |", "|---|---:|---:|"]
    for row in rows:
        if row["kind"] in ALIGNERS:
            lines.append(f"| {ALIGNERS[row['kind']].format(picked=picked(found))} | {row['aer']:.3f} | "
                         f"{row['low']:.3f}–{row['high']:.3f} |")
    plain = [r for r in rows if r["kind"] == "head_plain"]
    shifted = next(r for r in rows if r["kind"] == "head_shifted")
    lines.append("| best heads picked on all the gold (flattered): cross "
                 + " / ".join(f"layer {r['layer'] + 1} · head {r['head'] + 1}" for r in plain) + " | "
                 + " / ".join(f"{r['aer']:.3f}" for r in plain) + " | |")
    lines.append(f"| best shifted head picked on all the gold: cross layer {shifted['layer'] + 1} · head "
                 f"{shifted['head'] + 1} | {shifted['aer']:.3f} | |")
    for key in ("plain", "shifted"):
        layers = found[f"layers_{key}"]
        lines.append(f"| layer averages, {key}: layer " + " / ".join(str(i + 1) for i in range(len(layers))) + " | "
                     + " / ".join(f"{a:.3f}" for a in layers) + " | |")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.explanation_figures", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", default="checkpoints/en-zh")
    log = read_training_log(p.parse_args(argv).checkpoint) or {}
    print("\n".join(importance_rows(log["heads"])))
    print()
    print("\n".join(alignment_table(log["alignment"])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
