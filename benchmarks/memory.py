"""Memory of a server whose class types long sentences: the result cache's bytes and the process's RSS.

    python -m benchmarks.memory [--inputs 200] [--budget-mb 256] [--beam 4]

Translates `--inputs` distinct inputs of the longest kind (1,000 characters: the model's 127 source tokens) through
the app's result cache (app_pages/state/result_cache.py, with the budget given) and reports the process's resident
memory before, at its peak and after, with the cache's bytes and entries. The issue's goal: the process stays
within 1 GB after 200 such inputs. Results go to benchmarks/memory_results.json.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from app_pages.state.result_cache import ResultCache
from benchmarks.proc import rss_mb
from model import DEFAULT_BEAM, DEFAULT_CHECKPOINT, MAX_CHARS, Translator

OUT = Path(__file__).with_name("memory_results.json")
WORDS = ("the cat sat on a mat while my friend read books about music and the weather was nice today so we went to "
         "the park near the old library where children played football every weekend").split()


def longest_inputs(n: int, seed: int = 0) -> list[str]:
    """`n` distinct sentences of everyday words, each cut to the app's MAX_CHARS characters."""
    rng = random.Random(seed)
    inputs = []
    while len(inputs) < n:
        words = [rng.choice(WORDS) for _ in range(MAX_CHARS // 3)]
        text = " ".join(words)[:MAX_CHARS].rsplit(" ", 1)[0] + "."
        if text not in inputs:
            inputs.append(text)
    return inputs


def run(inputs: int, budget_mb: int, beam: int) -> dict:
    translator = Translator.from_checkpoint(DEFAULT_CHECKPOINT, device="cpu")
    cache = ResultCache(budget_mb * 2**20)
    before = peak = rss_mb()
    started = time.perf_counter()
    for i, text in enumerate(longest_inputs(inputs)):
        cache.get(("translate", text, beam), lambda text=text: translator.translate(text, beam=beam))
        peak = max(peak, rss_mb())
        if (i + 1) % 20 == 0:
            print(f"{i + 1} inputs: RSS {rss_mb():.0f} MB, cache {cache.bytes / 2**20:.0f} MB in {len(cache)} results",
                  flush=True)
    return {"inputs": inputs, "budget_mb": budget_mb, "beam": beam, "rss_before_mb": round(before),
            "rss_peak_mb": round(peak), "rss_after_mb": round(rss_mb()), "cache_mb": round(cache.bytes / 2**20, 1),
            "cached_results": len(cache), "minutes": round((time.perf_counter() - started) / 60, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--budget-mb", type=int, default=256)
    parser.add_argument("--beam", type=int, default=DEFAULT_BEAM)
    args = parser.parse_args()
    row = run(args.inputs, args.budget_mb, args.beam)
    OUT.write_text(json.dumps(row, indent=1) + "\n", encoding="utf-8")
    print("| inputs | budget | RSS before | RSS peak | RSS after | cache | results kept |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {row['inputs']} × {MAX_CHARS} characters | {row['budget_mb']} MB | {row['rss_before_mb']} MB | "
          f"{row['rss_peak_mb']} MB | {row['rss_after_mb']} MB | {row['cache_mb']} MB | {row['cached_results']} |")


if __name__ == "__main__":
    main()
