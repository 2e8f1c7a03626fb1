"""Encoder and decoder layers, post-norm as in the paper: LayerNorm(x + Sublayer(x))."""

from __future__ import annotations

import torch
from torch import nn

from .attention import KVCache, MultiHeadAttention


class FeedForward(nn.Module):
    """FFN(x) = max(0, x W1 + b1) W2 + b2, applied to each position alone."""

    def __init__(self, d_model: int, d_ff: int, dropout: float) -> None:
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear2(self.dropout(torch.relu(self.linear1(x))))


class EncoderLayer(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int, dropout: float) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ffn = FeedForward(d_model, d_ff, dropout)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(
        self, x: torch.Tensor, mask: torch.Tensor, need_weights: bool = True
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """x: (batch, S, d_model); mask: (batch, 1, 1, S). Returns (x, weights (batch, heads, S, S) or None)."""
        attended, weights, _ = self.self_attn(x, x, mask, need_weights=need_weights)
        x = self.norm1(x + self.dropout(attended))
        x = self.norm2(x + self.dropout(self.ffn(x)))
        return x, weights


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int, dropout: float) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ffn = FeedForward(d_model, d_ff, dropout)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(
        self,
        x: torch.Tensor,  # (batch, T, d_model): only the new positions when decoding incrementally
        self_mask: torch.Tensor | None,  # (batch | 1, 1, T, t_past + T); None: every key visible
        cross_mask: torch.Tensor | None,  # (batch, 1, 1, S); None: no padding
        self_cache: KVCache | None,
        cross_cache: KVCache,
        need_weights: bool = True,
    ) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None, torch.Tensor, KVCache]:
        """Returns (x, self weights, cross weights, input to cross-attention, extended self cache)."""
        attended, self_weights, self_cache = self.self_attn(x, x, self_mask, self_cache, need_weights=need_weights)
        x = self.norm1(x + self.dropout(attended))
        cross_input = x
        attended, cross_weights, _ = self.cross_attn(
            x, None, cross_mask, cross_cache, extend_cache=False, need_weights=need_weights
        )
        x = self.norm2(x + self.dropout(attended))
        x = self.norm3(x + self.dropout(self.ffn(x)))
        return x, self_weights, cross_weights, cross_input, self_cache
