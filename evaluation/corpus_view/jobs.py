"""Work the corpus page starts and does not wait for: the traced passes over a corpus and each projection run on one
background thread of the server, one piece of work at a time, each started once however many sessions ask for it.

A page asks for a job by its key (start), draws its progress while it runs (Job.progress, Job.elapsed) and reads its
result once done (Job.result), so a t-SNE of 3,000 points never holds a page's run, and another student's page (a
translation, another corpus view read from the disk cache) is served meanwhile. Finished jobs are kept, the least
recently asked for dropped past KEPT; a failed job keeps its exception for the page that asks, then is forgotten.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import Generic, TypeVar

T = TypeVar("T")
KEPT = 64  # finished jobs kept: a corpus run (~35 MB) or a head's projection (~100 KB) each
Progress = Callable[[int, int], None]


class Job(Generic[T]):
    """One piece of work: started when a worker takes it, with how far it got (done of total) as it says."""

    def __init__(self, work: Callable[[Progress], T], clock: Callable[[], float] = time.monotonic) -> None:
        self._work, self._clock = work, clock
        self.future: Future = Future()
        self.done_steps, self.total_steps = 0, 0
        self.started: float | None = None

    def run(self) -> None:
        if not self.future.set_running_or_notify_cancel():
            return
        self.started = self._clock()
        try:
            self.future.set_result(self._work(self._report))
        except BaseException as exc:  # handed to the page that reads the result
            self.future.set_exception(exc)

    def _report(self, done: int, total: int) -> None:
        self.done_steps, self.total_steps = done, total

    @property
    def done(self) -> bool:
        return self.future.done()

    @property
    def progress(self) -> float | None:
        """The share done (0–1) as the work last said, None where it says nothing (a projection)."""
        return self.done_steps / self.total_steps if self.total_steps else None

    @property
    def elapsed(self) -> float:
        """Seconds since a worker took it (0 while it waits its turn)."""
        return 0.0 if self.started is None else self._clock() - self.started

    def wait(self, seconds: float) -> bool:
        """Whether it finished within `seconds` (PCA does: the page then draws it in the same run)."""
        try:
            self.future.exception(timeout=seconds)
        except TimeoutError:
            return False
        return True

    def result(self) -> T:
        return self.future.result(timeout=0)


class Jobs:
    """Jobs by key on `workers` background threads (1: the server's other core stays with the class). The threads
    are daemons: a server or a test run that ends does not wait for a projection nobody will read."""

    def __init__(self, workers: int = 1, kept: int = KEPT) -> None:
        self._waiting: queue.SimpleQueue[Job] = queue.SimpleQueue()
        self._jobs: OrderedDict[Hashable, Job] = OrderedDict()
        self._kept = kept
        self._lock = threading.Lock()
        for n in range(workers):
            threading.Thread(target=self._work, name=f"corpus-view-{n}", daemon=True).start()

    def _work(self) -> None:
        while True:
            self._waiting.get().run()

    def start(self, key: Hashable, work: Callable[[Progress], T]) -> Job[T]:
        """The job of `key`: the one started before (running, waiting or done), else `work` queued now. A failed
        job is handed out once more (its exception says why), then started afresh the next time."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None:
                self._jobs.move_to_end(key)
                if job.done and job.future.exception() is not None:
                    del self._jobs[key]
                return job
            job = self._jobs[key] = Job(work)
            self._drop_old()
        self._waiting.put(job)
        return job

    def _drop_old(self) -> None:
        finished = [k for k, j in self._jobs.items() if j.done]
        for key in finished[: max(0, len(self._jobs) - self._kept)]:
            del self._jobs[key]

    def __len__(self) -> int:
        return len(self._jobs)


_SHARED: Jobs | None = None
_SHARED_LOCK = threading.Lock()


def shared() -> Jobs:
    """The server's one queue of corpus work (made on first use)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = Jobs()
        return _SHARED
