"""How sure the model was of a translation, against the thresholds its calibration measured.

The thresholds come from evaluation/calibrate.py, run once on dev pairs and stored under
"calibration" in the checkpoint's training_log.json (read as a Calibration by model/loading/training_log.py); serving
only compares with them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..loading.training_log import Calibration, usable_calibration


def sentence_confidence(probs: list[float]) -> float:
    """A translation's confidence: the geometric mean of its tokens' probabilities (1.0 for no tokens)."""
    if not probs:
        return 1.0
    return float(math.exp(sum(math.log(max(p, 1e-12)) for p in probs) / len(probs)))


@dataclass(frozen=True)
class Confidence:
    """What the translate page shows about one translation's confidence."""

    probs: list[float]  # one per output token, </s> included
    low: list[bool]  # below the token threshold (all False when uncalibrated)
    score: float  # sentence_confidence(probs)
    unsure: bool  # below the sentence threshold (False when uncalibrated)
    calibration: Calibration | None  # the checkpoint's calibration, None when it has none it can mark by


def calibration_of(training_log: dict | None) -> Calibration | None:
    """The calibration a checkpoint's training log holds, or None (absent, or its thresholds not both strictly
    between 0 and 1)."""
    return usable_calibration(training_log)


def assess(probs: list[float], training_log: dict | None) -> Confidence:
    """Mark a translation's tokens and the whole of it against the checkpoint's calibrated thresholds."""
    calibration = calibration_of(training_log)
    score = sentence_confidence(probs)
    if calibration is None:
        return Confidence(list(probs), [False] * len(probs), score, False, None)
    tau, sigma = calibration.token.threshold, calibration.sentence.threshold
    return Confidence(list(probs), [p < tau for p in probs], score, score < sigma, calibration)
