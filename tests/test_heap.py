"""The server's heap (app_pages/state/heap.py): freed memory handed back to the operating system, at most every few
seconds."""

from __future__ import annotations

import sys

import pytest

from app_pages.state.heap import Heap


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_a_trim_hands_freed_memory_back_at_most_every_few_seconds():
    from benchmarks.proc import rss_mb

    now = [0.0]
    heap = Heap(every_s=10, clock=lambda: now[0])
    assert heap.glibc
    assert not heap.trim()  # just made: nothing to hand back yet
    blocks, pins = [], []
    for _ in range(4000):  # 256 MB, each block followed by a small object still in use: free() alone keeps the heap
        blocks.append(bytearray(64 * 1024))
        pins.append(bytearray(64))
    held = rss_mb()
    del blocks
    now[0] = 9.9
    assert not heap.trim()
    now[0] = 10.0
    assert heap.trim() and not heap.trim()
    assert rss_mb() < held - 150  # most of the 256 MB is the operating system's again (free() alone: ~20 MB)
    assert pins
