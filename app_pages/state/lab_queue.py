"""The live lab's queue: at most ATTENTION_LAB_RUNS training runs at once on the server (default 1), the others
wait their turn in order, see their place, and may cancel.

Five students training at once on two cores made every classmate's translation 5–10× slower and stopped runs
before they had learned (their 20-second cap counted time lost to the others). Queued, one run computes at a time
and translations interleave with it (server.model_calls). A session that closes its tab stops calling `place`:
its ticket is dropped after STALE_S seconds, so it never holds the queue.
"""

from __future__ import annotations

import os
import threading
import time
import uuid

import streamlit as st

RUNS = max(1, int(os.environ.get("ATTENTION_LAB_RUNS", "1")))
STALE_S = 15.0  # a waiting or running page asks for its place about ten times a second


class LabQueue:
    """Tickets in arrival order; the first `runs` may train."""

    def __init__(self, runs: int = RUNS, stale_s: float = STALE_S, clock=time.monotonic) -> None:
        self.runs, self._stale_s, self._clock = runs, stale_s, clock
        self._seen: dict[str, float] = {}  # ticket → when its session last asked (dicts keep arrival order)
        self._lock = threading.Lock()

    def join(self) -> str:
        ticket = uuid.uuid4().hex
        with self._lock:
            self._seen[ticket] = self._clock()
        return ticket

    def place(self, ticket: str) -> int | None:
        """The ticket's place (0 = first) after dropping stale tickets, noting that its session is still there;
        None if it is not queued (it left, or went stale)."""
        now = self._clock()
        with self._lock:
            for other, seen in list(self._seen.items()):
                if other != ticket and now - seen > self._stale_s:
                    del self._seen[other]
            if ticket not in self._seen:
                return None
            self._seen[ticket] = now
            return list(self._seen).index(ticket)

    def may_run(self, ticket: str) -> bool:
        place = self.place(ticket)
        return place is not None and place < self.runs

    def leave(self, ticket: str | None) -> None:
        with self._lock:
            self._seen.pop(ticket, None)

    def __len__(self) -> int:
        return len(self._seen)


@st.cache_resource(show_spinner=False)
def shared() -> LabQueue:
    """The server's one lab queue."""
    return LabQueue()
