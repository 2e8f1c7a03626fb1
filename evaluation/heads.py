"""How much each attention head matters: knock it out alone and measure what the translation loses.

For every head of every kind (Michel et al. 2019's single-head ablation), on the dev set's selection half: BLEU
(greedy) and the reference's mean negative log-likelihood per token (teacher-forced) with that head's output
zeroed, against the whole model. Then a pruning curve per kind in the manner of Voita et al. 2019: heads removed
least important first (the order chosen on the selection half: by BLEU drop, ties by NLL rise), BLEU measured
after each removal on the test half, which chose nothing. Every drop carries a paired bootstrap interval
(Koehn 2004): both systems scored on the same resampled sentences, so sentence difficulty, shared by the two,
cancels out of the difference.

The largest single-head drop is the maximum of every head's on the selection half, so part of it is that half's
luck: the heads tied for it are knocked out alone on the test half too ("largest_on_test").

python -m evaluation.heads --checkpoint checkpoints/en-zh --dev DEV.tsv [--pairs N] [--largest-only]
writes the result into the checkpoint's training_log.json under "heads"; the app reads it from there. With
--largest-only, only "largest_on_test" is measured and added to the log's existing "heads" (a few minutes).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np
import torch
from sacrebleu.metrics import BLEU

from model.architecture.transformer import KINDS, HeadMask
from model.loading.training_log import HeadDrop, TrainingLog, read_training_log
from model.text.pairs import encode_pairs
from model.translation.translator import Translator
from model.training.data import collate, in_direction, split_dev
from model.training.metrics import BLEU_TOKENIZE

from .cli import dev_parser, open_dev, store

LOG_KEY = "heads"
RESAMPLES = 1000
SEED = 12345  # sacrebleu's own bootstrap seed: the same resamples on every run
Head = tuple[str, int, int]  # (kind, layer, head), 0-based
# BLEU per output language (metrics.BLEU_TOKENIZE: the default 13a scores Chinese near 0); the statistics they extract
# have one shape, and a score computed from summed statistics does not depend on the tokenizer that counted them.
_BLEU = {language: BLEU(tokenize=tokenize) for language, tokenize in BLEU_TOKENIZE.items()}


def mean_nll(translator: Translator, pairs: list[tuple[str, str]], knock_out: tuple[Head, ...] = (),
             batch_size: int = 64) -> float:
    """The references' mean negative log-likelihood per target token (nats), teacher-forced, heads knocked out."""
    model, c = translator.model, translator.config
    heads = None if not knock_out else HeadMask.knocking_out(c, list(knock_out)).to(translator.device)
    examples = encode_pairs(pairs, translator.src_tok, translator.tgt_tok, c)
    total, tokens = 0.0, 0
    with torch.inference_mode():
        for i in range(0, len(examples), batch_size):
            src, tgt_in, tgt_out = (x.to(translator.device) for x in collate(examples[i : i + batch_size], c.pad_id))
            logits = model.decode(tgt_in, model.encode(src, heads=heads)).logits.float()
            nll = torch.nn.functional.cross_entropy(logits.transpose(1, 2), tgt_out, ignore_index=c.pad_id,
                                                    reduction="sum")
            total, tokens = total + float(nll), tokens + int((tgt_out != c.pad_id).sum())
    return total / max(tokens, 1)


def bleu_statistics(hypotheses: list[str], references: list[str], language: str = "zh") -> np.ndarray:
    """(sentences, 10): each sentence's BLEU sufficient statistics as sacrebleu counts them (lengths, n-gram
    matches and totals) in `language`; a set's BLEU is computed from their sum, so a resample costs a sum, not a
    re-tokenisation."""
    return np.asarray(_BLEU[language]._extract_corpus_statistics(hypotheses, [references]), dtype=np.int64)


def bleu_of(statistics: np.ndarray) -> float:
    return float(_BLEU["zh"]._compute_score_from_stats(statistics.sum(axis=0).tolist()).score)


