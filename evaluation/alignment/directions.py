"""The gold alignments in either translation direction: what the model reads, what it writes, and the links between
them turned to match.

gold.tsv links English word i to Chinese character j, (i, j), whichever way a model translates. A model's links run
from its source unit to its target unit: an English → Chinese model's are the gold's as they stand, a Chinese →
English model's are the gold's turned round, (j, i). `directed` turns a GoldPair into the model's orientation
(`transpose` turns a Chinese → English model's links back); AER counts the same links either way, so one arithmetic
scores both.

The source side is summed from tokens into units (lessons.explanation.token_words: an English word's BPE pieces, or
one Chinese character per token); the target side's rows are grouped into units the same way (`unit_rows`): one
row per Chinese character, or the rows of an English word's pieces, averaged (`unit_weights`). `attention_scores`
scores every cross head and layer average of a model on the gold with nothing but attention (no attribution, no
IBM Model 1: those need gradients and the training set), cheap enough for the app to run on a model whose log has
no "alignment" entry yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from lessons.explanation import (WORD_START, aer_counts, aer_interval, argmax_links, corpus_aer, cross_validated_choice,
                                 pooled_aer, token_words, word_weights)

from .gold import GoldPair

LANGUAGES = ("en", "zh")
RESAMPLES = 1000
SEED = 12345


@dataclass(frozen=True)
class DirectedPair:
    """A gold pair as a model of one direction sees it: `source` is the sentence it reads, `target` the reference
    fed to its decoder, and every link is (source unit, target unit)."""

    gold: GoldPair
    source_language: str
    source: str
    target: str
    source_units: tuple[str, ...]
    target_units: tuple[str, ...]
    sure: frozenset[tuple[int, int]]
    possible: frozenset[tuple[int, int]]


def transpose(links) -> frozenset[tuple[int, int]]:
    """(a, b) links → (b, a): the same links seen from the other side."""
    return frozenset((b, a) for a, b in links)


def directed(pair: GoldPair, source_language: str) -> DirectedPair:
    """`pair` for a model that reads `source_language` ("en": the gold as it stands; "zh": its sides and links
    turned round)."""
    if source_language not in LANGUAGES:
        raise ValueError(f"source language {source_language!r}: the gold pairs are English–Chinese ({LANGUAGES})")
    if source_language == "en":
        return DirectedPair(pair, "en", pair.english, pair.chinese, pair.words, pair.chars, pair.sure, pair.possible)
    return DirectedPair(pair, "zh", pair.chinese, pair.english, pair.chars, pair.words, transpose(pair.sure),
                        transpose(pair.possible))


def _spelled(token: str) -> str:
    return "" if token.startswith("<") and token.endswith(">") else token.replace(WORD_START, "").replace(" ", "")


def unit_rows(output_tokens: Sequence[str], units: Sequence[str]) -> list[list[int]] | None:
    """For each target unit (a Chinese character, an English word), the output rows whose tokens spell it; None when
    the tokens do not spell the units, or a token spans two units (a map row cannot be split), or a unit has no row.
    The last token (</s>) belongs to no unit; a lone ▁ token neither."""
    tokens = list(output_tokens[:-1])
    if "".join(map(_spelled, tokens)) != "".join(units):
        return None
    try:
        owner = token_words(tokens, units)
    except ValueError:
        return None
    rows: list[list[int]] = [[] for _ in units]
    ends, start = np.cumsum([len(u) for u in units]), 0
    for t, (token, unit) in enumerate(zip(tokens, owner)):
        text = _spelled(token)
        if unit >= 0:
            if start + len(text) > ends[unit]:
                return None  # the token runs on into the next unit
            rows[unit].append(t)
        start += len(text)
    return rows if all(rows) else None


def unit_weights(weights, rows: list[list[int]], shift: bool = False) -> np.ndarray:
    """(T, S) rows → (units, S): each target unit's rows averaged; with `shift`, each row t read at t + 1 (the step
    that reads the token as its input, Chen et al. 2020)."""
    w = np.asarray(weights, dtype=np.float64)
    return np.stack([w[np.asarray(r) + int(shift)].mean(axis=0) for r in rows])


@dataclass(frozen=True)
class PairMaps:
    """One directed pair's teacher-forced cross-attention, read in units: (layers, heads, target units, source
    units) for the plain and the shifted reading."""

    plain: np.ndarray
    shifted: np.ndarray


def pair_maps(result, pair: DirectedPair) -> PairMaps | None:
    """The cross-attention of `result` (teacher-forced on `pair`) in units; None when its tokens do not fit the
    gold's units (a character outside the vocabulary, a token across two words)."""
    rows = unit_rows(list(result.output_tokens), pair.target_units)
    try:
        owner = token_words(list(result.source_tokens), pair.source_units)
    except ValueError:
        return None
    if rows is None:
        return None
    cross = np.asarray(result.cross, dtype=np.float64)  # (layers, heads, T, S)
    layers, heads = cross.shape[:2]
    maps = {shift: np.stack([np.stack([unit_weights(word_weights(cross[l, h], owner, len(pair.source_units)), rows,
                                                                 shift)
                                       for h in range(heads)]) for l in range(layers)])
            for shift in (False, True)}
    return PairMaps(maps[False], maps[True])


