"""One sentence through the whole Transformer, every step redone in NumPy.

Each function takes the checkpoint's weights (`weight(name)`, e.g. Translator.weight) and the tensors the
model returned for the sentence (TranslationResult's embeddings and sublayers), recomputes one step from the
model's own input to that step, and returns it next to the model's output of the step: a page shows both and
their difference, and a wrong formula (a dropped residual, the wrong activation) shows up as a large one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from .attention_math import attention_steps, softmax

LN_EPS = 1e-5  # torch.nn.LayerNorm's ε, which model/architecture/layers.py keeps
Weights = Callable[[str], np.ndarray]  # a parameter's values by its name in Translator.parameter_counts


@dataclass(frozen=True)
class Step:
    """One step of the forward pass: what NumPy computed and what the model returned, same shape."""

    recomputed: np.ndarray
    returned: np.ndarray  # what the model returned

    def __post_init__(self) -> None:
        if self.recomputed.shape != self.returned.shape:
            raise ValueError(f"recomputed {self.recomputed.shape} and returned {self.returned.shape} must have one shape")

    @property
    def max_difference(self) -> float:
        return float(np.abs(self.recomputed - self.returned).max()) if self.returned.size else 0.0


# ---------------------------------------------------------------- embeddings


def one_hot(ids, vocab_size: int) -> np.ndarray:
    """(T, vocab) rows of zeros with a 1 at each token's id."""
    ids = np.asarray(ids, dtype=np.int64)
    if ids.size and not (0 <= ids.min() and ids.max() < vocab_size):
        raise ValueError(f"token ids must be in 0…{vocab_size - 1}, got {ids.min()}…{ids.max()}")
    out = np.zeros((len(ids), vocab_size), dtype=np.float32)
    out[np.arange(len(ids)), ids] = 1.0
    return out


@dataclass(frozen=True)
class Embedding:
    """How a sequence enters its stack: its token ids, the table's rows as one-hot × table, × √d, + PE."""

    ids: np.ndarray  # (T,)
    one_hot: np.ndarray  # (T, vocab)
    lookup: Step  # one-hot × table against the rows the model looked up, (T, d)
    scaled: np.ndarray  # rows × √d_model
    positional: np.ndarray  # (T, d)
    scale: float
    first_input: Step  # rows × √d + PE against layer 1's input


def embedding(table: np.ndarray, ids, token_rows: np.ndarray, positional: np.ndarray, scale: float,
              first_input: np.ndarray) -> Embedding:
    """table (vocab, d); ids (T,) the tokens looked up; token_rows, positional and first_input (T, d) as the model
    returned them."""
    ids = np.asarray(ids, dtype=np.int64)
    hot = one_hot(ids, table.shape[0])
    scaled = token_rows * np.float32(scale)
    return Embedding(ids, hot, Step(hot @ table, token_rows), scaled, positional, scale,
                     Step(scaled + positional, first_input))


# ---------------------------------------------------------------- add & norm, FFN


def token_moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each token's mean and (population) variance over its d_model numbers: (T,), (T,)."""
    x = np.asarray(x, dtype=np.float64)
    return x.mean(axis=-1), x.var(axis=-1)


def standardised(x: np.ndarray, eps: float = LN_EPS) -> np.ndarray:
    """(x − mean) / √(variance + ε) per token, before γ and β."""
    mean, var = token_moments(x)
    return (x - mean[..., None]) / np.sqrt(var[..., None] + eps)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float = LN_EPS) -> np.ndarray:
    """γ ⊙ (x − mean) / √(variance + ε) + β, each token on its own."""
    return (standardised(x, eps) * gamma + beta).astype(np.float32)


@dataclass(frozen=True)
class AddNorm:
    """LayerNorm(x + Sublayer(x)), post-norm as in the paper and this model."""

    name: str  # the LayerNorm's parameter prefix, e.g. "encoder_layers.0.norm1"
    x: np.ndarray  # (T, d) the sublayer's input
    sublayer_out: np.ndarray  # (T, d) Sublayer(x)
    gamma: np.ndarray  # (d,)
    beta: np.ndarray  # (d,)
    step: Step  # LayerNorm(x + Sublayer(x)) against the model's

    @property
    def residual(self) -> np.ndarray:
        return self.x + self.sublayer_out

    @property
    def standardised(self) -> np.ndarray:
        return standardised(self.residual)


