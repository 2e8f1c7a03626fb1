"""Which cross-attention head links a source word to its translation, read off one TranslationResult.

Decoder position t reads target_tokens[t] and writes output_tokens[t]; its cross-attention row says
where in the sentence it looked while writing that token. For a target word written at
positions t₁ … tₙ and a source word made of source tokens s₁ … sₘ, a head's link is the weight its
rows t₁ … tₙ put on s₁ … sₘ together, averaged over the rows. word_link() finds the head with the
strongest link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..text.tokenizer import WORD_START
from .result import TranslationResult


@dataclass(frozen=True)
class WordLink:
    layer: int  # 0-based
    head: int  # 0-based
    weight: float  # mean over the target word's rows of the weight on the source word's tokens
    source_tokens: tuple[str, ...]  # the source word's tokens (columns of the map)
    output_tokens: tuple[str, ...]  # the target word's tokens, as written
    rows: tuple[str, ...]  # the map's row labels (decoder inputs) of the steps that wrote them


def _is_wordlike(token: str) -> bool:
    return any(ch.isalnum() for ch in token)


_HAN = re.compile(r"[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]")


def word_positions(tokens: list[str], word: str) -> list[int]:
    """Positions of the first word of `tokens` spelled `word`, on either side of either direction.

    A Chinese word is a run of characters, one token each ("梦", "想" for 梦想). Any other word is a ▁ token and its
    continuations, compared without case ("▁anim", "al" for "Animal"), as English is tokenised as a source and as
    a target alike.
    """
    if _HAN.search(word):
        return _run_spelling(tokens, word)
    groups: list[list[int]] = []
    for i, token in enumerate(tokens):
        # A word continues only from a word-like token with a word-like token without ▁ ("▁anim" + "al").
        if not groups or token.startswith(WORD_START) or not _is_wordlike(token) or not _is_wordlike(tokens[i - 1]):
            groups.append([i])
        else:
            groups[-1].append(i)
    wanted = word.strip().lower()
    for group in groups:
        if "".join(tokens[i] for i in group).replace(WORD_START, "").lower() == wanted:
            return group
    return []


def _run_spelling(tokens: list[str], word: str) -> list[int]:
    """Positions of the first run of tokens that spells `word` exactly."""
    for start in range(len(tokens)):
        text, end = "", start
        while end < len(tokens) and len(text) < len(word):
            text += tokens[end]
            end += 1
        if text == word:
            return list(range(start, end))
    return []


def word_link(result: TranslationResult, source_word: str, target_word: str) -> WordLink | None:
    """The cross-attention layer and head that links `target_word` (in the translation) to `source_word` (in the
    sentence) most: "梦想" to "dream" for English → Chinese, "dream" to "梦想" for Chinese → English.

    None when the source has no such word or the translation does not contain the target word.
    """
    cols = word_positions(result.source_tokens, source_word)
    rows = word_positions(result.output_tokens[:-1], target_word)  # not </s>
    if not cols or not rows:
        return None
    link = result.cross[:, :, rows][:, :, :, cols].sum(-1).mean(-1)  # (layers, heads)
    layer, head = np.unravel_index(int(np.argmax(link)), link.shape)
    return WordLink(
        int(layer), int(head), float(link[layer, head]), tuple(result.source_tokens[i] for i in cols),
        tuple(result.output_tokens[i] for i in rows), tuple(result.target_tokens[i] for i in rows),
    )
