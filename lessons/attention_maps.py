"""What one attention map shows: which layer and head (or their average), which tokens are its rows and columns,
and which cells the decoder's causal mask hides.

Every page that draws a map, and the benchmark that times the explorer's figures, select and label it here.
"""

from __future__ import annotations

import numpy as np

ALL = -1  # a layer or head choice meaning "average over all of them"


def pick(weights, layer: int, head: int):
    """A (layers, heads, …) array reduced to one layer/head; ALL averages over that axis."""
    w = weights if layer == ALL else weights[layer : layer + 1]
    w = w if head == ALL else w[:, head : head + 1]
    return w.mean(axis=(0, 1))


def axis_tokens(source: list[str], target: list[str], kind: str) -> tuple[list[str], list[str]]:
    """(query tokens, key tokens) of a map of `kind` — rows, then columns — as TranslationResult.axis_tokens."""
    return {"encoder_self": (source, source), "decoder_self": (target, target), "cross": (target, source)}[kind]


def shown_mask(kind: str, tq: int, tk: int) -> np.ndarray | None:
    """(Tq, Tk) True where a query may look, for a map to grey out the rest: the decoder's causal mask, else None."""
    return np.tril(np.ones((tq, tk), dtype=bool)) if kind == "decoder_self" else None


def strongest_key(weights, layer: int, head: int, query: int) -> int:
    """The key that query row `query` of the map pick(weights, layer, head) weighs most (the first, on a tie)."""
    return int(np.argmax(pick(weights, layer, head)[query]))
