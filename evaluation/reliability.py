"""How well the model's confidence matches how often it is right: a reliability curve on the dev pairs.

    python -m evaluation.reliability --checkpoint checkpoints/en-zh --dev ../shared/data/tatoeba-cmn-eng/dev.tsv

Each dev pair is fed to the decoder as training feeds it (Translator.teacher_forced: the reference's prefix, no
search), so every position asks one clean question: the model's most probable next token — is it the reference's?
Its probability is the model's **confidence**; being the reference's token is **right**. The positions are sorted
into equal-width confidence bins; a calibrated model is right in a bin as often as its mean confidence there.
Training with label smoothing (ε) aims the model at 1 − ε + ε/V instead of 1 for the right token, which
makes it less confident (Müller et al. 2019, "When does label smoothing help?").

Written into the checkpoint's training_log.json under "reliability": per bin the positions, their mean confidence
and the share right (the app's training page draws the curve and computes the expected calibration error from it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from model.translation.translator import Translator

from model.training.data import in_direction

from .cli import dev_parser, open_dev, store

LOG_KEY = "reliability"
BINS = 10


def confidences(translator: Translator, pairs: list[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray]:
    """(confidence, right) for every output position of every pair, </s> included, under teacher forcing."""
    conf, right = [], []
    for english, reference in pairs:
        for step in translator.teacher_forced(english, reference, top_k=1).steps:
            top = step.candidates[0]
            conf.append(top.prob)
            right.append(top.token_id == step.chosen.token_id)
    return np.array(conf, dtype=float), np.array(right, dtype=bool)


def bin_table(conf: np.ndarray, right: np.ndarray, bins: int = BINS) -> list[dict]:
    """Equal-width bins of confidence over (0, 1]: each bin's bounds, positions, mean confidence and share right."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.searchsorted(edges, conf, side="left") - 1, 0, bins - 1)  # (lo, hi]; a 0 goes to the first
    table = []
    for b in range(bins):
        inside = which == b
        n = int(inside.sum())
        table.append({"low": round(float(edges[b]), 2), "high": round(float(edges[b + 1]), 2), "positions": n,
                      "confidence": round(float(conf[inside].mean()), 4) if n else None,
                      "right": round(float(right[inside].mean()), 4) if n else None})
    return table


def reliability(translator: Translator, pairs: list[tuple[str, str]], bins: int = BINS) -> dict:
    if not pairs:
        raise ValueError("reliability() needs at least one (English, Chinese) pair")
    conf, right = confidences(translator, pairs)
    return {
        "method": ("Dev pairs under teacher forcing (Translator.teacher_forced): at each output position, </s> "
                   "included, confidence = the probability of the model's most probable next token; right = it is "
                   f"the reference's token. {bins} equal-width confidence bins."),
        "pairs": len(pairs),
        "positions": int(conf.size),
        "bins": bin_table(conf, right, bins),
    }


def main(argv: list[str] | None = None) -> int:
    args = dev_parser("python -m evaluation.reliability", __doc__).parse_args(argv)
    if (opened := open_dev(args)) is None:
        return 2
    translator, pairs = opened
    pairs = in_direction(pairs, translator.config.source_language)  # (source, reference) in the model's direction
    result = {**reliability(translator, pairs), "dev": Path(args.dev).name}
    print(json.dumps(result["bins"], indent=1))
    store(args.checkpoint, LOG_KEY, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
