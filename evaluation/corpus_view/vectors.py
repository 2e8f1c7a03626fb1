"""Every query and key vector of every sentence of a corpus, per head: what the projections and the search read.

One traced teacher-forced pass per sentence (Translator.teacher_forced on its reference; a user's sentence on the
model's own greedy translation, Translator.translate with beam 1) gives each attention's per-head q and k (d_k each)
and weights. Decoder queries sit at the decoder's input positions (<s>, y1, …), as the app's maps show them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from model.architecture.transformer import KINDS, HeadMask
from model.translation.translator import Translator

from .corpus import Corpus, CorpusError

WORD_START = "▁"  # the tokenizer's word-start mark, stripped where tokens are matched or shown as words


class HeadError(ValueError):
    """A (kind, layer, head) the model does not have."""


@dataclass(frozen=True)
class SentenceTrace:
    source_tokens: tuple[str, ...]  # ending with </s>
    target_tokens: tuple[str, ...]  # decoder inputs: <s>, y1, …, yn
    queries: dict[str, np.ndarray]  # kind → (layers, heads, Tq, d_k)
    keys: dict[str, np.ndarray]  # kind → (layers, heads, Tk, d_k)
    weights: dict[str, np.ndarray]  # kind → (layers, heads, Tq, Tk)

    def axis_tokens(self, kind: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(query tokens, key tokens) of `kind`."""
        return {"encoder_self": (self.source_tokens, self.source_tokens),
                "decoder_self": (self.target_tokens, self.target_tokens),
                "cross": (self.target_tokens, self.source_tokens)}[kind]


def visible(kind: str, tq: int, tk: int) -> np.ndarray:
    """(tq, tk) bool: the keys each query may attend to (decoder self-attention sees itself and earlier positions)."""
    if kind == "decoder_self":
        return np.tril(np.ones((tq, tk), dtype=bool))
    return np.ones((tq, tk), dtype=bool)


@dataclass(frozen=True)
class HeadVectors:
    """One head's queries and keys over a corpus, with where each came from (queries and keys in sentence order)."""

    kind: str
    layer: int  # 0-based
    head: int  # 0-based
    queries: np.ndarray  # (Nq, d_k)
    keys: np.ndarray  # (Nk, d_k)
    query_sentence: np.ndarray  # (Nq,) index into the corpus
    query_position: np.ndarray  # (Nq,)
    query_length: np.ndarray  # (Nq,) tokens on the query side of its sentence
    query_tokens: tuple[str, ...]
    key_sentence: np.ndarray  # (Nk,)
    key_position: np.ndarray
    key_length: np.ndarray
    key_tokens: tuple[str, ...]

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """(query index, key index) of every query–key pair of the same sentence that the query may attend to."""
        qi, ki = [], []
        # Each sentence's tokens are one run starting at position 0, on both sides, in the corpus's order.
        for q0, k0 in zip(np.flatnonzero(self.query_position == 0), np.flatnonzero(self.key_position == 0)):
            rows, cols = np.nonzero(visible(self.kind, int(self.query_length[q0]), int(self.key_length[k0])))
            qi.append(q0 + rows)
            ki.append(k0 + cols)
        return np.concatenate(qi), np.concatenate(ki)


def check_head(layers: dict[str, int], heads: int, kind: str, layer: int, head: int) -> None:
    """Raises HeadError unless (kind, layer, head), 0-based, is a head of a model with `layers` (kind → layers,
    HeadMask.layer_counts) and `heads` heads per layer."""
    if kind not in KINDS:
        raise HeadError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if not (0 <= layer < layers[kind] and 0 <= head < heads):
        raise HeadError(f"{kind} has layers 1–{layers[kind]} and heads 1–{heads}; "
                        f"got layer {layer + 1}, head {head + 1}")


@dataclass(frozen=True)
class CorpusRun:
    """A checkpoint's traced passes over a corpus: one SentenceTrace per sentence, in the corpus's order."""

    corpus: Corpus
    checkpoint: str
    weights_sha256: str  # of the checkpoint's model weights: what a cached projection is keyed on
    traces: tuple[SentenceTrace, ...]
    layers: dict[str, int]  # kind → layers
    heads: int

    def check(self, kind: str, layer: int, head: int) -> None:
        """Raises HeadError unless (kind, layer, head), 0-based, is one of the model's heads."""
        check_head(self.layers, self.heads, kind, layer, head)

    def head(self, kind: str, layer: int, head: int) -> HeadVectors:
        """Every query and key of head (kind, layer, head), 0-based, over the corpus. Raises HeadError."""
        self.check(kind, layer, head)
        q_tokens, k_tokens = zip(*(t.axis_tokens(kind) for t in self.traces))
        return HeadVectors(
            kind, layer, head,
            np.concatenate([t.queries[kind][layer, head] for t in self.traces]),
            np.concatenate([t.keys[kind][layer, head] for t in self.traces]),
            *_where(q_tokens), *_where(k_tokens))


def _where(tokens: tuple[tuple[str, ...], ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """(sentence index, position, sentence length, token) of every token of every sentence, flattened."""
    sentence = np.concatenate([np.full(len(t), i) for i, t in enumerate(tokens)]).astype(np.int64)
    position = np.concatenate([np.arange(len(t)) for t in tokens]).astype(np.int64)
    length = np.concatenate([np.full(len(t), len(t)) for t in tokens]).astype(np.int64)
    return sentence, position, length, tuple(token for t in tokens for token in t)


def weights_sha256(checkpoint: str | Path) -> str:
    """SHA-256 of the checkpoint's model.safetensors (read in chunks)."""
    digest = hashlib.sha256()
    with open(Path(checkpoint) / "model.safetensors", "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _trace(translator: Translator, source: str, reference: str | None) -> SentenceTrace:
    result = translator.teacher_forced(source, reference, top_k=1) if reference is not None \
        else translator.translate(source, beam=1, top_k=1)
    return SentenceTrace(tuple(result.source_tokens), tuple(result.target_tokens),
                         {kind: result.queries[kind] for kind in KINDS}, {kind: result.keys[kind] for kind in KINDS},
                         {kind: result.attention(kind) for kind in KINDS})


def run_corpus(translator: Translator, corpus: Corpus, progress: Callable[[int, int], None] | None = None,
               sha256: str | None = None) -> CorpusRun:
    """One traced pass per sentence of `corpus`; `progress(done, total)` after each. Raises InputError (a sentence
    the model cannot read) and CorpusError (an empty corpus, or one in a language the model does not read)."""
    if not corpus.sentences:
        raise CorpusError("the corpus has no sentence")
    if corpus.source_language != translator.config.source_language:
        raise CorpusError(f"the corpus is in {corpus.source_language!r}; the model reads "
                          f"{translator.config.source_language!r}")
    traces = []
    for i, sentence in enumerate(corpus.sentences):
        traces.append(_trace(translator, sentence.source, sentence.reference))
        if progress is not None:
            progress(i + 1, len(corpus.sentences))
    return CorpusRun(corpus, translator.checkpoint, sha256 or weights_sha256(translator.checkpoint), tuple(traces),
                     HeadMask.layer_counts(translator.config), translator.config.n_heads)
