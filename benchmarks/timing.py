"""Repeated wall-clock timings and their summary (median and 95th percentile, in milliseconds)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch


def synchronize(device: str) -> None:
    """Wait for queued GPU work, so a timing covers the work and not only its launch."""
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def measure(fn: Callable[[], object], repeats: int, device: str = "cpu", warmup: int = 1) -> list[float]:
    """fn() run `warmup` times untimed, then `repeats` times; milliseconds per run."""
    for _ in range(warmup):
        fn()
    synchronize(device)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        synchronize(device)
        times.append((time.perf_counter() - start) * 1000)
    return times


@dataclass
class Row:
    """One line of the table: a measurement and its summary."""

    section: str
    name: str
    times_ms: list[float]
    note: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def median_ms(self) -> float:
        return float(np.median(self.times_ms))

    @property
    def p95_ms(self) -> float:
        return float(np.percentile(self.times_ms, 95))

    def as_dict(self) -> dict:
        return {
            "section": self.section, "name": self.name, "median_ms": round(self.median_ms, 3),
            "p95_ms": round(self.p95_ms, 3), "n": len(self.times_ms), "note": self.note, **self.extra,
        }
