"""python -m benchmarks.patching [--repeats 7] [--threads N] [--checkpoint checkpoints/en-zh]
python -m benchmarks.patching --study [--checkpoint DIR]…

How long activation patching takes for a 15-token pair on this machine's CPU (model/causal/patching.py): the
72-head grid (24 heads of each of the three kinds, one batched pass per kind), both residual grids (encoder
4 points × 15 positions, decoder 3 × the step's prefix), and the two together with the pair's baseline, as the page
and `python -m evaluation.patching` compute them. Medians of --repeats runs after one warm-up; it prints one
Markdown row for benchmarks/README.md.

With --study: the built-in study instead (evaluation/patching_study.py), each kind of pair of the checkpoint's
direction run once as the command runs it (every pair read, checked and, where kept, its 72-head grid measured; the
bootstrap over pairs): the whole kind's seconds and the median seconds one pair took, one row per direction and
kind, for each --checkpoint given (default: both shipped directions, en→zh then zh→en).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from evaluation import patching_study
from model import Translator
from model.causal import measure, read_pair
from model.causal.patching import baseline, effects, head_cells, residual_grid
from model.translation.threads import configure_torch_threads

ROOT = Path(__file__).resolve().parent.parent
# 15 source tokens each, </s> included; the greedy translations part at step 6 (受 / 太)
PAIR = ("The animal didn't cross the street because it was tired.",
        "The animal didn't cross the street because it was busy.")


def median_ms(work, repeats: int) -> float:
    work()  # warm-up: first calls allocate
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def study_rows(tr: Translator, threads: int) -> None:
    """Each kind of the built-in study run once: its total and the median time per pair (the time between one
    pair's progress line and the next)."""
    direction = f"{tr.config.source_language}→{tr.config.target_language}"
    for kind in patching_study.KINDS:
        marks = [time.perf_counter()]
        result = patching_study.run_study(tr, kind, lambda _line: marks.append(time.perf_counter()))
        total = time.perf_counter() - marks[0]
        per_pair = statistics.median(b - a for a, b in zip(marks, marks[1:])) * 1000
        print(f"| {direction} | {kind} | {result['tried']} / {result['kept']} | {total:.0f} | {per_pair:.0f} | "
              f"{threads} |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.patching")
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--threads", type=int, default=None, help="torch threads (default: the app's own setting)")
    p.add_argument("--checkpoint", type=Path, action="append",
                   help="the model (default checkpoints/en-zh); with --study, repeat it for several (default: both)")
    p.add_argument("--study", action="store_true", help="time the built-in study, each kind once")
    args = p.parse_args(argv)
    threads = configure_torch_threads(args.threads)
    if args.study:
        print("| direction | kind | pairs tried / kept | whole kind s | per pair, median ms | torch threads |")
        print("|---|---|---:|---:|---:|---:|")
        for checkpoint in args.checkpoint or [ROOT / "checkpoints" / name for name in ("en-zh", "zh-en")]:
            study_rows(Translator.from_checkpoint(checkpoint, device="cpu"), threads)
        return 0
    if len(args.checkpoint or ()) > 1:
        p.error("one --checkpoint without --study")
    tr = Translator.from_checkpoint((args.checkpoint or [ROOT / "checkpoints" / "en-zh"])[0], device="cpu")
    pair = read_pair(tr, *PAIR)
    base = baseline(tr, pair)
    kinds = ("encoder_self", "decoder_self", "cross")
    heads = median_ms(lambda: [effects(tr, pair, base, head_cells(tr, kind)) for kind in kinds], args.repeats)
    c = tr.config
    residual = median_ms(lambda: (residual_grid(tr, pair, base, "encoder", tuple(range(c.n_encoder_layers + 1))),
                                  residual_grid(tr, pair, base, "decoder", tuple(range(1, c.n_decoder_layers + 1)))),
                         args.repeats)
    both = median_ms(lambda: measure(tr, pair), args.repeats)
    print("| pair | 72-head grid ms | residual grids ms | both, with the baseline ms | runs | torch threads |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| S={len(pair.clean.ids)}, step {pair.step} ({pair.target_token} / {pair.foil_token}) | {heads:.0f} | "
          f"{residual:.0f} | {both:.0f} | {args.repeats} | {threads} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
