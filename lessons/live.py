"""The attention arithmetic redone by hand on one head of the real model, and the check against its own weights.

The page gets q, k, v and the mask from TranslationResult.head (what the model's
own projections gave in its forward pass); everything after that happens here, in NumPy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attention_math import AttentionSteps, attention_steps


@dataclass(frozen=True)
class QueryWalk:
    """One query token's attention in one head, step by step."""

    query_index: int
    q: np.ndarray  # (d_head,)
    k: np.ndarray  # (Tk, d_head)
    v: np.ndarray  # (Tk, d_head)
    allowed: np.ndarray  # (Tk,) bool
    steps: AttentionSteps  # a single query row
    model_weights: np.ndarray  # (Tk,) what the model returned

    @property
    def contributions(self) -> np.ndarray:
        """(Tk, d_head) weight_j · v_j: the output is their sum over keys."""
        return self.steps.weights[0][:, None] * self.v

    @property
    def max_difference(self) -> float:
        return float(np.abs(self.steps.weights[0] - self.model_weights).max())


def _check(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray, model_weights: np.ndarray) -> None:
    tq, tk = q.shape[0], k.shape[0]
    if mask.shape != (tq, tk) or model_weights.shape != (tq, tk):
        raise ValueError(
            f"mask {mask.shape} and weights {model_weights.shape} must both be (queries, keys) = ({tq}, {tk})"
        )
    if v.shape[0] != tk:
        raise ValueError(f"v needs one row per key: v is {v.shape}, k is {k.shape}")


def walk_query(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray, model_weights: np.ndarray, query_index: int
) -> QueryWalk:
    """q: (Tq, d_head); k, v: (Tk, d_head); mask, model_weights: (Tq, Tk)."""
    q, k, v, mask, model_weights = (np.asarray(a) for a in (q, k, v, mask, model_weights))
    _check(q, k, v, mask, model_weights)
    if not 0 <= query_index < q.shape[0]:
        raise ValueError(f"query_index must be in 0…{q.shape[0] - 1}, got {query_index}")
    row = slice(query_index, query_index + 1)
    steps = attention_steps(q[row], k, v, mask[row])
    return QueryWalk(query_index, q[query_index], k, v, mask[query_index], steps, model_weights[query_index])


def recompute_weights(q: np.ndarray, k: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """(Tq, Tk) softmax(mask(q kᵀ / √d_head)) for every query at once."""
    return attention_steps(q, k, k, mask).weights  # the values never change the weights; k stands in for v
