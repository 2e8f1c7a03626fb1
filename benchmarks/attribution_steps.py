"""python -m benchmarks.attribution_steps [--steps 13 25 49] [--rule gausslegendre riemann_trapezoid] [--float32]

How many path points integrated gradients needs: for each rule and point count, the worst step's
completeness gap (model/translation/attribution.py) on the benchmark's sentences and the tests'
sentences, with the shipped checkpoint. The app tries IG_POINTS in turn and keeps the first whose gap
is ≤ GAP_BOUND (0.05, the issue's bound); the README records the table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from benchmarks.run import sentence_of
from model import Translator
from model.translation import attribution
from model.translation.threads import configure_torch_threads

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = ("I have a dream.", "The weather is very nice today, so we will go to the park.")


def gap(tr, result, steps: int) -> tuple[float, float]:
    """(worst completeness gap, seconds) of integrated gradients with `steps` points."""
    predicted = [step.chosen.token_id for step in result.steps]
    began = time.perf_counter()
    found = attribution.attribute(tr.model, tr.generation_config, result.source_embeddings.ids.tolist(),
                                  result.target_embeddings.ids.tolist(), predicted, "integrated_gradients",
                                  points=steps)
    return found.gap, time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.attribution_steps")
    p.add_argument("--steps", type=int, nargs="+", default=[13, 25, 49])
    p.add_argument("--rule", nargs="+", default=["gausslegendre", "riemann_trapezoid"])
    p.add_argument("--checkpoint", type=Path, default=ROOT / "checkpoints" / "en-zh")
    p.add_argument("--float32", action="store_true", help="float32 even where the CPU multiplies bfloat16 natively")
    args = p.parse_args(argv)
    if args.float32:
        attribution.native_bf16 = lambda device: False  # this script's own process only
    configure_torch_threads(None)
    tr = Translator.from_checkpoint(args.checkpoint, device="cpu")
    texts = [sentence_of(tr.src_tok, n) for n in (10, 20)] + list(SENTENCES)
    results = [tr.translate(text, beam=1) for text in texts]
    print("| rule | points | " + " | ".join(f"S={len(r.source_tokens)}, T={len(r.output_tokens)}" for r in results)
          + " | worst |")
    print("|---|---:|" + "---:|" * (len(results) + 1))
    for rule in args.rule:
        attribution.IG_RULE = rule  # this script's own process only
        for steps in args.steps:
            gaps = [gap(tr, r, steps)[0] for r in results]
            print(f"| {rule} | {steps} | " + " | ".join(f"{g:.3f}" for g in gaps) + f" | {max(gaps):.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
