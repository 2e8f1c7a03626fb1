"""A small built-in study of activation patching: two kinds of pair per direction (a pronoun swapped, He → She or
他 → 她; an adjective swapped, tired ↔ hungry, hot ↔ cold and tired ↔ busy, or 累 ↔ 饿), many pairs of each kind, so
that a head's effect is a mean over pairs with an interval, not one pair's number.

Each built-in pair differs in one source token. A pair is kept only when the model gets both sentences right where
they matter: at the first step where the two greedy translations part, the clean run writes the expected target
(他 or He; the clean adjective's word, 累 or tired) and the corrupted run the expected foil (她 or She; the corrupted
adjective's word); any other pair is dropped, with the reason. For each
kept pair, the 72 heads' normalised effects (model.causal: (patched − corrupted) / (clean − corrupted) of
logit(target) − logit(foil)); per head the mean over pairs and its 95 % bootstrap interval over pairs (the same
RESAMPLES draws of pairs, with replacement, for every head; SEED fixed). A head matters consistently when its
interval excludes 0 and its mean is at least THRESHOLD.

python -m evaluation.patching_study --checkpoint checkpoints/en-zh [--kind adjective] [--device cpu]
writes each kind's result into the checkpoint's training_log.json under "patching_study" (a kind not run keeps its
stored result); the patching page and docs/findings.md (evaluation/patching_figures.py) read it from there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

import numpy as np

from model.architecture.transformer import HeadMask
from model.causal import PatchingError, read_pair
from model.causal.patching import baseline, effects, head_cells
from model.loading.checkpoint import CheckpointError, read_training_log
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
# Adjectives one source token each, swapped in ordered couples, and the word a right translation writes there. In
# Chinese only 累 ↔ 饿: with 热 ↔ 冷 or 累 ↔ 忙 the model writes "very" in one sentence and not in the other, so the
# translations part before the adjective; two frames instead (很累。 "very tired", 累了。 "tired"). With a plural
# subject (我们, 他们) it writes "were" in one and "are" in the other. Some subjects lose pairs to "'s" or "very" in
# one sentence only (我妈妈, 我爸爸, 老师, 我朋友: the log says why); 玛丽, 那个男人 and 那个女人 keep all four of
# theirs, so that the kept pairs stay well above 20.
_ADJ_EN = {"tired": "累", "hungry": "饿", "hot": "热", "cold": "冷", "busy": "忙"}
_COUPLES_EN = (("tired", "hungry"), ("hungry", "tired"), ("hot", "cold"), ("cold", "hot"), ("tired", "busy"),
               ("busy", "tired"))
_SUBJECTS_EN = ("I am very", "He is very", "She is very", "We are very", "They are very")
_ADJ_ZH = {"累": "▁tired", "饿": "▁hungry"}
_SUBJECTS_ZH = ("我", "他", "她", "你", "我妈妈", "我爸爸", "老师", "我朋友", "玛丽", "那个男人", "那个女人")
_FRAMES_ZH = ("{s}很{a}。", "{s}{a}了。")
KINDS = ("pronoun", "adjective")
# By the language the model reads and the kind of pair: a name, and the pairs as (clean, corrupt, target, foil), the
# target and foil being what a right translation writes where the two translations part.
STUDIES = {
    "en": {"pronoun": {"name": "pronoun He → She",
                       "pairs": tuple((f"He {rest}", f"She {rest}", "他", "她") for rest in _EN)},
           "adjective": {"name": "adjective (tired → hungry, hot → cold, tired → busy, each way)",
                         "pairs": tuple((f"{s} {a}.", f"{s} {b}.", _ADJ_EN[a], _ADJ_EN[b])
                                        for s in _SUBJECTS_EN for a, b in _COUPLES_EN)}},
    "zh": {"pronoun": {"name": "pronoun 他 → 她",
                       "pairs": tuple((f"他{rest}", f"她{rest}", "▁He", "▁She") for rest in _ZH)},
           "adjective": {"name": "adjective (累 → 饿, each way)",
                         "pairs": tuple((frame.format(s=s, a=a), frame.format(s=s, a=b), _ADJ_ZH[a], _ADJ_ZH[b])
                                        for s in _SUBJECTS_ZH for frame in _FRAMES_ZH
                                        for a, b in (("累", "饿"), ("饿", "累")))}},
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


def couples(entries: Sequence[dict]) -> list[list[str]]:
    """The distinct (target, foil) the kept pairs were read at, in their order."""
    return [list(c) for c in dict.fromkeys((e["target"], e["foil"]) for e in entries if e["kept"])]


def summarise(kind: str, study: dict, entries: Sequence[dict]) -> dict:
    """One kind's log entry: every pair tried, how many kept, the (target, foil) couples kept, per kind of attention
    the heads' mean/low/high, the consistent heads."""
    kept = [e for e in entries if e["kept"]]
    heads = {}
    for attention in (kept[0]["heads"] if kept else {}):
        mean, low, high = bootstrap(np.array([e["heads"][attention] for e in kept], dtype=float))
        heads[attention] = {"mean": _rounded(mean), "low": _rounded(low), "high": _rounded(high)}
    return {"kind": kind, "name": study["name"], "couples": couples(entries), "tried": len(entries),
            "kept": len(kept), "pairs": list(entries), "heads": heads, "threshold": THRESHOLD,
            "consistent": consistent(heads), "resamples": RESAMPLES, "seed": SEED}


def run_study(tr: Translator, kind: str, progress: Callable[[str], None] = print) -> dict:
    study = STUDIES[tr.config.source_language][kind]
    entries = []
    for i, (clean, corrupt, target, foil) in enumerate(study["pairs"]):
        entries.append(one_pair(tr, clean, corrupt, target, foil))
        progress(f"{kind} pair {i + 1}/{len(study['pairs'])} {clean} / {corrupt}: "
                 + ("kept" if entries[-1]["kept"] else f"dropped ({entries[-1]['reason']})"))
    return summarise(kind, study, entries)


def heads_text(result: dict) -> str:
    return ", ".join(f"{h['kind']} L{h['layer'] + 1} H{h['head'] + 1} {h['mean']:.2f} [{h['low']:.2f}, "
                     f"{h['high']:.2f}]" for h in result["consistent"]) or "none"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.patching_study", description=__doc__.split("\n")[0])
    p.add_argument("--checkpoint", default=str(DEFAULT_CHECKPOINT))
    p.add_argument("--device", default="cpu")
    p.add_argument("--kind", choices=KINDS, action="append", help="the kind of pair to run (default: every kind)")
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
    stored = (read_training_log(args.checkpoint) or {}).get(LOG_KEY) or {}
    results = {kind: stored[kind] for kind in KINDS if kind in stored and stored[kind].get("kind") == kind}
    for kind in args.kind or KINDS:
        results[kind] = run_study(tr, kind, lambda line: print(line, file=sys.stderr))
    store(args.checkpoint, LOG_KEY, {kind: results[kind] for kind in KINDS if kind in results})
    for kind in args.kind or KINDS:
        print(f"{LOG_KEY} {kind}: {results[kind]['kept']} of {results[kind]['tried']} pairs kept; consistent heads: "
              + heads_text(results[kind]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
