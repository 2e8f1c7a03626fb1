"""What the shipped model saw and uses: its longest training pair, and which encoder FFN units fire on the dev set.

python -m evaluation.coverage --checkpoint checkpoints/en-zh --dev DEV.tsv --train TRAIN.tsv

Writes two entries into the checkpoint's training_log.json, for the teaching pages:
"lengths" (the longest source and target of the training pairs, in tokens, as the trainer tokenises them) and
"ffn_units" (per encoder layer, how many FFN hidden units fire — are above 0 — for at least one token of the dev
sentences; a unit that never fires on any of them is "dead" there). It lives here, not in model/, because it reads
the data files and writes the log.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from model import Translator, configure_torch_threads
from model.loading.checkpoint import read_training_log, write_training_log
from model.training.data import in_direction, read_pairs


def longest(translator: Translator, pairs: list[tuple[str, str]]) -> dict:
    """Longest source (with </s>) and target (with <s> and </s>) of the pairs the trainer keeps, in tokens."""
    examples = translator.encode_pairs(pairs)
    return {"pairs": len(examples), "source_tokens": max(len(e.src) for e in examples),
            "target_tokens": max(len(e.tgt) for e in examples)}


def units_fired(translator: Translator, sentences: list[str]) -> dict:
    """Per encoder layer, the FFN units above 0 for at least one token of at least one sentence."""
    fired = np.zeros((translator.config.n_encoder_layers, translator.config.d_ff), dtype=bool)
    for sentence in sentences:
        fired |= (translator.ffn_activations(sentence) > 0).any(axis=1)  # (layers, d_ff)
    return {"sentences": len(sentences), "d_ff": translator.config.d_ff, "used": fired.sum(axis=1).tolist()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.coverage", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", default="checkpoints/en-zh")
    p.add_argument("--dev", required=True)
    p.add_argument("--train", required=True)
    args = p.parse_args(argv)
    configure_torch_threads()
    try:
        dev, train = read_pairs(args.dev), read_pairs(args.train)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    translator = Translator.from_checkpoint(args.checkpoint)
    log = read_training_log(args.checkpoint) or {}
    source = translator.config.source_language  # the pairs turned to the model's direction
    log["lengths"] = lengths = longest(translator, in_direction(train, source))
    log["ffn_units"] = units = units_fired(translator, [sentence for sentence, _ in in_direction(dev, source)])
    write_training_log(args.checkpoint, log)
    print(f"wrote lengths {lengths} and ffn_units {units} to {args.checkpoint}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
