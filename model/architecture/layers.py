"""One encoder layer and one decoder layer, post-norm as in the paper (§3.1): LayerNorm(x + Sublayer(x)).

With `trace=True` a layer also returns what each sublayer took and gave, so a
page can follow a sentence through it; the arithmetic is the same either way.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .attention import AttentionTrace, KVCache, MultiHeadAttention
from .config import ModelConfig
from .patch import Replace


class FeedForward(nn.Module):
    """FFN(x) = max(0, x W1 + b1) W2 + b2, applied to each position alone (§3.3).

    Marian models use swish, x·sigmoid(x), in place of max(0, x).
    """

    def __init__(self, d_model: int, d_ff: int, dropout: float, activation: str = "relu") -> None:
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)
        self.activation = {"relu": F.relu, "swish": F.silu}[activation]

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, T, d_model) → same
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


@dataclass
class EncoderLayerTrace:
    input: torch.Tensor  # (batch, S, d_model): what Q, K and V are projected from
    self_attn: AttentionTrace
    self_attn_out: torch.Tensor  # (batch, S, d_model): MultiHead(x, x, x)
    norm1: torch.Tensor  # LayerNorm(x + MultiHead(x, x, x))
    ffn_out: torch.Tensor  # FFN(norm1)
    output: torch.Tensor  # LayerNorm(norm1 + FFN(norm1))


class EncoderLayer(nn.Module):
    def __init__(self, c: ModelConfig) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(c.d_model, c.n_heads, c.attention_dropout_p)
        self.ffn = FeedForward(c.d_model, c.d_ff, c.activation_dropout_p, c.activation)
        self.norm1 = nn.LayerNorm(c.d_model)
        self.norm2 = nn.LayerNorm(c.d_model)
        self.dropout = nn.Dropout(c.dropout)  # on each sublayer's output, before the residual add (§5.4)

    def forward(
        self,
        x: torch.Tensor,  # (batch, S, d_model)
        mask: torch.Tensor | None,  # (batch, 1, 1, S): False at padding; None: no padding
        trace: bool = False,
        keep: torch.Tensor | None = None,  # (heads,) of self-attention: 0 knocks a head out
        patch: Replace | None = None,  # self-attention heads' outputs that stand in for theirs (patch.py)
    ) -> tuple[torch.Tensor, EncoderLayerTrace | None]:
        attended, attn_trace = self.self_attn(x, self.self_attn.keys_values(x), mask, trace, keep, patch)
        h = self.norm1(x + self.dropout(attended))
        ffn_out = self.ffn(h)
        out = self.norm2(h + self.dropout(ffn_out))
        return out, EncoderLayerTrace(x, attn_trace, attended, h, ffn_out, out) if trace else None


@dataclass
class DecoderLayerTrace:
    input: torch.Tensor  # (batch, T, d_model)
    self_attn: AttentionTrace  # masked self-attention
    self_attn_out: torch.Tensor
    norm1: torch.Tensor  # what cross-attention's queries are projected from
    cross_attn: AttentionTrace  # keys and values from the encoder output
    cross_attn_out: torch.Tensor
    norm2: torch.Tensor
    ffn_out: torch.Tensor
    output: torch.Tensor


class DecoderLayer(nn.Module):
    def __init__(self, c: ModelConfig) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(c.d_model, c.n_heads, c.attention_dropout_p)
        self.cross_attn = MultiHeadAttention(c.d_model, c.n_heads, c.attention_dropout_p)
        self.ffn = FeedForward(c.d_model, c.d_ff, c.activation_dropout_p, c.activation)
        self.norm1 = nn.LayerNorm(c.d_model)
        self.norm2 = nn.LayerNorm(c.d_model)
        self.norm3 = nn.LayerNorm(c.d_model)
        self.dropout = nn.Dropout(c.dropout)

    def forward(
        self,
        x: torch.Tensor,  # (batch, T, d_model): all positions, or only the new ones when `past` is given
        memory_kv: KVCache,  # cross-attention's keys/values of the encoder output, (batch, heads, S, d_head)
        self_mask: torch.Tensor | None,  # (1, 1, T, t_past + T) causal; None: one new position sees all
        cross_mask: torch.Tensor | None,  # (batch, 1, 1, S): False at source padding; None: no padding
        past: KVCache | None = None,  # self-attention keys/values of earlier positions (incremental decoding)
        trace: bool = False,
        keep: tuple[torch.Tensor, torch.Tensor] | None = None,  # (heads,) each of self and cross: 0 knocks out
        patch: tuple[Replace | None, Replace | None] = (None, None),  # self's and cross's heads' outputs, x's positions
    ) -> tuple[torch.Tensor, KVCache, DecoderLayerTrace | None]:
        """Returns (output, self-attention keys/values up to this position, trace)."""
        kv = self.self_attn.keys_values(x)
        if past is not None:
            kv = past.extend(kv)
        keep_self, keep_cross = keep if keep is not None else (None, None)
        attended, self_trace = self.self_attn(x, kv, self_mask, trace, keep_self, patch[0])
        h1 = self.norm1(x + self.dropout(attended))
        crossed, cross_trace = self.cross_attn(h1, memory_kv, cross_mask, trace, keep_cross, patch[1])
        h2 = self.norm2(h1 + self.dropout(crossed))
        ffn_out = self.ffn(h2)
        out = self.norm3(h2 + self.dropout(ffn_out))
        layer_trace = DecoderLayerTrace(x, self_trace, attended, h1, cross_trace, crossed, h2, ffn_out, out) if trace else None
        return out, kv, layer_trace
