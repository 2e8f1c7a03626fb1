"""Why scores are divided by √d_k: the variance of q·k grows with d_k, and big scores saturate the softmax.

For q, k with independent N(0, 1) entries, q·k is a sum of d_k products of
variance 1, so Var(q·k) = d_k; dividing by √d_k brings it back to 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attention_math import softmax

D_K_CHOICES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
SAMPLES = 4000  # random (q, k) pairs per d_k for the variance
N_KEYS = 8  # keys per random query in the saturation demo
TRIALS = 500  # random queries averaged over


def dot_product_variance(d_ks: tuple[int, ...] = D_K_CHOICES, samples: int = SAMPLES, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Sampled Var(q·k) and Var(q·k/√d_k) for each d_k, q and k with N(0, 1) entries."""
    rng = np.random.default_rng(seed)
    raw, scaled = [], []
    for d in d_ks:
        if d < 1:
            raise ValueError(f"d_k must be at least 1, got {d}")
        dots = np.einsum("nd,nd->n", rng.standard_normal((samples, d)), rng.standard_normal((samples, d)))
        raw.append(dots.var())
        scaled.append((dots / np.sqrt(d)).var())
    return np.array(raw), np.array(scaled)


@dataclass(frozen=True)
class Saturation:
    """One query against n_keys random keys, softmax with and without the √d_k."""

    d_k: int
    raw_scores: np.ndarray  # (n_keys,)
    raw_weights: np.ndarray
    scaled_weights: np.ndarray

    @staticmethod
    def largest_gradient(weights: np.ndarray) -> float:
        """max_i ∂softmax_i/∂z_i = w_i(1 − w_i): near 0 once one weight is near 1 (the softmax has saturated)."""
        return float((weights * (1 - weights)).max())


def saturation(d_k: int, n_keys: int = N_KEYS, seed: int = 0) -> Saturation:
    if d_k < 1 or n_keys < 2:
        raise ValueError(f"need d_k ≥ 1 and at least 2 keys, got d_k={d_k}, n_keys={n_keys}")
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(d_k)
    k = rng.standard_normal((n_keys, d_k))
    scores = k @ q
    return Saturation(d_k, scores, softmax(scores), softmax(scores / np.sqrt(d_k)))


def mean_max_weight(d_k: int, n_keys: int = N_KEYS, trials: int = TRIALS, seed: int = 0) -> tuple[float, float]:
    """Average largest softmax weight over many random queries: (unscaled, scaled). 1/n_keys would be uniform."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    scores = (q * k).sum(-1)  # (trials, n_keys)
    return float(softmax(scores).max(-1).mean()), float(softmax(scores / np.sqrt(d_k)).max(-1).mean())


@dataclass(frozen=True)
class EmbeddingScale:
    """Typical lengths of what layer 1 adds up: an embedding row, with and without × √d_model, and a PE row."""

    raw: float  # median row norm of the embedding table (the padding row left out)
    scaled: float  # the same × √d_model
    positional: float  # every PE row has length √(d_model / 2)

    def ratio(self, scaled: bool) -> float:
        """Embedding length over PE length: how much of layer 1's input is the word rather than its position."""
        return (self.scaled if scaled else self.raw) / self.positional


def embedding_scale(table: np.ndarray, pad_id: int | None = None) -> EmbeddingScale:
    """table: (vocab, d_model) embedding weights as trained."""
    rows = np.asarray(table, dtype=np.float64)
    if pad_id is not None:
        rows = np.delete(rows, pad_id, axis=0)  # the padding row is all zeros: it is never a word
    d_model = rows.shape[1]
    raw = float(np.median(np.linalg.norm(rows, axis=1)))
    return EmbeddingScale(raw, raw * np.sqrt(d_model), float(np.sqrt(d_model / 2)))
