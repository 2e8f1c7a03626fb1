"""Memory of a server a class uses all lesson: a soak of distinct inputs across every page, RSS every 50.

    python -m benchmarks.memory [--inputs 500] [--budget-mb 256] [--at-once 5] [--every 50] [--pages translate …]

Starts `streamlit run app.py` (the project's config) with ATTENTION_RESULT_CACHE_MB = --budget-mb, then opens
--inputs links through bare sessions (benchmarks/bare_session.py), --at-once at a time: every page of the registry in
turn, each with a sentence no earlier link had; every fifth is of the longest kind (1,000 characters, the model's
127 source tokens, the heaviest result a student can ask for). Every --every inputs it records the server's
resident memory, and the highest it reached since the last reading (sampled five times a second). After the last, every session is closed and the memory is read again 30 s later. Goal (issue 52):
after warm-up the curve stays within 100 MB of the cache budget above where it started, and at most 1 GB in all.
Results go to benchmarks/memory_results.json and are printed as a table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from app_pages.shell.registry import PAGES
from benchmarks.bare_session import BareSession
from benchmarks.classroom import Server, count_tracebacks, streamlit_pid
from benchmarks.proc import rss_mb
from benchmarks.sessions import distinct_sentence
from model import MAX_CHARS

OUT = Path(__file__).with_name("memory_results.json")
LONG_EVERY = 5
AFTER_S = 30  # after the last tab closes, before "after" is read: Streamlit drops a closed session's state
WORDS = ("the cat sat on a mat while my friend read books about music and the weather was nice today so we went to "
         "the park near the old library where children played football every weekend").split()


def longest(i: int) -> str:
    """The i-th distinct input of the longest kind: everyday words cut to the app's MAX_CHARS characters."""
    rng = random.Random(i)
    return " ".join(rng.choice(WORDS) for _ in range(MAX_CHARS // 3))[:MAX_CHARS].rsplit(" ", 1)[0] + "."


def inputs(n: int, pages: list[str] | None = None) -> list[tuple[str, str]]:
    """(page address, sentence) for n links: every page (or those of `pages`) in turn, every LONG_EVERY-th input of
    the longest kind."""
    addresses = pages or [page.address for page in PAGES]
    return [(addresses[i % len(addresses)], longest(i) if i % LONG_EVERY == LONG_EVERY - 1 else distinct_sentence(i))
            for i in range(n)]


async def soak(url: str, server: Server, links: list[tuple[str, str]], at_once: int, every: int) -> list[dict]:
    """Open every link, `at_once` at a time; RSS after each `every` inputs (and before the first), with the peak
    since the reading before."""
    pid = server.pid
    curve = [{"inputs": 0, "rss_mb": round(rss_mb(pid)), "seconds": 0.0}]
    started, errors = time.perf_counter(), []

    async def one(page: str, sentence: str) -> None:
        async with BareSession(url) as session:
            await session.open(page, {"s": sentence}, timeout=600)
            errors.extend(f"{page}: {error}" for error in session.seen.errors)

    for first in range(0, len(links), at_once):
        await asyncio.gather(*(one(page, sentence) for page, sentence in links[first:first + at_once]))
        done = first + at_once
        if done % every == 0 or done >= len(links):
            curve.append({"inputs": min(done, len(links)), "rss_mb": round(rss_mb(pid)), "peak_mb": round(server.peak_mb),
                          "seconds": round(time.perf_counter() - started, 1), "errors": len(errors)})
            server.peak_mb = rss_mb(pid)
            print(curve[-1], flush=True)
    curve[-1]["error_texts"] = sorted(set(errors))[:10]
    return curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=500)
    parser.add_argument("--budget-mb", type=int, default=256)
    parser.add_argument("--at-once", type=int, default=5)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--pages", nargs="+", help="only these pages' addresses (default: every page)")
    args = parser.parse_args()
    log = Path(tempfile.mkdtemp()) / "server.log"
    from tests.support.app_server import running_app  # the tests' one way to start the app and wait for it

    with running_app(log, env={"ATTENTION_RESULT_CACHE_MB": str(args.budget_mb)}) as url:
        server = Server(streamlit_pid(url), set())
        try:
            curve = asyncio.run(soak(url, server, inputs(args.inputs, args.pages), args.at_once, args.every))
            time.sleep(AFTER_S)
            after = round(rss_mb(server.pid))
        finally:
            server.stop()
    result = {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"), "inputs": args.inputs,
              "budget_mb": args.budget_mb, "at_once": args.at_once, "curve": curve, "rss_after_closed_mb": after,
              "server_tracebacks": count_tracebacks(log.read_text())}
    OUT.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("| inputs | " + " | ".join(str(point["inputs"]) for point in curve) + f" | {AFTER_S} s after closing |")
    print("|---" * (len(curve) + 2) + "|")
    print("| RSS MB | " + " | ".join(str(point["rss_mb"]) for point in curve) + f" | {after} |")
    print("| peak since the reading before, MB | – | " + " | ".join(str(point["peak_mb"]) for point in curve[1:]) + " | |")


if __name__ == "__main__":
    main()
