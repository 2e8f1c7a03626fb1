"""The one dataclass that describes (and builds) a Transformer."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass


ACTIVATIONS = ("relu", "swish")
POSITIONAL_LAYOUTS = ("interleaved", "halves")


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
    # Special-token ids are the same in both vocabularies (see model/tokenizer.py).
    pad_id: int = 0
    unk_id: int = 1
    bos_id: int = 2
    eos_id: int = 3
    # The paper's choices, which converted production models (model/marian.py) may change:
    activation: str = "relu"  # the FFN's nonlinearity: "relu" (the paper) or "swish" (x·sigmoid(x), Marian's)
    positional_layout: str = "interleaved"  # PE's sin/cos pairs side by side (the paper), or "halves": all sines, then all cosines
    shared_embeddings: bool = False  # one table for source, target and output (one vocabulary)
    output_bias: bool = False  # a learned bias on the logits (Marian's final_logits_bias)

    def __post_init__(self) -> None:
        if self.d_model % self.n_heads:
            raise ValueError(
                f"d_model={self.d_model} must be divisible by n_heads={self.n_heads}: "
                "each head gets d_model / n_heads dimensions"
            )
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}, got {self.activation!r}")
        if self.positional_layout not in POSITIONAL_LAYOUTS:
            raise ValueError(f"positional_layout must be one of {POSITIONAL_LAYOUTS}, got {self.positional_layout!r}")
        if self.shared_embeddings and self.src_vocab_size != self.tgt_vocab_size:
            raise ValueError("shared_embeddings needs one vocabulary: src_vocab_size must equal tgt_vocab_size")
        for name in ("src_vocab_size", "tgt_vocab_size", "d_model", "n_heads", "d_ff", "max_len"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")

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
