"""A token across the corpus (exBERT, Hoover et al. 2020): where it occurs as a head's query, what it attends to.

Every occurrence of the token on the query side of (kind, layer, head) — source tokens for encoder self-attention,
the decoder's inputs for decoder and cross attention — with the keys its query weighs most, sorted by the weight on
its top key; and how often that top key is the same token (in self-attention, at another position), the query's own
position, the next or the previous one (these three in self-attention only: a cross-attention key lies in the other
sentence), the full stop, or </s>. A top key can be several of these at once (the full stop after it, say).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.text.normalize import clean_text, normalize_source
from model.translation.translator import Translator

from .vectors import WORD_START, CorpusRun

FULL_STOPS = frozenset({".", "。"})
END = "</s>"
TOP_KEYS = 3


@dataclass(frozen=True)
class Occurrence:
    sentence: int  # index into the corpus
    position: int  # the query's position
    token: str
    top: tuple[tuple[int, str, float], ...]  # (key position, key token, weight), heaviest first

    @property
    def top_weight(self) -> float:
        return self.top[0][2]


@dataclass(frozen=True)
class TokenSearch:
    kind: str
    layer: int  # 0-based
    head: int  # 0-based
    tokens: tuple[str, ...]  # what was looked for, word-start marks removed
    occurrences: tuple[Occurrence, ...]  # heaviest top key first
    # of the top keys: same_token, itself, next, previous (these three not in cross), full_stop, end
    counts: dict[str, int]


def bare(token: str) -> str:
    """A token as a word is compared: without the tokenizer's word-start mark."""
    return token.removeprefix(WORD_START)


def _counts(kind: str, found: list[Occurrence]) -> dict[str, int]:
    tops = [(o, o.top[0]) for o in found]
    own = kind != "cross"  # a self-attention query's keys include its own position
    counts = {"same_token": sum(bare(key) == bare(o.token) and not (own and position == o.position)
                                for o, (position, key, _) in tops)}
    if own:
        counts["itself"] = sum(position == o.position for o, (position, _, _) in tops)
        counts["next"] = sum(position == o.position + 1 for o, (position, _, _) in tops)
        counts["previous"] = sum(position == o.position - 1 for o, (position, _, _) in tops)
    counts["full_stop"] = sum(bare(key) in FULL_STOPS for _, (_, key, _) in tops)
    counts["end"] = sum(key == END for _, (_, key, _) in tops)
    return counts


def search(run: CorpusRun, kind: str, layer: int, head: int, tokens: str | tuple[str, ...] | list[str],
           top: int = TOP_KEYS) -> TokenSearch:
    """Every query of head (kind, layer, head), 0-based, whose token is one of `tokens` (compared without the
    word-start mark), with its `top` heaviest keys. Raises HeadError."""
    run.check(kind, layer, head)
    wanted = {bare(t) for t in ([tokens] if isinstance(tokens, str) else tokens) if bare(t)}
    found = []
    for s, trace in enumerate(run.traces):
        q_tokens, k_tokens = trace.axis_tokens(kind)
        weights = trace.weights[kind][layer, head]  # (Tq, Tk)
        for position, token in enumerate(q_tokens):
            if bare(token) in wanted:
                order = np.argsort(-weights[position], kind="stable")[:top]
                found.append(Occurrence(s, position, token,
                                        tuple((int(k), k_tokens[k], float(weights[position, k])) for k in order)))
    found.sort(key=lambda o: (-o.top_weight, o.sentence, o.position))
    return TokenSearch(kind, layer, head, tuple(sorted(wanted)), tuple(found), _counts(kind, found))


def query_tokens(run: CorpusRun, kind: str) -> list[tuple[str, int]]:
    """Every token on the query side of `kind` in the corpus with how often it occurs, commonest first: what a
    search can be picked from."""
    seen: dict[str, int] = {}
    for trace in run.traces:
        for token in trace.axis_tokens(kind)[0]:
            seen[bare(token)] = seen.get(bare(token), 0) + 1
    return sorted(seen.items(), key=lambda item: (-item[1], item[0]))


def typed_tokens(translator: Translator, text: str, kind: str) -> tuple[str, ...]:
    """`text` typed into the search, tokenised as the query side of `kind` reads it: by the source tokenizer for
    encoder self-attention, the target tokenizer for decoder and cross attention."""
    if kind == "encoder_self":
        tokenizer, text = translator.src_tok, normalize_source(text, translator.config.source_language)
    else:
        tokenizer, text = translator.tgt_tok, clean_text(text)
    return tuple(tokenizer.tokens(tokenizer.encode(text)))


def top_key_shares(run: CorpusRun, kind: str, layer: int, head: int) -> dict[str, float]:
    """Over every query of head (kind, layer, head), 0-based: the share whose top key is each of search's counts —
    a positional head's shares sit on itself, previous or next, a matching head's on the same token."""
    every = search(run, kind, layer, head, [token for token, _ in query_tokens(run, kind)], top=1)
    return {name: count / max(len(every.occurrences), 1) for name, count in every.counts.items()}
