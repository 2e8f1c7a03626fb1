"""Length penalty in beam search: the finished hypotheses of one search, re-scored with other α.

Beam search ranks a finished hypothesis by log P(Y) ÷ penalty(|Y|), |Y| its tokens with </s>. GNMT's penalty
(Wu et al. 2016, §7) is ((5 + |Y|) / 6)^α, our model's with α = 1.2 (the Transformer paper's 0.6 lost to it on
dev: evaluation/decoding_sweep.py); a converted Marian model divides by |Y|^α
(transformers' generate()). With α = 0 nothing is divided: every extra token costs log-probability, so short
outputs win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ALPHAS = (0.0, 0.6, 1.0)  # the values the page compares; the model's own is added when it is another
FORMS = ("gnmt", "power")


def penalty(length, alpha: float, form: str = "gnmt") -> np.ndarray:
    """What a finished hypothesis of `length` tokens (with </s>) has its log-probability divided by."""
    if form not in FORMS:
        raise ValueError(f"form is one of {FORMS}, not {form!r}")
    length = np.asarray(length, dtype=np.float64)
    return ((5.0 + length) / 6.0) ** alpha if form == "gnmt" else length**alpha


@dataclass(frozen=True)
class Rescored:
    """scores[i, j]: hypothesis i's log-probability ÷ penalty(|Y_i|) with alphas[j]; winners[j]: the best row."""

    logprobs: np.ndarray  # (hypotheses,)
    lengths: np.ndarray  # (hypotheses,)
    alphas: tuple[float, ...]
    scores: np.ndarray  # (hypotheses, alphas)
    winners: tuple[int, ...]  # (alphas,) the row with the highest score (the first on a tie, as a stable sort keeps)


def rescore(logprobs: Sequence[float], lengths: Sequence[int], alphas: Sequence[float] = ALPHAS,
            form: str = "gnmt") -> Rescored:
    """Every hypothesis scored with every α, and which one beam search would choose among them at each α."""
    lp = np.asarray(logprobs, dtype=np.float64)
    n = np.asarray(lengths, dtype=np.int64)
    if lp.shape != n.shape or lp.ndim != 1 or not len(lp):
        raise ValueError(f"one log-probability per length, at least one: got {lp.shape} and {n.shape}")
    scores = lp[:, None] / np.stack([penalty(n, a, form) for a in alphas], axis=1)  # (hypotheses, alphas)
    return Rescored(lp, n, tuple(float(a) for a in alphas), scores, tuple(int(i) for i in scores.argmax(axis=0)))


def alphas_with(own: float) -> tuple[float, ...]:
    """The compared α, with the model's own one added in order when it is not among them."""
    return tuple(sorted(set(ALPHAS) | {float(own)}))
