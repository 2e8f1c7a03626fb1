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
    """Per-head keys and values of one attention layer: of the positions decoded so far, in a cache."""

    k: torch.Tensor  # (batch, heads, t, d_head)
    v: torch.Tensor  # (batch, heads, t, d_head)

    def select(self, index: torch.Tensor) -> "KVCache":
        """Reorder the batch (beam search keeps some hypotheses, drops others)."""
        return KVCache(self.k.index_select(0, index), self.v.index_select(0, index))


@dataclass(frozen=True, slots=True)
class AttentionParams:
    """One attention layer's tensors, read off its module once (once per sentence when decoding).

    A decoding step then reads plain fields: going through nn.Module attribute lookups and calls
    instead costs about a fifth of a step (benchmarks/run.py).
    """

    wq: torch.Tensor  # (d_model, d_model), as nn.Linear stores it: q = x wqᵀ + bq
    bq: torch.Tensor
    wk: torch.Tensor
    bk: torch.Tensor
    wv: torch.Tensor
    bv: torch.Tensor
    wo: torch.Tensor
    bo: torch.Tensor
    heads: int
    dropout: float  # 0 outside training


def split_heads(x: torch.Tensor, heads: int) -> torch.Tensor:
    """(batch, t, d_model) → (batch, heads, t, d_head)."""
    b, t, d = x.shape
    return x.view(b, t, heads, d // heads).transpose(1, 2)


def keys_values(p: AttentionParams, memory: torch.Tensor) -> KVCache:
    """Per-head keys and values of `memory` (batch, T, d_model): each (batch, heads, T, d_head)."""
    return KVCache(split_heads(F.linear(memory, p.wk, p.bk), p.heads), split_heads(F.linear(memory, p.wv, p.bv), p.heads))


def multi_head_attention(
    p: AttentionParams,
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
    q = split_heads(F.linear(query, p.wq, p.bq), p.heads)
    if cache is not None and not extend_cache:
        kv = cache
    else:
        kv = keys_values(p, memory)
        if cache is not None:
            kv = KVCache(torch.cat([cache.k, kv.k], dim=2), torch.cat([cache.v, kv.v], dim=2))
    if need_weights:
        out, weights = scaled_dot_product_attention(q, kv.k, kv.v, mask, p.dropout)
    else:
        out, weights = F.scaled_dot_product_attention(q, kv.k, kv.v, attn_mask=mask, dropout_p=p.dropout), None
    b, _, tq, _ = out.shape
    return F.linear(out.transpose(1, 2).reshape(b, tq, -1), p.wo, p.bo), weights, kv


class MultiHeadAttention(nn.Module):
    """The parameters of one attention layer; the arithmetic is multi_head_attention()."""

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def params(self) -> AttentionParams:
        q, k, v, o = self.q_proj, self.k_proj, self.v_proj, self.out_proj
        return AttentionParams(q.weight, q.bias, k.weight, k.bias, v.weight, v.bias, o.weight, o.bias,
                               self.n_heads, self.dropout if self.training else 0.0)

    def project(self, query: torch.Tensor, memory: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Per-head Q from `query` and K, V from `memory`: what the teaching pages recompute by hand."""
        p = self.params()
        kv = keys_values(p, memory)
        return split_heads(F.linear(query, p.wq, p.bq), p.heads), kv.k, kv.v

    def forward(
        self,
        query: torch.Tensor,
        memory: torch.Tensor | None,
        mask: torch.Tensor | None,
        cache: KVCache | None = None,
        extend_cache: bool = True,
        need_weights: bool = True,
    ) -> tuple[torch.Tensor, torch.Tensor | None, KVCache]:
        """multi_head_attention() with this module's parameters."""
        return multi_head_attention(self.params(), query, memory, mask, cache, extend_cache, need_weights)
