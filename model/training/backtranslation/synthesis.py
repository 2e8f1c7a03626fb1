"""Translating the pool with the other direction's model: sampled, or beam search with noise added to its output
(Edunov et al. 2018, "Understanding Back-Translation at Scale": both beat plain beam for back-translation), or beam.

Each sentence goes through the translator's own reading (normalisation, limits, unseen names read as a carrier and
written back), so a synthetic source looks like what the app's model writes. An output that ran to the length
limit (never ended) or lost its name carrier is left out and counted.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

import torch

from ...text.normalize import clean_text
from ...text.pairs import pad
from ...translation.decoding import greedy_search, search
from ...translation.names import write_back
from ...translation.translator import Translator
from .pool import in_script

METHODS = ("sample", "beam-noise", "beam")
_LATIN_RUN = re.compile(r"[A-Za-z0-9']+")
_CHINESE_UNIT = re.compile(r"[A-Za-z0-9']+|\S")


@dataclass(frozen=True)
class Settings:
    method: str = "sample"
    seed: int = 1
    beam: int = 4  # beam-noise and beam
    top_k: int = 0  # sample: draw from the k most probable tokens (0: from the whole distribution, as Edunov's best)
    temperature: float = 1.0  # sample
    delete: float = 0.1  # beam-noise: each word (Chinese: character) dropped with this probability,
    blank: float = 0.1  # replaced by `filler` with this one,
    swap: int = 3  # and moved at most this many places (Lample et al. 2018's local shuffle)
    filler: str = "□"  # a plain character: the tokenizers hold no token a text could spell (tokenizer.py)
    batch: int = 64  # sentences encoded (and, sampling, decoded) together
    chunk: int = 512  # sentences per appended chunk; each chunk's randomness is seeded by (seed, chunk number)

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, not {self.method!r}")
        if self.chunk % self.batch:
            raise ValueError("chunk must be a multiple of batch, so every chunk is decoded in the same batches")


def chunk_seed(seed: int, chunk: int) -> int:
    """A 63-bit seed for one chunk: the same on every machine and Python (no hash randomisation)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{chunk}".encode()).digest()[:8], "big") >> 1


def sampler(generator: torch.Generator, top_k: int, temperature: float):
    """greedy_search's `pick`: a token drawn from softmax(logits / temperature), within the top k when k > 0."""

    def pick(logits: torch.Tensor) -> torch.Tensor:
        logits = logits.float() / temperature
        if top_k:
            kth = logits.topk(min(top_k, logits.size(-1)), dim=-1).values[:, -1:]
            logits = logits.masked_fill(logits < kth, float("-inf"))
        return torch.multinomial(torch.softmax(logits, dim=-1), 1, generator=generator)

    return pick


def noised(text: str, language: str, rng: random.Random, s: Settings) -> str:
    """`text` (in `language`) with words dropped, blanked and locally shuffled (Edunov et al. 2018, §3). A Chinese
    word is a character (the tokenizer's unit), but a run of Latin letters or digits ("Tom", "DVD") stays one."""
    units = text.split() if language == "en" else _CHINESE_UNIT.findall(text)
    kept = [u for u in units if rng.random() >= s.delete]
    kept = [s.filler if rng.random() < s.blank else u for u in kept]
    keys = [i + rng.uniform(0, s.swap + 1) for i in range(len(kept))]  # q_i = i + U(0, k+1): |σ(i) − i| ≤ k
    shuffled = [u for _, u in sorted(zip(keys, kept), key=lambda pair: pair[0])]
    if language == "en":
        return " ".join(shuffled)
    # Two Latin runs that meet keep a space between them, as "他是一个 DJ 。" has.
    return "".join(f" {u}" if i and _LATIN_RUN.fullmatch(u) and _LATIN_RUN.fullmatch(shuffled[i - 1]) else u
                   for i, u in enumerate(shuffled))


def decode(translator: Translator, texts: list[str], s: Settings, generator: torch.Generator) -> list[tuple]:
    """(output ids, output-token limit) of each text, as the translator reads it (names swapped for carriers)."""
    prepared = [translator.prepare(text) for text in texts]
    lengths = [len(ids) for _, ids, _ in prepared]
    model, generation = translator.model, translator.generation_config
    limits = [generation.limit(n, model.config) for n in lengths]
    with torch.inference_mode():
        enc = model.encode(pad([ids for _, ids, _ in prepared], model.config.pad_id).to(translator.device))
        if s.method == "sample":
            found = greedy_search(model, enc, limits, generation, pick=sampler(generator, s.top_k, s.temperature))
        else:
            found = [out.ids for out in search(model, enc, lengths, s.beam, generation)]
    return list(zip(found, limits))


def translate_chunk(translator: Translator, sentences: list[str], s: Settings, chunk: int) -> tuple[list, dict]:
    """(translation or None, per sentence; counts) of one chunk, in the sentences' order. Decoded in batches of
    similar length; seeded by (s.seed, chunk), so a chunk comes out the same whether the run resumed or not."""
    seed = chunk_seed(s.seed, chunk)
    generator, rng = torch.Generator().manual_seed(seed), random.Random(seed)
    language = translator.config.target_language
    reads = [translator.read_names(text) for text in sentences]
    order = sorted(range(len(sentences)), key=lambda i: (len(reads[i][0]), i))
    out: list[str | None] = [None] * len(sentences)
    counts = {"translated": len(sentences), "ran_to_the_limit": 0, "name_lost": 0, "empty_or_wrong_script": 0}
    for start in range(0, len(order), s.batch):
        rows = order[start : start + s.batch]
        for i, (ids, limit) in zip(rows, decode(translator, [reads[i][0] for i in rows], s, generator)):
            out[i] = _written(translator, ids, limit, reads[i], counts)
    if s.method == "beam-noise":  # after every chunk's decoding, so the noise's draws do not depend on the batches
        before = out.count(None)
        out = [None if text is None else noised(text, language, rng, s) or None for text in out]
        counts["empty_or_wrong_script"] += out.count(None) - before  # every word dropped
    return out, counts


def _written(translator: Translator, ids: list[int], limit: int, read: tuple, counts: dict) -> str | None:
    """The translation of one output, its carried names written back; None (counted) where it is left out."""
    if len(ids) >= limit:
        counts["ran_to_the_limit"] += 1
        return None
    text = clean_text(translator.tgt_tok.decode(ids))
    if read[1]:
        text = write_back(text, read[1], read[0])
        if text is None:
            counts["name_lost"] += 1
            return None
    if not text or not in_script(text, translator.config.target_language):
        counts["empty_or_wrong_script"] += 1
        return None
    return text
