"""A small built-in study of activation patching: one kind of pair (a pronoun swapped, He ↔ She, 他 ↔ 她), many
pairs, so that a head's effect is a mean over pairs with an interval, not one pair's number.

Each built-in pair differs in one source token. A pair is kept only when the model gets both sentences right where
they matter: at the first step where the two greedy translations part, the clean run writes the expected target
(他, or He) and the corrupted run the expected foil (她, or She); any other pair is dropped, with the reason. For each
kept pair, the 72 heads' normalised effects (model.causal: (patched − corrupted) / (clean − corrupted) of
logit(target) − logit(foil)); per head the mean over pairs and its 95 % bootstrap interval over pairs (the same
RESAMPLES draws of pairs, with replacement, for every head; SEED fixed). A head matters consistently when its
interval excludes 0 and its mean is at least THRESHOLD.

python -m evaluation.patching_study --checkpoint checkpoints/en-zh [--device cpu]
writes the result into the checkpoint's training_log.json under "patching_study"; the patching page and
docs/findings.md (evaluation/patching_figures.py) read it from there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

import numpy as np

from model.architecture.transformer import HeadMask
from model.causal import PatchingError, read_pair
from model.causal.patching import baseline, effects, head_cells
from model.loading.checkpoint import CheckpointError
from model.translation.threads import configure_torch_threads
from model.translation.translator import DEFAULT_CHECKPOINT, Translator

from .cli import store

LOG_KEY = "patching_study"
RESAMPLES = 1000
SEED = 12345
THRESHOLD = 0.1  # a mean effect below a tenth of the clean answer restored is not called a head that matters
_EN = ("bought a book.", "is tired.", "likes cats.", "went home.", "is a teacher.", "reads every day.",
       "is my friend.", "works here.", "is happy.", "lives in Beijing.", "drinks tea.", "is very tall.", "can swim.",
       "has a dog.", "is at school.", "wrote a letter.", "plays the piano.", "is hungry.", "speaks Chinese.",
       "came yesterday.", "is a doctor.", "loves music.", "runs fast.", "eats rice.", "is sleeping.",
       "opened the door.", "is late.", "cooks dinner.")
_ZH = ("买了一本书。", "很累。", "喜欢猫。", "回家了。", "是老师。", "每天看书。", "是我的朋友。", "在这里工作。", "很高兴。",
       "住在北京。", "喝茶。", "很高。", "会游泳。", "有一只狗。", "在学校。", "写了一封信。", "弹钢琴。", "很饿。",
       "会说中文。", "昨天来了。", "是医生。", "喜欢音乐。", "跑得很快。", "吃米饭。", "在睡觉。", "开了门。", "迟到了。",
       "做晚饭。")
# By the language the model reads: the kind of pair, the target and foil a right translation writes, the pairs.
STUDIES = {
    "en": {"kind": "pronoun He → She", "target": "他", "foil": "她",
           "pairs": tuple((f"He {rest}", f"She {rest}") for rest in _EN)},
    "zh": {"kind": "pronoun 他 → 她", "target": "▁He", "foil": "▁She",
           "pairs": tuple((f"他{rest}", f"她{rest}") for rest in _ZH)},
}


def bootstrap(values: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> tuple[np.ndarray, ...]:
    """(pairs, ...) values: the mean over pairs and its 95 % percentile bootstrap interval, each of shape (...).
    Every resample draws pairs with replacement, the same draw for every cell."""
    picks = np.random.default_rng(seed).integers(0, len(values), size=(resamples, len(values)))
    means = values[picks].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5], axis=0)
    return values.mean(axis=0), low, high


def consistent(heads: dict, threshold: float = THRESHOLD) -> list[dict]:
    """Heads whose interval excludes 0 and whose mean is at least `threshold`, largest mean first."""
    found = [{"kind": kind, "layer": layer, "head": head, "mean": grid["mean"][layer][head],
              "low": grid["low"][layer][head], "high": grid["high"][layer][head]}
             for kind, grid in heads.items() for layer in range(len(grid["mean"]))
             for head in range(len(grid["mean"][layer]))]
    return sorted((h for h in found if h["mean"] >= threshold and (h["low"] > 0 or h["high"] < 0)),
                  key=lambda h: -h["mean"])


def _rounded(values: np.ndarray) -> list:
    return [_rounded(v) for v in values] if values.ndim > 1 else [round(float(v), 4) + 0.0 for v in values]


def one_pair(tr: Translator, clean: str, corrupt: str, target: str, foil: str) -> dict:
    """The pair read; kept with its 72-head grid when the step's target and foil are the expected ones, else
    dropped with the reason."""
    entry: dict = {"clean": clean, "corrupt": corrupt}
    try:
        pair = read_pair(tr, clean, corrupt)
        entry |= {"clean_translation": pair.clean.translation, "corrupt_translation": pair.corrupt.translation,
                  "step": pair.step, "target": pair.target_token, "foil": pair.foil_token}
        if (pair.target_token, pair.foil_token) != (target, foil):
            return entry | {"kept": False, "reason": f"writes {pair.target_token} / {pair.foil_token}"}
        base = baseline(tr, pair)
    except PatchingError as exc:
        return entry | {"kept": False, "reason": str(exc)}
    counts = HeadMask.layer_counts(tr.config)
    heads = {kind: _rounded(effects(tr, pair, base, head_cells(tr, kind)).reshape(n, tr.config.n_heads))
             for kind, n in counts.items()}
    return entry | {"kept": True, "clean_diff": round(base.clean_diff, 4),
                    "corrupted_diff": round(base.corrupted_diff, 4), "heads": heads}


def summarise(study: dict, entries: Sequence[dict]) -> dict:
    """The log's entry: every pair tried, how many kept, per kind the heads' mean/low/high, the consistent heads."""
    kept = [e for e in entries if e["kept"]]
    heads = {}
    for kind in (kept[0]["heads"] if kept else {}):
        mean, low, high = bootstrap(np.array([e["heads"][kind] for e in kept], dtype=float))
        heads[kind] = {"mean": _rounded(mean), "low": _rounded(low), "high": _rounded(high)}
    return {"kind": study["kind"], "target": study["target"], "foil": study["foil"], "tried": len(entries),
            "kept": len(kept), "pairs": list(entries), "heads": heads, "threshold": THRESHOLD,
            "consistent": consistent(heads), "resamples": RESAMPLES, "seed": SEED}


def run_study(tr: Translator, progress: Callable[[str], None] = print) -> dict:
    study = STUDIES[tr.config.source_language]
    entries = []
    for i, (clean, corrupt) in enumerate(study["pairs"]):
        entries.append(one_pair(tr, clean, corrupt, study["target"], study["foil"]))
        progress(f"pair {i + 1}/{len(study['pairs'])} {clean} / {corrupt}: "
                 + ("kept" if entries[-1]["kept"] else f"dropped ({entries[-1]['reason']})"))
    return summarise(study, entries)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.patching_study", description=__doc__.split("\n")[0])
    p.add_argument("--checkpoint", default=str(DEFAULT_CHECKPOINT))
    p.add_argument("--device", default="cpu")
    args = p.parse_args(argv)
    configure_torch_threads()
    try:
        tr = Translator.from_checkpoint(args.checkpoint, device=args.device)
    except CheckpointError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if tr.config.source_language not in STUDIES or not tr.capabilities.trained_here:
        print(f"error: {args.checkpoint} is not a model trained here reading English or Chinese", file=sys.stderr)
        return 2
    result = run_study(tr, lambda line: print(line, file=sys.stderr))
    store(args.checkpoint, LOG_KEY, result)
    print(f"{LOG_KEY}: {result['kept']} of {result['tried']} pairs kept; consistent heads: "
          + (", ".join(f"{h['kind']} L{h['layer'] + 1} H{h['head'] + 1} {h['mean']:.2f} [{h['low']:.2f}, "
                       f"{h['high']:.2f}]" for h in result["consistent"]) or "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
