"""Alignment error rate of cross-attention against the gold alignments, with attribution and IBM Model 1 beside it.

python -m evaluation.alignment --dev DEV.tsv --train TRAIN.tsv [--checkpoint checkpoints/en-zh]

Either direction (directions.py): the checkpoint's config says which language it reads; for a Chinese → English
model every gold link is turned round, (character, word). Each gold pair is run teacher-forced on its reference
(Translator.teacher_forced), so decoder step t writes target unit t of the gold (a Chinese character; an English
word's pieces are its rows, averaged). Source tokens are summed into the gold's source units (English words, or
Chinese characters; lessons.explanation: token_words, word_weights; </s> dropped). Links: each target unit to the
source unit its row weighs most (argmax_links),
plain (row t, the step that wrote unit t) and shifted (row t+1, the step that read it: Chen et al. 2020),
for every cross-attention head, each layer's head average, |input × gradient| and |integrated gradients|
attribution; IBM Model 1 trained on the training split is the baseline. AER is pooled over all pairs (corpus_aer),
with a 95 % bootstrap interval over the pairs (the same resamples for every aligner, so their differences are
paired too). "The best head" is chosen without seeing the pairs it is scored on: the gold's even and odd pairs each
get the head (plain or shifted) with the lowest AER on the other half (two-fold cross-validation). The results go
into the checkpoint's training_log.json under "alignment", as evaluation.agreement stores "agreement".
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from lessons.explanation import (aer_counts, aer_interval, completeness, corpus_aer, cross_validated_choice,
                                 pooled_aer, role_counts, role_statistics, token_words, word_weights)
from model import ATTRIBUTION_GAP_BOUND, ATTRIBUTION_MAX_POINTS, Translator, configure_torch_threads
from model.loading.checkpoint import read_training_log, write_training_log
from model.training.data import read_pairs

from .directions import DirectedPair, directed, map_links, pair_maps, unit_rows, unit_weights
from .gold import chinese_chars, english_words, load_gold
from .ibm1 import Model1

LOG_KEY = "alignment"
ROLES_KEY = "head_roles"
PUNCTUATION = set(".,!?;:'\"()-…，。！？；：、")
ATTRIBUTION = "input_x_gradient"
RESAMPLES = 1000
SEED = 12345


def pair_links(translator: Translator, pair: DirectedPair) -> dict[str, list] | None:
    """Every aligner's (source unit, target unit) links for one gold pair in the model's direction; None when the
    model's tokens do not fit the gold's units."""
    result = translator.teacher_forced(pair.source, pair.target)
    maps = pair_maps(result, pair)
    if maps is None:
        return None
    out: dict[str, list] = {}
    for key, grid in (("plain", maps.plain), ("shifted", maps.shifted)):
        out[f"heads_{key}"] = [[map_links(grid[l, h]) for h in range(grid.shape[1])] for l in range(grid.shape[0])]
        out[f"layers_{key}"] = [map_links(grid[l].mean(axis=0)) for l in range(grid.shape[0])]
    owner = token_words(result.source_tokens, pair.source_units)
    rows = unit_rows(list(result.output_tokens), pair.target_units)
    for key, method in (("attribution", ATTRIBUTION), ("integrated_gradients", "integrated_gradients")):
        found = translator.attribute(result, method)
        out[key] = map_links(unit_weights(word_weights(np.abs(found.scores), owner, len(pair.source_units)), rows))
    out["ig_gap"], out["ig_points"] = found.gap, found.points  # the last method's: integrated gradients'
    return out


def token_frequencies(translator: Translator, sources: list[str]) -> np.ndarray:
    """How often each source token id occurs in the training sentences of the model's source language."""
    counts = np.zeros(translator.config.src_vocab_size)
    for sentence in sources:
        np.add.at(counts, translator.src_tok.encode(sentence), 1)
    return counts


def pair_roles(translator: Translator, pair: DirectedPair, frequency: np.ndarray) -> dict[str, np.ndarray]:
    """role_counts of the three attention kinds on one gold pair (teacher-forced). Sinks: </s>, <s> and
    punctuation; the rare token: the word-like source token seen least in training."""
    result = translator.teacher_forced(pair.source, pair.target)
    src, tgt = list(result.source_tokens), list(result.target_tokens)
    ids = result.source_embeddings.ids.tolist()
    wordlike = [i for i, tok in enumerate(src) if any(ch.isalnum() for ch in tok)]
    rare = min(wordlike, key=lambda i: frequency[ids[i]]) if wordlike else 0
    sink_of = lambda tokens: [tok in ("</s>", "<s>") or tok.strip("\u2581") in PUNCTUATION for tok in tokens]  # noqa
    return {"encoder_self": role_counts(result.encoder_self, sink_of(src), rare, True),
            "decoder_self": role_counts(result.decoder_self, sink_of(tgt), -1, True),
            "cross": role_counts(result.cross, sink_of(src), rare, False)}


def with_interval(counts: np.ndarray, picks: np.ndarray) -> dict:
    low, high = aer_interval(counts, picks)
    return {"aer": round(pooled_aer(counts), 3), "low": round(low, 3), "high": round(high, 3)}


def paired_difference(a: np.ndarray, b: np.ndarray, picks: np.ndarray) -> dict:
    """AER(a) − AER(b) with the 95 % interval of the difference over the same resampled pairs."""
    diffs = pooled_aer(a[picks]) - pooled_aer(b[picks])
    low, high = np.percentile(diffs, [2.5, 97.5])
    return {"difference": round(pooled_aer(a) - pooled_aer(b), 3), "low": round(float(low), 3),
            "high": round(float(high), 3)}


