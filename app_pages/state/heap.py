"""The server process's heap: freed memory goes back to the operating system, so a lesson's RSS stays near what is
in use (the result cache's budget and the models) instead of the highest it ever reached.

glibc's malloc gives each thread that allocates an arena of its own, up to eight per core, and returns little of
what they free: Streamlit runs every session's script in a new thread, and an attribution or a 1,000-character
translation frees hundreds of MB at once. Two arenas lowered the end of a 200-input soak across every page from
1,116 to 982 MB; a malloc_trim after page runs (at most every TRIM_EVERY_S, and once that is due when a run comes
too soon: without it, what the lesson's last runs freed stayed with the process) hands back what is free. Elsewhere
than glibc (macOS, musl) nothing is done there.

What still grew was held, not freed: memray on a server opened 40 times on the explanation page (1,000-character
inputs among them) found its live allocations grow from 611 to 1,179 MB, 760 MB of them under integrated gradients'
bfloat16 passes. oneDNN, which multiplies bfloat16 on the CPU, keeps a compiled primitive, with its buffers, for
every shape it has seen, up to 1,024 of them, and each sentence length and number of points is a new shape: without
that cache the same soak ended at 741 MB instead of 1,043. ONEDNN_PRIMITIVES keeps the last 64, which cost
integrated gradients no time at 22 tokens (none at all: half as long again). It is set before the first bfloat16
product, which only a page run makes; a value in the environment wins. The soak across every page then ended at
1,009 MB 30 s after its last tab closed, against 1,571 (benchmarks/README.md, "Memory").
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Callable

M_ARENA_MAX = -8  # glibc's mallopt parameter number for the arena limit (malloc.h)
ARENAS = 2
TRIM_EVERY_S = 10.0
ONEDNN_PRIMITIVES = 64
os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", str(ONEDNN_PRIMITIVES))  # read by oneDNN at its first use


def _glibc():
    """glibc, its arenas limited to ARENAS from now on (this module is imported by the first page run, before most
    sessions' threads exist); None elsewhere."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_ARENA_MAX, ARENAS)
        libc.malloc_trim  # noqa: B018 (glibc has it; musl's libc.so.6, if any, may not)
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _glibc()


def _timer(seconds: float, call: Callable[[], object]) -> None:
    timer = threading.Timer(seconds, call)
    timer.daemon = True
    timer.start()


class Heap:
    """trim() hands freed memory back to the operating system at most every `every_s` seconds (a trim walks the
    heap: milliseconds for a GB). A call too soon is not dropped but deferred: `later(seconds, call)` (a timer)
    trims once it is due, so what a lesson's last page runs freed goes back too, not only what was freed before
    the last run that trimmed."""

    def __init__(self, every_s: float = TRIM_EVERY_S, clock=time.monotonic, later=_timer) -> None:
        self.every_s, self._clock, self._later = every_s, clock, later
        self._last = clock()
        self._deferred = False
        self._lock = threading.Lock()
        self._libc = _LIBC
        self.trims = 0

    @property
    def glibc(self) -> bool:
        return self._libc is not None

    def trim(self) -> bool:
        """Hand freed memory back if the last trim is long enough ago, else once it is; whether this call trimmed."""
        now = self._clock()
        with self._lock:
            if self._libc is None:
                return False
            wait = self._last + self.every_s - now
            if wait > 0:
                if not self._deferred:
                    self._deferred = True
                    self._later(wait, self._when_due)
                return False
            self._last = now
            self.trims += 1
        self._libc.malloc_trim(0)
        return True

    def _when_due(self) -> None:
        with self._lock:
            self._deferred = False
        self.trim()


_HEAP = Heap()


def shared() -> Heap:
    """The process's one Heap (not a result: nothing for the result cache to hold)."""
    return _HEAP