def add_norm(x: np.ndarray, sublayer_out: np.ndarray, norm_out: np.ndarray, weight: Weights, name: str) -> AddNorm:
    """`name` is the LayerNorm's parameter prefix, e.g. "encoder_layers.0.norm1"."""
    gamma, beta = weight(f"{name}.weight"), weight(f"{name}.bias")
    return AddNorm(name, x, sublayer_out, gamma, beta, Step(layer_norm(x + sublayer_out, gamma, beta), norm_out))


ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": lambda h: np.maximum(h, 0.0),
    "swish": lambda h: h / (1.0 + np.exp(-h)),  # x·sigmoid(x)
}


@dataclass(frozen=True)
class FeedForward:
    hidden: np.ndarray  # (T, d_ff) after the activation
    step: Step  # (T, d) FFN(x) against the model's


def feed_forward(x: np.ndarray, ffn_out: np.ndarray, weight: Weights, name: str, activation: str) -> FeedForward:
    """activation(x W1ᵀ + b1) W2ᵀ + b2; `name` is the FFN's prefix, e.g. "decoder_layers.2.ffn"."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
    hidden = ACTIVATIONS[activation](linear(x, weight, f"{name}.linear1"))
    return FeedForward(hidden.astype(np.float32), Step(linear(hidden, weight, f"{name}.linear2"), ffn_out))


def linear(x: np.ndarray, weight: Weights, name: str) -> np.ndarray:
    """x Wᵀ + b of the nn.Linear named `name` (PyTorch stores W as (out, in))."""
    return (np.asarray(x, dtype=np.float64) @ weight(f"{name}.weight").T + weight(f"{name}.bias")).astype(np.float32)


# ---------------------------------------------------------------- multi-head attention


@dataclass(frozen=True)
class MultiHead:
    """q, k, v (heads, T, d_head), the weights (heads, Tq, Tk) and the sublayer's output (Tq, d)."""

    q: Step
    k: Step
    v: Step
    weights: Step
    out: Step