def paired_drop(base: np.ndarray, other: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> dict:
    """BLEU(base) − BLEU(other) on the same sentences, with the 95 % paired bootstrap interval of that difference
    (Koehn 2004): each resample draws sentences with replacement and scores both systems on the *same* draw.
    A sentence that is hard for one is hard for the other, so its luck cancels out of the difference; one system's
    own interval keeps it, and is several times wider than the noise in a difference. Drop > 0: other is worse."""
    picks = np.random.default_rng(seed).integers(0, len(base), size=(resamples, len(base)))
    drops = np.array([bleu_of(base[p]) - bleu_of(other[p]) for p in picks])
    low, high = np.percentile(drops, [2.5, 97.5])
    return {"bleu_drop": round(bleu_of(base) - bleu_of(other), 2), "low": round(float(low), 2),
            "high": round(float(high), 2)}


def knocked_statistics(translator: Translator, pairs: list[tuple[str, str]], knock: tuple[Head, ...]) -> np.ndarray:
    """bleu_statistics of the greedy translations of `pairs` with the heads `knock` knocked out."""
    hypotheses = translator.translations([s for s, _ in pairs], beam=1, knock_out=knock)
    return bleu_statistics(hypotheses, [r for _, r in pairs], translator.config.target_language)


def every_head(translator: Translator) -> list[Head]:
    counts = HeadMask.layer_counts(translator.config)
    return [(kind, layer, head) for kind in KINDS for layer in range(counts[kind])
            for head in range(translator.config.n_heads)]


def single_heads(translator: Translator, pairs: list[tuple[str, str]], progress: Callable[[str], None]) -> dict:
    """Every head knocked out alone on `pairs`: {head: (paired BLEU drop with its interval, NLL rise)}."""
    statistics = lambda knock: knocked_statistics(translator, pairs, knock)  # noqa: E731
    base, base_nll = statistics(()), mean_nll(translator, pairs)
    single = {}
    for i, head in enumerate(heads := every_head(translator)):
        single[head] = (paired_drop(base, statistics((head,))),
                        round(mean_nll(translator, pairs, (head,)) - base_nll, 4))
        progress(f"head {i + 1}/{len(heads)} {head}: BLEU drop {single[head][0]}")
    return {"bleu": round(bleu_of(base), 2), "nll": round(base_nll, 4), "single": single}


def pruning_curves(translator: Translator, pairs: list[tuple[str, str]], single: dict,
                   progress: Callable[[str], None]) -> tuple[float, dict]:
    """Per kind, heads removed least important first (by `single`, measured on other pairs), BLEU on `pairs` after
    each removal with the paired interval of its drop from the whole model. Returns (whole model's BLEU, curves)."""
    statistics = lambda knock: knocked_statistics(translator, pairs, knock)  # noqa: E731
    base = statistics(())
    curves = {}
    for kind in KINDS:
        order = sorted((h for h in single if h[0] == kind), key=lambda h: (single[h][0]["bleu_drop"], single[h][1]))
        curve = [{"removed": 0, "bleu": round(bleu_of(base), 2)}]
        for n in range(1, len(order) + 1):
            knocked = statistics(tuple(order[:n]))
            curve.append({"removed": n, "bleu": round(bleu_of(knocked), 2), "head": list(order[n - 1]),
                          **paired_drop(base, knocked)})
            progress(f"{kind}: {n} heads removed, BLEU {curve[-1]['bleu']} ({curve[-1]})")
        curves[kind] = curve
    return round(bleu_of(base), 2), curves


def largest_on_test(translator: Translator, test: list[tuple[str, str]], single: list[HeadDrop]) -> list[dict]:
    """The heads tied for the largest drop alone in `single` (measured on other pairs), each knocked out alone on
    `test` with the paired interval of its drop there."""
    top = max(s.bleu_drop for s in single)
    base = knocked_statistics(translator, test, ())
    return [{"kind": s.kind, "layer": s.layer, "head": s.head,
             **paired_drop(base, knocked_statistics(translator, test, ((s.kind, s.layer, s.head),)))}
            for s in single if s.bleu_drop == top]


def measure(translator: Translator, select: list[tuple[str, str]], test: list[tuple[str, str]],
            progress: Callable[[str], None] = print) -> dict:
    """Single-head importance of every head on `select`, and the pruning curves in that order on `test`."""
    found = single_heads(translator, select, progress)
    test_bleu, pruning = pruning_curves(translator, test, found["single"], progress)
    single = [{"kind": k, "layer": layer, "head": head, **drop, "nll_rise": nll}
              for (k, layer, head), (drop, nll) in found["single"].items()]
    return {
        "pairs": len(select), "beam": 1, "bleu": found["bleu"], "nll": found["nll"], "resamples": RESAMPLES,
        "single": single, "test_pairs": len(test), "test_bleu": test_bleu, "pruning": pruning,
        "largest_on_test": largest_on_test(translator, test, [HeadDrop.from_dict(s) for s in single]),
    }


def main(argv: list[str] | None = None) -> int:
    p = dev_parser("python -m evaluation.heads", __doc__)
    p.add_argument("--pairs", type=int, default=None, help="at most this many pairs of each half (default: all)")
    p.add_argument("--largest-only", action="store_true",
                   help='only the largest drops on the test half, added to the log\'s existing "heads"')
    args = p.parse_args(argv)
    if (opened := open_dev(args)) is None:  # heads ranked on the selection half, pruning scored on the test half
        return 2
    translator, pairs = opened
    # Split on the (English, Chinese) pairs, as every direction's dev halves are; then turned to the model's direction.
    select, test = (in_direction(half, translator.config.source_language)[: args.pairs] for half in split_dev(pairs))
    if args.largest_only:
        written = read_training_log(args.checkpoint) or {}  # kept as written but for what this run measures
        if (found := TrainingLog.from_dict(written).heads) is None:
            print(f"error: {args.checkpoint} has no {LOG_KEY!r} yet: run without --largest-only", file=sys.stderr)
            return 2
        result = {**written[LOG_KEY], "largest_on_test": largest_on_test(translator, test, list(found.single))}
    else:
        result = measure(translator, select, test, lambda line: print(line, file=sys.stderr))
    store(args.checkpoint, LOG_KEY, result)
    print(f"{LOG_KEY}: {len(result['single'])} heads, {result['pairs']} + {result['test_pairs']} pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
