"""The server's heap (app_pages/state/heap.py): freed memory handed back to the operating system, at most every few
seconds."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import time

import pytest

from app_pages.state.heap import ONEDNN_PRIMITIVES, Heap
from tests.support.paths import ROOT


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_a_trim_hands_freed_memory_back_at_most_every_few_seconds_and_a_call_too_soon_is_kept_for_later():
    from benchmarks.proc import rss_mb

    now, deferred = [0.0], []
    heap = Heap(every_s=10, clock=lambda: now[0], later=lambda seconds, call: deferred.append((seconds, call)))
    assert heap.glibc
    assert not heap.trim()  # just made: nothing to hand back yet, but a trim is left for when one is due
    assert [seconds for seconds, _ in deferred] == [10]
    blocks, pins = [], []
    for _ in range(4000):  # 256 MB, each block followed by a small object still in use: free() alone keeps the heap
        blocks.append(bytearray(64 * 1024))
        pins.append(bytearray(64))
    held = rss_mb()
    del blocks
    now[0] = 9.9
    assert not heap.trim() and len(deferred) == 1  # one trim left for later, however many calls come too soon
    now[0] = 10.0
    deferred.pop()[1]()  # the timer: the last page run's frees go back without another run
    assert heap.trims == 1 and not heap.trim()
    assert rss_mb() < held - 150  # most of the 256 MB is the operating system's again (free() alone: ~20 MB)
    assert pins
    now[0] = 25.0
    assert heap.trim() and heap.trims == 2 and len(deferred) == 1  # due: trims at once, nothing left for later


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_the_shared_heap_trims_on_a_timer_after_the_last_run():
    heap = Heap(every_s=0.2)  # the real clock and timer
    heap.trim()
    waited = 0.0
    while heap.trims == 0 and waited < 10:
        time.sleep(0.05)
        waited += 0.05
    assert heap.trims == 1


def capacity_after_import(env: dict[str, str]) -> str:
    """ONEDNN_PRIMITIVE_CACHE_CAPACITY as a fresh process sees it once app.py's heap module is imported."""
    code = "import os, app_pages.state.heap; print(os.environ['ONEDNN_PRIMITIVE_CACHE_CAPACITY'])"
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_onednn_keeps_a_bounded_number_of_primitives_unless_the_server_says_otherwise():
    """oneDNN reads its primitive cache's capacity once, at its first bfloat16 product (a page run's attribution):
    importing the heap module, as app.py does before any page runs, sets it; a value the server was started with
    stays."""
    env = {k: v for k, v in os.environ.items() if k != "ONEDNN_PRIMITIVE_CACHE_CAPACITY"}
    assert capacity_after_import(env) == str(ONEDNN_PRIMITIVES) == "64"
    assert capacity_after_import({**env, "ONEDNN_PRIMITIVE_CACHE_CAPACITY": "8"}) == "8"


def test_app_imports_the_heap_module_before_its_first_page_run():
    tree = ast.parse((ROOT / "app.py").read_text())
    first_call = next(node.lineno for node in tree.body if isinstance(node, ast.Expr)
                      and isinstance(node.value, ast.Call))  # links.begin_run()
    imported = [node.lineno for node in tree.body if isinstance(node, ast.ImportFrom)
                and node.module == "app_pages.state" and any(a.name == "heap" for a in node.names)]
    assert imported and imported[0] < first_call
