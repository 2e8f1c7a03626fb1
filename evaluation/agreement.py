"""Across unseen dev sentences: how well each cross-attention head agrees with gradient attribution.

python -m evaluation.agreement --checkpoint checkpoints/en-zh --dev DEV.tsv --train TRAIN.tsv [--sentences N]

Translates dev sentences unlike any training pair (the selection half; greedy; the side the checkpoint reads, English
or Chinese, as its config says), attributes every output
token to the source tokens (integrated gradients and input × gradient, model/translation/attribution.py)
and compares each head's cross-attention row with |attribution| (lessons/explanation.py: Spearman's ρ per
step, top-1 agreement), plus the layer average and rollout. The means over all steps go into the
checkpoint's training_log.json under "agreement"; the "Is attention an explanation?" page shows them.
It lives here, not in model/, because it joins the model with the lessons' arithmetic.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from lessons.explanation import agreement, cross_rollout, head_agreement
from model import Translator, configure_torch_threads
from model.loading.checkpoint import read_training_log, write_training_log
from model.training.data import read_pairs, split_dev, unlike_training
from model.translation.attribution import METHODS

LOG_KEY = "agreement"


def source_side(pair: tuple[str, str], source_language: str) -> str:
    """The sentence a model reading `source_language` translates, of an (English, Chinese) dev pair: the dev set and
    its split are the same for both directions (model.training.data), only the side read differs."""
    return pair[0] if source_language == "en" else pair[1]


def sentence_agreement(translator: Translator, sentence: str) -> dict:
    """Per method: (layers, heads) ρ and top-1 of each cross head, and (ρ, top-1) of the layer mean and rollout."""
    result = translator.translate(sentence, beam=1)
    out = {}
    for method in METHODS:
        scores = translator.attribute(result, method).scores
        rho, top1 = head_agreement(result.cross, scores)
        out[method] = {
            "rho": rho, "top1": top1,
            "layer_mean": [agreement(layer.mean(axis=0), scores) for layer in result.cross],
            "rollout": agreement(cross_rollout(result.cross, result.encoder_self), scores),
        }
    return out


def summarise(per_sentence: list[dict]) -> dict:
    """Means over sentences, rounded for the log."""
    summary = {}
    for method in METHODS:
        rows = [s[method] for s in per_sentence]
        summary[method] = {
            "rho": np.mean([r["rho"] for r in rows], axis=0).round(3).tolist(),
            "top1": np.mean([r["top1"] for r in rows], axis=0).round(3).tolist(),
            "layer_mean": np.mean([r["layer_mean"] for r in rows], axis=0).round(3).tolist(),
            "rollout": np.mean([r["rollout"] for r in rows], axis=0).round(3).tolist(),
        }
    return summary


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.agreement", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", default="checkpoints/en-zh")
    p.add_argument("--dev", required=True)
    p.add_argument("--train", required=True, help="training TSV: dev pairs near one of its pairs are left out")
    p.add_argument("--sentences", type=int, default=200)
    args = p.parse_args(argv)
    configure_torch_threads()
    try:
        dev, train = split_dev(read_pairs(args.dev))[0], read_pairs(args.train)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    translator = Translator.from_checkpoint(args.checkpoint)
    unseen = [source_side(dev[i], translator.config.source_language)
              for i in unlike_training(dev, train)][: args.sentences]
    per_sentence = []
    for i, sentence in enumerate(unseen):
        per_sentence.append(sentence_agreement(translator, sentence))
        print(f"{i + 1}/{len(unseen)}", file=sys.stderr)
    log = read_training_log(args.checkpoint) or {}
    log[LOG_KEY] = {"sentences": len(unseen), "beam": 1, "source_language": translator.config.source_language,
                    **summarise(per_sentence)}
    write_training_log(args.checkpoint, log)
    print(f"wrote {LOG_KEY} ({len(unseen)} unseen dev sentences) to {args.checkpoint}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
