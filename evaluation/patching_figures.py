"""The figures docs/findings.md gives for the built-in patching study, written from the training log the page reads
(evaluation/patching_study.py writes it), so the two cannot disagree.

python -m evaluation.patching_figures [--checkpoint checkpoints/en-zh]
prints the Markdown lines to paste into docs/findings.md; tests/test_patching_figures.py checks that it holds each of
them verbatim.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from model.loading.checkpoint import read_training_log
from model.loading.training_log import HeadGrid, PatchingStudy, StudyHead, TrainingLog

KIND_NAMES = {"encoder_self": "encoder self", "decoder_self": "decoder self", "cross": "cross"}


def number(value: float) -> str:
    return f"{value:.2f}".replace("-0.00", "0.00")


def head_text(h: StudyHead) -> str:
    return f"{KIND_NAMES[h.kind]} L{h.layer + 1} H{h.head + 1} {number(h.mean)} [{number(h.low)}, {number(h.high)}]"


def kind_range(kind: str, grid: HeadGrid) -> str:
    """One kind's smallest and largest mean effect, the largest head with its interval, and how many of its heads'
    intervals exclude 0."""
    mean, low, high = (np.asarray(values, dtype=float) for values in (grid.mean, grid.low, grid.high))
    layer, head = np.unravel_index(int(mean.argmax()), mean.shape)
    top = StudyHead(mean[layer, head], low[layer, head], high[layer, head], kind=kind, layer=int(layer),
                    head=int(head))
    apart = int(((low > 0) | (high < 0)).sum())
    return (f"{KIND_NAMES[kind]} {number(mean.min())} to {number(mean.max())} (largest {head_text(top)}; "
            f"{apart} of {mean.size} intervals exclude 0)")


def study_line(study: PatchingStudy, direction: str) -> str:
    """One Markdown list item: the pairs kept, the consistent heads with their intervals, each kind's range."""
    named = "; ".join(head_text(h) for h in study.consistent) or "none"
    ranges = "; ".join(kind_range(kind, grid) for kind, grid in study.heads.items())
    couples = ", ".join(f"{target} / {foil}" for target, foil in study.couples)
    return (f"- {direction}, {study.name}, target / foil {couples}: {study.kept} of "
            f"{study.tried} pairs kept (both targets right at the step where the translations part). Heads whose "
            f"95 % bootstrap interval over pairs ({study.resamples:,} resamples, seed {study.seed}) excludes 0 "
            f"with a mean effect ≥ {study.threshold:.2f}: {named}. Mean effects per attention kind: {ranges}.")


def rows(log: dict | None, checkpoint: str | Path) -> list[str]:
    """The study's line per kind of pair for one checkpoint's log (its folder named for its direction, en-zh); none
    when the log has no study."""
    studies = TrainingLog.from_dict(log).patching_study
    return [study_line(study, Path(checkpoint).name.replace("-", "→")) for study in studies.values()]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.patching_figures", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", default="checkpoints/en-zh")
    checkpoint = p.parse_args(argv).checkpoint
    print("\n".join(rows(read_training_log(checkpoint), checkpoint)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