def map_links(maps: np.ndarray) -> set[tuple[int, int]]:
    """(source unit, target unit) links of a (target units, source units) map: each target unit to its heaviest
    source unit."""
    return argmax_links(maps)


def attention_scores(teacher_forced: Callable[[str, str], object], pairs: Sequence[DirectedPair]) -> dict:
    """AER of every cross head (plain and shifted), each layer's head average, and the head chosen by two-fold
    cross-validation with its 95 % bootstrap interval, over the gold `pairs` a model of their direction can read
    (`teacher_forced(source, target)` → its TranslationResult). Shaped as score.py's "alignment" log entry, less
    the rows that need gradients or the training set; "skipped" counts the pairs whose tokens do not fit."""
    kept, maps = [], []
    for pair in pairs:
        found = pair_maps(teacher_forced(pair.source, pair.target), pair)
        if found is not None:
            kept.append(pair)
            maps.append(found)
    if not kept:
        return {"pairs": 0, "gold_pairs": len(pairs), "skipped": len(pairs)}
    sure, possible = [p.sure for p in kept], [p.possible for p in kept]
    layers, heads = maps[0].plain.shape[:2]
    readings = {"plain": [m.plain for m in maps], "shifted": [m.shifted for m in maps]}
    head_links = {(key, l, h): [map_links(m[l, h]) for m in readings[key]]
                  for key in readings for l in range(layers) for h in range(heads)}
    out = {"pairs": len(kept), "gold_pairs": len(pairs), "skipped": len(pairs) - len(kept), "teacher_forced": True,
           "source_language": kept[0].source_language}
    for key in readings:
        out[f"heads_{key}"] = [[round(corpus_aer(head_links[key, l, h], sure, possible), 3) for h in range(heads)]
                               for l in range(layers)]
        out[f"layers_{key}"] = [round(corpus_aer([map_links(m[l].mean(axis=0)) for m in readings[key]], sure,
                                                 possible), 3) for l in range(layers)]
    candidates = {name: aer_counts(links, sure, possible) for name, links in head_links.items()}
    rows, chosen = cross_validated_choice(candidates, [i % 2 for i in range(len(kept))])
    picks = np.random.default_rng(SEED).integers(0, len(kept), size=(RESAMPLES, len(kept)))
    low, high = aer_interval(rows, picks)
    out["resamples"] = RESAMPLES
    out["chosen"] = {"aer": round(pooled_aer(rows), 3), "low": round(low, 3), "high": round(high, 3),
                     "picked": [{"scored_on": "even pairs" if fold == 0 else "odd pairs", "reading": key, "layer": l,
                                 "head": h} for fold, (key, l, h) in enumerate(chosen)]}
    return out
