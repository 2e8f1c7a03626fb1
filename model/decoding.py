"""Choosing the output: greedy and beam search over the decoder, one new position per step.

Each step feeds only the newest token and continues the DecoderCache, so a
step costs one position's work instead of the whole prefix's. The searches
return token ids (and, for beam search, what was kept and dropped); the
attention maps of the chosen output come from one teacher-forced traced pass
(translator.py), so they are exactly what the model computes for that output.
The app, the CLI and training's dev scores all decode through search().
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .config import ModelConfig
from .transformer import EncoderOutput, Transformer


def max_output_tokens(source_len: int, config: ModelConfig) -> int:
    """Generated-token limit for a source of `source_len` tokens: twice the source plus some slack."""
    return min(config.max_len - 1, 2 * source_len + 10)


def never_next(logits: torch.Tensor, config: ModelConfig) -> torch.Tensor:
    """logits (..., vocab) with padding, <s> and <unk> ruled out: they are never a sensible next token."""
    banned = torch.tensor([config.pad_id, config.bos_id, config.unk_id], device=logits.device)
    return logits.index_fill(-1, banned, float("-inf"))


def greedy_search(model: Transformer, enc: EncoderOutput, limits: list[int]) -> list[list[int]]:
    """A batch of sentences, each taking its most probable next token; output ids without <s> and </s>.

    `limits` is each sentence's own output-token limit, so a sentence decodes
    the same alone as inside a batch of longer ones. A finished sentence's row
    keeps being fed (rows never see each other) but adds nothing to its output.
    """
    c = model.config
    batch = enc.memory.size(0)
    outputs: list[list[int]] = [[] for _ in range(batch)]
    finished = [limit <= 0 for limit in limits]
    last = torch.full((batch, 1), c.bos_id, dtype=torch.long, device=enc.memory.device)  # (batch, 1)
    cache = model.start_decoding(enc)
    while not all(finished):
        out = model.decode(last, enc, cache)
        cache = out.cache
        last = never_next(out.logits[:, -1], c).argmax(-1, keepdim=True)  # (batch, 1)
        for row, token in enumerate(last[:, 0].tolist()):
            if finished[row]:
                continue
            if token == c.eos_id:
                finished[row] = True
            else:
                outputs[row].append(token)
                finished[row] = len(outputs[row]) >= limits[row]
    return outputs


@dataclass(frozen=True)
class Hypothesis:
    ids: tuple[int, ...]  # output ids so far, without <s>
    logprob: float


@dataclass
class BeamStep:
    """One step of beam search: the hypotheses kept, and the best candidates that fell off."""

    kept: list[Hypothesis] = field(default_factory=list)
    dropped: list[Hypothesis] = field(default_factory=list)
    finished: list[Hypothesis] = field(default_factory=list)  # ended with </s> at this step


def length_penalty(length: int, alpha: float = 0.6) -> float:
    """GNMT's ((5 + |Y|) / 6)^α: without it beam search prefers short outputs."""
    return ((5 + length) / 6) ** alpha


def beam_search(model: Transformer, enc: EncoderOutput, beam_size: int, limit: int) -> tuple[list[int], list[BeamStep]]:
    """Beam search for one sentence (enc of batch 1). Returns (best output ids, per-step record).

    Candidates are taken in score order until `beam_size` live hypotheses are
    found; an </s> candidate met before that ends a hypothesis. With
    beam_size=1 this is exactly greedy search.
    """
    if enc.memory.size(0) != 1:
        raise ValueError("beam_search takes one sentence; search() loops over a batch")
    c = model.config
    device = enc.memory.device
    alive = [Hypothesis((), 0.0)]
    finished: list[Hypothesis] = []
    steps: list[BeamStep] = []
    cache = model.start_decoding(enc)
    for t in range(limit):
        last = torch.tensor([[h.ids[-1] if h.ids else c.bos_id] for h in alive], device=device)  # (beams, 1)
        out = model.decode(last, enc, cache)
        logprobs = torch.log_softmax(never_next(out.logits[:, -1].float(), c), dim=-1)  # (beams, vocab)
        scores = torch.tensor([h.logprob for h in alive], device=device)[:, None] + logprobs
        top_scores, top_index = scores.view(-1).topk(min(2 * beam_size + 1, scores.numel()))
        step = BeamStep()
        parents: list[int] = []
        last_step = t == limit - 1
        for score, index in zip(top_scores.tolist(), top_index.tolist()):
            parent, token = divmod(index, logprobs.size(1))
            hyp = Hypothesis(alive[parent].ids + (token,), score)
            if len(step.kept) == beam_size:
                step.dropped.append(hyp)
            elif token == c.eos_id or last_step:
                step.finished.append(hyp)
            else:
                step.kept.append(hyp)
                parents.append(parent)
        steps.append(step)
        finished.extend(step.finished)
        if len(finished) >= beam_size or not step.kept:
            break
        alive = step.kept
        cache = out.cache.select(torch.tensor(parents, dtype=torch.long, device=device))
    if not finished:  # limit == 0
        finished = [Hypothesis((), 0.0)]
    best = max(finished, key=lambda h: h.logprob / length_penalty(len(h.ids)))
    return [i for i in best.ids if i != c.eos_id], steps


@dataclass
class SearchOutput:
    ids: list[int]  # output ids without <s> and </s>
    beam_steps: list[BeamStep] | None  # None for greedy


def search(model: Transformer, enc: EncoderOutput, lengths: list[int], beam: int) -> list[SearchOutput]:
    """Decode a batch of encoded sources whose real lengths (with </s>) are `lengths`.

    Greedy (beam 1) runs the batch at once; beam search runs each sentence on its own.
    Each sentence's output limit is max_output_tokens() of its own length.
    """
    limits = [max_output_tokens(n, model.config) for n in lengths]
    if beam == 1:
        return [SearchOutput(ids, None) for ids in greedy_search(model, enc, limits)]
    outputs = []
    for row, (n, limit) in enumerate(zip(lengths, limits)):
        alone = EncoderOutput(enc.memory[row : row + 1, :n], mask=None)  # its padding cut off: nothing to mask
        ids, steps = beam_search(model, alone, beam, limit)
        outputs.append(SearchOutput(ids, steps))
    return outputs
