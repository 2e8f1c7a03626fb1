"""How much of the machine one process takes: torch's thread count and how many model calls run at once.

More torch threads than cores makes concurrent requests slower, not faster, so
a process sets its thread count once, before its first torch op, and lets at
most cores ÷ threads model calls run together; a burst of requests waits its
turn instead of thrashing. Override with the environment variables
ATTENTION_THREADS (torch threads per model call) and ATTENTION_CONCURRENCY
(model calls at once).
"""

from __future__ import annotations

import functools
import math
import os
import threading
from pathlib import Path

import torch

THREADS_ENV = "ATTENTION_THREADS"
CONCURRENCY_ENV = "ATTENTION_CONCURRENCY"
_CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")

_lock = threading.Lock()
_configured: int | None = None


def usable_cores() -> int:
    """CPUs this process may run on: its affinity mask, capped by a container's CPU quota (cgroup v2)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        cores = os.cpu_count() or 1
    try:
        quota, period = _CGROUP_CPU_MAX.read_text().split()[:2]
        if quota != "max":
            cores = min(cores, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass
    return max(1, cores)


def _env_int(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{name} must be a whole number ≥ 1, got {value!r}")
    return int(value)


def default_threads(cores: int) -> int:
    """Torch threads per model call.

    The model's matrices are small (d_model 256), so a second thread per call
    buys little and one call per core serves a classroom burst best; big
    machines give each call two threads so a lone user still sees some speed-up.
    """
    return 1 if cores < 8 else 2


def configure_torch_threads(threads: int | None = None) -> int:
    """Set torch's intra-op thread count for this process and return it.

    `threads` wins, then ATTENTION_THREADS, then default_threads(). Without an
    explicit `threads`, only the first call sets anything: later ones return
    the count already chosen, so the app and the CLI can both call it safely.
    """
    global _configured
    with _lock:
        if threads is None and _configured is not None:
            return _configured
        n = threads or _env_int(THREADS_ENV) or default_threads(usable_cores())
        torch.set_num_threads(n)
        try:
            # Inter-op threads only serve torch.jit forks, which the model never uses.
            torch.set_num_interop_threads(1)
        except RuntimeError:  # already set, or parallel work already ran: harmless
            pass
        _configured = n
        return n


def default_concurrency() -> int:
    """Model calls that may run at once: ATTENTION_CONCURRENCY, else cores ÷ torch threads (at least 1)."""
    return _env_int(CONCURRENCY_ENV) or max(1, usable_cores() // torch.get_num_threads())


class CallGate:
    """At most `size` model computations at once (default: default_concurrency()); the rest wait their turn.

    Use it as `with gate:`. Everything that shares one gate shares its limit: a server hands one gate to every
    model it loads and to its live training runs, so together they never ask for more threads than there are cores.
    """

    def __init__(self, size: int | None = None) -> None:
        self.size = size or default_concurrency()
        self._slots = threading.BoundedSemaphore(self.size)

    def __enter__(self) -> CallGate:
        self._slots.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self._slots.release()


def native_bf16(device: torch.device) -> bool:
    """Whether `device` multiplies bfloat16 natively (CUDA; a CPU with avx512_bf16 or AMX): there it is about twice
    as fast as float32; elsewhere it is emulated, and slower."""
    return torch.cuda.is_bf16_supported() if device.type == "cuda" else _cpu_has_native_bf16()


@functools.cache
def _cpu_has_native_bf16() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags

