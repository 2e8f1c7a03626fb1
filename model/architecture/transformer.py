"""The encoder–decoder Transformer of "Attention Is All You Need", returning what it computes.

Read top-down: a sentence's token ids are embedded (§3.4) and given positions
(§3.5), pass through the encoder stack, and the decoder stack attends to its
output in every layer (cross-attention) while predicting the next target token
through an output projection tied to the target embedding.

One code path serves training, teacher-forced passes and step-by-step decoding:
decode() continues a DecoderCache, which is empty for a whole teacher-forced
pass. With `trace=True` every layer also returns its per-head q, k, v,
attention weights and each sublayer's input and output, for the app's pages.
Experiments travel as arguments, never as state on a module: `heads=` (a HeadMask)
knocks heads out, `patch=` (a Patch, patch.py) puts given values in place of heads'
outputs or of the residual stream at chosen layers and positions.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .attention import KVCache
from .config import ModelConfig
from .layers import DecoderLayer, DecoderLayerTrace, EncoderLayer, EncoderLayerTrace
from .patch import Patch, apply
from .positional import embedding_scale, sinusoidal_table


KINDS = ("encoder_self", "decoder_self", "cross")  # the three attentions, as results and pages name them


@dataclass(frozen=True)
class HeadMask:
    """Which heads run: 1 keeps a head, 0 knocks it out (its output is zeroed before W_O). Passed, never stored.

    One (layers, heads) float tensor per attention kind; knocking heads out and re-decoding shows what
    a head's attention actually does for the translation (Michel et al. 2019, Voita et al. 2019).
    """

    encoder_self: torch.Tensor  # (encoder layers, heads)
    decoder_self: torch.Tensor  # (decoder layers, heads)
    cross: torch.Tensor  # (decoder layers, heads)

    @staticmethod
    def layer_counts(config: ModelConfig) -> dict[str, int]:
        return {"encoder_self": config.n_encoder_layers, "decoder_self": config.n_decoder_layers,
                "cross": config.n_decoder_layers}

    @classmethod
    def knocking_out(cls, config: ModelConfig, heads: list[tuple[str, int, int]]) -> "HeadMask":
        """Every head kept except `heads`: (kind, layer, head), 0-based."""
        keep = {kind: torch.ones(n, config.n_heads) for kind, n in cls.layer_counts(config).items()}
        for kind, layer, head in heads:
            keep[kind][layer, head] = 0.0
        return cls(**keep)

    def to(self, device: torch.device) -> "HeadMask":
        return HeadMask(*(getattr(self, kind).to(device) for kind in KINDS))


@dataclass
class EmbeddingTrace:
    token: torch.Tensor  # (batch, T, d_model): the rows of the embedding table
    positional: torch.Tensor  # (T, d_model): PE rows; layer 1's input is token · √d_model + positional


@dataclass
class EncoderOutput:
    memory: torch.Tensor  # (batch, S, d_model): what every decoder layer's cross-attention reads
    mask: torch.Tensor | None  # (batch, 1, 1, S) bool, False at padding; None when nothing is padding
    embedding: EmbeddingTrace | None = None  # with trace=True
    layers: list[EncoderLayerTrace] | None = None  # with trace=True, one per encoder layer
    heads: HeadMask | None = None  # heads knocked out in this sentence's run, carried on into decoding
    patch: Patch | None = None  # activations patched in this sentence's run, carried on into decoding (patch.py)


@dataclass
class DecoderCache:
    """What step-by-step decoding carries from one step to the next (never stored on the model)."""

    memory_kv: list[KVCache]  # per layer: cross-attention's keys/values, computed once per sentence
    self_kv: list[KVCache | None]  # per layer: self-attention keys/values of the positions decoded so far
    cross_mask: torch.Tensor | None  # (batch, 1, 1, S)
    length: int = 0  # positions already decoded
    heads: HeadMask | None = None  # knocked-out heads, from the encoder output
    patch: Patch | None = None  # patched activations, from the encoder output; its rows are not reselected: batch 1

    def select(self, index: torch.Tensor) -> "DecoderCache":
        """Keep (and repeat) batch rows: beam search continues some hypotheses, drops others."""
        return DecoderCache(
            [kv.select(index) for kv in self.memory_kv],
            [kv.select(index) for kv in self.self_kv],
            None if self.cross_mask is None else self.cross_mask.index_select(0, index),
            self.length,
            self.heads,
            self.patch,
        )


@dataclass
class DecoderOutput:
    logits: torch.Tensor | None  # (batch, T, tgt_vocab): scores of the next token after each position; None unprojected
    cache: DecoderCache  # extended by the T new positions
    hidden: torch.Tensor  # (batch, T, d_model): the last layer's output, before the output projection
    embedding: EmbeddingTrace | None = None
    layers: list[DecoderLayerTrace] | None = None


def causal_mask(n_new: int, n_past: int, device: torch.device) -> torch.Tensor:
    """(1, 1, n_new, n_past + n_new) bool: query i (absolute n_past + i) sees keys 0 … n_past + i."""
    q = torch.arange(n_past, n_past + n_new, device=device).unsqueeze(1)
    k = torch.arange(n_past + n_new, device=device).unsqueeze(0)
    return (k <= q).view(1, 1, n_new, n_past + n_new)


class Transformer(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = c = config
        self.src_embed = nn.Embedding(c.src_vocab_size, c.d_model, padding_idx=c.pad_id)
        self.tgt_embed = nn.Embedding(c.tgt_vocab_size, c.d_model, padding_idx=c.pad_id)
        if c.shared_embeddings:
            self.tgt_embed.weight = self.src_embed.weight  # one parameter, counted once
        # (max_len, d_model)
        self.register_buffer("positional", sinusoidal_table(c.max_len, c.d_model, c.positional_layout), persistent=False)
        # Marian adds a learned bias to the logits; the paper has none.
        self.output_bias = nn.Parameter(torch.zeros(c.tgt_vocab_size)) if c.output_bias else None
        self.embed_dropout = nn.Dropout(c.dropout)
        self.encoder_layers = nn.ModuleList(
            EncoderLayer(c) for _ in range(c.n_encoder_layers)
        )
        self.decoder_layers = nn.ModuleList(
            DecoderLayer(c) for _ in range(c.n_decoder_layers)
        )
        self._init_weights()

    def _init_weights(self) -> None:
        for name, p in self.named_parameters():
            if p.dim() > 1 and "embed" not in name:
                nn.init.xavier_uniform_(p)
        # N(0, 1/d) so that after the √d scaling embeddings have unit variance,
        # and logits through the tied output projection start small.
        for emb in (self.src_embed, self.tgt_embed):
            nn.init.normal_(emb.weight, std=self.config.d_model**-0.5)
            with torch.no_grad():
                emb.weight[self.config.pad_id].zero_()

    def embed(
        self, table: nn.Embedding, ids: torch.Tensor, start: int, token: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, EmbeddingTrace]:
        """ids (batch, T) at positions start … start+T-1 → (batch, T, d_model): Embedding · √d_model + PE.

        `token` (batch, T, d_model), when given, stands in for the table's rows: attribution scales it.
        """
        end = start + ids.size(1)
        if end > self.config.max_len:
            raise ValueError(f"sequence of {end} positions exceeds max_len={self.config.max_len}")
        token, positional = table(ids) if token is None else token, self.positional[start:end]
        x = token * embedding_scale(self.config.d_model) + positional
        return self.embed_dropout(x), EmbeddingTrace(token, positional)

    def encode(
        self, src: torch.Tensor, trace: bool = False, heads: HeadMask | None = None,
        token_embeddings: torch.Tensor | None = None,  # (batch, S, d_model) in place of the table's rows
        patch: Patch | None = None,  # activations that stand in for this run's own (patch.py), kept for decoding
    ) -> EncoderOutput:
        """src: (batch, S) token ids, padded with pad_id → the encoder output ("memory")."""
        keep = src != self.config.pad_id  # (batch, S)
        # Without padding every key is visible: no mask, so the fused kernel takes its fastest path.
        mask = None if bool(keep.all()) else keep[:, None, None, :]  # (batch, 1, 1, S)
        x, embedding = self.embed(self.src_embed, src, 0, token_embeddings)
        patch = patch or Patch()
        x = apply(patch.stream("encoder", 0), x)
        layers = []
        for i, layer in enumerate(self.encoder_layers):
            x, layer_trace = layer(x, mask, trace, None if heads is None else heads.encoder_self[i],
                                   patch.head("encoder_self", i))
            x = apply(patch.stream("encoder", i + 1), x)
            layers.append(layer_trace)
        return EncoderOutput(x, mask, embedding if trace else None, layers if trace else None, heads, patch)

    def start_decoding(self, enc: EncoderOutput) -> DecoderCache:
        """An empty cache: cross-attention's keys/values come from the encoder output alone, once per sentence."""
        return DecoderCache(
            memory_kv=[layer.cross_attn.keys_values(enc.memory) for layer in self.decoder_layers],
            self_kv=[None] * len(self.decoder_layers),
            cross_mask=enc.mask,
            heads=enc.heads,
            patch=enc.patch,
        )

    def decode(
        self,
        tgt: torch.Tensor,  # (batch, T): target ids at the positions after those already in `cache`
        enc: EncoderOutput,
        cache: DecoderCache | None = None,  # None: start at position 0 (a teacher-forced pass over all of tgt)
        trace: bool = False,
        project: bool = True,  # False: stop before the output projection (attribution reads one logit out itself)
    ) -> DecoderOutput:
        """Logits for the token after each of tgt's positions, and the cache extended by them."""
        if cache is None:
            cache = self.start_decoding(enc)
        past, t = cache.length, tgt.size(1)
        # Position i may see positions ≤ i (§3.2.3). One new position may see every earlier one: no mask.
        self_mask = causal_mask(t, past, tgt.device) if t > 1 else None
        x, embedding = self.embed(self.tgt_embed, tgt, past)
        patch = cache.patch or Patch()
        x = apply(patch.stream("decoder", 0, past, t), x)
        self_kv, layers = [], []
        for i, (layer, memory_kv, layer_past) in enumerate(zip(self.decoder_layers, cache.memory_kv, cache.self_kv)):
            keep = None if cache.heads is None else (cache.heads.decoder_self[i], cache.heads.cross[i])
            heads = (patch.head("decoder_self", i, past, t), patch.head("cross", i, past, t))  # this pass's positions
            x, kv, layer_trace = layer(x, memory_kv, self_mask, cache.cross_mask, layer_past, trace, keep, heads)
            x = apply(patch.stream("decoder", i + 1, past, t), x)
            self_kv.append(kv)
            layers.append(layer_trace)
        extended = DecoderCache(cache.memory_kv, self_kv, cache.cross_mask, past + t, cache.heads, cache.patch)
        logits = self.project(x) if project else None
        return DecoderOutput(logits, extended, x, embedding if trace else None, layers if trace else None)

    def project(self, x: torch.Tensor) -> torch.Tensor:
        """(…, d_model) → (…, tgt_vocab): the output projection, tied to the target embedding (§3.4)."""
        return F.linear(x, self.tgt_embed.weight, self.output_bias)

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor) -> torch.Tensor:
        """Training pass (teacher forcing): src (batch, S), tgt_in (batch, T) = <s> y1 … → logits (batch, T, vocab)."""
        return self.decode(tgt_in, self.encode(src)).logits
