"""Every tensor's shape in multi-head attention, for any batch, lengths, hidden size and head count.

The study note's example (seed 001): batch 64, 12 query words, 10 key words,
hidden 300, 6 heads → 300 / 6 = 50 numbers per head.
"""

from __future__ import annotations

from dataclasses import dataclass

DOC_EXAMPLE = {"batch": 64, "query_len": 12, "key_len": 10, "hidden": 300, "heads": 6}
# The note's first, library-based example passes embed_dim=299 for those 300-number vectors (a slip).
DOC_BAD_EMBED_DIM = 299


@dataclass(frozen=True)
class ShapeStep:
    key: str  # names the step; the pages translate it
    tensor: str  # the tensor's name as in the notes' code
    code: str  # the PyTorch that produces it
    shape: tuple[int, ...]


def head_width(hidden: int, heads: int) -> int:
    """hidden / heads, which must be whole: the hidden vector is cut into `heads` equal slices."""
    if hidden < 1 or heads < 1:
        raise ValueError(f"hidden and heads must be positive, got hidden={hidden}, heads={heads}")
    if hidden % heads:
        raise ValueError(
            f"hidden={hidden} is not divisible by heads={heads} ({hidden}/{heads} = {hidden / heads:.2f}): "
            f"each head takes an equal slice of the hidden vector; pick heads from {valid_heads(hidden)}"
        )
    return hidden // heads


def valid_heads(hidden: int) -> list[int]:
    """Head counts that split `hidden` evenly (its divisors)."""
    return [h for h in range(1, hidden + 1) if hidden % h == 0]


def multihead_shapes(batch: int, query_len: int, key_len: int, hidden: int, heads: int) -> list[ShapeStep]:
    """Projection → split → transpose → scores → weights → weighted sum → concat → output projection."""
    for name, value in (("batch", batch), ("query_len", query_len), ("key_len", key_len)):
        if value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")
    d = head_width(hidden, heads)
    b, lq, lk, h = batch, query_len, key_len, heads
    return [
        ShapeStep("query_in", "query", "query", (b, lq, hidden)),
        ShapeStep("key_in", "key, value", "key, value", (b, lk, hidden)),
        ShapeStep("project_q", "Q", "w_q(query)", (b, lq, hidden)),
        ShapeStep("project_kv", "K, V", "w_k(key), w_v(value)", (b, lk, hidden)),
        ShapeStep("split_q", "Q", f"Q.view({b}, {lq}, {h}, {d})", (b, lq, h, d)),
        ShapeStep("transpose_q", "Q", "Q.permute(0, 2, 1, 3)", (b, h, lq, d)),
        ShapeStep("split_kv", "K, V", f"K.view({b}, {lk}, {h}, {d}).permute(0, 2, 1, 3)", (b, h, lk, d)),
        ShapeStep("scores", "scores", "Q @ K.transpose(-2, -1) / √d", (b, h, lq, lk)),
        ShapeStep("weights", "attention", "softmax(scores, dim=-1)", (b, h, lq, lk)),
        ShapeStep("heads_out", "x", "attention @ V", (b, h, lq, d)),
        ShapeStep("transpose_back", "x", "x.permute(0, 2, 1, 3)", (b, lq, h, d)),
        ShapeStep("concat", "x", f"x.reshape({b}, {lq}, {h * d})", (b, lq, hidden)),
        ShapeStep("output", "output", "fc(x)  # W_O", (b, lq, hidden)),
    ]
