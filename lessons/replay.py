"""How far attention is from uniform: the replay page's measure of attention being learned.

A row of an attention map is a probability distribution over the keys its query may see. Its entropy
H = −Σ p·log p is log n when it spreads evenly over n keys (an untrained model's cross-attention is
close to that) and 0 when it reads one key only (an alignment). Dividing by log n gives a share that
compares rows, sentences and kinds of different lengths: 1 = uniform, 0 = one key.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def row_entropy(weights) -> np.ndarray:
    """Entropy in nats of each row of (…, Tq, Tk) weights along the keys; 0·log 0 counts as 0."""
    p = np.asarray(weights, dtype=np.float64)
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=-1)


def visible_keys(kind: str, tq: int, tk: int) -> np.ndarray:
    """(Tq,) how many keys each query may see: all of them, or positions ≤ its own in the decoder's masked
    self-attention."""
    return np.arange(1, tq + 1) if kind == "decoder_self" else np.full(tq, tk)


def entropy_share(weights, kind: str) -> np.ndarray:
    """(layers, heads): the mean over query rows of H(row) / log(keys the row may see), for (layers, heads, Tq, Tk)
    weights. Rows that see a single key (the decoder's first position) have no choice to make and are left out."""
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 4:
        raise ValueError(f"weights must be (layers, heads, Tq, Tk), got shape {w.shape}")
    n = visible_keys(kind, *w.shape[2:])
    rows = n > 1
    if not rows.any():
        raise ValueError("every query sees a single key: there is no spread to measure")
    return (row_entropy(w)[..., rows] / np.log(n[rows])).mean(axis=-1)


def shares_over_snapshots(snapshots: Sequence, probe: int, kind: str) -> np.ndarray:
    """(layers, heads, snapshots): entropy_share of one probe's `kind` maps at each snapshot of training
    (model.read_snapshots' Snapshot)."""
    return np.stack([entropy_share(s.probes[probe].attention(kind), kind) for s in snapshots], axis=-1)


def sentence_of(source_tokens) -> str:
    """A probe's sentence from its tokens, for a log that does not keep the sentences: the pieces joined, ▁ (an
    English word's start) a space, </s> left out; a Chinese sentence's characters stay together."""
    return "".join(t for t in source_tokens if t != "</s>").replace("\u2581", " ").strip()


def repeated_token(target_tokens) -> str | None:
    """The one token an untrained model writes over and over (after <s>), or None when the output varies."""
    written = [t for t in list(target_tokens)[1:] if t != "</s>"]
    return written[0] if len(written) > 1 and len(set(written)) == 1 else None


def consensus_head(cross) -> tuple[int, int, int, int]:
    """(layer, head, rows that agree, rows): the cross-attention head whose strongest source tokens agree most often
    with the average of every head.

    The reference is that average, sinks included: for each row, the source token with the most weight averaged
    over all layers and heads. It is not a word alignment (the probes have no gold one), only what the heads say
    together. Heads that park most rows on one source token (more than half: a sink such as ▁I or </s>) are passed
    over, whatever their entropy: focus is not alignment. Among the others the one whose own strongest source token
    agrees with the average on the most rows wins; ties go to the lower entropy share. cross: (layers, heads, Tq, Tk).
    """
    w = np.asarray(cross, dtype=np.float64)
    if w.ndim != 4:
        raise ValueError(f"cross-attention must be (layers, heads, Tq, Tk), got shape {w.shape}")
    consensus = w.mean(axis=(0, 1)).argmax(axis=-1)  # (Tq,)
    strongest = w.argmax(axis=-1)  # (layers, heads, Tq)
    agree = (strongest == consensus).sum(axis=-1)  # (layers, heads)
    busiest = np.array([[np.bincount(row).max() for row in layer] for layer in strongest])
    sink = busiest * 2 > w.shape[2]
    score = np.where(sink, -1.0, agree - entropy_share(w, "cross"))  # entropy share < 1: only breaks ties
    layer, head = np.unravel_index(int(score.argmax()), score.shape)
    return int(layer), int(head), int(agree[layer, head]), w.shape[2]
