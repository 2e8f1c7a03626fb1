"""What a Transformer is (ModelConfig, which builds it) and how its output is chosen (GenerationConfig)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

import torch


ACTIVATIONS = ("relu", "swish")
# Bounds on a config's whole numbers: far above any model this app serves (opus-mt-big: d_model 1024, d_ff 4096,
# 6+6 layers, 1,024 positions), far below what would exhaust a classroom server's memory before failing.
INT_RANGES = {
    "src_vocab_size": (5, 500_000), "tgt_vocab_size": (5, 500_000), "d_model": (1, 8_192), "n_heads": (1, 128),
    "n_encoder_layers": (1, 48), "n_decoder_layers": (1, 48), "d_ff": (1, 65_536), "max_len": (2, 8_192),
    "pad_id": (0, 500_000), "unk_id": (0, 500_000), "bos_id": (0, 500_000), "eos_id": (0, 500_000),
}
POSITIONAL_LAYOUTS = ("interleaved", "halves")
LANGUAGES = ("en", "zh")  # the languages a model here reads or writes: English, Chinese (Simplified)


@dataclass(frozen=True)
class ModelConfig:
    src_vocab_size: int
    tgt_vocab_size: int
    d_model: int = 256
    n_heads: int = 8
    n_encoder_layers: int = 3
    n_decoder_layers: int = 3
    d_ff: int = 1024
    dropout: float = 0.1  # on embeddings and on each sublayer's output before the residual add
    # None: the same as `dropout`. Low-resource recipes regularise these separately
    # (on the attention weights; after the FFN's ReLU).
    attention_dropout: float | None = None
    activation_dropout: float | None = None
    # Longest sequence the positional table covers; also caps source and output lengths.
    max_len: int = 128
    # Special-token ids are the same in both vocabularies (see model/text/tokenizer.py).
    pad_id: int = 0
    unk_id: int = 1
    bos_id: int = 2
    eos_id: int = 3
    # The paper's choices, which converted production models (model/loading/marian.py) may change:
    activation: str = "relu"  # the FFN's nonlinearity: "relu" (the paper) or "swish" (x·sigmoid(x), Marian's)
    positional_layout: str = "interleaved"  # PE's sin/cos pairs side by side (the paper), or "halves": all sines, then all cosines
    shared_embeddings: bool = False  # one table for source, target and output (one vocabulary)
    output_bias: bool = False  # a learned bias on the logits (Marian's final_logits_bias)
    # What it translates: how the source is normalised and tokenised, how output is scored (model/text/languages.py).
    source_language: str = "en"
    target_language: str = "zh"

    def __post_init__(self) -> None:
        self._check_types_and_ranges()  # first: a config file may hold anything ("3", 2.5, 1e9, -5)
        if self.d_model % self.n_heads:
            raise ValueError(
                f"d_model={self.d_model} must be divisible by n_heads={self.n_heads}: "
                "each head gets d_model / n_heads dimensions"
            )
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}, got {self.activation!r}")
        if self.positional_layout not in POSITIONAL_LAYOUTS:
            raise ValueError(f"positional_layout must be one of {POSITIONAL_LAYOUTS}, got {self.positional_layout!r}")
        for name in ("source_language", "target_language"):
            if getattr(self, name) not in LANGUAGES:
                raise ValueError(f"{name} must be one of {LANGUAGES}, got {getattr(self, name)!r}")
        if self.source_language == self.target_language:
            raise ValueError(f"source_language and target_language are both {self.source_language!r}")
        if self.shared_embeddings and self.src_vocab_size != self.tgt_vocab_size:
            raise ValueError("shared_embeddings needs one vocabulary: src_vocab_size must equal tgt_vocab_size")
        for name in ("pad_id", "unk_id", "bos_id", "eos_id"):
            if getattr(self, name) >= min(self.src_vocab_size, self.tgt_vocab_size):
                raise ValueError(f"{name}={getattr(self, name)} is not a token of the vocabularies "
                                 f"({self.src_vocab_size} and {self.tgt_vocab_size} tokens)")

    def _check_types_and_ranges(self) -> None:
        """Every field's type and range, before anything is built: a corrupt config must fail here, in a sentence,
        not as a traceback or an 8-GB allocation."""
        for name, (low, high) in INT_RANGES.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be a whole number, got {value!r}")
            if not low <= value <= high:
                raise ValueError(f"{name} must be from {low:,} to {high:,}, got {value:,}")
        for name in ("dropout", "attention_dropout", "activation_dropout"):
            value = getattr(self, name)
            if value is None and name != "dropout":
                continue
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value < 1:
                raise ValueError(f"{name} must be a number from 0 to below 1, got {value!r}")
        for name in ("shared_embeddings", "output_bias"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")

    @property
    def attention_dropout_p(self) -> float:
        return self.dropout if self.attention_dropout is None else self.attention_dropout

    @property
    def activation_dropout_p(self) -> float:
        return self.dropout if self.activation_dropout is None else self.activation_dropout

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=2)

    @classmethod
    def from_dict(cls, data: dict) -> "ModelConfig":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown config keys: {', '.join(unknown)}")
        return cls(**data)


@dataclass(frozen=True)
class GenerationConfig:
    """How a model's output is chosen, kept apart from what the model is (as transformers' GenerationConfig).

    The defaults are this project's; a converted Marian model takes its authors'
    generation settings (model/loading/marian.py), with which search() chooses what
    transformers' generate() chooses (tests/test_marian.py).
    """

    ban_unk: bool = True  # <unk> is never a sensible output (Marian's settings ban only padding)
    # None: GNMT's ((5 + |Y|) / 6)^gnmt_alpha, ours; a number p: |Y|^p, as generate() divides by.
    length_penalty: float | None = None
    gnmt_alpha: float = 1.2  # the Transformer paper used 0.6; 1.2 was chosen on dev (evaluation/decoding_sweep.py)
    # Tokens before a forced </s>; None: twice the source length plus 10, within the positional table.
    max_output: int | None = None
    renormalize: bool = True  # log-probabilities summed over the allowed tokens only (generate()'s renormalize_logits)
    early_stopping: bool = False  # stop as soon as `beam` hypotheses have finished (generate()'s early_stopping=True)

    def limit(self, source_len: int, config: ModelConfig) -> int:
        """Output tokens (without </s>) a source of `source_len` tokens may get."""
        ours = 2 * source_len + 10 if self.max_output is None else self.max_output
        return max(0, min(config.max_len - 1, ours))

    def penalty(self, length: int) -> float:
        """What a finished hypothesis's log-probability is divided by: without it beam search prefers short outputs."""
        if self.length_penalty is None:
            return ((5 + length) / 6) ** self.gnmt_alpha
        return length**self.length_penalty

    def banned(self, config: ModelConfig) -> list[int]:
        """Tokens never chosen: padding, the decoder's start token and (unless allowed) <unk>."""
        # Marian's start token is its padding token: listed once
        return list(dict.fromkeys([config.pad_id, config.bos_id] + ([config.unk_id] if self.ban_unk else [])))

    def never_next(self, logits: torch.Tensor, config: ModelConfig) -> torch.Tensor:
        """logits (..., vocab) with the banned tokens ruled out."""
        return logits.index_fill(-1, torch.tensor(self.banned(config), device=logits.device), float("-inf"))
