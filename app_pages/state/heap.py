"""The server process's heap: freed memory goes back to the operating system, so a lesson's RSS stays near what is
in use (the result cache's budget and the models) instead of the highest it ever reached.

glibc's malloc gives each thread that allocates an arena of its own, up to eight per core, and returns little of
what they free: Streamlit runs every session's script in a new thread, and an attribution or a 1,000-character
translation frees hundreds of MB at once. Two arenas lowered the end of a 200-input soak across every page from
1,116 to 982 MB; a malloc_trim after page runs (at most every TRIM_EVERY_S) hands back what is free. The soak's curve
still climbs (benchmarks/README.md, "Memory"). Elsewhere than glibc (macOS, musl) nothing is done.
"""

from __future__ import annotations

import ctypes
import threading
import time

M_ARENA_MAX = -8  # glibc's mallopt parameter number for the arena limit (malloc.h)
ARENAS = 2
TRIM_EVERY_S = 10.0


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


class Heap:
    """trim() hands freed memory back to the operating system at most every `every_s` seconds (a trim walks the
    heap: milliseconds for a GB)."""

    def __init__(self, every_s: float = TRIM_EVERY_S, clock=time.monotonic) -> None:
        self.every_s, self._clock = every_s, clock
        self._last = clock()
        self._lock = threading.Lock()
        self._libc = _LIBC

    @property
    def glibc(self) -> bool:
        return self._libc is not None

    def trim(self) -> bool:
        """Hand freed memory back if the last trim is long enough ago; whether this call trimmed."""
        now = self._clock()
        with self._lock:
            if self._libc is None or now - self._last < self.every_s:
                return False
            self._last = now
        self._libc.malloc_trim(0)
        return True


_HEAP = Heap()


def shared() -> Heap:
    """The process's one Heap (not a result: nothing for the result cache to hold)."""
    return _HEAP
