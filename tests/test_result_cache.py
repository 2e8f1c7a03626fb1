"""The server's result cache is bounded by the bytes of its results, shares them read-only, and keeps what is used."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from app_pages.state.result_cache import ResultCache, array_bytes, freeze


@dataclass(frozen=True)
class Result:
    maps: np.ndarray
    parts: dict


def result(kb: int) -> Result:
    """A result whose arrays hold `kb` KB: half in its maps, half in a dict of parts."""
    half = kb * 1024 // 2 // 4
    return Result(np.zeros(half, np.float32), {"q": [np.zeros(half, np.float32)]})


def test_a_results_size_counts_every_array_inside_it():
    assert array_bytes(result(64)) == 64 * 1024
    assert array_bytes({"a": (np.zeros(3, np.int64), "text", 7)}) == 24


def test_the_cache_stays_within_its_byte_budget_and_drops_the_least_recently_used():
    cache = ResultCache(budget_bytes=400 * 1024)
    calls = []
    for name in "abcde":  # five results of 100 KB (+1 KB each): three fit
        cache.get(name, lambda name=name: calls.append(name) or result(100))
    assert cache.bytes <= 400 * 1024 and len(cache) == 3
    cache.get("c", lambda: calls.append("c again") or result(100))  # still there: not computed again
    cache.get("f", lambda: result(100))  # evicts the least recently used: d (c was just used)
    cache.get("c", lambda: calls.append("c evicted") or result(100))
    assert "c again" not in calls and "c evicted" not in calls
    cache.get("d", lambda: calls.append("d again") or result(100))
    assert "d again" in calls


def test_a_result_larger_than_the_budget_is_served_but_not_kept():
    cache = ResultCache(budget_bytes=10 * 1024)
    big = cache.get("big", lambda: result(64))
    assert array_bytes(big) == 64 * 1024 and len(cache) == 0


def test_a_shared_result_cannot_be_changed_by_one_session():
    shared = ResultCache(budget_bytes=1 << 20).get("x", lambda: result(8))
    with pytest.raises(ValueError, match="read-only"):
        shared.maps[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        shared.parts["q"][0][0] = 1.0


def test_freeze_reaches_a_real_translation(translator):
    translation = translator.translate("I have a dream.")
    freeze(translation)
    assert not translation.cross.flags.writeable and not translation.encoder_self.flags.writeable
    assert array_bytes(translation) > translation.cross.nbytes
