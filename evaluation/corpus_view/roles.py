"""What each head does across the corpus: positional (most of its queries' top keys at one offset from the query:
itself, the previous or the next token), matching (a query scores keys of its own token highest across the whole
corpus, AttentionViz's clusters where queries sit on their keys), or neither. The page's worked readings and
docs/findings.md's section are read from these numbers (python -m evaluation.corpus_view.findings writes it).

A query's top key is its heaviest attention weight's key (argmax, first of ties) in its own sentence; an offset's
share counts the queries that have a key at that offset. Matching is read from the vectors: over every key of the
corpus (a self-attention query's own key left out), the one with the highest q·k (for one query, a ranking that
softmax's per-sentence normalisation does not change), and whether its token is the query's own; beside it, the
share that would match by chance, were keys' tokens drawn by their frequency. Cross attention's keys lie in the
other sentence and language: no offset is tested there, and a token seldom recurs across the two languages.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from .search import END, FULL_STOPS, bare
from .vectors import CorpusRun, HeadVectors, visible

OFFSETS = {"itself": 0, "previous": -1, "next": 1}
POSITIONAL = 0.5  # at least half the queries' top keys at one offset
MATCHING = 0.5  # at least half the queries' highest-scoring keys in the corpus carry their own token


@dataclass(frozen=True)
class HeadRole:
    kind: str  # the attention kind: encoder_self, decoder_self or cross
    layer: int  # 0-based
    head: int  # 0-based
    queries: int  # every query of the corpus on this head
    offsets: dict[str, float]  # OFFSETS name → share of the queries with a key there whose top key it is
    matching: float  # share of queries whose highest q·k over the corpus's keys is a key of their own token
    chance: float  # the share that would match were keys' tokens drawn by their frequency
    full_stop: float  # share of queries whose top key (in their sentence) is the full stop
    end: float  # … is </s>

    @property
    def offset(self) -> tuple[str, float]:
        """The offset most top keys sit at and its share (("", 0.0) in cross attention)."""
        return max(self.offsets.items(), key=lambda item: item[1], default=("", 0.0))

    @property
    def role(self) -> str:
        """positional, matching or neither (positional first where a head is both)."""
        if self.offset[1] >= POSITIONAL:
            return "positional"
        return "matching" if self.matching >= MATCHING else "neither"


def _sentence_counts(kind: str, weights: np.ndarray, q_tokens, k_tokens) -> dict[str, np.ndarray]:
    """Per head (layers, heads): counts of where one sentence's queries put their top key."""
    top = weights.argmax(axis=-1)  # (L, H, Tq)
    tq, tk = len(q_tokens), len(k_tokens)
    rows, seen = np.arange(tq), visible(kind, tq, tk)
    counts = {"queries": np.full(top.shape[:2], tq)}
    if kind != "cross":
        for name, step in OFFSETS.items():
            target = rows + step
            has = (target >= 0) & (target < tk) & seen[rows, np.clip(target, 0, tk - 1)]
            counts[name] = ((top == target) & has).sum(axis=-1)
            counts[name + "_n"] = np.full(top.shape[:2], has.sum())
    k_bare = np.array([bare(t) for t in k_tokens])
    counts["full_stop"] = np.isin(k_bare[top], list(FULL_STOPS)).sum(axis=-1)
    counts["end"] = (np.array(k_tokens)[top] == END).sum(axis=-1)
    return counts


def matching(vectors: HeadVectors) -> tuple[float, float]:
    """(share of queries whose highest-scoring key over the corpus carries their own token, that share by chance)."""
    scores = vectors.queries.astype(np.float32) @ vectors.keys.astype(np.float32).T  # (Nq, Nk)
    if vectors.kind != "cross":  # a query's own key (same sentence, same position) is no match
        own = (vectors.query_sentence[:, None] == vectors.key_sentence[None, :]) & (
            vectors.query_position[:, None] == vectors.key_position[None, :])
        scores[own] = -np.inf
    q_tokens = np.array([bare(t) for t in vectors.query_tokens])
    k_tokens = np.array([bare(t) for t in vectors.key_tokens])
    found = float(np.mean(q_tokens == k_tokens[scores.argmax(axis=1)]))
    q_count, k_count = Counter(q_tokens.tolist()), Counter(k_tokens.tolist())
    chance = sum(n * k_count[t] for t, n in q_count.items()) / (len(q_tokens) * len(k_tokens))
    return found, float(chance)


def head_roles(run: CorpusRun, kind: str) -> list[HeadRole]:
    """Every head of `kind`, layer by layer, head by head."""
    total: dict[str, np.ndarray] = {}
    for trace in run.traces:
        q_tokens, k_tokens = trace.axis_tokens(kind)
        for name, count in _sentence_counts(kind, trace.weights[kind], q_tokens, k_tokens).items():
            total[name] = total.get(name, 0) + count
    roles = []
    for layer in range(run.layers[kind]):
        for head in range(run.heads):
            def share(name: str, of: str = "queries") -> float:
                return float(total[name][layer, head] / max(int(total[of][layer, head]), 1))

            offsets = {name: share(name, name + "_n") for name in OFFSETS if name in total}
            found, chance = matching(run.head(kind, layer, head))
            roles.append(HeadRole(kind, layer, head, int(total["queries"][layer, head]), offsets, found, chance,
                                  share("full_stop"), share("end")))
    return roles


def every_role(run: CorpusRun) -> list[HeadRole]:
    """head_roles of every kind the model has: encoder self, decoder self, then cross."""
    return [role for kind in run.layers for role in head_roles(run, kind)]


def clearest(roles: list[HeadRole], role: str) -> HeadRole | None:
    """The head that shows `role` ("positional" or "matching") most clearly: the largest share among the heads of
    that role, None if no head has it."""
    found = [r for r in roles if r.role == role]
    key = (lambda r: r.offset[1]) if role == "positional" else (lambda r: r.matching)
    return max(found, key=key, default=None)
