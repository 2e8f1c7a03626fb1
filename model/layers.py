"""Encoder and decoder layers, post-norm as in the paper: LayerNorm(x + Sublayer(x)).

The modules hold the parameters (and name them in the state_dict); encoder_layer() and
decoder_layer() do the arithmetic on a params() bundle read off a module once, once per
sentence when decoding (see attention.AttentionParams for why).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .attention import AttentionParams, KVCache, MultiHeadAttention, multi_head_attention

NormParams = tuple[torch.Tensor, torch.Tensor, float]  # LayerNorm's weight, bias and eps


def dropout(x: torch.Tensor, p: float) -> torch.Tensor:
    """Dropout with probability p (0 outside training, where not even a pass-through op is run)."""
    return F.dropout(x, p) if p > 0 else x


def add_norm(x: torch.Tensor, sublayer_out: torch.Tensor, norm: NormParams, p_drop: float) -> torch.Tensor:
    """LayerNorm(x + Dropout(Sublayer(x))): the residual connection around every sublayer."""
    weight, bias, eps = norm
    return F.layer_norm(x + dropout(sublayer_out, p_drop), weight.shape, weight, bias, eps)


def _norm(norm: nn.LayerNorm) -> NormParams:
    return norm.weight, norm.bias, norm.eps


@dataclass(frozen=True, slots=True)
class FeedForwardParams:
    w1: torch.Tensor  # (d_ff, d_model)
    b1: torch.Tensor
    w2: torch.Tensor  # (d_model, d_ff)
    b2: torch.Tensor


def feed_forward(p: FeedForwardParams, x: torch.Tensor, p_drop: float) -> torch.Tensor:
    """FFN(x) = max(0, x W1 + b1) W2 + b2, applied to each position alone."""
    return F.linear(dropout(torch.relu(F.linear(x, p.w1, p.b1)), p_drop), p.w2, p.b2)


class FeedForward(nn.Module):
    def __init__(self, d_model: int, d_ff: int) -> None:
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def params(self) -> FeedForwardParams:
        return FeedForwardParams(self.linear1.weight, self.linear1.bias, self.linear2.weight, self.linear2.bias)


@dataclass(frozen=True, slots=True)
class EncoderLayerParams:
    self_attn: AttentionParams
    ffn: FeedForwardParams
    norms: tuple[NormParams, NormParams]
    dropout: float  # 0 outside training


def encoder_layer(
    p: EncoderLayerParams, x: torch.Tensor, mask: torch.Tensor, need_weights: bool = True
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """x: (batch, S, d_model); mask: (batch, 1, 1, S). Returns (x, weights (batch, heads, S, S) or None)."""
    attended, weights, _ = multi_head_attention(p.self_attn, x, x, mask, need_weights=need_weights)
    x = add_norm(x, attended, p.norms[0], p.dropout)
    x = add_norm(x, feed_forward(p.ffn, x, p.dropout), p.norms[1], p.dropout)
    return x, weights


class EncoderLayer(nn.Module):
    """The parameters of one encoder layer; the arithmetic is encoder_layer()."""

    def __init__(self, d_model: int, n_heads: int, d_ff: int, dropout: float) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ffn = FeedForward(d_model, d_ff)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = dropout

    def params(self) -> EncoderLayerParams:
        return EncoderLayerParams(self.self_attn.params(), self.ffn.params(), (_norm(self.norm1), _norm(self.norm2)),
                                  self.dropout if self.training else 0.0)


@dataclass(frozen=True, slots=True)
class DecoderLayerParams:
    self_attn: AttentionParams
    cross_attn: AttentionParams
    ffn: FeedForwardParams
    norms: tuple[NormParams, NormParams, NormParams]
    dropout: float  # 0 outside training


def decoder_layer(
    p: DecoderLayerParams,
    x: torch.Tensor,  # (batch, T, d_model): only the new positions when decoding incrementally
    self_mask: torch.Tensor | None,  # (batch | 1, 1, T, t_past + T); None: every key visible
    cross_mask: torch.Tensor | None,  # (batch, 1, 1, S); None: no padding
    self_cache: KVCache | None,
    cross_cache: KVCache,
    need_weights: bool = True,
) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None, torch.Tensor, KVCache]:
    """Returns (x, self weights, cross weights, input to cross-attention, extended self cache)."""
    attended, self_weights, self_cache = multi_head_attention(
        p.self_attn, x, x, self_mask, self_cache, need_weights=need_weights
    )
    x = add_norm(x, attended, p.norms[0], p.dropout)
    cross_input = x
    attended, cross_weights, _ = multi_head_attention(
        p.cross_attn, x, None, cross_mask, cross_cache, extend_cache=False, need_weights=need_weights
    )
    x = add_norm(x, attended, p.norms[1], p.dropout)
    x = add_norm(x, feed_forward(p.ffn, x, p.dropout), p.norms[2], p.dropout)
    return x, self_weights, cross_weights, cross_input, self_cache


class DecoderLayer(nn.Module):
    """The parameters of one decoder layer; the arithmetic is decoder_layer()."""

    def __init__(self, d_model: int, n_heads: int, d_ff: int, dropout: float) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ffn = FeedForward(d_model, d_ff)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.dropout = dropout

    def params(self) -> DecoderLayerParams:
        return DecoderLayerParams(
            self.self_attn.params(), self.cross_attn.params(), self.ffn.params(),
            (_norm(self.norm1), _norm(self.norm2), _norm(self.norm3)), self.dropout if self.training else 0.0,
        )
