"""Greedy and beam-search decoding with an incremental key/value cache.

greedy_decode and beam_decode return token ids (and, for beam search, what
was kept and dropped); the attention maps of the chosen output then come from
one teacher-forced pass (see translator.py), so they are exactly what the
model computes for that output whichever search produced it. greedy_trace,
for one sentence, keeps what its steps computed instead: the same maps,
without the second pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .transformer import DecoderOutput, EncoderOutput, Transformer


def _next_logits(model: Transformer, enc: EncoderOutput, ys: torch.Tensor, state, use_cache: bool):
    """Logits for the position after ys[:, -1]: (batch, vocab), and the next state."""
    if use_cache:
        out = model.decode(ys[:, -1:], enc, state)
        logits, state = out.logits[:, -1], out.state
    else:
        logits, state = model.decode(ys, enc).logits[:, -1], None
    return never_next(logits.float(), model.config), state


def never_next(logits: torch.Tensor, c) -> torch.Tensor:
    """logits (..., vocab) with padding, <s> and <unk> ruled out: they are never a sensible next token."""
    return logits.index_fill(-1, torch.tensor([c.pad_id, c.bos_id, c.unk_id], device=logits.device), float("-inf"))


def greedy_decode(
    model: Transformer, enc: EncoderOutput, max_new_tokens: int | list[int], use_cache: bool = True
) -> list[list[int]]:
    """Batched greedy search; returns each sentence's output ids without <s> and </s>.

    `max_new_tokens` may differ per sentence, so a sentence decodes the same
    alone as inside a batch of longer ones.
    """
    c = model.config
    batch = enc.memory.size(0)
    limits = [max_new_tokens] * batch if isinstance(max_new_tokens, int) else list(max_new_tokens)
    ys = torch.full((batch, 1), c.bos_id, dtype=torch.long, device=enc.memory.device)
    done = torch.tensor([n <= 0 for n in limits], dtype=torch.bool, device=ys.device)
    limit = torch.tensor(limits, device=ys.device)
    state = model.start_state(enc) if use_cache else None
    for t in range(max(limits, default=0)):
        if bool(done.all()):
            break
        logits, state = _next_logits(model, enc, ys, state, use_cache)
        nxt = logits.argmax(-1).masked_fill(done, c.pad_id)
        ys = torch.cat([ys, nxt[:, None]], dim=1)
        done |= (nxt == c.eos_id) | (limit <= t + 1)
    return [[i for i in row if i not in (c.pad_id, c.eos_id)] for row in ys[:, 1:].tolist()]


def greedy_trace(model: Transformer, enc: EncoderOutput, max_new_tokens: int) -> tuple[list[int], DecoderOutput]:
    """Greedy search of one sentence that keeps every step's attention, inputs and logits.

    Returns the output ids (without <s> and </s>) and a DecoderOutput equal to
    one teacher-forced traced pass over <s> + output: logits (1, T, vocab),
    self_attn (layers, 1, heads, T, T) with zeros above the diagonal, cross_attn
    (layers, 1, heads, T, S) and the layer inputs, T = len(output) + 1. The last
    position is the one that predicted </s>, or that a cut output never used.
    """
    if enc.memory.size(0) != 1:
        raise ValueError("greedy_trace takes one sentence; use greedy_decode for a batch")
    c = model.config
    device = enc.memory.device
    ids = [c.bos_id]
    steps: list[DecoderOutput] = []
    state = model.start_state(enc)
    while True:
        step = model.decode(torch.tensor([ids[-1:]], device=device), enc, state, trace=True)
        state = step.state
        steps.append(step)
        if len(ids) > max_new_tokens:
            break
        nxt = int(never_next(step.logits[0, -1].float(), c).argmax())
        if nxt == c.eos_id:
            break
        ids.append(nxt)
    t = len(steps)
    self_attn = steps[0].self_attn.new_zeros(*steps[0].self_attn.shape[:3], t, t)  # (layers, 1, heads, T, T)
    for i, step in enumerate(steps):
        self_attn[..., i : i + 1, : i + 1] = step.self_attn  # row i saw keys 0..i

    def joined(name: str, dim: int) -> torch.Tensor:
        return torch.cat([getattr(step, name) for step in steps], dim=dim)

    traced = DecoderOutput(joined("logits", 1), self_attn, joined("cross_attn", 3), joined("self_inputs", 2),
                           joined("cross_inputs", 2), state=None)
    return ids[1:], traced


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


def beam_decode(
    model: Transformer, enc: EncoderOutput, beam_size: int, max_new_tokens: int, use_cache: bool = True
) -> tuple[list[int], list[BeamStep]]:
    """Beam search for one sentence (batch of 1). Returns (best output ids, per-step record).

    Candidates are taken in score order until `beam_size` live hypotheses are
    found; an </s> candidate met before that ends a hypothesis. With
    beam_size=1 this is exactly greedy search.
    """
    if enc.memory.size(0) != 1:
        raise ValueError("beam_decode takes one sentence; loop over a batch")
    c = model.config
    device = enc.memory.device
    alive = [Hypothesis((), 0.0)]
    finished: list[Hypothesis] = []
    steps: list[BeamStep] = []
    state = model.start_state(enc) if use_cache else None
    for t in range(max_new_tokens):
        n = len(alive)
        ys = torch.tensor([[c.bos_id, *h.ids] for h in alive], dtype=torch.long, device=device)
        beam_enc = EncoderOutput(enc.memory.expand(n, -1, -1), enc.src_keep.expand(n, -1), None, None)
        logits, state = _next_logits(model, beam_enc, ys, state, use_cache)
        logprobs = torch.log_softmax(logits.float(), dim=-1)  # (n, vocab)
        scores = torch.tensor([h.logprob for h in alive], device=device)[:, None] + logprobs
        top_scores, top_index = scores.view(-1).topk(min(2 * beam_size + 1, scores.numel()))
        step = BeamStep()
        parents: list[int] = []
        last_step = t == max_new_tokens - 1
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
        if use_cache:
            state = state.select(torch.tensor(parents, dtype=torch.long, device=device))
    if not finished:  # max_new_tokens == 0
        finished = [Hypothesis((), 0.0)]
    best = max(finished, key=lambda h: h.logprob / length_penalty(len(h.ids)))
    return [i for i in best.ids if i != c.eos_id], steps
