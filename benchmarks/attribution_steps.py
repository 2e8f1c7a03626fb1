"""python -m benchmarks.attribution_steps [--steps 13 25 49 97] [--float32]

How many path points integrated gradients needs: the worst step's completeness gap
(model/translation/attribution.py) with each number of evenly spaced points, then with the points the
app places itself (IG_START evenly, more halving the intervals where completeness fails, until the
gap is ≤ GAP_BOUND), on the benchmark's sentences and the tests' sentences, with the shipped
checkpoint. Each cell: gap, and for the app's own path the points it took. benchmarks/README.md records the table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.run import sentence_of
from model import Translator
from model.translation import attribution
from model.translation.threads import configure_torch_threads

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = ("I have a dream.", "The weather is very nice today, so we will go to the park.",
             "He likes mathematics, but I don't.")


def integrated(tr, result, points: int | None) -> attribution.Attribution:
    """Integrated gradients of `result` on `points` evenly spaced points; None: the app's own path."""
    predicted = [step.chosen.token_id for step in result.steps]
    return attribution.attribute(tr.model, tr.generation_config, result.source_embeddings.ids.tolist(),
                                 result.target_embeddings.ids.tolist(), predicted, "integrated_gradients",
                                 points=points)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.attribution_steps")
    p.add_argument("--steps", type=int, nargs="+", default=[13, 25, 49, 97])
    p.add_argument("--checkpoint", type=Path, default=ROOT / "checkpoints" / "en-zh")
    p.add_argument("--float32", action="store_true", help="float32 even where the CPU multiplies bfloat16 natively")
    args = p.parse_args(argv)
    if args.float32:
        attribution.native_bf16 = lambda device: False  # this script's own process only
    configure_torch_threads(None)
    tr = Translator.from_checkpoint(args.checkpoint, device="cpu")
    texts = [sentence_of(tr.src_tok, n) for n in (10, 20)] + list(SENTENCES)
    results = [tr.translate(text, beam=1) for text in texts]
    print("| points | " + " | ".join(f"S={len(r.source_tokens)}, T={len(r.output_tokens)}" for r in results)
          + " | worst |")
    print("|---|" + "---:|" * (len(results) + 1))
    for steps in args.steps:
        gaps = [integrated(tr, r, steps).gap for r in results]
        print(f"| {steps} evenly | " + " | ".join(f"{g:.3f}" for g in gaps) + f" | {max(gaps):.3f} |", flush=True)
    found = [integrated(tr, r, None) for r in results]
    print("| placed (points) | " + " | ".join(f"{f.gap:.3f} ({f.points})" for f in found)
          + f" | {max(f.gap for f in found):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
