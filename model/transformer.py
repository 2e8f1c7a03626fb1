"""The encoder–decoder Transformer, returning every attention map it computes."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .attention import KVCache, keys_values
from .config import ModelConfig
from .layers import DecoderLayer, DecoderLayerParams, EncoderLayer, decoder_layer, dropout, encoder_layer
from .positional import embedding_scale, sinusoidal_table


@dataclass
class EncoderOutput:
    memory: torch.Tensor  # (batch, S, d_model)
    src_keep: torch.Tensor  # (batch, S) bool, False at padding
    self_attn: torch.Tensor | None  # (layers, batch, heads, S, S)
    layer_inputs: torch.Tensor | None  # (layers, batch, S, d_model): what each layer's Q, K, V are projected from


@dataclass
class DecoderState:
    """Everything incremental decoding carries from one step to the next (never stored on the model)."""

    layers: tuple[DecoderLayerParams, ...]  # the decoder layers' tensors, read off the modules once per sentence
    self_caches: list[KVCache]  # per layer, keys/values of positions decoded so far
    cross_caches: list[KVCache]  # per layer, keys/values of the encoder output
    src_keep: torch.Tensor  # (batch, S)
    length: int = 0  # positions already in self_caches
    padded: bool = True  # whether any source position is padding; without any, cross-attention needs no mask

    def select(self, index: torch.Tensor) -> "DecoderState":
        return DecoderState(
            self.layers,
            [c.select(index) for c in self.self_caches],
            [c.select(index) for c in self.cross_caches],
            self.src_keep.index_select(0, index),
            self.length,
            self.padded,
        )


@dataclass
class DecoderOutput:
    logits: torch.Tensor  # (batch, T, tgt_vocab)
    self_attn: torch.Tensor | None  # (layers, batch, heads, T, t_past + T)
    cross_attn: torch.Tensor | None  # (layers, batch, heads, T, S)
    self_inputs: torch.Tensor | None  # (layers, batch, T, d_model)
    cross_inputs: torch.Tensor | None  # (layers, batch, T, d_model): queries of cross-attention
    state: DecoderState | None


def causal_mask(n_new: int, n_past: int, device: torch.device) -> torch.Tensor:
    """(1, 1, n_new, n_past + n_new) bool: query i (absolute n_past + i) sees keys 0..n_past + i."""
    q = torch.arange(n_past, n_past + n_new, device=device).unsqueeze(1)
    k = torch.arange(n_past + n_new, device=device).unsqueeze(0)
    return (k <= q).view(1, 1, n_new, n_past + n_new)


def _stack(items: list[torch.Tensor], trace: bool) -> torch.Tensor | None:
    return torch.stack(items) if trace else None


class Transformer(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        c = config
        self.src_embed = nn.Embedding(c.src_vocab_size, c.d_model, padding_idx=c.pad_id)
        self.tgt_embed = nn.Embedding(c.tgt_vocab_size, c.d_model, padding_idx=c.pad_id)
        self.register_buffer("positional", sinusoidal_table(c.max_len, c.d_model), persistent=False)
        self.encoder_layers = nn.ModuleList(
            EncoderLayer(c.d_model, c.n_heads, c.d_ff, c.dropout) for _ in range(c.n_encoder_layers)
        )
        self.decoder_layers = nn.ModuleList(
            DecoderLayer(c.d_model, c.n_heads, c.d_ff, c.dropout) for _ in range(c.n_decoder_layers)
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

    def _embed(self, table: nn.Embedding, ids: torch.Tensor, start: int) -> torch.Tensor:
        t = ids.size(1)
        if start + t > self.config.max_len:
            raise ValueError(f"sequence of {start + t} positions exceeds max_len={self.config.max_len}")
        x = table(ids) * embedding_scale(self.config.d_model) + self.positional[start : start + t]
        return dropout(x, self.config.dropout if self.training else 0.0)

    def encode(self, src: torch.Tensor, trace: bool = False) -> EncoderOutput:
        """src: (batch, S) token ids, padded with pad_id."""
        src_keep = src != self.config.pad_id
        mask = src_keep[:, None, None, :]  # (batch, 1, 1, S)
        x = self._embed(self.src_embed, src, 0)
        weights, inputs = [], []
        for layer in self.encoder_layers:
            inputs.append(x)
            x, w = encoder_layer(layer.params(), x, mask, need_weights=trace)
            weights.append(w)
        return EncoderOutput(x, src_keep, _stack(weights, trace), _stack(inputs, trace))

    def start_state(self, enc: EncoderOutput) -> DecoderState:
        layers = tuple(layer.params() for layer in self.decoder_layers)
        return DecoderState(
            layers=layers,
            self_caches=[],
            # Cross-attention's keys/values come from the encoder output alone: computed once per sentence.
            cross_caches=[keys_values(p.cross_attn, enc.memory) for p in layers],
            src_keep=enc.src_keep,
            padded=not bool(enc.src_keep.all()),
        )

    def decode(
        self,
        tgt: torch.Tensor,  # (batch, T): all target positions, or only the new ones when `state` is given
        enc: EncoderOutput,
        state: DecoderState | None = None,
        trace: bool = False,
    ) -> DecoderOutput:
        """Teacher-forced pass (state=None) or incremental step(s) continuing `state`.

        The returned state holds the extended caches; the input state is left unchanged.
        """
        incremental = state is not None
        if state is None:
            state = self.start_state(enc)
        past = state.length
        t = tgt.size(1)
        # One new position may see every earlier one: no mask, so the fused kernel takes its fastest path.
        self_mask = causal_mask(t, past, tgt.device) if t > 1 else None
        cross_mask = state.src_keep[:, None, None, :] if state.padded else None  # (batch, 1, 1, S)
        x = self._embed(self.tgt_embed, tgt, past)
        self_w, cross_w, self_in, cross_in, new_caches = [], [], [], [], []
        for i, layer in enumerate(state.layers):
            self_in.append(x)
            cache = state.self_caches[i] if past else None
            x, sw, cw, ci, cache = decoder_layer(layer, x, self_mask, cross_mask, cache, state.cross_caches[i], trace)
            self_w.append(sw)
            cross_w.append(cw)
            cross_in.append(ci)
            new_caches.append(cache)
        logits = F.linear(x, self.tgt_embed.weight)  # output projection tied to the target embedding
        new_state = (
            DecoderState(state.layers, new_caches, state.cross_caches, state.src_keep, past + t, state.padded)
            if incremental else None
        )
        return DecoderOutput(
            logits,
            _stack(self_w, trace),
            _stack(cross_w, trace),
            _stack(self_in, trace),
            _stack(cross_in, trace),
            new_state,
        )

    def lay_out_for_decoding(self) -> "Transformer":
        """Store every matrix that multiplies activations transposed in memory (column-major), in place.

        F.linear(x, W) computes x Wᵀ; with Wᵀ contiguous, one decoding position (x of a single row) runs
        MKL's non-transposed kernel, which streams the weights about twice as fast on this project's CPUs
        (benchmarks/run.py). Values, shapes and state_dict stay the same; only the strides change.
        """
        with torch.no_grad():
            for module in self.modules():
                if isinstance(module, nn.Linear):
                    module.weight.data = module.weight.data.t().contiguous().t()
            # The target embedding doubles as the output projection, read in full at every step.
            self.tgt_embed.weight.data = self.tgt_embed.weight.data.t().contiguous().t()
        return self

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor) -> torch.Tensor:
        """Training pass: logits (batch, T, tgt_vocab)."""
        return self.decode(tgt_in, self.encode(src)).logits
