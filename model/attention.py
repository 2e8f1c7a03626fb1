"""Scaled dot-product and multi-head attention that hand their weights back.

Nothing here is stored on a module during forward: weights and the key/value
cache travel in return values, so one model object can serve many threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


def scaled_dot_product_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    mask: torch.Tensor | None = None,
    dropout_p: float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(q kᵀ / √d_k) v, returning (output, weights).

    q: (..., Tq, d_k); k, v: (..., Tk, d_k); mask: bool, True = may attend,
    broadcastable to (..., Tq, Tk). A query whose every key is masked gets an
    all-zero weight row (and a zero output) instead of NaN. Dropout (training
    only) acts on the weights that mix v; the returned weights are undropped.
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (..., Tq, Tk)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        # softmax over a row of only -inf is 0/0; such a query attends to nothing.
        weights = weights.masked_fill(~mask.any(dim=-1, keepdim=True), 0.0)
    mixing = F.dropout(weights, dropout_p) if dropout_p > 0 else weights
    return mixing @ v, weights


@dataclass
class KVCache:
    """Keys/values of one attention layer for the positions decoded so far."""

    k: torch.Tensor  # (batch, heads, t, d_head)
    v: torch.Tensor  # (batch, heads, t, d_head)

    def select(self, index: torch.Tensor) -> "KVCache":
        """Reorder the batch (beam search keeps some hypotheses, drops others)."""
        return KVCache(self.k.index_select(0, index), self.v.index_select(0, index))


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, t, d_head)

    def project(self, query: torch.Tensor, memory: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Per-head Q from `query` and K, V from `memory`: what the teaching pages recompute by hand."""
        return (
            self.split_heads(self.q_proj(query)),
            self.split_heads(self.k_proj(memory)),
            self.split_heads(self.v_proj(memory)),
        )

    def forward(
        self,
        query: torch.Tensor,  # (batch, Tq, d_model)
        memory: torch.Tensor | None,  # (batch, Tk_new, d_model): positions not yet in `cache`; None with extend_cache=False
        mask: torch.Tensor | None,  # bool (batch | 1, 1, Tq, Tk)
        cache: KVCache | None = None,
        extend_cache: bool = True,
        need_weights: bool = True,
    ) -> tuple[torch.Tensor, torch.Tensor | None, KVCache]:
        """Returns (output (batch, Tq, d_model), weights (batch, heads, Tq, Tk) or None, cache).

        Self-attention while decoding appends this step's keys/values to the
        cache (`extend_cache=True`); cross-attention passes its precomputed
        cache with `extend_cache=False` and no `memory`.
        Without `need_weights` (search and training, which never look at the
        weights) torch's fused kernel does the same arithmetic in one op; every
        query there has a key it may attend to, so no row is fully masked.
        """
        q = self.split_heads(self.q_proj(query))
        if cache is not None and not extend_cache:
            k, v = cache.k, cache.v
        else:
            k, v = self.split_heads(self.k_proj(memory)), self.split_heads(self.v_proj(memory))
            if cache is not None:
                k, v = torch.cat([cache.k, k], dim=2), torch.cat([cache.v, v], dim=2)
        dropout = self.dropout if self.training else 0.0
        if need_weights:
            out, weights = scaled_dot_product_attention(q, k, v, mask, dropout)
        else:
            out, weights = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout), None
        b, _, tq, _ = out.shape
        out = out.transpose(1, 2).reshape(b, tq, self.n_heads * self.d_head)
        return self.out_proj(out), weights, KVCache(k, v)

    def memory_cache(self, memory: torch.Tensor) -> KVCache:
        """Keys/values of the encoder output, computed once per sentence for cross-attention."""
        return KVCache(self.split_heads(self.k_proj(memory)), self.split_heads(self.v_proj(memory)))

