"""TranslationResult: everything the app shows for one sentence, as plain NumPy arrays and strings.

Pages render from this object alone: the tokens, every attention map, each
head's q, k and v, what every sublayer took and gave, and the search's
candidates. It holds no reference to the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..architecture.transformer import KINDS as ATTENTION_KINDS  # the model's three kinds, named once
from .messages import Notice
from .names import NameCopy


@dataclass(frozen=True)
class Candidate:
    token: str
    token_id: int
    prob: float


@dataclass(frozen=True)
class StepCandidates:
    """Output step t: the token the search chose and the model's top-k alternatives at that step."""

    step: int
    chosen: Candidate
    candidates: tuple[Candidate, ...]  # most probable first


@dataclass(frozen=True)
class BeamHypothesis:
    tokens: tuple[str, ...]
    logprob: float


@dataclass(frozen=True)
class BeamRecord:
    kept: tuple[BeamHypothesis, ...]
    dropped: tuple[BeamHypothesis, ...]
    finished: tuple[BeamHypothesis, ...]


@dataclass(frozen=True)
class HeadQKV:
    """One head of one attention layer for one sentence: its inputs to softmax(q kᵀ / √d_head) v, and its weights."""

    q: np.ndarray  # (Tq, d_head)
    k: np.ndarray  # (Tk, d_head)
    v: np.ndarray  # (Tk, d_head)
    mask: np.ndarray  # (Tq, Tk) bool, True = may attend
    weights: np.ndarray  # (Tq, Tk) the attention the model returned for this head


@dataclass(frozen=True)
class Embeddings:
    """How a sequence enters its stack: layer 1's input = token · scale + positional."""

    ids: np.ndarray  # (T,) the token ids looked up
    token: np.ndarray  # (T, d_model) rows of the embedding table
    positional: np.ndarray  # (T, d_model) sinusoidal PE rows
    scale: float  # √d_model


@dataclass(frozen=True, eq=False)
class TranslationResult:
    """Everything the app shows for one sentence.

    Decoder position t reads target_tokens[t] (<s>, y1, …, yn) and predicts
    output_tokens[t] (y1, …, yn, </s>): decoder rows are queries at those positions.
    """

    source_text: str  # the cleaned (and possibly truncated) text that was translated
    source_tokens: list[str]  # S tokens, ending with </s>
    target_tokens: list[str]  # T decoder inputs: <s>, y1, …, yn
    output_tokens: list[str]  # T predictions: y1, …, yn, </s>
    translation: str
    encoder_self: np.ndarray  # (layers, heads, S, S) float32
    decoder_self: np.ndarray  # (layers, heads, T, T)
    cross: np.ndarray  # (layers, heads, T, S)
    # Per attention kind, each head's projections: q (layers, heads, Tq, d_head); k and v (layers, heads, Tk, d_head).
    queries: dict[str, np.ndarray]
    keys: dict[str, np.ndarray]
    values: dict[str, np.ndarray]
    source_embeddings: Embeddings
    target_embeddings: Embeddings
    # Each layer's sublayer inputs and outputs, name → (layers, S or T, d_model); names as in model/architecture/layers.py:
    # encoder: input, self_attn_out, norm1, ffn_out, output; decoder adds cross_attn_out, norm2 (output = norm3).
    encoder_sublayers: dict[str, np.ndarray]
    decoder_sublayers: dict[str, np.ndarray]
    steps: list[StepCandidates]  # one per output token, T of them
    beam_size: int
    beam_steps: list[BeamRecord] | None  # None for greedy
    notices: list[Notice] = field(default_factory=list)  # e.g. the input was cut to the model's 127 tokens
    device: str = "cpu"
    # (kind, layer, head), 0-based: heads knocked out in this run (their output zeroed), () for the whole model
    knocked_out: tuple[tuple[str, int, int], ...] = ()
    checkpoint: str = ""
    # How many output tokens were forced (Translator.translate's forced_prefix), not searched: 0 for a plain translation.
    forced: int = 0
    # Names the model never learned, read as a carrier it knows and written back into `translation` (names.py;
    # an experiment whose output lost the carrier keeps it as written): the tokens and maps are those of the
    # sentence it read, "Tom" where "Alice" was typed.
    names: tuple[NameCopy, ...] = ()

    def attention(self, kind: str) -> np.ndarray:
        if kind not in ATTENTION_KINDS:
            raise ValueError(f"kind must be one of {ATTENTION_KINDS}, got {kind!r}")
        return getattr(self, kind)

    def axis_tokens(self, kind: str) -> tuple[list[str], list[str]]:
        """(query tokens, key tokens) for an attention kind: rows, then columns."""
        return {
            "encoder_self": (self.source_tokens, self.source_tokens),
            "decoder_self": (self.target_tokens, self.target_tokens),
            "cross": (self.target_tokens, self.source_tokens),
        }[kind]

    def head(self, kind: str, layer: int, head: int) -> HeadQKV:
        """One head's q, k, v, mask and weights, as the model computed them for this sentence."""
        weights = self.attention(kind)[layer, head]  # (Tq, Tk)
        mask = np.ones(weights.shape, dtype=bool)  # one unpadded sentence: only the decoder hides keys
        if kind == "decoder_self":
            mask = np.tril(mask)
        return HeadQKV(
            self.queries[kind][layer, head], self.keys[kind][layer, head], self.values[kind][layer, head], mask, weights
        )
