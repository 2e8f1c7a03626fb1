"""A process's resident memory, CPU time and descendants, read from Linux's /proc (no psutil needed)."""

from __future__ import annotations

import os
import resource
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int | str) -> list[str]:
    """/proc/PID/stat after the command name (which may hold spaces and parentheses): field 3 (state) is [0]."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2:].split()


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory now, in MB."""
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * resource.getpagesize() / 2**20


def cpu_seconds(pid: int | str = "self") -> float:
    """User + system CPU seconds the process has used so far (its threads included, not its children)."""
    fields = _stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / TICKS


def parents() -> dict[int, int]:
    """pid -> parent pid of every process alive now (one that exits while being read is left out)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = int(_stat_fields(entry.name)[1])
            except (OSError, ValueError, IndexError):
                continue
    return found


def descendants(pid: int) -> list[int]:
    """Every process below `pid`: its children, theirs, and so on."""
    tree = parents()
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in tree.items() if parent in frontier]
        found += children
        frontier = children
    return found


def cpu_of(pids: list[int]) -> dict[int, float]:
    """CPU seconds of each process in `pids` still alive."""
    seconds = {}
    for pid in pids:
        try:
            seconds[pid] = cpu_seconds(pid)
        except (OSError, ValueError, IndexError):
            continue
    return seconds
