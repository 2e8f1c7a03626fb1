"""The passes patching makes, each one encoder and one decoder forward (teacher-forced), through the model's own
forward with a Patch argument: nothing is hooked or stored on the model.

Every pass is traced (attention computed by hand, not by the fused kernel), so the clean run that supplies the
values, the corrupted baseline and every patched run do the same arithmetic: a patch that puts back what a run
computed itself changes nothing, to float rounding.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..architecture.patch import Patch
from ..architecture.transformer import Transformer
from ..translation.decoding import search


@dataclass(frozen=True)
class Run:
    """What one teacher-forced traced pass computed, batch row 0: the values a patch takes from it."""

    logits: torch.Tensor  # (T, vocab): the scores of the token after each decoder input
    heads: dict[str, list[torch.Tensor]]  # kind → per layer the heads' outputs (1, heads, T_kind, d_head)
    stream: dict[str, list[torch.Tensor]]  # side → per point (0 the embeddings, i layer i's output) (1, T_side, d)


def forward(model: Transformer, src_ids: list[int], tgt_in: list[int], patch: Patch | None = None,
            rows: int = 1) -> torch.Tensor:
    """Logits (rows, T, vocab) of `rows` copies of one pair of ids, the patch's row r in row r."""
    device = next(model.parameters()).device
    src = torch.tensor([src_ids], device=device).expand(rows, -1)
    tgt = torch.tensor([tgt_in], device=device).expand(rows, -1)
    return model.decode(tgt, model.encode(src, trace=True, patch=patch), trace=True).logits


def traced(model: Transformer, src_ids: list[int], tgt_in: list[int]) -> Run:
    """One unpatched pass, with every head's output and every point of both residual streams."""
    device = next(model.parameters()).device
    enc = model.encode(torch.tensor([src_ids], device=device), trace=True)
    dec = model.decode(torch.tensor([tgt_in], device=device), enc, trace=True)
    heads = {
        "encoder_self": [layer.self_attn.context for layer in enc.layers],
        "decoder_self": [layer.self_attn.context for layer in dec.layers],
        "cross": [layer.cross_attn.context for layer in dec.layers],
    }
    # Each layer's input is the previous point of the stream: the embeddings first, then each layer's output.
    stream = {"encoder": [enc.layers[0].input, *(layer.output for layer in enc.layers)],
              "decoder": [dec.layers[0].input, *(layer.output for layer in dec.layers)]}
    return Run(dec.logits[0], heads, stream)


def greedy(model: Transformer, generation, src_ids: list[int], patch: Patch | None = None) -> list[int]:
    """The greedy translation's ids, </s> included, with `patch` (batch 1) in every step."""
    device = next(model.parameters()).device
    enc = model.encode(torch.tensor([src_ids], device=device), patch=patch)
    (found,) = search(model, enc, [len(src_ids)], 1, generation)
    return [*found.ids, model.config.eos_id]


def decoder_outputs(model: Transformer, src_ids: list[int], tgt_in: list[int]) -> torch.Tensor:
    """Each decoder layer's output (the residual stream after it), (layers, T, d_model), batch row 0."""
    return torch.stack(traced(model, src_ids, tgt_in).stream["decoder"][1:])[:, 0]
