"""The live lab's run: train a tiny Transformer on a task it can learn in seconds, and watch its attention form.

The tasks (tasks.py) are made up on the spot, so nothing needs downloading, and
their answers say where attention should look. The model is the app's own `Transformer`, built from a tiny
`ModelConfig`; the loop is the trainer's recipe (Adam β2 = 0.98, ε = 1e-9,
warm-up then 1/√step, gradient clipping) without what a large corpus needs.

`train_steps` is a generator: each `next()` trains one chunk of steps and
yields a `Progress` (loss, held-out accuracy, a fixed example's attention maps),
so a page can hold the shared model-call limit per chunk and redraw between them.
A run is capped in steps and in seconds, and reproducible for a given seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
import torch
import torch.nn.functional as F

from ..architecture.config import ModelConfig
from ..architecture.transformer import Transformer
from ..text.pairs import Example, pad
from ..training.data import collate
from ..training.schedule import GRAD_CLIP_NORM, adam, learning_rate
from ..translation.decoding import greedy_search
from ..translation.threads import configure_torch_threads
from ..translation.translator import attention_maps as traced_maps
from .tasks import (EXAMPLE, FIRST_SYMBOL, SYMBOLS, TASKS, answer, example_of, ids_of, random_symbols, source_positions,
                    tokens_of)

# What tests/test_lab.py asserts after a capped run of copy and of reverse (the page states both): held-out
# exact and per-token accuracy, and the share of attention the best cross-attention head gives the source
# position each answer symbol comes from (about 1/S before training).
TESTED_EXACT = 0.9
ALIGNED_SHARE = 0.5


@dataclass(frozen=True)
class LabSettings:
    task: str = "copy"
    length: int = 8  # symbols per sequence (every sequence has this length, so every map has one shape)
    d_model: int = 16
    n_heads: int = 2
    n_layers: int = 1  # encoder layers and decoder layers each
    d_ff: int = 32
    batch: int = 64
    warmup: int = 60
    lr_factor: float = 1.0
    max_steps: int = 1000
    max_seconds: float = 20.0
    every: int = 25  # steps per chunk: the page redraws (and other sessions' translations get a turn) between chunks
    held_out: int = 200  # generated test sequences, never trained on
    seed: int = 0

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise ValueError(f"task must be one of {TASKS}, got {self.task!r}")
        if not 2 <= self.length <= len(EXAMPLE):
            raise ValueError(f"length must be 2…{len(EXAMPLE)} (the example has {len(EXAMPLE)} symbols), got {self.length}")
        if self.max_steps < 1 or self.max_seconds <= 0 or self.every < 1:
            raise ValueError("max_steps, max_seconds and every must be positive")

    def config(self) -> ModelConfig:
        vocab = FIRST_SYMBOL + len(SYMBOLS)
        return ModelConfig(vocab, vocab, d_model=self.d_model, n_heads=self.n_heads, n_encoder_layers=self.n_layers,
                           n_decoder_layers=self.n_layers, d_ff=self.d_ff, dropout=0.0, max_len=self.length + 2)


def held_out_set(settings: LabSettings) -> list[str]:
    """The test sequences: drawn from their own seed, so training (which skips them) never sees one."""
    rng = random.Random(f"held-out {settings.seed}")
    found: dict[str, None] = {}
    while len(found) < settings.held_out:
        found[random_symbols(rng, settings.length)] = None
    return list(found)


@dataclass(frozen=True)
class Evaluation:
    step: int
    exact: float  # share of test sequences written entirely right (and ended there)
    per_token: float  # share of answer positions with the right symbol


def accuracy(model: Transformer, task: str, tests: list[str], step: int) -> Evaluation:
    """Greedy decoding (the app's search) on the test sequences, scored against their answers."""
    c = model.config
    was_training = model.training
    with torch.inference_mode():
        enc = model.eval().encode(pad([ids_of(s) + (c.eos_id,) for s in tests], c.pad_id))
        outputs = greedy_search(model, enc, [len(s) for s in tests])
    model.train(was_training)
    exact = right = 0
    for symbols, out in zip(tests, outputs):
        want = ids_of(answer(task, symbols))
        exact += tuple(out) == want
        right += sum(a == b for a, b in zip(out, want))
    return Evaluation(step, exact / len(tests), right / sum(len(s) for s in tests))


def example_maps(model: Transformer, example: Example) -> dict[str, np.ndarray]:
    """The three attention kinds of one teacher-forced traced pass over the example: kind → (layers, heads, Tq, Tk)."""
    was_training = model.training
    with torch.inference_mode():
        src, tgt_in, _ = collate([example], model.config.pad_id)
        model.eval()
        enc = model.encode(src, trace=True)
        maps = traced_maps(enc, model.decode(tgt_in, enc, trace=True))
    model.train(was_training)
    return {kind: maps[kind] for kind in ("encoder_self", "decoder_self", "cross")}


def on_alignment(cross: np.ndarray, positions: list[int]) -> np.ndarray:
    """(layers, heads): the mean cross-attention weight each head gives, while writing answer symbol i, to the
    source position that symbol comes from. A uniform head scores 1/S; one that reads exactly there, 1.

    cross: (layers, heads, T, S), decoder row i reads <s> or answer symbol i−1 and writes answer symbol i.
    """
    rows = np.arange(len(positions))
    return cross[:, :, rows, positions].mean(axis=-1)


@dataclass(frozen=True)
class Progress:
    step: int
    seconds: float  # spent computing so far
    losses: list[float]  # training loss of every step so far
    evaluations: list[Evaluation]  # held-out accuracy after each chunk, the untrained model's first
    attention: dict[str, np.ndarray]  # the fixed example's maps now, kind → (layers, heads, Tq, Tk)
    aligned: np.ndarray  # (layers, heads): on_alignment of the example's cross-attention
    prediction: list[str]  # what the model writes for the example now (greedy)
    source_tokens: list[str]  # the example: its symbols and </s>
    target_tokens: list[str]  # the decoder's input for it: <s> and the answer
    parameters: int
    stopped_by: str = ""  # on the run's last yield: "steps", "seconds" or "learned"

    @property
    def accuracy(self) -> Evaluation:
        return self.evaluations[-1]


def train_steps(settings: LabSettings, stop_at_exact: float = 1.0) -> Iterator[Progress]:
    """Train a fresh tiny model; yields the untrained model's Progress (step 0), then one per chunk of steps.

    Stops at settings.max_steps, after settings.max_seconds of computing (time between yields, while the
    caller draws, does not count), or once held-out exact accuracy reaches `stop_at_exact`.
    """
    configure_torch_threads()  # the app's threads per model call (model/translation/threads.py); a no-op once the app set them
    torch.manual_seed(settings.seed)
    config = settings.config()
    model = Transformer(config)
    optimizer = adam(model.parameters())
    rng = random.Random(settings.seed)
    tests = held_out_set(settings)
    unseen = set(tests)
    symbols = EXAMPLE[: settings.length]
    example = example_of(settings.task, symbols, config)
    positions = source_positions(settings.task, symbols)
    parameters = sum(p.numel() for p in model.parameters())
    losses: list[float] = []
    evaluations: list[Evaluation] = []
    seconds = 0.0

    def progress(step: int) -> Progress:
        evaluations.append(accuracy(model, settings.task, tests, step))
        maps = example_maps(model, example)
        with torch.inference_mode():
            (written,) = greedy_search(model, model.eval().encode(pad([example.src], config.pad_id)), [settings.length])
        return Progress(step, seconds, list(losses), list(evaluations), maps, on_alignment(maps["cross"], positions),
                        tokens_of(written), tokens_of(example.src), tokens_of(example.tgt[:-1]), parameters)

    yield progress(0)
    step = 0
    while True:
        started = time.perf_counter()
        model.train()
        for _ in range(min(settings.every, settings.max_steps - step)):
            step += 1
            batch = []
            while len(batch) < settings.batch:
                drawn = random_symbols(rng, settings.length)
                if drawn not in unseen:
                    batch.append(example_of(settings.task, drawn, config))
            src, tgt_in, tgt_out = collate(batch, config.pad_id)
            for group in optimizer.param_groups:
                group["lr"] = learning_rate(step, config.d_model, settings.warmup, settings.lr_factor)
            loss = F.cross_entropy(model(src, tgt_in).flatten(0, 1), tgt_out.flatten(), ignore_index=config.pad_id)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), GRAD_CLIP_NORM)
            optimizer.step()
            losses.append(loss.item())
        seconds += time.perf_counter() - started
        now = progress(step)
        stopped_by = ("learned" if now.accuracy.exact >= stop_at_exact else "steps" if step >= settings.max_steps
                      else "seconds" if seconds >= settings.max_seconds else "")
        yield replace(now, stopped_by=stopped_by)
        if stopped_by:
            return
