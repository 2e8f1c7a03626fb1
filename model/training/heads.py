"""How much each attention head matters: knock it out alone and measure what the translation loses.

For every head of every kind (Michel et al. 2019's single-head ablation): dev BLEU (greedy) and the
reference's mean negative log-likelihood per token (teacher-forced) with that head's output zeroed,
against the whole model. Then a pruning curve per kind in the manner of Voita et al. 2019: heads removed
least important first (by BLEU drop, ties by NLL rise), BLEU measured after each removal.

python -m model.training.heads --checkpoint checkpoints/en-zh --dev DEV.tsv [--pairs N]
writes the result into the checkpoint's training_log.json under "heads"; the app reads it from there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import torch
from sacrebleu.metrics import BLEU

from ..architecture.transformer import KINDS, HeadMask
from ..loading.checkpoint import read_training_log, write_training_log
from ..text.pairs import encode_pairs
from ..translation.threads import configure_torch_threads
from ..translation.translator import DEFAULT_CHECKPOINT, Translator
from .data import collate, read_pairs, split_dev
from .metrics import score

LOG_KEY = "heads"
BOOTSTRAP = 1000
Head = tuple[str, int, int]  # (kind, layer, head), 0-based


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


def chance(hypotheses: list[str], references: list[str], resamples: int = BOOTSTRAP) -> float:
    """Half the width of BLEU's 95 % bootstrap interval (sacrebleu resamples the pairs): how far BLEU on this many
    sentences moves by which sentences happen to be in the set, the noise a head's BLEU drop is read against."""
    return round(float(BLEU(tokenize="zh").corpus_score(hypotheses, [references], n_bootstrap=resamples)._ci), 2)


def every_head(translator: Translator) -> list[Head]:
    counts = HeadMask.layer_counts(translator.config)
    return [(kind, layer, head) for kind in KINDS for layer in range(counts[kind])
            for head in range(translator.config.n_heads)]


def measure(translator: Translator, pairs: list[tuple[str, str]], progress: Callable[[str], None] = print) -> dict:
    """Single-head importance of every head and a pruning curve per kind, on `pairs` (greedy decoding)."""
    sources, references = [s for s, _ in pairs], [r for _, r in pairs]

    def bleu(knock_out: tuple[Head, ...]) -> float:
        return score(translator.translations(sources, beam=1, knock_out=knock_out), references)["bleu"]

    base_bleu, base_nll = bleu(()), mean_nll(translator, pairs)
    noise = chance(translator.translations(sources, beam=1), references)
    single = {}
    heads = every_head(translator)
    for i, head in enumerate(heads):
        single[head] = (round(base_bleu - bleu((head,)), 2), round(mean_nll(translator, pairs, (head,)) - base_nll, 4))
        progress(f"head {i + 1}/{len(heads)} {head}: BLEU drop {single[head][0]}")
    pruning = {}
    for kind in KINDS:
        order = sorted((h for h in single if h[0] == kind), key=lambda h: single[h])  # least important first
        curve = [{"removed": 0, "bleu": base_bleu}]
        for n in range(1, len(order) + 1):
            curve.append({"removed": n, "bleu": bleu(tuple(order[:n])), "head": list(order[n - 1])})
            progress(f"{kind}: {n} heads removed, BLEU {curve[-1]['bleu']}")
        pruning[kind] = curve
    return {
        "pairs": len(pairs), "beam": 1, "bleu": base_bleu, "bleu_chance": noise, "nll": round(base_nll, 4),
        "single": [{"kind": k, "layer": layer, "head": head, "bleu_drop": b, "nll_rise": n}
                   for (k, layer, head), (b, n) in single.items()],
        "pruning": pruning,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.training.heads", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", default=str(DEFAULT_CHECKPOINT))
    p.add_argument("--dev", required=True, help="dev TSV (English<TAB>Chinese); its selection half is used")
    p.add_argument("--pairs", type=int, default=400, help="at most this many pairs of the selection half")
    p.add_argument("--chance-only", action="store_true",
                   help="only add the whole model's bootstrap interval to the log's existing entry (its pairs)")
    args = p.parse_args(argv)
    configure_torch_threads()
    log = read_training_log(args.checkpoint) or {}
    if args.chance_only and LOG_KEY not in log:
        print(f"error: {args.checkpoint} has no {LOG_KEY!r} entry to add to", file=sys.stderr)
        return 2
    try:
        pairs = split_dev(read_pairs(args.dev))[0][: log[LOG_KEY]["pairs"] if args.chance_only else args.pairs]
    except OSError as exc:
        print(f"error: cannot read {args.dev}: {exc}", file=sys.stderr)
        return 2
    translator = Translator.from_checkpoint(args.checkpoint)
    if args.chance_only:
        hypotheses = translator.translations([s for s, _ in pairs], beam=1)
        result = {**log[LOG_KEY], "bleu_chance": chance(hypotheses, [r for _, r in pairs])}
    else:
        result = measure(translator, pairs, lambda line: print(line, file=sys.stderr))
    log[LOG_KEY] = result
    write_training_log(Path(args.checkpoint), log)
    print(f"wrote {LOG_KEY} ({len(result['single'])} heads, {result['pairs']} pairs) to {args.checkpoint}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
