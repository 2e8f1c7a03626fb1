"""The arithmetic of the classroom activities: a guess's verdict against an attention map, how much cross-attention
each source token received (coverage), which tokens a forced continuation changed, and the exercises' answers.

Pure NumPy: every sentence a page writes about a guess or an omission comes from these numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np

from lessons.masks import causal_mask

SINK_TOKENS = ("</s>", "<s>", "。", ".", "，", ",", "？", "?", "！", "!")  # where idle heads park their attention
FLAT_FACTOR = 1.5  # a strongest weight under 1.5× an even share: no key stands out
SINK_SHARE = 0.5  # a sink: the strongest key of at least half of the map's rows
OMISSION_SHARE = 0.25  # a possible omission: coverage under a quarter of an even share


@dataclass(frozen=True)
class GuessVerdict:
    guess: int  # the key the student picked
    guess_weight: float
    best: int  # the key the row weights most
    best_weight: float
    rank: int  # the guess's place among the row's keys, 1 = the strongest
    reason: str  # "flat", "sink", "self", "previous", "next" or "" (nothing the numbers single out)
    rows_led: int  # in how many rows of the map `best` is the strongest key (the sink's evidence)
    even: float  # an even share of the row: 1 / the keys it may see

    @property
    def right(self) -> bool:
        return self.rank == 1


def guess_verdict(weights, query: int, guess: int, key_tokens, self_attention: bool, mask=None) -> GuessVerdict:
    """Judge a guess of the key `query`'s row of `weights` (Tq, Tk) weights most.

    The reason is decided by rules on the numbers alone, first that applies: "flat" (the strongest weight is under
    FLAT_FACTOR × an even share of the keys the row may see), "sink" (the strongest key is a token in SINK_TOKENS and
    the strongest of at least SINK_SHARE of the rows), and for self-attention "self" / "previous" / "next" (the
    strongest key is the query's own position or its neighbour). `mask` (Tq, Tk) bool: True = may attend."""
    w = np.asarray(weights, dtype=np.float64)
    allowed = np.ones(w.shape, bool) if mask is None else np.asarray(mask, bool)
    row = np.where(allowed[query], w[query], -np.inf)
    best = int(np.argmax(row))
    rank = 1 + int(np.sum(row > row[guess]))
    even = 1.0 / int(allowed[query].sum())
    leaders = np.argmax(np.where(allowed, w, -np.inf), axis=1)
    rows_led = int(np.sum(leaders == best))
    if row[best] < FLAT_FACTOR * even:
        reason = "flat"
    elif key_tokens[best] in SINK_TOKENS and rows_led >= SINK_SHARE * w.shape[0]:
        reason = "sink"
    elif self_attention and best - query in (-1, 0, 1):
        reason = {0: "self", -1: "previous", 1: "next"}[best - query]
    else:
        reason = ""
    return GuessVerdict(guess, float(w[query, guess]), best, float(row[best]), rank, reason, rows_led, even)


@dataclass(frozen=True)
class Coverage:
    received: np.ndarray  # (S,) cross-attention each source token received, summed over the output's rows
    even: float  # what each token would receive if every row spread its weight evenly: rows / S
    threshold: float  # OMISSION_SHARE × even
    omitted: np.ndarray  # (S,) bool: received under the threshold


def coverage(cross) -> Coverage:
    """Source coverage of a translation from its cross-attention (layers, heads, T, S), averaged over every layer and
    head: each output row's weights sum to 1, so the coverage sums to T, the rows."""
    mean = np.asarray(cross, dtype=np.float64).mean(axis=(0, 1))  # (T, S)
    received = mean.sum(axis=0)
    even = mean.shape[0] / mean.shape[1]
    threshold = OMISSION_SHARE * even
    return Coverage(received, even, threshold, received < threshold)


@dataclass(frozen=True)
class TokenEdits:
    """Two outputs aligned (difflib's longest matching runs): what each has that the other has not in its place."""

    dropped: list[bool]  # per token of the original: gone from the other (deleted, or replaced by something else)
    added: list[bool]  # per token of the other: not in the original (inserted, or replacing something)


def token_edits(original, other) -> TokenEdits:
    """Which tokens differ once the two sequences are aligned, not position by position: a forced token that shifts
    the rest marks only what was inserted, dropped or replaced (红色自行车 → 红自行车 drops 色 and adds nothing)."""
    original, other = list(original), list(other)
    matcher = SequenceMatcher(a=original, b=other, autojunk=False)
    blocks = matcher.get_matching_blocks()
    kept_a = {i for block in blocks for i in range(block.a, block.a + block.size)}
    kept_b = {j for block in blocks for j in range(block.b, block.b + block.size)}
    return TokenEdits([i not in kept_a for i in range(len(original))], [j not in kept_b for j in range(len(other))])


def hidden_keys(n: int, query: int) -> list[int]:
    """The keys the causal mask hides from `query` in a sequence of n: the positions after it."""
    return [int(j) for j in np.flatnonzero(~causal_mask(n)[query])]


def larger_score(scores) -> int:
    """Which of a query's raw scores is the largest (the first, if tied)."""
    return int(np.argmax(np.asarray(scores)))


def nearest_rows(table, position: int) -> list[int]:
    """The other rows of `table` (positions, d) closest to row `position` (Euclidean), nearest first, ties together:
    the first entry is the answer; every row at that same distance (to 1e-9) counts as right."""
    t = np.asarray(table, dtype=np.float64)
    distance = np.linalg.norm(t - t[position], axis=1)
    distance[position] = np.inf
    nearest = distance.min()
    return [int(i) for i in np.flatnonzero(np.abs(distance - nearest) < 1e-9)]
