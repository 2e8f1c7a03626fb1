"""Scaled dot-product attention and multi-head attention (paper §3.2), handing their weights back.

Nothing is stored on a module during forward: weights, per-head q/k/v and the
key/value cache travel in return values, so one model object serves many threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .patch import Replace, apply


def scaled_dot_product_attention(
    q: torch.Tensor,  # (..., Tq, d_k)
    k: torch.Tensor,  # (..., Tk, d_k)
    v: torch.Tensor,  # (..., Tk, d_v)
    mask: torch.Tensor | None = None,  # bool, True = may attend, broadcastable to (..., Tq, Tk)
    dropout_p: float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V, returning (output (..., Tq, d_v), weights (..., Tq, Tk)).

    A query whose every key is masked gets an all-zero weight row (and a zero
    output) instead of NaN. Dropout (training only) acts on the weights that
    mix V; the returned weights are the undropped ones.
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
    """Per-head keys and values one attention layer attends to: computed once, reused every decoding step."""

    k: torch.Tensor  # (batch, heads, Tk, d_head)
    v: torch.Tensor  # (batch, heads, Tk, d_head)

    def extend(self, new: "KVCache") -> "KVCache":
        """The cache with the keys and values of newly decoded positions appended (a new object)."""
        return KVCache(torch.cat([self.k, new.k], dim=2), torch.cat([self.v, new.v], dim=2))

    def select(self, index: torch.Tensor) -> "KVCache":
        """Reorder the batch (beam search keeps some hypotheses, drops others)."""
        return KVCache(self.k.index_select(0, index), self.v.index_select(0, index))


@dataclass
class AttentionTrace:
    """What one attention layer computed, per head: what the teaching pages redo by hand."""

    q: torch.Tensor  # (batch, heads, Tq, d_head)
    k: torch.Tensor  # (batch, heads, Tk, d_head)
    v: torch.Tensor  # (batch, heads, Tk, d_head)
    weights: torch.Tensor  # (batch, heads, Tq, Tk)
    # What each head hands W_O: softmax(QKᵀ/√d_k)V after any knock-out or patch (what activation patching replaces)
    context: torch.Tensor | None = None  # (batch, heads, Tq, d_head)


class MultiHeadAttention(nn.Module):
    """MultiHead(Q, K, V) = Concat(head_1, …, head_h) W_O, head_i = Attention(Q W_Q^i, K W_K^i, V W_V^i).

    The h heads' projections are stored side by side in one d_model × d_model
    matrix each (nn.Linear, so with biases); split_heads() cuts them apart.
    """

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        """(batch, T, d_model) → (batch, heads, T, d_head)."""
        b, t, d = x.shape
        return x.view(b, t, self.n_heads, d // self.n_heads).transpose(1, 2)

    def keys_values(self, memory: torch.Tensor) -> KVCache:
        """Per-head keys and values of `memory` (batch, Tk, d_model).

        Cross-attention calls this once per sentence on the encoder output; decoder
        self-attention once per step on the new position, extending its cache.
        """
        return KVCache(self.split_heads(self.k_proj(memory)), self.split_heads(self.v_proj(memory)))

    def forward(
        self,
        query: torch.Tensor,  # (batch, Tq, d_model)
        kv: KVCache,  # keys and values to attend to: (batch, heads, Tk, d_head) each
        mask: torch.Tensor | None = None,  # bool (batch | 1, 1, Tq, Tk); None: every key visible
        trace: bool = False,
        keep: torch.Tensor | None = None,  # (heads,) 1 = keep the head, 0 = knock it out; None: keep all
        patch: Replace | None = None,  # heads' outputs (batch | 1, heads, Tq, d_head) that stand in for theirs
    ) -> tuple[torch.Tensor, AttentionTrace | None]:
        """Returns (output (batch, Tq, d_model), the per-head trace when `trace`).

        A knocked-out head still computes its weights (the trace shows them) but its output is zeroed
        before W_O, so nothing it attended to reaches the next layer (Michel et al. 2019's head mask).
        A patched head's output is replaced, where the patch says, by the given one (activation patching).
        """
        q = self.split_heads(self.q_proj(query))  # (batch, heads, Tq, d_head)
        p = self.dropout if self.training else 0.0
        if trace:
            out, weights = scaled_dot_product_attention(q, kv.k, kv.v, mask, p)
        else:
            # Search and training never look at the weights: torch's fused kernel does the same
            # arithmetic in one op (every query there has a key it may attend to).
            out, weights = F.scaled_dot_product_attention(q, kv.k, kv.v, attn_mask=mask, dropout_p=p), None
        if keep is not None:
            out = out * keep.view(1, -1, 1, 1).to(out.dtype)  # (batch, heads, Tq, d_head)
        context = apply(patch, out)
        b, _, tq, _ = context.shape
        out = self.out_proj(context.transpose(1, 2).reshape(b, tq, -1))  # heads side by side again, then W_O
        return out, AttentionTrace(q, kv.k, kv.v, weights, context) if trace else None
