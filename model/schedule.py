"""The paper's learning-rate schedule (§5.3): linear warm-up, then decay with 1/√step."""

from __future__ import annotations

import numpy as np


def learning_rate(step, d_model: int, warmup: int, factor: float = 1.0):
    """lrate = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5); step may be a number or an array."""
    step = np.maximum(np.asarray(step, dtype=np.float64), 1.0)
    rate = factor * d_model**-0.5 * np.minimum(step**-0.5, step * warmup**-1.5)
    return float(rate) if rate.ndim == 0 else rate


def peak_learning_rate(d_model: int, warmup: int, factor: float = 1.0) -> float:
    """The schedule's top, reached at step = warmup: factor · (d_model · warmup)^−0.5."""
    return factor * (d_model * warmup) ** -0.5
