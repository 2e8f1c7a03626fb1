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


def clearest_layer(*weights) -> int:
    """The layer whose maps, each layer's heads averaged, are least flat, for a page to open on (a map of nearly even
    rows shows little): the lowest mean entropy of their rows, each relative to an even row over all Tk keys (1 = even,
    0 = one key), averaged over the (layers, heads, Tq, Tk) arrays given. Where one array has fewer layers, its last
    stands for the ones it lacks (as a page shows it); the first layer on a tie."""
    def flatness(w) -> float:
        rows = np.asarray(w, dtype=np.float64).mean(axis=0)  # (Tq, Tk): the heads averaged
        entropy = -(rows * np.log(np.where(rows > 0, rows, 1.0))).sum(axis=-1)
        return float(entropy.mean() / np.log(max(rows.shape[-1], 2)))

    layers = max(w.shape[0] for w in weights)
    mean = [np.mean([flatness(w[min(layer, w.shape[0] - 1)]) for w in weights]) for layer in range(layers)]
    return int(np.argmin(mean))
