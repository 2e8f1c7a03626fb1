"""Masks as boolean matrices, True = this query may attend to this key (the model's convention).

Causal: query i sees keys 0..i. Padding: nobody attends to a <pad> key. The
decoder's self-attention combines both; cross-attention (target queries × source
keys) has only the source's padding. A mask is applied by putting −∞ in the
scores before the softmax, so the softmax gives exactly 0 there.
"""

from __future__ import annotations

import numpy as np

# The notes' example sentence for the 4×4 masked self-attention map.
DOC_SENTENCE = ("i", "have", "a", "dream")
PAD = "<pad>"


def causal_mask(n: int) -> np.ndarray:
    """(n, n) lower-triangular: query i may attend to keys j ≤ i."""
    if n < 1:
        raise ValueError(f"a causal mask needs at least one position, got n={n}")
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths: list[int], max_len: int | None = None) -> np.ndarray:
    """(batch, max_len): True at real tokens, False at the <pad> positions that fill each row to max_len."""
    lengths = [int(n) for n in lengths]
    if not lengths or min(lengths) < 1:
        raise ValueError(f"every sentence needs at least one token, got lengths {lengths}")
    width = max(lengths) if max_len is None else max_len
    if width < max(lengths):
        raise ValueError(f"max_len={width} is shorter than the longest sentence ({max(lengths)} tokens)")
    return np.arange(width)[None, :] < np.array(lengths)[:, None]


def self_attention_mask(lengths: list[int], causal: bool) -> np.ndarray:
    """(batch, T, T): every query row hides the <pad> keys; `causal` also hides the future (decoder)."""
    keys = padding_mask(lengths)  # (batch, T)
    mask = np.repeat(keys[:, None, :], keys.shape[1], axis=1)  # (batch, T, T)
    return mask & causal_mask(keys.shape[1]) if causal else mask


def cross_mask(target_lengths: list[int], source_lengths: list[int]) -> np.ndarray:
    """(batch, T, S): target queries × source keys; only source padding is hidden, nothing is in the 'future'."""
    if len(target_lengths) != len(source_lengths):
        raise ValueError(f"one target per source: {len(target_lengths)} targets, {len(source_lengths)} sources")
    keys = padding_mask(source_lengths)  # (batch, S)
    t = max(int(n) for n in target_lengths)
    return np.repeat(keys[:, None, :], t, axis=1)


def pad_tokens(sentences: list[list[str]]) -> list[list[str]]:
    """Each token list filled with <pad> to the longest one's length, as a batch is built."""
    width = max(len(s) for s in sentences)
    return [list(s) + [PAD] * (width - len(s)) for s in sentences]


def additive_mask(mask: np.ndarray) -> np.ndarray:
    """The mask as the paper's M, added to the scores: 0 where allowed, −∞ where hidden."""
    return np.where(np.asarray(mask, dtype=bool), 0.0, -np.inf)


def visible_keys(mask: np.ndarray, tokens: list[str]) -> list[list[str]]:
    """For each query row, the key tokens it may attend to."""
    return [[tok for tok, ok in zip(tokens, row) if ok] for row in np.asarray(mask, dtype=bool)]


def toy_qk(n_queries: int, n_keys: int, d_k: int = 4, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Random q (n_queries, d_k) and k (n_keys, d_k) for illustrating masks where no model is involved."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n_queries, d_k)), rng.standard_normal((n_keys, d_k))


# A padded batch of two sentences for the padding and cross-attention masks: the notes' sentence and
# the worked example's two words, with illustrative Chinese targets (decoder inputs start with <s>).
BATCH_SOURCES = (DOC_SENTENCE + ("</s>",), ("thinking", "machines", "</s>"))
BATCH_TARGETS = (("<s>", "我", "有", "一", "个", "梦", "想"), ("<s>", "思", "考", "机", "器"))


# ---------------------------------------------------------------- teacher forcing vs decoding (exposure bias)
# Everyday sentences with our own reference translations (from evaluation/classroom.tsv): the masks page
# shows the first of them whose translation leaves the reference, where training and decoding part ways.
EXPOSURE_EXAMPLES = (
    ("The cat sat on the mat.", "猫坐在垫子上。"),
    ("I have two dogs and a cat.", "我有两只狗和一只猫。"),
    ("The teacher wrote on the blackboard.", "老师在黑板上写字。"),
    ("Attention is all you need.", "你只需要注意力。"),
)


def first_divergence(written: list[str], reference: list[str]) -> int | None:
    """The first output position where the decoded tokens leave the reference's, or None when they never do
    (both lists without <s>; the longer one's extra tokens count as leaving)."""
    for i, (ours, theirs) in enumerate(zip(written, reference)):
        if ours != theirs:
            return i
    return None if len(written) == len(reference) else min(len(written), len(reference))
