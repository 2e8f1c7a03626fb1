"""One cache of model results for the whole server, bounded by bytes, not by entries: the only place a page keeps
what it computed for every session (tests/test_result_paths.py holds pages to it; models.py keeps the models).

A result holds every attention map, query, key and value of a sentence: a short sentence's is about 100 KB, a
1,000-character one's several MB. A cache that counts entries (st.cache_data's max_entries) lets a class typing
long sentences grow the process by gigabytes; this one drops the least recently used results once their arrays
pass a budget (ATTENTION_RESULT_CACHE_MB, default 256). Results are shared between sessions, not copied for each
(as st.cache_data does): their arrays are made read-only, so no page can change what another session sees.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable, Hashable
from typing import TypeVar

import numpy as np
import streamlit as st
from cachetools import LRUCache

BUDGET_MB = int(os.environ.get("ATTENTION_RESULT_CACHE_MB", "256"))
T = TypeVar("T")


def array_bytes(value) -> int:
    """Bytes held by the NumPy arrays in `value`: a dataclass, dict, list or tuple of them, searched all the way down."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sum(array_bytes(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, dict):
        return sum(array_bytes(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(array_bytes(v) for v in value)
    return 0


def freeze(value) -> None:
    """Make every NumPy array in `value` read-only (a shared result must not be changed by one session)."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            freeze(getattr(value, f.name))
    elif isinstance(value, dict):
        for v in value.values():
            freeze(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            freeze(v)


class ResultCache:
    """A least-recently-used cache whose size is the bytes of its results' arrays (plus 1 KB each for the rest)."""

    def __init__(self, budget_bytes: int) -> None:
        self._cache = LRUCache(maxsize=budget_bytes, getsizeof=lambda value: array_bytes(value) + 1024)
        self._lock = threading.Lock()  # sessions run in threads of one process

    @property
    def bytes(self) -> int:
        return int(self._cache.currsize)

    def __len__(self) -> int:
        return len(self._cache)

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The result cached under `key`, else compute() (outside the lock: two sessions may compute one result
        at once, which costs time but never blocks the class behind one long sentence)."""
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        value = compute()
        freeze(value)
        with self._lock:
            try:
                self._cache[key] = value
            except ValueError:  # larger than the whole budget: served, not kept
                pass
        return value

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()


@st.cache_resource(show_spinner=False)
def shared() -> ResultCache:
    """The server's one result cache. A key starts with what computed the result ("model" and the typed result
    function of translations.py for a loaded model's; a page's own, as "replay.snapshots", with its page's prefix),
    then everything that changes it."""
    return ResultCache(BUDGET_MB * 2**20)
