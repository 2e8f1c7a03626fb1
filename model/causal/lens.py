"""The logit lens (nostalgebraist 2020): each decoder layer's output read through the output projection, as if it
were the last layer's.

The paper's model is post-norm: every layer's output has already passed its own LayerNorm, and there is no final
LayerNorm apart from the last layer's. So each layer's output is projected as it is, and the last layer's reading is
the model's own output distribution. What it shows: at which layer the token the model will write becomes the top
reading. What it does not: intermediate layers are not trained to be read this way, so an early layer's reading
can be wrong about what the layer knows (Belrose et al. 2023 train a "tuned lens" per layer for that reason).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..translation.translator import Translator
from . import runs
from .messages import PatchingError


@dataclass(frozen=True)
class Reading:
    token: str
    token_id: int
    p: float  # its probability under that layer's reading (banned tokens ruled out, as the search rules them)


@dataclass(frozen=True)
class LogitLens:
    source_tokens: tuple[str, ...]
    decoder_inputs: tuple[str, ...]  # <s> y1 … yn: step t reads input t and predicts output t
    output_tokens: tuple[str, ...]  # y1 … yn </s>: what the model wrote at each step
    grid: tuple[tuple[Reading, ...], ...]  # [step][layer], layer 0 the first decoder layer
    probabilities: torch.Tensor  # (layers, steps, vocab) every reading's whole distribution


def logit_lens(tr: Translator, text: str) -> LogitLens:
    """The sentence translated greedily, then each decoder layer's reading at each step of that translation."""
    if not tr.capabilities.trained_here:
        raise PatchingError("not_trained_here", checkpoint=tr.checkpoint)
    _, src_ids, _ = tr.prepare(text)
    with tr.gate, torch.inference_mode():
        output = runs.greedy(tr.model, tr.generation_config, src_ids)
        tgt_in = [tr.config.bos_id, *output[:-1]]
        hidden = runs.decoder_outputs(tr.model, src_ids, tgt_in)  # (layers, T, d_model)
        logits = tr.generation_config.never_next(tr.model.project(hidden).float(), tr.config)
        probs = torch.softmax(logits, dim=-1)  # (layers, T, vocab)
    top_p, top_i = probs.max(-1)  # (layers, T)
    names = tr.tgt_tok.tokens(top_i.flatten().tolist())
    n_layers, steps = top_i.shape
    grid = tuple(tuple(Reading(names[layer * steps + t], int(top_i[layer, t]), float(top_p[layer, t]))
                       for layer in range(n_layers)) for t in range(steps))
    return LogitLens(tuple(tr.src_tok.tokens(src_ids)), tuple(tr.tgt_tok.tokens(tgt_in)),
                     tuple(tr.tgt_tok.tokens(output)), grid, probs)
