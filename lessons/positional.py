"""Sinusoidal positional encoding (paper §3.5) in NumPy, and the variant one study note writes by mistake.

PE(pos, 2i)   = sin(pos / 10000^(2i/d_model))
PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))

The note "01: Attention is All You Need" (seed 002, §2.2, Equation 7) writes the
cosine as cos(pos / 10,000^{2i+1 / d_model}), and its pos = 1, d_model = 6 snippet
computes 10000 ** (2 * i + 1 / d_model). Read as printed, the exponent is
2i + 1/d_model; read as intended, (2i+1)/d_model. Either way the cosine no longer
shares its sine's frequency, and PE(pos + k) stops being a rotation of PE(pos).
(Its own PositionalEncoding class and Equation 9 use one frequency per pair: correct.)
"""

from __future__ import annotations

import numpy as np

BASE = 10000.0


def _check(length: int, d_model: int) -> None:
    if d_model < 2 or d_model % 2:
        raise ValueError(f"d_model must be a positive even number (sin/cos pairs), got {d_model}")
    if length < 1:
        raise ValueError(f"length must be at least 1, got {length}")


def frequencies(d_model: int) -> np.ndarray:
    """ω_i = 1 / 10000^(2i/d_model) for i = 0 … d_model/2 − 1: one angular speed per (sin, cos) pair."""
    _check(1, d_model)
    return 1.0 / BASE ** (np.arange(0, d_model, 2) / d_model)


def pe_table(length: int, d_model: int) -> np.ndarray:
    """(length, d_model) float64: the paper's PE, sin in even columns, cos in odd ones."""
    _check(length, d_model)
    angle = np.arange(length)[:, None] * frequencies(d_model)[None, :]  # (length, d_model/2)
    table = np.empty((length, d_model))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


def note_variant_table(length: int, d_model: int, literal: bool) -> np.ndarray:
    """The note's cosine: exponent 2i + 1/d_model as printed (`literal`), or (2i+1)/d_model as probably meant."""
    _check(length, d_model)
    two_i = np.arange(0, d_model, 2)
    cos_exponent = two_i + 1 / d_model if literal else (two_i + 1) / d_model
    pos = np.arange(length)[:, None]
    table = pe_table(length, d_model)
    table[:, 1::2] = np.cos(pos / BASE**cos_exponent[None, :])
    return table


def rotation(k: int, d_model: int) -> np.ndarray:
    """(d_model/2, 2, 2) matrices R_i with [PE(pos+k)_2i, PE(pos+k)_2i+1] = R_i · [PE(pos)_2i, PE(pos)_2i+1].

    From sin(a+b) = sin a cos b + cos a sin b and cos(a+b) = cos a cos b − sin a sin b:
    R_i = [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]], which depends on k, never on pos.
    """
    theta = k * frequencies(d_model)
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], -2)


def rotate(table: np.ndarray, k: int) -> np.ndarray:
    """Every row of a PE table moved by the offset-k rotation, pair by pair: predicts the rows k further on."""
    n, d = table.shape
    pairs = table.reshape(n, d // 2, 2)  # (positions, pairs, [sin, cos])
    return np.einsum("pab,npb->npa", rotation(k, d), pairs).reshape(n, d)


def rotation_error(table: np.ndarray, k: int) -> float:
    """Largest |PE(pos+k) − R_k·PE(pos)| over all positions and dimensions the table allows."""
    if not 0 < k < table.shape[0]:
        raise ValueError(f"offset k must be between 1 and {table.shape[0] - 1} for a table of {table.shape[0]} rows")
    return float(np.abs(table[k:] - rotate(table[:-k], k)).max())


def similarity(table: np.ndarray) -> np.ndarray:
    """(length, length) dot products PE(a)·PE(b): depends only on |a − b| for the paper's table."""
    return table @ table.T


def pe_norm(d_model: int) -> float:
    """‖PE(pos)‖ = √(d_model/2) for every position: each (sin, cos) pair has length 1."""
    return float(np.sqrt(d_model / 2))


def row_norms(matrix: np.ndarray) -> np.ndarray:
    return np.linalg.norm(np.asarray(matrix, dtype=np.float64), axis=-1)


def pieces_past(piece_tokens: list[int], longest: int, room: int) -> int:
    """How many pieces (their token counts, without </s>, taken in order) make a sentence longer than `longest`
    tokens with its </s>, never more than `room` tokens; every piece if even all of them stay within `longest`."""
    total = 1  # </s>
    for n, tokens in enumerate(piece_tokens, 1):
        if total + tokens > room:
            return max(n - 1, 1)
        total += tokens
        if total > longest:
            return n
    return len(piece_tokens)


def pieces_within(piece_tokens: list[int], longest: int) -> int:
    """How many pieces, taken in order, fit in `longest` tokens together with </s>."""
    total, n = 1, 0
    for tokens in piece_tokens:
        if total + tokens > longest:
            break
        total, n = total + tokens, n + 1
    return n


def attention_share_past(cross: np.ndarray, longest: int) -> tuple[float, float]:
    """cross: (layers, heads, T, S) cross-attention. (share of all its weight on source positions ≥ `longest`,
    share of the source positions that are ≥ `longest`): equal if the decoder reads the far positions as much."""
    weights = np.asarray(cross, dtype=np.float64)
    per_position = weights.sum(axis=(0, 1, 2))  # (S,)
    return float(per_position[longest:].sum() / per_position.sum()), float(max(len(per_position) - longest, 0) / len(per_position))


def received_attention(cross: np.ndarray) -> np.ndarray:
    """(S,) the cross-attention each source position receives, averaged over layers and heads, summed over steps."""
    return np.asarray(cross, dtype=np.float64).mean(axis=(0, 1)).sum(axis=0)
