"""The live lab's queue and its worker: at most ATTENTION_LAB_RUNS training runs at once on the server (default 1),
the others wait their turn in order, see their place and about how long until their turn (`wait`, from how long
the runs before theirs took), and may cancel; every run's chunks are computed by one worker process at a lower
priority (`trainer`, model/lab/worker.py).

Five students training at once on two cores would make every classmate's translation 5–10× slower and stop runs
before they had learned (their 20-second cap counts time lost to the others). A session that closes its tab stops
calling `place`: its ticket is dropped after STALE_S seconds, so it never holds the queue. With 5 labs training, 10,
30 or 60 students opening the translate page at once wait at most 1.27× as long (p95) as on an idle server
(benchmarks/README.md, "A class at once, without browsers").
"""

from __future__ import annotations

import heapq
import os
import threading
import time
import uuid
from collections import deque

import streamlit as st

from model.lab import Trainer

RUNS = max(1, int(os.environ.get("ATTENTION_LAB_RUNS", "1")))
STALE_S = 15.0  # a waiting or running page asks for its place about ten times a second
KEPT_DURATIONS = 10  # the estimate of a run's length: the mean of the last ten that ran


class LabQueue:
    """Tickets in arrival order; the first `runs` may train."""

    def __init__(self, runs: int = RUNS, stale_s: float = STALE_S, clock=time.monotonic) -> None:
        self.runs, self._stale_s, self._clock = runs, stale_s, clock
        self._seen: dict[str, float] = {}  # ticket → when its session last asked (dicts keep arrival order)
        self._started: dict[str, float] = {}  # ticket → when its run was first allowed to compute
        self._durations: deque[float] = deque(maxlen=KEPT_DURATIONS)  # seconds from start to leaving, of past runs
        self._lock = threading.Lock()

    def join(self) -> str:
        ticket = uuid.uuid4().hex
        with self._lock:
            self._seen[ticket] = self._clock()
        return ticket

    def place(self, ticket: str) -> int | None:
        """The ticket's place (0 = first) after dropping stale tickets, noting that its session is still there (and,
        the first time it is among the first `runs`, that its run started); None if it is not queued (it left, or
        went stale)."""
        now = self._clock()
        with self._lock:
            for other, seen in list(self._seen.items()):
                if other != ticket and now - seen > self._stale_s:
                    del self._seen[other]
            if ticket not in self._seen:
                return None
            self._seen[ticket] = now
            place = list(self._seen).index(ticket)
            if place < self.runs:
                self._started.setdefault(ticket, now)
            return place

    def leave(self, ticket: str | None) -> None:
        with self._lock:
            self._seen.pop(ticket, None)
            started = self._started.pop(ticket, None)
            if started is not None:
                self._durations.append(self._clock() - started)

    def wait(self, ticket: str, run_seconds: float) -> float | None:
        """About how many seconds until `ticket` may run: the runs before it each take the mean length of the last
        runs (`run_seconds`, a run's cap, until one has ended), the ones computing now minus what they have had.
        None if it is not queued."""
        now = self._clock()
        with self._lock:
            order = list(self._seen)
            if ticket not in order:
                return None
            typical = sum(self._durations) / len(self._durations) if self._durations else run_seconds
            ahead = order[:order.index(ticket)]
            ends = [max(0.0, typical - (now - self._started[t])) for t in ahead if t in self._started]
            waiting = [t for t in ahead if t not in self._started]
        ends += [0.0] * (self.runs - len(ends))  # free slots
        heapq.heapify(ends)
        for _ in waiting:  # each takes the slot that frees first, in arrival order
            heapq.heappush(ends, heapq.heappop(ends) + typical)
        return ends[0]

    def __len__(self) -> int:
        return len(self._seen)


@st.cache_resource(show_spinner=False)
def shared() -> LabQueue:
    """The server's one lab queue."""
    return LabQueue()


@st.cache_resource(show_spinner=False)
def trainer() -> Trainer:
    """The server's one lab worker process (model/lab/worker.py), which computes every run's chunks at a lower
    priority than the sessions' translations."""
    return Trainer()
