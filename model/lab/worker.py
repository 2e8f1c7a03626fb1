"""The lab's runs in a process of their own, at a lower priority, so training never takes the cores from a class.

A server hands every chunk of every run to one worker process (`Trainer`): it holds each run's generator by the
run's id and advances it on request. Being another process it has its own interpreter lock, and its nice value
(LAB_NICE) makes Linux give a translation's thread about ten times its share of a busy core. A thread in the
server's own process at that nice value made translations slower instead: descheduled while it held the
interpreter lock, it kept every other thread waiting (benchmarks/README.md, "A class at once, without browsers").
"""

from __future__ import annotations

import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from .run import LabSettings, Progress, train_steps

LAB_NICE = 10
KEPT_RUNS = 64  # runs the worker remembers; a tab closed mid-run leaves its run behind (a lab model is 6k weights)

_runs: OrderedDict[str, Iterator[Progress]] = OrderedDict()  # in the worker: run id → its generator


def _start_worker() -> None:
    os.nice(LAB_NICE)
    from model.translation.threads import configure_torch_threads

    configure_torch_threads(1)  # one core's worth at most, and only what the class leaves


def _next(run: str, settings: LabSettings) -> Progress:
    """In the worker: the next Progress of `run`, started on its first call; a run that stopped is forgotten."""
    if run not in _runs:
        _runs[run] = train_steps(settings)
        while len(_runs) > KEPT_RUNS:
            _runs.popitem(last=False)
    _runs.move_to_end(run)
    progress = next(_runs[run])
    if progress.stopped_by:
        del _runs[run]
    return progress


def _drop(run: str) -> None:
    _runs.pop(run, None)


class Trainer:
    """The server's side: `next(run, settings)` blocks until the worker has computed that run's next chunk."""

    def __init__(self) -> None:
        # spawn, not fork: forking a server whose threads hold locks can leave the child stuck on one
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_start_worker)
        self._pool.submit(os.nice, 0)  # start the worker now: its imports take seconds the first run need not wait

    def next(self, run: str, settings: LabSettings) -> Progress:
        return self._pool.submit(_next, run, settings).result()

    def drop(self, run: str) -> None:
        """Forget `run` (cancelled, or replaced by a new one); its worker memory is freed."""
        self._pool.submit(_drop, run)

    def niceness(self) -> int:
        return self._pool.submit(os.nice, 0).result()

    def shutdown(self) -> None:
        self._pool.shutdown(cancel_futures=True)
