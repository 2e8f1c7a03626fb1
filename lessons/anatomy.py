"""Parameter counts, FLOPs and label smoothing of an encoder–decoder Transformer.

Counts follow the study note (seed 003): with H = d_model and d_ff = 4H an encoder
layer holds 12H² + 13H parameters (attention 4H² + 4H, FFN 8H² + 5H, two
LayerNorms 4H). A decoder layer adds a cross-attention (4H² + 4H) and a third
LayerNorm (2H): 16H² + 19H. `sizes` is anything with ModelConfig's field names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def attention_params(h: int) -> int:
    """W_Q, W_K, W_V, W_O (H×H each) and their biases."""
    return 4 * h * h + 4 * h


def ffn_params(h: int, d_ff: int) -> int:
    """H→d_ff and d_ff→H linear layers with biases."""
    return 2 * h * d_ff + d_ff + h


def layernorm_params(h: int) -> int:
    """A gain γ and a bias β per dimension."""
    return 2 * h


def encoder_layer_params(h: int, d_ff: int) -> int:
    return attention_params(h) + ffn_params(h, d_ff) + 2 * layernorm_params(h)


def decoder_layer_params(h: int, d_ff: int) -> int:
    return 2 * attention_params(h) + ffn_params(h, d_ff) + 3 * layernorm_params(h)


def note_formula(h: int) -> int:
    """The note's encoder-layer count, valid when d_ff = 4H."""
    return 12 * h * h + 13 * h


def decoder_formula(h: int) -> int:
    """The same with d_ff = 4H for a decoder layer: 12H² + 13H + (4H² + 4H) + 2H."""
    return 16 * h * h + 19 * h


@dataclass(frozen=True)
class Component:
    key: str  # names the component; pages translate it
    each: int  # parameters in one copy
    copies: int

    @property
    def total(self) -> int:
        return self.each * self.copies


def parameter_breakdown(sizes) -> list[Component]:
    """Parameters per component. The output projection is tied to the target embedding (no extra weights);
    the sinusoidal positional table is computed, not learned. A converted Marian model shares one table between
    source and target (`shared_embeddings`) and adds a bias to the logits (`output_bias`)."""
    h, f = sizes.d_model, sizes.d_ff
    ne, nd = sizes.n_encoder_layers, sizes.n_decoder_layers
    shared = getattr(sizes, "shared_embeddings", False)
    bias = [Component("output_bias", sizes.tgt_vocab_size, 1)] if getattr(sizes, "output_bias", False) else []
    return [
        Component("src_embed", sizes.src_vocab_size * h, 1),
        Component("tgt_embed_shared" if shared else "tgt_embed", 0 if shared else sizes.tgt_vocab_size * h, 1),
        Component("output_projection", 0, 1),
        *bias,
        Component("positional", 0, 1),
        Component("encoder.self_attn", attention_params(h), ne),
        Component("encoder.ffn", ffn_params(h, f), ne),
        Component("encoder.norms", 2 * layernorm_params(h), ne),
        Component("decoder.self_attn", attention_params(h), nd),
        Component("decoder.cross_attn", attention_params(h), nd),
        Component("decoder.ffn", ffn_params(h, f), nd),
        Component("decoder.norms", 3 * layernorm_params(h), nd),
    ]


def total_parameters(sizes) -> int:
    return sum(c.total for c in parameter_breakdown(sizes))


def group_parameter_names(counts: dict[str, int]) -> dict[str, int]:
    """Sum a model's named parameter counts into the components of `parameter_breakdown`.

    "encoder_layers.2.self_attn.q_proj.weight" → "encoder.self_attn"; "…norm3.bias" → "decoder.norms".
    """
    groups: dict[str, int] = {}
    for name, n in counts.items():
        parts = name.split(".")
        if parts[0] in ("src_embed", "tgt_embed"):
            key = parts[0]
        elif parts[0] in ("encoder_layers", "decoder_layers"):
            sub = "norms" if parts[2].startswith("norm") else parts[2]
            key = f"{parts[0].split('_')[0]}.{sub}"
        else:
            key = parts[0]
        groups[key] = groups.get(key, 0) + n
    return groups


