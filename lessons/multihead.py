"""Why several heads: one softmax row is one distribution over the keys, so one head cannot put (nearly) all its
weight on two keys at once; two heads can, each on its own key, and the layer concatenates both outputs."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np


@dataclass(frozen=True)
class HeadPair:
    """Two heads of one layer, for one query, whose strongest keys lie furthest apart."""

    query: int
    heads: tuple[int, int]  # 0-based, the lower first
    rows: np.ndarray  # (2, Tk): the two heads' attention rows for `query`
    keys: tuple[int, int]  # each head's strongest key (argmax of its row)

    @property
    def average(self) -> np.ndarray:
        """(Tk,) what one head would have to write to cover both keys: half the weight on each, roughly."""
        return self.rows.mean(axis=0)

    def peaks(self) -> tuple[float, float]:
        """Each head's weight on its own strongest key."""
        return float(self.rows[0, self.keys[0]]), float(self.rows[1, self.keys[1]])


def most_different_heads(layer: np.ndarray) -> HeadPair:
    """layer: (heads, Tq, Tk) attention weights of one layer. Over every query and pair of heads, the pair whose
    argmax keys are furthest apart; ties go to the pair whose weaker peak is stronger (both heads decided)."""
    weights = np.asarray(layer, dtype=np.float64)
    if weights.ndim != 3 or weights.shape[0] < 2:
        raise ValueError(f"need (heads ≥ 2, queries, keys) weights, got shape {weights.shape}")
    top = weights.argmax(axis=2)  # (heads, Tq)
    best, best_score = None, None
    for q in range(weights.shape[1]):
        for a, b in combinations(range(weights.shape[0]), 2):
            score = (abs(int(top[a, q]) - int(top[b, q])), min(weights[a, q].max(), weights[b, q].max()))
            if best_score is None or score > best_score:
                best, best_score = (q, a, b), score
    q, a, b = best
    return HeadPair(q, (a, b), weights[[a, b], q], (int(top[a, q]), int(top[b, q])))
