"""Scaled dot-product attention one visible step at a time: scores, scale, mask, softmax, weighted sum."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def softmax(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """Softmax along `axis`; −∞ gets weight 0 and a row that is all −∞ gets all zeros instead of NaN (0/0)."""
    s = np.asarray(scores, dtype=np.float64)
    top = np.max(s, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)  # an all −∞ row would otherwise compute −∞ − (−∞) = NaN
    e = np.exp(s - top)
    total = e.sum(axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def apply_mask(scores: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """Scores with −∞ where `mask` is False (True = may attend), as in the paper's §3.2.3."""
    scores = np.asarray(scores, dtype=np.float64)
    if mask is None:
        return scores.copy()
    mask = np.asarray(mask, dtype=bool)
    try:
        return np.where(mask, scores, -np.inf)
    except ValueError:
        raise ValueError(f"mask {mask.shape} does not fit scores {scores.shape}: one entry per (query, key)") from None


@dataclass(frozen=True)
class AttentionSteps:
    """softmax(mask(QKᵀ / divisor)) V, with every intermediate kept for display."""

    scores: np.ndarray  # (Tq, Tk) raw q·k
    divisor: float  # √d_k
    scaled: np.ndarray  # (Tq, Tk) scores / divisor
    masked: np.ndarray  # (Tq, Tk) scaled, −∞ where masked
    weights: np.ndarray  # (Tq, Tk) rows sum to 1 (or 0 for a fully masked row)
    output: np.ndarray  # (Tq, d_v) weights @ V


def attention_steps(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None = None, d_k: float | None = None
) -> AttentionSteps:
    """q: (Tq, d_k), k: (Tk, d_k), v: (Tk, d_v); `d_k` overrides the width used for the √d_k divisor."""
    q, k, v = (np.atleast_2d(np.asarray(a, dtype=np.float64)) for a in (q, k, v))
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"q and k need the same width to take dot products: q is {q.shape}, k is {k.shape}")
    if k.shape[0] != v.shape[0]:
        raise ValueError(f"k and v need one row per key: k is {k.shape}, v is {v.shape}")
    scores = q @ k.T
    divisor = math.sqrt(q.shape[1] if d_k is None else d_k)
    scaled = scores / divisor
    masked = apply_mask(scaled, mask)
    weights = softmax(masked)
    return AttentionSteps(scores, divisor, scaled, masked, weights, weights @ v)
