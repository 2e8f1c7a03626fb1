"""Choosing the output: greedy and beam search over the decoder, one new position per step.

Each step feeds only the newest token and continues the DecoderCache, so a
step costs one position's work instead of the whole prefix's. The searches
return token ids (and, for beam search, what was kept and dropped); the
attention maps of the chosen output come from one teacher-forced traced pass
(translator.py), so they are exactly what the model computes for that output.
The app, the CLI and training's dev scores all decode through search().
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from ..architecture.config import GenerationConfig
from ..architecture.transformer import DecoderCache, EncoderOutput, Transformer




def start_after(model: Transformer, enc: EncoderOutput, prefix: tuple[int, ...]) -> tuple[DecoderCache, int]:
    """The cache after <s> and all of `prefix` but its last token, and the token to feed next (its last, else <s>):
    a search started here continues the forced prefix as if it had chosen it itself."""
    c = model.config
    cache = model.start_decoding(enc)
    if not prefix:
        return cache, c.bos_id
    fed = torch.tensor([[c.bos_id, *prefix[:-1]]] * enc.memory.size(0), device=enc.memory.device)
    return model.decode(fed, enc, cache).cache, prefix[-1]


def most_probable(logits: torch.Tensor) -> torch.Tensor:
    """The greedy choice: (batch, vocab) logits → (batch, 1) ids."""
    return logits.argmax(-1, keepdim=True)


def greedy_search(
    model: Transformer, enc: EncoderOutput, limits: list[int], generation: GenerationConfig = GenerationConfig(),
    prefix: tuple[int, ...] = (), pick: Callable[[torch.Tensor], torch.Tensor] = most_probable,
) -> list[list[int]]:
    """A batch of sentences, each taking its most probable next token (or the one `pick` chooses from the step's
    logits, banned tokens already ruled out: sampled back-translation draws it); output ids without <s> and </s>.

    `limits` is each sentence's own output-token limit, so a sentence decodes
    the same alone as inside a batch of longer ones. A finished sentence's row
    keeps being fed (rows never see each other) but adds nothing to its output.
    Every row's output starts with `prefix` (forced, not chosen) and goes on from there.
    """
    batch = enc.memory.size(0)
    outputs: list[list[int]] = [list(prefix) for _ in range(batch)]
    finished = [limit <= len(prefix) for limit in limits]
    cache, first = start_after(model, enc, prefix)
    c = model.config
    last = torch.full((batch, 1), first, dtype=torch.long, device=enc.memory.device)  # (batch, 1)
    while not all(finished):
        out = model.decode(last, enc, cache)
        cache = out.cache
        last = pick(generation.never_next(out.logits[:, -1], c))  # (batch, 1)
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
    ids: tuple[int, ...]  # output ids so far, without <s>; a finished one ends with </s>
    logprob: float


@dataclass
class BeamStep:
    """One step of beam search: the hypotheses kept, and the best candidates that fell off."""

    kept: list[Hypothesis] = field(default_factory=list)
    dropped: list[Hypothesis] = field(default_factory=list)
    finished: list[Hypothesis] = field(default_factory=list)  # ended with </s> at this step, among the best


def beam_search(
    model: Transformer, enc: EncoderOutput, beam_size: int, limit: int, generation: GenerationConfig = GenerationConfig(),
    prefix: tuple[int, ...] = (),
) -> tuple[list[int], list[BeamStep]]:
    """Beam search for one sentence (enc of batch 1). Returns (best output ids, per-step record).

    The algorithm of transformers' generate(), so a converted
    Marian model chooses here what it chooses there: each step scores every
    continuation of every live hypothesis and takes the best 2·beam. The best `beam`
    that do not end go on; one that ends with </s> counts only if it is among the
    best `beam`, and the `beam` best finished hypotheses by log-probability ÷
    penalty(length) are kept. The search stops when no live hypothesis, even at its
    current length, could beat the worst of those (or, with early_stopping, once
    there are `beam` of them); after `limit` tokens </s> is forced. Every hypothesis starts with `prefix` (forced,
    scored 0): the search and its steps begin after it.
    """
    if enc.memory.size(0) != 1:
        raise ValueError("beam_search takes one sentence; search() loops over a batch")
    c = model.config
    device = enc.memory.device
    alive = [Hypothesis(tuple(prefix), 0.0)]
    finished: list[tuple[float, Hypothesis]] = []  # (normalised score, hypothesis), best first, at most beam_size
    steps: list[BeamStep] = []
    cache, _ = start_after(model, enc, tuple(prefix))
    for t in range(len(prefix), limit + 1):
        if t == limit:  # the forced </s> adds nothing to the log-probability
            ended = [Hypothesis(h.ids + (c.eos_id,), h.logprob) for h in alive]
            steps.append(BeamStep(finished=ended))
            finished = _best_finished(finished, ended, t + 1, beam_size, generation)
            break
        last = torch.tensor([[h.ids[-1] if h.ids else c.bos_id] for h in alive], device=device)  # (beams, 1)
        out = model.decode(last, enc, cache)
        logprobs = generation.never_next(torch.log_softmax(out.logits[:, -1].float(), dim=-1), c)  # (beams, vocab)
        if generation.renormalize:
            logprobs = torch.log_softmax(logprobs, dim=-1)
        scores = torch.tensor([h.logprob for h in alive], device=device)[:, None] + logprobs
        top_scores, top_index = scores.view(-1).topk(min(2 * beam_size, scores.numel()))
        step = BeamStep()
        parents: list[int] = []
        for rank, (score, index) in enumerate(zip(top_scores.tolist(), top_index.tolist())):
            parent, token = divmod(index, logprobs.size(1))
            hyp = Hypothesis(alive[parent].ids + (token,), score)
            if token == c.eos_id and rank < beam_size:
                step.finished.append(hyp)
            elif token != c.eos_id and len(step.kept) < beam_size:
                step.kept.append(hyp)
                parents.append(parent)
            else:
                step.dropped.append(hyp)
        steps.append(step)
        finished = _best_finished(finished, step.finished, t + 1, beam_size, generation)
        if not step.kept:
            break
        alive = step.kept
        cache = out.cache.select(torch.tensor(parents, dtype=torch.long, device=device))
        if len(finished) == beam_size and (
            generation.early_stopping or alive[0].logprob / generation.penalty(t + 1) <= finished[-1][0]
        ):
            break
    best = finished[0][1] if finished else alive[0]  # a limit the prefix already reached: the prefix alone
    return [i for i in best.ids if i != c.eos_id], steps


def _best_finished(
    finished: list[tuple[float, Hypothesis]], new: list[Hypothesis], length: int, beam_size: int, generation: GenerationConfig
) -> list[tuple[float, Hypothesis]]:
    """The beam_size best finished hypotheses, best first, after adding `new` (all of `length` tokens with </s>)."""
    scored = finished + [(h.logprob / generation.penalty(length), h) for h in new]
    return sorted(scored, key=lambda pair: pair[0], reverse=True)[:beam_size]


@dataclass
class SearchOutput:
    ids: list[int]  # output ids without <s> and </s>
    beam_steps: list[BeamStep] | None  # None for greedy


def search(
    model: Transformer, enc: EncoderOutput, lengths: list[int], beam: int, generation: GenerationConfig = GenerationConfig(),
    prefix: tuple[int, ...] = (),
) -> list[SearchOutput]:
    """Decode a batch of encoded sources whose real lengths (with </s>) are `lengths`.

    Greedy (beam 1) runs the batch at once; beam search runs each sentence on its own.
    Each sentence's output limit is generation.limit() of its own length. Every output starts with `prefix`.
    """
    limits = [generation.limit(n, model.config) for n in lengths]
    if beam == 1:
        return [SearchOutput(ids, None) for ids in greedy_search(model, enc, limits, generation, prefix)]
    outputs = []
    for row, (n, limit) in enumerate(zip(lengths, limits)):
        # its padding cut off: nothing to mask; its knock-outs and patch carried into every step
        alone = EncoderOutput(enc.memory[row : row + 1, :n], mask=None, heads=enc.heads, patch=enc.patch)
        ids, steps = beam_search(model, alone, beam, limit, generation, prefix)
        outputs.append(SearchOutput(ids, steps))
    return outputs
