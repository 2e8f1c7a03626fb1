"""The "Thinking Machines" example of the Illustrated Transformer, as the study notes retell it.

The notes give only the results: q1·k1 = 112, q1·k2 = 96, divided by 8 → 14 and 12,
softmax → 0.88 and 0.12, z1 = 0.88·v1 + 0.12·v2. They never give the embeddings
or the weight matrices, so the small integer matrices below were chosen (by a
search over small integers) for the sole purpose of reproducing 112 and 96
exactly; W_V is free, any 4×3 matrix works. Everything else is computed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .attention_math import AttentionSteps, attention_steps

WORDS = ("Thinking", "Machines")
X = np.array([[2, 2, 1, 1], [0, 1, 0, 2]])  # (2 words, 4): x1, x2
W_Q = np.array([[3, 0, 2], [0, 1, 3], [1, 1, 0], [1, 3, 0]])  # (4, 3)
W_K = np.array([[1, 0, 1], [1, 0, 0], [2, 0, 0], [1, 1, 3]])
W_V = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 1, 0]])
# The paper's d_k: d_model 512 split over 8 heads. The Illustrated Transformer divides by
# √64 = 8 although its toy vectors have 3 numbers, and the notes copy that.
PAPER_D_MODEL, PAPER_HEADS = 512, 8
PAPER_D_K = PAPER_D_MODEL // PAPER_HEADS


@dataclass(frozen=True)
class WorkedExample:
    x: np.ndarray  # (2, 4)
    w_q: np.ndarray  # (4, 3)
    w_k: np.ndarray
    w_v: np.ndarray
    q: np.ndarray  # (2, 3) rows q1, q2
    k: np.ndarray
    v: np.ndarray
    steps: AttentionSteps  # both words at once: the matrix form softmax(QKᵀ/√d_k)V

    @property
    def scores(self) -> np.ndarray:
        """q1·k1, q1·k2: the first query's raw scores."""
        return self.steps.scores[0]

    @property
    def scaled(self) -> np.ndarray:
        return self.steps.scaled[0]

    @property
    def weights(self) -> np.ndarray:
        return self.steps.weights[0]

    @property
    def z1(self) -> np.ndarray:
        return self.steps.output[0]

    @property
    def divisor(self) -> float:
        return self.steps.divisor


def thinking_machines(d_k: int = PAPER_D_K) -> WorkedExample:
    """The example with the divisor √d_k; the notes' 8 is √64, pass d_k=3 to see the toy vectors' own width."""
    q, k, v = X @ W_Q, X @ W_K, X @ W_V
    return WorkedExample(X, W_Q, W_K, W_V, q, k, v, attention_steps(q, k, v, d_k=d_k))


def dot_terms(a: np.ndarray, b: np.ndarray) -> list[tuple[float, float]]:
    """The pairs a_i, b_i whose products add up to a·b, for writing the sum out."""
    return [(float(x), float(y)) for x, y in zip(np.ravel(a), np.ravel(b))]


def softmax_of_two(a: float, b: float) -> tuple[float, float]:
    """e^a / (e^a + e^b) written as 1 / (1 + e^(b−a)): the form that shows only the difference matters."""
    first = 1.0 / (1.0 + math.exp(b - a))
    return first, 1.0 - first
