"""Sentence pairs as token ids, as the trainer and the translator both encode them."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..architecture.config import ModelConfig
from .tokenizer import TextTokenizer


@dataclass(frozen=True)
class Example:
    src: tuple[int, ...]  # source ids + </s>
    tgt: tuple[int, ...]  # <s> + target ids + </s>


def encode_pairs(
    pairs: list[tuple[str, str]], src_tok: TextTokenizer, tgt_tok: TextTokenizer, config: ModelConfig
) -> list[Example]:
    """Tokenise; pairs longer than the positional table are skipped."""
    out = []
    for src, tgt in pairs:
        s = (*src_tok.encode(src), config.eos_id)
        t = (config.bos_id, *tgt_tok.encode(tgt), config.eos_id)
        if len(s) <= config.max_len and len(t) <= config.max_len:
            out.append(Example(s, t))
    return out


def pad(rows: list[tuple[int, ...]] | list[list[int]], pad_id: int) -> torch.Tensor:
    width = max(len(r) for r in rows)
    return torch.tensor([list(r) + [pad_id] * (width - len(r)) for r in rows], dtype=torch.long)
