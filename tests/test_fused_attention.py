"""Search and training skip the attention weights and use torch's fused kernel: same numbers as the traced path."""

import torch

from model.text.pairs import pad
from tests.support.tiny import tiny_model, tokenizers


def test_fused_and_weight_returning_paths_agree_with_padding():
    model = tiny_model(seed=3)
    src_tok, _ = tokenizers()
    c = model.config
    rows = [src_tok.encode(t) + [c.eos_id] for t in ("I have a dream.", "Who are you? I love you, Tom.")]
    src = pad(rows, c.pad_id)  # the first row is padded
    tgt = torch.tensor([[c.bos_id, 10, 11, 12], [c.bos_id, 13, 14, 15]])
    with torch.inference_mode():
        fused_enc, traced_enc = model.encode(src), model.encode(src, trace=True)
        torch.testing.assert_close(fused_enc.memory, traced_enc.memory, atol=1e-5, rtol=1e-5)
        fused = model.decode(tgt, fused_enc)
        traced = model.decode(tgt, traced_enc, trace=True)
    assert fused.layers is None and traced.layers is not None
    assert fused_enc.mask is not None  # padding: cross-attention and the encoder are masked
    torch.testing.assert_close(fused.logits, traced.logits, atol=1e-5, rtol=1e-5)


def test_incremental_steps_without_masks_match_the_masked_full_pass():
    model = tiny_model(seed=5)
    c = model.config
    src = torch.tensor([[5, 6, 7, 8, c.eos_id]])  # no padding: cross-attention runs without a mask
    tgt = torch.tensor([[c.bos_id, 20, 21, 22, 23]])
    with torch.inference_mode():
        enc = model.encode(src)
        full = model.decode(tgt, enc, trace=True).logits
        cache, steps = model.start_decoding(enc), []
        for t in range(tgt.size(1)):
            out = model.decode(tgt[:, t : t + 1], enc, cache)
            cache = out.cache
            steps.append(out.logits)
    assert enc.mask is None and cache.cross_mask is None
    torch.testing.assert_close(torch.cat(steps, dim=1), full, atol=1e-5, rtol=1e-5)
