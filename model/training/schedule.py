"""The paper's optimiser (§5.3): Adam with β2 = 0.98 and ε = 1e-9, and its learning-rate schedule (linear
warm-up, then decay with 1/√step). The trainer, the live lab and the "How it was trained" page all read it here."""

from __future__ import annotations

import numpy as np

ADAM_BETAS = (0.9, 0.98)  # the paper's β2: a shorter memory of squared gradients than torch's default 0.999
ADAM_EPS = 1e-9
GRAD_CLIP_NORM = 1.0  # gradients are rescaled to at most this norm before each step (not in the paper)


def adam(parameters):
    """The optimiser; its learning rate is set before every step from learning_rate()."""
    import torch  # only training needs it; pages read the constants above

    return torch.optim.Adam(parameters, lr=0.0, betas=ADAM_BETAS, eps=ADAM_EPS)


def learning_rate(step, d_model: int, warmup: int, factor: float = 1.0):
    """lrate = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5); step may be a number or an array."""
    step = np.maximum(np.asarray(step, dtype=np.float64), 1.0)
    rate = factor * d_model**-0.5 * np.minimum(step**-0.5, step * warmup**-1.5)
    return float(rate) if rate.ndim == 0 else rate


def peak_learning_rate(d_model: int, warmup: int, factor: float = 1.0) -> float:
    """The schedule's top, reached at step = warmup: factor · (d_model · warmup)^−0.5."""
    return factor * (d_model * warmup) ** -0.5
