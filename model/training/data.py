"""Training data: sentence pairs from a TSV file, the dev split, and length-bucketed batches of encoded pairs."""

from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path

import torch

from ..text.normalize import clean_text, normalize_source, to_simplified
from ..text.pairs import Example, pad


def read_pairs(path: str | Path) -> list[tuple[str, str]]:
    """(English, Simplified Chinese) pairs from `english<TAB>chinese[<TAB>attribution]` lines."""
    pairs = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 2:
                raise ValueError(f"{path}:{n}: expected 'english<TAB>chinese', got {line[:60]!r}")
            src, tgt = clean_text(cols[0]), clean_text(to_simplified(cols[1]))
            if src and tgt:
                pairs.append((src, tgt))
    return pairs


def in_direction(pairs: list[tuple[str, str]], source_language: str) -> list[tuple[str, str]]:
    """(source, target) pairs for a model reading `source_language`: read_pairs' (English, Chinese) as they are, or
    turned round for a Chinese → English model, its Chinese sources normalised as the translator normalises input."""
    if source_language == "en":
        return pairs
    return [(normalize_source(zh, "zh"), en) for en, zh in pairs]


def split_dev(pairs: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(selection half, test half) of the dev pairs, by a hash of the lower-cased English.

    The selection half chooses checkpoints, arms and thresholds; the test half is never used for
    a choice, so its score is an honest estimate. Hashing keeps every copy of one English sentence
    on the same side and the split the same on every machine.
    """
    select, test = [], []
    for pair in pairs:
        digest = int(hashlib.md5(pair[0].lower().encode("utf-8")).hexdigest(), 16)
        (test if digest % 2 else select).append(pair)
    return select, test


def _words(sentence: str) -> tuple[str, ...]:
    return tuple(re.sub(r"[^\w' ]+", " ", sentence.lower()).split())


def unlike_training(dev: list[tuple[str, str]], train: list[tuple[str, str]]) -> list[int]:
    """Indices of the dev pairs that are not near-duplicates of a training pair.

    Tatoeba is full of one-word variants ("Tom is happy." / "Tom is sad."), and a
    dev pair one word away from a training pair measures recall, not translation.
    Near-duplicate: the English (lower-cased, punctuation dropped) is within one
    word (substituted, inserted or deleted) of a training sentence's, or the
    Chinese is identical to a training sentence's. Two word sequences are within
    one edit exactly when they share a "one word deleted or none" variant.
    """
    seen: set[tuple[str, ...]] = set()
    for english, _ in train:
        words = _words(english)
        seen.add(("=", *words))
        seen.update(("-", *words[:i], *words[i + 1 :]) for i in range(len(words)))
    chinese = {zh for _, zh in train}

    def near(words: tuple[str, ...]) -> bool:
        if ("=", *words) in seen or ("-", *words) in seen:  # same, or one word added to a training sentence
            return True
        shorter = [(*words[:i], *words[i + 1 :]) for i in range(len(words))]
        return any(("=", *w) in seen or ("-", *w) in seen for w in shorter)  # one word removed or substituted

    return [i for i, (english, zh) in enumerate(dev) if zh not in chinese and not near(_words(english))]


def make_batches(examples: list[Example], max_tokens: int, rng: random.Random) -> list[list[Example]]:
    """Group sentences of similar length so little compute goes to padding.

    Sorting with a little noise varies the batches from epoch to epoch;
    `max_tokens` bounds padded target tokens per batch.
    """
    order = sorted(examples, key=lambda e: (len(e.tgt) + rng.random() * 2, len(e.src)))
    batches, current, longest = [], [], 0
    for ex in order:
        longest_if_added = max(longest, len(ex.tgt), len(ex.src))
        if current and longest_if_added * (len(current) + 1) > max_tokens:
            batches.append(current)
            current, longest_if_added = [], max(len(ex.tgt), len(ex.src))
        current.append(ex)
        longest = longest_if_added
    if current:
        batches.append(current)
    rng.shuffle(batches)
    return batches


class ShuffledOrder(random.Random):
    """An rng that makes make_batches ignore length: it sorts by target length plus rng.random()·2 tokens of
    noise, and with this rng the noise is millions of tokens, so the order is random. Each batch is still filled
    up to the same padded-token budget by make_batches' own rule."""

    def random(self) -> float:
        return super().random() * 1e6

    def getrandbits(self, k: int) -> int:
        # Defined, so make_batches' closing shuffle draws its indices from bits, as random.Random does: drawn from
        # random() above, each index rejected ~10⁶ draws of at least 1 (1.7 s for the dev set's 13 batches). The
        # shuffle only orders the batches, which the sort filled before it: the same batches, the same padding.
        return super().getrandbits(k)


def batch_lengths(examples: list[Example], max_tokens: int, by_length: bool = True) -> list[list[tuple[int, int]]]:
    """(source length, target length) of every sentence of every batch make_batches forms from `examples` (seed 0):
    sorted by length as the trainer batches, or with `by_length` False in random order under the same padded-token
    budget, which shows what sorting saves (the "How it was trained" page)."""
    rng = random.Random(0) if by_length else ShuffledOrder(0)
    return [[(len(e.src), len(e.tgt)) for e in batch] for batch in make_batches(examples, max_tokens, rng)]


def collate(batch: list[Example], pad_id: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(src (B, S), decoder input (B, T), decoder target (B, T)), shifted by one position."""
    src = pad([e.src for e in batch], pad_id)
    tgt = pad([e.tgt for e in batch], pad_id)
    return src, tgt[:, :-1], tgt[:, 1:]
