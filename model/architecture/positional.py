"""Sinusoidal positional encoding, exactly as in "Attention Is All You Need" §3.5.

PE(pos, 2i)   = sin(pos / 10000^(2i / d_model))
PE(pos, 2i+1) = cos(pos / 10000^(2i / d_model))

Both members of a (sin, cos) pair share the exponent 2i/d_model. One of the
study notes writes the cosine's exponent as (2i+1)/d_model; that breaks the
pairing, and with it the property that PE(pos + k) is a fixed rotation of PE(pos).
"""

from __future__ import annotations

import math

import torch


def sinusoidal_table(length: int, d_model: int, layout: str = "interleaved") -> torch.Tensor:
    """(length, d_model) float32 table; d_model must be even (sin/cos pairs).

    layout "halves" puts the same numbers in another order, all sines then all cosines
    (Marian's and fairseq's), which a converted model must keep.
    """
    if d_model % 2:
        raise ValueError(f"d_model must be even for sin/cos pairs, got {d_model}")
    position = torch.arange(length, dtype=torch.float64).unsqueeze(1)  # (length, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (d_model/2,)
    angle = position / torch.pow(10000.0, two_i / d_model)  # (length, d_model/2)
    table = torch.empty(length, d_model, dtype=torch.float64)
    if layout == "halves":
        return torch.cat([torch.sin(angle), torch.cos(angle)], dim=1).float()
    table[:, 0::2] = torch.sin(angle)
    table[:, 1::2] = torch.cos(angle)
    return table.float()


def embedding_scale(d_model: int) -> float:
    """Token embeddings are multiplied by √d_model before PE is added (paper §3.4)."""
    return math.sqrt(d_model)
