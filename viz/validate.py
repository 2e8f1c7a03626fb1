"""Checks at the boundary of every figure function, with messages that say how to fix the call."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def as_float32(values, name: str, ndim: int, allow_neg_inf: bool = False) -> np.ndarray:
    """`values` as a float32 array with `ndim` dimensions and no NaN or ±∞, except −∞ (a masked score) if allowed."""
    try:
        array = np.asarray(values, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric, got {type(values).__name__}: {exc}") from None
    if array.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimensions, got shape {array.shape}: pass one {ndim}-D array")
    bad = ~np.isfinite(array)
    if allow_neg_inf:
        bad &= ~np.isneginf(array)
    if bad.any():
        allowed = "only −∞ (a masked score) may stand for a missing value" if allow_neg_inf else (
            "pass finite numbers, e.g. the attention weights the model returned")
        raise ValueError(f"{name} contains NaN or infinite values: {allowed}")
    return array


def check_labels(labels: Sequence[str], length: int, name: str, axis: str = "positions") -> list[str]:
    """`labels` as a list of `length` strings, one per entry along `axis` of the array they label (not yet escaped)."""
    if isinstance(labels, str):
        raise ValueError(f"{name} must be a list of labels (tokens), not one string: pass e.g. result.source_tokens")
    labels = [str(x) for x in labels]
    if len(labels) != length:
        raise ValueError(
            f"{name} has {len(labels)} labels but the array has {length} {axis}: pass one label per entry of that "
            "axis (for a translation, TranslationResult.axis_tokens gives the tokens of each axis)"
        )
    return labels


def check_index(value: int, size: int, name: str) -> int:
    if not isinstance(value, (int, np.integer)) or not 0 <= value < size:
        raise ValueError(f"{name} must be an integer in [0, {size - 1}], got {value!r}")
    return int(value)
