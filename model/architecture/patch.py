"""Activation patching: values that stand in for what the model computes, passed down forward as a HeadMask is.

A Patch names, per attention layer, heads' outputs (their context vectors softmax(QKᵀ/√d_k)V, before W_O) and,
per point of the encoder's or decoder's residual stream, positions whose values are replaced by given ones, row by
row of the batch: one batched forward patches a different head, or a different (layer, position), in every row
(Vig et al. 2020; Meng et al. 2022). Nothing is stored on a module: the patch travels in arguments, and in the
EncoderOutput and DecoderCache that carry it from the encoder into every decoding step, so one model object serves
many threads patching at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import torch

SIDES = ("encoder", "decoder")  # the two residual streams


@dataclass(frozen=True, eq=False)
class Replace:
    """What stands in for one activation of shape (batch, [heads,] T, d) where `where` is True.

    torch.where, not a blend: a replaced value is the given one exactly, bit for bit.
    """

    where: torch.Tensor  # bool (batch | 1, [heads,] T): True = this row's [head's] position takes `value`
    value: torch.Tensor  # (batch | 1, [heads,] T, d)

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        """x (batch, [heads,] T, d) with the values put in where asked; T must be the patch's positions."""
        return torch.where(self.where.unsqueeze(-1), self.value.to(x.dtype), x)

    def window(self, start: int, length: int) -> "Replace | None":
        """The patch of positions start … start+length-1 (a decoding step's new positions); positions past the
        patch's own are left alone. None when none of them is patched."""
        where, value = self.where[..., start:start + length], self.value[..., start:start + length, :]
        if where.size(-1) == 0 or not bool(where.any()):
            return None
        missing = length - where.size(-1)
        if missing:
            where = torch.cat([where, where.new_zeros(*where.shape[:-1], missing)], dim=-1)
            value = torch.cat([value, value.new_zeros(*value.shape[:-2], missing, value.size(-1))], dim=-2)
        return Replace(where, value)


@dataclass(frozen=True, eq=False)
class Patch:
    """Which activations a forward pass takes from elsewhere (e.g. another sentence's run). Passed, never stored.

    heads: (kind, layer) → the layer's per-head context vectors, kind one of KINDS ("encoder_self", "decoder_self",
    "cross"), layer 0-based; Replace shapes (batch | 1, heads, T, d_head), T the layer's query positions.
    residual: (side, point) → the residual stream, side "encoder" or "decoder", point 0 the embeddings (the first
    layer's input, token · √d_model + PE), point i the output of layer i (1-based); Replace shapes (batch | 1, T,
    d_model). A head's patch acts after any knock-out of the same head.
    """

    heads: Mapping[tuple[str, int], Replace] = field(default_factory=dict)
    residual: Mapping[tuple[str, int], Replace] = field(default_factory=dict)

    def head(self, kind: str, layer: int, start: int = 0, length: int | None = None) -> Replace | None:
        """The patch of one attention layer's heads; for a decoder layer, of positions start … start+length-1."""
        return self._window(self.heads.get((kind, layer)), start, length)

    def stream(self, side: str, point: int, start: int = 0, length: int | None = None) -> Replace | None:
        """The patch of one point of a residual stream; for the decoder, of positions start … start+length-1."""
        return self._window(self.residual.get((side, point)), start, length)

    @staticmethod
    def _window(found: Replace | None, start: int, length: int | None) -> Replace | None:
        return found if found is None or length is None else found.window(start, length)


def apply(replace: Replace | None, x: torch.Tensor) -> torch.Tensor:
    """x with `replace` put in; x itself where nothing is patched."""
    return x if replace is None else replace(x)
