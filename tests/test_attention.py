"""Our attention against PyTorch's reference implementations, and the invariants every map must hold."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from model.architecture.attention import MultiHeadAttention, scaled_dot_product_attention
from model.architecture.transformer import causal_mask
from tests.support.tiny import tiny_translator


def test_matches_torch_sdpa_with_padding_and_causal_masks():
    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 4, 6, 8) for _ in range(3))
    keep = torch.tensor([[True] * 6, [True] * 4 + [False] * 2])[:, None, None, :]  # (2, 1, 1, 6)
    for mask in (keep, keep & causal_mask(6, 0, q.device)):
        ours, _ = scaled_dot_product_attention(q, k, v, mask)
        ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        torch.testing.assert_close(ours, ref, atol=1e-5, rtol=1e-5)


def test_multi_head_layer_matches_nn_multihead_attention():
    torch.manual_seed(0)
    d, h = 32, 4
    ours = MultiHeadAttention(d, h).eval()
    ref = torch.nn.MultiheadAttention(d, h, batch_first=True).eval()
    with torch.no_grad():
        ref.in_proj_weight.copy_(torch.cat([ours.q_proj.weight, ours.k_proj.weight, ours.v_proj.weight]))
        ref.in_proj_bias.copy_(torch.cat([ours.q_proj.bias, ours.k_proj.bias, ours.v_proj.bias]))
        ref.out_proj.weight.copy_(ours.out_proj.weight)
        ref.out_proj.bias.copy_(ours.out_proj.bias)
    query, memory = torch.randn(2, 5, d), torch.randn(2, 7, d)
    pad = torch.tensor([[False] * 7, [False] * 5 + [True] * 2])  # True = padding, nn.MHA's convention
    with torch.no_grad():
        out, trace = ours(query, ours.keys_values(memory), (~pad)[:, None, None, :], trace=True)
        fused, _ = ours(query, ours.keys_values(memory), (~pad)[:, None, None, :])
    weights = trace.weights
    ref_out, ref_avg = ref(query, memory, memory, key_padding_mask=pad, need_weights=True)
    _, ref_heads = ref(query, memory, memory, key_padding_mask=pad, need_weights=True, average_attn_weights=False)
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(fused, ref_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(weights.mean(dim=1), ref_avg, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(weights, ref_heads, atol=1e-5, rtol=1e-5)


def test_fully_masked_row_gives_zeros_not_nan():
    q, k, v = torch.randn(1, 1, 3, 4), torch.randn(1, 1, 5, 4), torch.randn(1, 1, 5, 4)
    mask = torch.ones(1, 1, 3, 5, dtype=torch.bool)
    mask[..., 1, :] = False
    out, weights = scaled_dot_product_attention(q, k, v, mask)
    assert not torch.isnan(out).any() and not torch.isnan(weights).any()
    assert weights[0, 0, 1].abs().sum() == 0 and out[0, 0, 1].abs().sum() == 0
    torch.testing.assert_close(weights[0, 0, [0, 2]].sum(-1), torch.ones(2))


@pytest.fixture(scope="module")
def result():
    return tiny_translator().translate("The dog saw the cat and the cat saw the dog.")


@pytest.mark.parametrize("kind", ["encoder_self", "decoder_self", "cross"])
def test_every_row_sums_to_one(result, kind):
    np.testing.assert_allclose(result.attention(kind).sum(-1), 1.0, atol=1e-5)


def test_shapes_agree_with_tokens(result):
    layers, heads = 2, 4
    s, t = len(result.source_tokens), len(result.target_tokens)
    assert result.encoder_self.shape == (layers, heads, s, s)
    assert result.decoder_self.shape == (layers, heads, t, t)
    assert result.cross.shape == (layers, heads, t, s)
    assert len(result.output_tokens) == t == len(result.steps)


def test_decoder_self_attention_is_zero_above_diagonal(result):
    upper = np.triu(np.ones(result.decoder_self.shape[-2:], dtype=bool), k=1)
    assert np.all(result.decoder_self[..., upper] == 0)


def test_padded_keys_get_zero_weight():
    model = tiny_translator().model
    src = torch.tensor([[5, 6, 7, 8, 3], [5, 6, 3, 0, 0]])  # second sentence padded with pad_id 0
    with torch.inference_mode():
        enc = model.encode(src, trace=True)
        dec = model.decode(torch.tensor([[2, 9, 10], [2, 9, 10]]), enc, trace=True)
    for layer in enc.layers:
        assert torch.all(layer.self_attn.weights[1, :, :, 3:] == 0) and not torch.isnan(layer.self_attn.weights).any()
    for layer in dec.layers:
        assert torch.all(layer.cross_attn.weights[1, :, :, 3:] == 0)
