"""PyTorch's own attention layer, quoted beside the paper's (attention.py): the multi-head page shows what the
library says when note 001's first example builds it with the wrong sizes. Not part of the model."""

from __future__ import annotations

import torch


def library_refusal(embed_dim: int, batch: int, query_len: int, key_len: int, hidden: int) -> str:
    """What PyTorch's own nn.MultiheadAttention says when embed_dim does not match the vectors ("" if it runs).

    Note 001's first example builds it so; the multi-head page quotes the library's own words.
    """
    query, key = torch.rand(query_len, batch, hidden), torch.rand(key_len, batch, hidden)
    try:
        torch.nn.MultiheadAttention(embed_dim, 1)(query, key, key)
    except (AssertionError, RuntimeError) as exc:
        return str(exc)
    return ""
