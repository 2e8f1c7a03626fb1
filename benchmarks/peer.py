"""The peer: Hugging Face transformers' MarianMTModel with the shipped model's dimensions (random weights).

Marian is the same architecture family (post-norm encoder–decoder, sinusoidal
positions, scaled embeddings, ReLU FFN), so the two do the same arithmetic;
timing needs no trained weights.
"""

from __future__ import annotations

import torch

from model import ModelConfig


def marian_like(c: ModelConfig, device: str):
    from transformers import MarianConfig, MarianMTModel  # dev dependency: only the benchmark needs it

    config = MarianConfig(
        vocab_size=c.src_vocab_size, decoder_vocab_size=c.tgt_vocab_size, share_encoder_decoder_embeddings=False,
        d_model=c.d_model, encoder_layers=c.n_encoder_layers, decoder_layers=c.n_decoder_layers,
        encoder_attention_heads=c.n_heads, decoder_attention_heads=c.n_heads, encoder_ffn_dim=c.d_ff,
        decoder_ffn_dim=c.d_ff, max_position_embeddings=c.max_len, activation_function="relu", scale_embedding=True,
        pad_token_id=c.pad_id, eos_token_id=c.eos_id, decoder_start_token_id=c.bos_id, forced_eos_token_id=None,
        dropout=0.0, attention_dropout=0.0, activation_dropout=0.0, attn_implementation="eager",
    )
    torch.manual_seed(0)
    model = MarianMTModel(config).eval().to(device)
    if model.config._attn_implementation != "eager":
        raise RuntimeError(f"peer must use eager attention, got {model.config._attn_implementation}")
    return model


def peer_generate(model, input_ids: torch.Tensor, new_tokens: int):
    """Greedy generation of exactly `new_tokens` tokens, returning every attention map (HF's own way)."""
    with torch.inference_mode():
        out = model.generate(
            input_ids=input_ids, attention_mask=torch.ones_like(input_ids), output_attentions=True,
            return_dict_in_generate=True, num_beams=1, do_sample=False, min_new_tokens=new_tokens,
            max_new_tokens=new_tokens,
        )
    if out.sequences.size(1) != new_tokens + 1 or len(out.cross_attentions) != new_tokens:
        raise RuntimeError(f"peer generated {out.sequences.size(1) - 1} tokens, asked for {new_tokens}")
    return out
