"""python -m benchmarks.corpus [--repeats 5] [--checkpoint checkpoints/en-zh] [--quick]

How long the corpus view takes on this machine's CPU (evaluation/corpus_view): the traced teacher-forced passes over
the shipped corpus (156 sentences, once per checkpoint and process), one head by PCA (raw and adjusted vectors
projected, both correlations measured), the matrix view (every head of a kind by PCA, 24 for the shipped model),
reading a projection and the passes back from the disk cache, every head's role (positional, matching: the page's
worked readings), and t-SNE and UMAP of a decoder self-attention head (2,902 points on
en-zh: queries and keys of every decoder input), one projection alone and the head's two (raw and adjusted).
Projections run on one thread (project.one_thread). Medians of --repeats runs after a warm-up; t-SNE and UMAP run
once (--quick leaves them out). It prints Markdown rows for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from evaluation.corpus_view import (ProjectionCache, available, head_view, matrix_view, run_corpus, shipped_corpus,
                                    weights_sha256)
from evaluation.corpus_view.project import adjustment, project, project_head
from evaluation.corpus_view.roles import every_role
from model import Translator
from model.translation.threads import configure_torch_threads

ROOT = Path(__file__).resolve().parent.parent


def timed(work, repeats: int, warmup: int = 1) -> tuple[float, float]:
    """Median wall-clock and this process's CPU milliseconds over `repeats` runs of work(), after `warmup` untimed
    runs (first calls import and allocate). CPU time below wall time is the share of a core the machine gave."""
    for _ in range(warmup):
        work()
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def _nonlinear_rows(run, repeats: int) -> list[tuple[str, str, float, int]]:
    """t-SNE and UMAP of decoder self-attention layer 1 head 1: one projection of the adjusted vectors, then the
    head's raw and adjusted pictures with their correlations, as the page computes them."""
    vectors = run.head("decoder_self", 0, 0)
    points = f"{len(vectors.queries) + len(vectors.keys)} points"
    adjusted = np.concatenate(adjustment(vectors.queries, vectors.keys).apply(vectors.queries, vectors.keys))
    rows = []
    for method, name in (("tsne", "t-SNE"), ("umap", "UMAP")):
        if not available()[method]:
            rows.append((f"{name}, one projection", f"{points}: not installed", (float("nan"),) * 2, 0))
            continue
        project(adjusted[:50], method, 0)  # warm-up: the library's import and first call
        rows.append((f"{name}, one projection", points, timed(lambda: project(adjusted, method, 0), 1, 0), 1))
        head_ms = timed(lambda: project_head(vectors, method, 0), 1, 0)
        rows.append((f"{name}, a head (raw and adjusted)", points, head_ms, 1))
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.corpus")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--checkpoint", type=Path, default=ROOT / "checkpoints" / "en-zh")
    p.add_argument("--quick", action="store_true", help="leave t-SNE and UMAP out")
    p.add_argument("--cache", help="read the passes from this disk cache where it holds them (their row then says "
                                   "so, untimed), for a CPU too busy to run them again")
    args = p.parse_args(argv)
    threads = configure_torch_threads()
    tr = Translator.from_checkpoint(args.checkpoint, device="cpu")
    corpus = shipped_corpus(tr.config.source_language)
    found = [ProjectionCache(args.cache).get_run(corpus, weights_sha256(tr.checkpoint), str(tr.checkpoint))] \
        if args.cache else [None]
    passes = (float("nan"),) * 2 if found[0] is not None else timed(lambda: found.insert(0, run_corpus(tr, corpus)),
                                                                   1, 0)
    run = found[0]
    vectors = run.head("encoder_self", 0, 0)
    rows = [("teacher-forced passes, every head's q and k", f"{len(corpus.sentences)} sentences", passes, 1),
            ("PCA, one head (raw and adjusted)", f"{len(vectors.queries) + len(vectors.keys)} points",
             timed(lambda: project_head(vectors, "pca"), args.repeats), args.repeats),
            ("matrix view: every encoder head by PCA", f"{run.layers['encoder_self'] * run.heads} heads",
             timed(lambda: matrix_view(run, "encoder_self"), max(1, args.repeats // 2)), max(1, args.repeats // 2))]
    with tempfile.TemporaryDirectory() as folder:
        cache = ProjectionCache(folder)
        head_view(run, "encoder_self", 0, 0, "pca", 0, cache)
        rows.append(("a head read back from the disk cache", "1 file",
                     timed(lambda: head_view(run, "encoder_self", 0, 0, "pca", 0, cache), args.repeats),
                     args.repeats))
        cache.put_run(run)
        rows.append(("the passes read back from the disk cache (a server started again)", "1 file",
                     timed(lambda: cache.get_run(corpus, run.weights_sha256, run.checkpoint), args.repeats),
                     args.repeats))
    heads = sum(run.layers.values()) * run.heads
    rows.append(("every head's role (the page's worked readings)", f"{heads} heads",
                 timed(lambda: every_role(run), max(1, args.repeats // 2)), max(1, args.repeats // 2)))
    if not args.quick:
        rows += _nonlinear_rows(run, args.repeats)
    print(f"{args.checkpoint.name}, torch threads {threads}, projections on 1 thread")
    print("| measurement | size | wall ms | CPU ms | runs |")
    print("|---|---|---:|---:|---:|")
    for name, size, (wall, cpu), runs in rows:
        wall_text, cpu_text = ("–", "–") if np.isnan(wall) else (f"{wall:.0f}", f"{cpu:.0f}")
        print(f"| {name} | {size} | {wall_text} | {cpu_text} | {runs} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
