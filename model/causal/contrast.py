"""Contrastive attribution (Yin & Neubig 2022): why the target and not the foil? Integrated gradients of
logit(target) − logit(foil) at the pair's step over the clean sentence's source tokens, beside the ordinary
attribution of the target's log-probability there.

Both run on the project's integrated-gradients path (model/translation/attribution.py): the same zero-embedding
baseline, the same points placed where completeness fails, the same gap (Σ attributions − (f(x) − f(0)),
relative, worst step) held to GAP_BOUND. Only the function read out at the decoder's last hidden state differs:
here one step's number, every other step 0 (so they add nothing to the gap).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..translation.attribution import _integrated, _Path
from ..translation.threads import native_bf16
from ..translation.translator import Translator
from .pair import Pair


@dataclass(frozen=True)
class Contrast:
    source_tokens: tuple[str, ...]  # the clean sentence's
    contrastive: np.ndarray  # (S,) signed: each source token's share of logit(target) − logit(foil)
    ordinary: np.ndarray  # (S,) signed: each source token's share of log p(target)
    gaps: tuple[float, float]  # completeness gaps (contrastive, ordinary), as attribution.Attribution.gap
    points: tuple[int, int]  # the points on the path each used


def contrastive_attribution(tr: Translator, pair: Pair) -> Contrast:
    model, c = tr.model, tr.config
    device = tr.device
    src = torch.tensor([pair.clean.ids], device=device)
    tgt = torch.tensor([pair.prefix], device=device)
    weight = model.tgt_embed.weight
    bias = model.output_bias

    def hidden(token: torch.Tensor) -> torch.Tensor:
        n = token.size(0)
        return model.decode(tgt.expand(n, -1), model.encode(src.expand(n, -1), token_embeddings=token),
                            project=False).hidden

    def at_step(number: torch.Tensor, grad: torch.Tensor, h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(batch,) values and (batch, d) gradients at the last position → (batch, T), (batch, T, d), 0 elsewhere."""
        values, grads = h.new_zeros(h.shape[:2]), torch.zeros_like(h)
        values[:, -1], grads[:, -1] = number, grad
        return values, grads

    def contrast(h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        w = weight.float()
        direction = w[pair.target] - w[pair.foil]  # ∂(logit(target) − logit(foil))/∂h: the tied projection's rows
        offset = 0.0 if bias is None else float(bias[pair.target] - bias[pair.foil])
        last = h[:, -1].float()
        return at_step(last @ direction + offset, direction.expand_as(last), h.float())

    def log_p(h: torch.Tensor) -> torch.Tensor:
        logits = tr.generation_config.never_next(model.project(h[:, -1].float()), c)  # (batch, vocab)
        logp = torch.log_softmax(logits, dim=-1)
        w = weight.float()
        return at_step(logp[:, pair.target], w[pair.target] - logp.exp() @ w, h.float())

    with tr.gate, torch.no_grad():
        token = model.src_embed(src)[0]
        found = [_integrated(_Path(hidden, read_out, token, c.d_ff, native_bf16(device)), None)
                 for read_out in (contrast, log_p)]
    return Contrast(pair.clean.tokens, found[0].scores[-1], found[1].scores[-1], (found[0].gap, found[1].gap),
                    (found[0].points, found[1].points))