def chosen_head(per_pair: list[dict], sure: list, possible: list) -> tuple[np.ndarray, list[dict]]:
    """Two-fold cross-validated best head: the gold's even pairs get the head reading (plain or shifted) with the
    lowest AER on the odd pairs, and the other way round. Returns its aer_counts rows and each half's pick."""
    layers, heads = len(per_pair[0]["heads_plain"]), len(per_pair[0]["heads_plain"][0])
    candidates = {(key, l, h): aer_counts([x[f"heads_{key}"][l][h] for x in per_pair], sure, possible)
                  for key in ("plain", "shifted") for l in range(layers) for h in range(heads)}
    rows, chosen = cross_validated_choice(candidates, [i % 2 for i in range(len(per_pair))])
    picked = [{"scored_on": "even pairs" if fold == 0 else "odd pairs", "reading": key, "layer": l, "head": h}
              for fold, (key, l, h) in enumerate(chosen)]
    return np.asarray(rows), picked


def score(per_pair: list[dict], gold: list[DirectedPair], model1: list[set]) -> dict:
    """AER of every aligner, pooled over the pairs, and the intervals of the headline ones; rounded for the log."""
    sure, possible = [p.sure for p in gold], [p.possible for p in gold]
    aer = lambda links: round(corpus_aer(links, sure, possible), 3)  # noqa: E731
    layers, heads = len(per_pair[0]["heads_plain"]), len(per_pair[0]["heads_plain"][0])
    out = {}
    for key in ("plain", "shifted"):
        out[f"heads_{key}"] = [[aer([x[f"heads_{key}"][l][h] for x in per_pair]) for h in range(heads)]
                               for l in range(layers)]
        out[f"layers_{key}"] = [aer([x[f"layers_{key}"][l] for x in per_pair]) for l in range(layers)]
    picks = np.random.default_rng(SEED).integers(0, len(per_pair), size=(RESAMPLES, len(per_pair)))
    counts = {key: aer_counts([x[key] for x in per_pair], sure, possible)
              for key in ("attribution", "integrated_gradients")}
    counts["baseline"] = aer_counts(model1, sure, possible)
    counts["chosen"], picked = chosen_head(per_pair, sure, possible)
    out["resamples"] = RESAMPLES
    out["chosen"] = {**with_interval(counts["chosen"], picks), "picked": picked}
    out["integrated_gradients"] = {"method": "integrated_gradients",
                                   **with_interval(counts["integrated_gradients"], picks)}
    out["attribution"] = {"method": ATTRIBUTION, **with_interval(counts["attribution"], picks)}
    out["baseline"] = {"method": "ibm_model_1", "iterations": 5, **with_interval(counts["baseline"], picks)}
    out["differences"] = {f"{a} - {b}": paired_difference(counts[a], counts[b], picks)
                          for a, b in (("chosen", "integrated_gradients"), ("integrated_gradients", "baseline"),
                                       ("chosen", "baseline"))}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.alignment", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", default="checkpoints/en-zh")
    p.add_argument("--dev", required=True)
    p.add_argument("--train", required=True, help="training TSV: IBM Model 1 is trained on it")
    args = p.parse_args(argv)
    configure_torch_threads()
    try:
        gold = load_gold(args.dev)
        raw_train = read_pairs(args.train)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    translator = Translator.from_checkpoint(args.checkpoint)
    source_language = translator.config.source_language
    gold = [directed(pair, source_language) for pair in gold]  # links turned round for a Chinese source
    kept, per_pair = [], []
    for i, pair in enumerate(gold):
        links = pair_links(translator, pair)
        if links is not None:
            kept.append(pair)
            per_pair.append(links)
        print(f"{i + 1}/{len(gold)}", file=sys.stderr)
    sides = [(english_words(en), chinese_chars(zh)) for en, zh in raw_train]
    model1 = Model1(sides if source_language == "en" else [(zh, en) for en, zh in sides], iterations=5)
    baseline = [model1.links(list(p.source_units), list(p.target_units)) for p in kept]
    log = read_training_log(args.checkpoint) or {}
    frequency = token_frequencies(translator, [en if source_language == "en" else zh for en, zh in raw_train])
    roles = [pair_roles(translator, p, frequency) for p in kept]
    log[ROLES_KEY] = {"pairs": len(kept), "source": "gold pairs, teacher-forced",
                      **{kind: {k: v.round(3).tolist() for k, v in role_statistics(sum(r[kind] for r in roles)).items()}
                         for kind in roles[0]}}
    gaps = completeness([x["ig_gap"] for x in per_pair], [x["ig_points"] for x in per_pair], ATTRIBUTION_GAP_BOUND,
                        ATTRIBUTION_MAX_POINTS)  # the bound holds only where the path stayed under its cap
    log[LOG_KEY] = {"pairs": len(kept), "gold_pairs": len(gold), "teacher_forced": True,
                    "source_language": source_language, **score(per_pair, kept, baseline), "completeness": gaps}
    write_training_log(args.checkpoint, log)
    print(f"wrote {LOG_KEY} and {ROLES_KEY} ({len(kept)} of {len(gold)} gold pairs) to {args.checkpoint}")
    return 0
