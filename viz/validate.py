"""Checks at the boundary of every figure function, with messages that say how to fix the call."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def as_float32(values, name: str, ndim: int) -> np.ndarray:
    """`values` as a finite float32 array with `ndim` dimensions."""
    try:
        array = np.asarray(values, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric, got {type(values).__name__}: {exc}") from None
    if array.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimensions, got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or infinite values; pass the attention weights the model returned")
    return array


def check_tokens(tokens: Sequence[str], length: int, name: str, axis: str) -> list[str]:
    """`tokens` as a list of `length` strings, one per `axis` of the array they label."""
    if isinstance(tokens, str):
        raise ValueError(f"{name} must be a list of tokens, not one string: use e.g. result.source_tokens")
    tokens = list(tokens)
    if len(tokens) != length:
        raise ValueError(
            f"{name} has {len(tokens)} tokens but the array has {length} {axis}: "
            "pass the tokens that label that axis (see TranslationResult.axis_tokens)"
        )
    return tokens


def check_index(value: int, size: int, name: str) -> int:
    if not isinstance(value, (int, np.integer)) or not 0 <= value < size:
        raise ValueError(f"{name} must be an integer in [0, {size - 1}], got {value!r}")
    return int(value)
