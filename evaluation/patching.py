"""Activation patching between two sentences, the logit lens and the pair's metric, from the command line.

python -m evaluation.patching --checkpoint checkpoints/en-zh --clean "He bought a book." --corrupt "She bought a book."
    [--target TOKEN --foil TOKEN] [--json]

The metric is logit(target) − logit(foil) at the first output step where the two greedy translations part (or
where the clean translation first writes --target), both runs teacher-forced on the clean translation's prefix.
Each cell is a normalised effect, (patched − corrupted) / (clean − corrupted): 0 no effect, 1 the clean answer
restored (model/causal/patching.py). --json prints one JSON object: target, foil, step, clean_diff,
corrupted_diff, heads {kind: [layer][head]}, residual {side: [point][position]} with residual_points and tokens,
and logit_lens [step][layer] {token, p} for the clean sentence. Bad input exits 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from model.causal import Patching, patch_pair
from model.causal.lens import LogitLens, logit_lens
from model.loading.checkpoint import CheckpointError
from model.translation.threads import configure_torch_threads
from model.translation.translator import DEFAULT_CHECKPOINT, Translator


def _grid(values: np.ndarray) -> list:
    """Nested lists rounded to 4 decimals, NaN (a position never patched) as null."""
    return [_grid(row) for row in values] if values.ndim > 1 else [
        None if math.isnan(v) else round(float(v), 4) + 0.0 for v in values]  # + 0.0: no "-0.0"


def as_json(found: Patching, lens: LogitLens, checkpoint: str) -> dict:
    pair = found.pair
    return {
        "checkpoint": checkpoint,
        "clean": {"text": pair.clean.text, "tokens": list(pair.clean.tokens), "translation": pair.clean.translation},
        "corrupt": {"text": pair.corrupt.text, "tokens": list(pair.corrupt.tokens),
                    "translation": pair.corrupt.translation},
        "target": pair.target_token, "foil": pair.foil_token, "step": pair.step,
        "clean_diff": round(found.clean_diff, 4), "corrupted_diff": round(found.corrupted_diff, 4),
        "heads": {kind: _grid(grid) for kind, grid in found.heads.items()},
        "residual": {side: _grid(grid) for side, grid in found.residual.items()},
        # rows of each residual grid: 0 the embeddings, i the output of layer i; columns: these tokens
        "residual_points": {side: list(points) for side, points in found.points.items()},
        "tokens": {side: list(tokens) for side, tokens in found.tokens.items()},
        "aligned": [list(pair_) for pair_ in pair.aligned], "unpatched": list(pair.unaligned),
        "logit_lens": [[{"token": r.token, "p": round(r.p, 4)} for r in row] for row in lens.grid],
        "logit_lens_output": list(lens.output_tokens),
    }


def table(found: Patching, lens: LogitLens) -> str:
    """A short readable account: the pair, the metric, each grid, the largest effects and the logit lens."""
    pair = found.pair
    lines = [f"clean:     {pair.clean.text} → {pair.clean.translation}",
             f"corrupted: {pair.corrupt.text} → {pair.corrupt.translation}",
             f"step {pair.step}: target {pair.target_token}, foil {pair.foil_token}; logit difference "
             f"clean {found.clean_diff:.3f}, corrupted {found.corrupted_diff:.3f}"]
    if pair.unaligned:
        lines.append("not patched (no counterpart in the clean sentence): "
                     + ", ".join(f"{i} {pair.corrupt.tokens[i]}" for i in pair.unaligned))
    lines.append("heads: normalised effect, rows layers, columns heads 1…")
    for kind, grid in found.heads.items():
        lines += [f"  {kind}"] + [f"    L{i + 1} " + " ".join(f"{v:6.2f}" for v in row) for i, row in enumerate(grid)]
    cells = sorted(((float(v), kind, layer, head) for kind, grid in found.heads.items()
                    for (layer, head), v in np.ndenumerate(grid)), reverse=True)[:3]
    lines.append("largest: " + ", ".join(f"{kind} L{layer + 1}.H{head + 1} {v:.2f}" for v, kind, layer, head in cells))
    for side, grid in found.residual.items():
        names = ["emb" if p == 0 else f"L{p}" for p in found.points[side]]
        lines.append(f"residual {side}: rows positions, columns " + " ".join(f"{n:>6}" for n in names))
        lines += [f"  {i:3} {token:>10} " + " ".join("     -" if math.isnan(v) else f"{v:6.2f}" for v in column)
                  for i, (token, column) in enumerate(zip(found.tokens[side], grid.T))]
    lines.append("logit lens (clean sentence): each step's top token per decoder layer, p")
    lines += [f"  {out:>8}: " + "  ".join(f"{r.token} {r.p:.2f}" for r in row)
              for out, row in zip(lens.output_tokens, lens.grid)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.patching", description=__doc__.split("\n")[0])
    p.add_argument("--checkpoint", default=str(DEFAULT_CHECKPOINT))
    p.add_argument("--clean", required=True, help="the sentence whose translation patching restores")
    p.add_argument("--corrupt", required=True, help="the same sentence, minimally changed")
    p.add_argument("--target", help="a token of the clean translation (default: where the translations part)")
    p.add_argument("--foil", help="the token to compare it with (default: what the corrupted run writes there)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--device", default="cpu")
    args = p.parse_args(argv)
    configure_torch_threads()
    try:
        tr = Translator.from_checkpoint(args.checkpoint, device=args.device)
        found = patch_pair(tr, args.clean, args.corrupt, args.target, args.foil)
        lens = logit_lens(tr, args.clean)
    except (CheckpointError, ValueError) as exc:  # PatchingError and InputError are ValueErrors of one sentence
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(as_json(found, lens, args.checkpoint), ensure_ascii=False) if args.json else table(found, lens))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