def split_heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """(T, d) → (heads, T, d / heads): head h gets dimensions h·d_head … (h+1)·d_head − 1."""
    t, d = x.shape
    return x.reshape(t, n_heads, d // n_heads).transpose(1, 0, 2)


def multi_head(queries_from: np.ndarray, keys_from: np.ndarray, model: Mapping[str, np.ndarray], weight: Weights,
               name: str, causal: bool) -> MultiHead:
    """Concat_h(softmax(q_h k_hᵀ / √d_head) v_h) W_Oᵀ + b_O, with q from `queries_from` and k, v from `keys_from`.

    model: what the model returned for this layer: "q", "k", "v" (heads, T, d_head), "weights" (heads, Tq, Tk)
    and "out" (Tq, d). `name` is the attention's prefix, e.g. "decoder_layers.0.cross_attn".
    """
    n_heads = model["q"].shape[0]
    q, k, v = (split_heads(linear(x, weight, f"{name}.{p}_proj"), n_heads)
               for x, p in ((queries_from, "q"), (keys_from, "k"), (keys_from, "v")))
    tq, tk = q.shape[1], k.shape[1]
    mask = np.tril(np.ones((tq, tk), dtype=bool)) if causal else None
    heads = [attention_steps(q[h], k[h], v[h], mask) for h in range(n_heads)]
    weights = np.stack([s.weights for s in heads]).astype(np.float32)
    concat = np.concatenate([s.output for s in heads], axis=1)  # (Tq, d)
    out = linear(concat, weight, f"{name}.out_proj")
    return MultiHead(Step(q, model["q"]), Step(k, model["k"]), Step(v, model["v"]), Step(weights, model["weights"]),
                     Step(out, model["out"]))


# ---------------------------------------------------------------- whole layers


@dataclass(frozen=True)
class Layer:
    """Every step of one encoder or decoder layer; decoder layers add cross_attn and a third add & norm."""

    self_attn: MultiHead
    norm1: AddNorm
    ffn: FeedForward
    last_norm: AddNorm  # norm2 in the encoder, norm3 in the decoder: the layer's output
    cross_attn: MultiHead | None = None
    norm2: AddNorm | None = None

    def steps(self) -> dict[str, Step]:
        """Every recomputed step by name, in the order the layer computes them."""
        out = {f"self_attn.{n}": getattr(self.self_attn, n) for n in ("q", "k", "v", "weights", "out")}
        out["norm1"] = self.norm1.step
        if self.cross_attn is not None:
            out |= {f"cross_attn.{n}": getattr(self.cross_attn, n) for n in ("q", "k", "v", "weights", "out")}
            out["norm2"] = self.norm2.step
        out["ffn"] = self.ffn.step
        out["output"] = self.last_norm.step
        return out


def attention_of(result, kind: str, layer: int, out: np.ndarray) -> dict[str, np.ndarray]:
    """What `multi_head` compares with, taken from a TranslationResult for one attention kind and layer."""
    return {"q": result.queries[kind][layer], "k": result.keys[kind][layer], "v": result.values[kind][layer],
            "weights": result.attention(kind)[layer], "out": out}


def encoder_layer(result, layer: int, weight: Weights, activation: str) -> Layer:
    """Encoder layer `layer` (0-based) of a TranslationResult: x → self-attention → add & norm → FFN → add & norm."""
    s = {k: v[layer] for k, v in result.encoder_sublayers.items()}  # name → (S, d)
    p = f"encoder_layers.{layer}."
    attn = multi_head(s["input"], s["input"], attention_of(result, "encoder_self", layer, s["self_attn_out"]), weight,
                      p + "self_attn", causal=False)
    return Layer(
        self_attn=attn,
        norm1=add_norm(s["input"], s["self_attn_out"], s["norm1"], weight, p + "norm1"),
        ffn=feed_forward(s["norm1"], s["ffn_out"], weight, p + "ffn", activation),
        last_norm=add_norm(s["norm1"], s["ffn_out"], s["output"], weight, p + "norm2"),
    )


def decoder_layer(result, layer: int, weight: Weights, activation: str) -> Layer:
    """Decoder layer `layer`: masked self-attention → add & norm → cross-attention (q from the decoder, k and v
    from the encoder's output) → add & norm → FFN → add & norm."""
    s = {k: v[layer] for k, v in result.decoder_sublayers.items()}  # name → (T, d)
    memory = result.encoder_sublayers["output"][-1]  # (S, d): what every decoder layer's cross-attention reads
    p = f"decoder_layers.{layer}."
    return Layer(
        self_attn=multi_head(s["input"], s["input"], attention_of(result, "decoder_self", layer, s["self_attn_out"]),
                             weight, p + "self_attn", causal=True),
        norm1=add_norm(s["input"], s["self_attn_out"], s["norm1"], weight, p + "norm1"),
        cross_attn=multi_head(s["norm1"], memory, attention_of(result, "cross", layer, s["cross_attn_out"]), weight,
                              p + "cross_attn", causal=False),
        norm2=add_norm(s["norm1"], s["cross_attn_out"], s["norm2"], weight, p + "norm2"),
        ffn=feed_forward(s["norm2"], s["ffn_out"], weight, p + "ffn", activation),
        last_norm=add_norm(s["norm2"], s["ffn_out"], s["output"], weight, p + "norm3"),
    )


# ---------------------------------------------------------------- output


@dataclass(frozen=True)
class Output:
    """The decoder's last output → logits through the tied target embedding → softmax → the chosen tokens."""

    logits: np.ndarray  # (T, vocab) h · E_tgtᵀ (+ bias)
    probs: np.ndarray  # (T, vocab) softmax over the tokens the search may choose
    chosen_ids: np.ndarray  # (T,)
    chosen: Step  # (T,) each chosen token's probability against the model's

    def top(self, position: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The k most probable token ids at `position` and their probabilities, most probable first."""
        ids = np.argsort(-self.probs[position], kind="stable")[:k]
        return ids, self.probs[position, ids]


def output(final: np.ndarray, table: np.ndarray, bias: np.ndarray | None, banned_ids, chosen_ids,
           model_probs) -> Output:
    """final (T, d): the last decoder layer's output; table (vocab, d): the target embedding; banned_ids: tokens
    the search never chooses next (padding, <s>, <unk>), whose logits become −∞ before the softmax."""
    logits = np.asarray(final, dtype=np.float64) @ np.asarray(table, dtype=np.float64).T
    if bias is not None:
        logits = logits + bias
    allowed = np.ones(logits.shape[1], dtype=bool)
    allowed[list(banned_ids)] = False
    probs = softmax(np.where(allowed, logits, -np.inf))
    chosen_ids = np.asarray(chosen_ids, dtype=np.int64)
    picked = probs[np.arange(len(chosen_ids)), chosen_ids]
    return Output(logits, probs, chosen_ids, Step(picked, np.asarray(model_probs, dtype=np.float64)))


# ---------------------------------------------------------------- why LayerNorm, not BatchNorm


@dataclass(frozen=True)
class NormComparison:
    """One sentence's vectors normalised alone and inside a zero-padded batch with another sentence.

    LayerNorm's statistics are each token's own, so its result is the same either way. BatchNorm's are each
    feature's over every position of the batch, padding included: they change with the other sentence.
    """

    length: int  # the sentence's tokens
    padding: int  # padding positions in the batch
    layer_alone: np.ndarray  # (T, d)
    layer_in_batch: np.ndarray
    batch_alone: np.ndarray
    batch_in_batch: np.ndarray
    batch_real_tokens: np.ndarray  # BatchNorm over the batch's real tokens only: still depends on the other sentence

    @property
    def layer_difference(self) -> float:
        return float(np.abs(self.layer_alone - self.layer_in_batch).max())

    @property
    def batch_difference(self) -> float:
        return float(np.abs(self.batch_alone - self.batch_in_batch).max())

    @property
    def batch_real_difference(self) -> float:
        return float(np.abs(self.batch_alone - self.batch_real_tokens).max())


def residual_sum(sublayers: Mapping[str, np.ndarray], layer: int, x_name: str, sublayer_name: str) -> np.ndarray:
    """(T, d) x + Sublayer(x) of one layer, from a result's sublayer tensors (name → (layers, T, d)): what the
    LayerNorm after that sublayer normalises."""
    return sublayers[x_name][layer] + sublayers[sublayer_name][layer]


def batch_norm(x: np.ndarray, over: np.ndarray, eps: float = LN_EPS) -> np.ndarray:
    """x (…, d) standardised with each feature's mean and variance over the rows of `over` (n, d)."""
    over = np.asarray(over, dtype=np.float64)
    return (x - over.mean(axis=0)) / np.sqrt(over.var(axis=0) + eps)


def pad_batch(sentences: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(batch, T_max, d) with zero vectors after each shorter sentence, and (batch, T_max) True at real tokens."""
    longest = max(len(s) for s in sentences)
    batch = np.zeros((len(sentences), longest, sentences[0].shape[1]))
    real = np.zeros((len(sentences), longest), dtype=bool)
    for i, s in enumerate(sentences):
        batch[i, : len(s)], real[i, : len(s)] = s, True
    return batch, real


def compare_norms(sentence: np.ndarray, other: np.ndarray) -> NormComparison:
    """sentence (T, d) and another (T', d): the vectors a LayerNorm normalises (x + Sublayer(x)), γ and β left out."""
    sentence, other = np.asarray(sentence, dtype=np.float64), np.asarray(other, dtype=np.float64)
    batch, real = pad_batch([sentence, other])
    n = len(sentence)
    return NormComparison(
        length=n,
        padding=int((~real).sum()),
        layer_alone=standardised(sentence),
        layer_in_batch=standardised(batch)[0, :n],
        batch_alone=batch_norm(sentence, sentence),
        batch_in_batch=batch_norm(sentence, batch.reshape(-1, batch.shape[-1])),
        batch_real_tokens=batch_norm(sentence, batch[real]),
    )


def widening(d_model: int, d_ff: int) -> str:
    """The FFN's d_model → d_ff widening as a factor: "4×" for the paper's 512 → 2048."""
    return f"{d_ff / d_model:.3g}×"