def layer_parameters(counts: dict[str, int], stack: str, index: int) -> int:
    """Parameters of one layer ("encoder" or "decoder", 0-based) among a model's named parameter counts."""
    prefix = f"{stack}_layers.{index}."
    return sum(n for name, n in counts.items() if name.startswith(prefix))


@dataclass(frozen=True)
class Flops:
    key: str
    flops: int


def forward_flops(sizes, source_len: int, target_len: int) -> list[Flops]:
    """Forward FLOPs of one teacher-forced pass, counting 2·m·k·n for an (m×k)·(k×n) product (as the note does).

    Per encoder layer that is 8SH² (Q, K, V and W_O) + 4S²H (QKᵀ and ·V) + 4SH·d_ff (FFN),
    i.e. the note's 24SH² + 4S²H when d_ff = 4H. Softmax, LayerNorm and additions are left out.
    """
    h, f, v = sizes.d_model, sizes.d_ff, sizes.tgt_vocab_size
    s, t = source_len, target_len
    ne, nd = sizes.n_encoder_layers, sizes.n_decoder_layers
    return [
        Flops("encoder.projections", ne * 8 * s * h * h),
        Flops("encoder.scores_and_sum", ne * 4 * s * s * h),
        Flops("encoder.ffn", ne * 4 * s * h * f),
        Flops("decoder.self_projections", nd * 8 * t * h * h),
        Flops("decoder.self_scores_and_sum", nd * 4 * t * t * h),
        # queries and W_O on the T target positions, keys and values on the S source positions
        Flops("decoder.cross_projections", nd * (4 * t * h * h + 4 * s * h * h)),
        Flops("decoder.cross_scores_and_sum", nd * 4 * t * s * h),
        Flops("decoder.ffn", nd * 4 * t * h * f),
        Flops("output_logits", 2 * t * h * v),
    ]


def smoothed_target(n_classes: int, true_index: int, epsilon: float) -> np.ndarray:
    """(1 − ε)·one_hot + ε/C: the target PyTorch's cross_entropy(label_smoothing=ε) uses, as the note writes it."""
    if not 0 <= true_index < n_classes:
        raise ValueError(f"true_index must be in 0…{n_classes - 1}, got {true_index}")
    if not 0 <= epsilon < 1:
        raise ValueError(f"epsilon must be in [0, 1), got {epsilon}")
    target = np.full(n_classes, epsilon / n_classes)
    target[true_index] += 1 - epsilon
    return target


def smoothed_loss_floor(n_classes: int, epsilon: float) -> float:
    """The lowest cross-entropy a model can reach against a smoothed target: that target's entropy (nats)."""
    top = 1 - epsilon + epsilon / n_classes
    rest = epsilon / n_classes
    return float(-(top * math.log(top)) - ((n_classes - 1) * rest * math.log(rest) if rest > 0 else 0.0))


def units_fired(hidden: np.ndarray) -> np.ndarray:
    """hidden: (layers, tokens, d_ff) FFN activations → (layers, d_ff) bool, True where a unit is above 0 for at
    least one token. A ReLU unit that is 0 for every token never passes anything on: "dead" for these tokens."""
    h = np.asarray(hidden)
    if h.ndim != 3:
        raise ValueError(f"need (layers, tokens, d_ff) activations, got shape {h.shape}")
    return (h > 0).any(axis=1)


def dead_units(hidden_per_sentence: list[np.ndarray]) -> np.ndarray:
    """(layers,) how many FFN units of each layer never fire on any token of any of the sentences."""
    fired = np.logical_or.reduce([units_fired(h) for h in hidden_per_sentence])
    return (~fired).sum(axis=1)
