"""Beam search carries an encoder output's patch into every decoding step, as greedy search does: a decoder-side
patch (cross-attention heads) changes what the beam writes, the same as it changes what greedy writes."""

from __future__ import annotations

import torch

from model.causal import read_pair, runs
from model.causal.patching import build_patch
from model.translation.decoding import search


def test_beam_search_keeps_a_decoder_side_patch(translator):
    """Every cross-attention head of the corrupted "She bought a book." patched with the clean "He …" run's
    outputs: greedy and beam search both write the clean 他 first; dropped in beam search, it would write 她."""
    tr = translator
    pair = read_pair(tr, "He bought a book.", "She bought a book.")
    layers = tr.config.n_decoder_layers
    cells = [("head", "cross", layer, head) for layer in range(layers) for head in range(tr.config.n_heads)]
    with torch.inference_mode():
        full = runs.traced(tr.model, list(pair.clean.ids), [tr.config.bos_id, *pair.clean.output[:-1]])
        one = build_patch(cells, full, pair)
        # build_patch gives row r cell r; all cells in one row: every layer's every head at once
        rows = {key: type(r)(r.where.any(dim=0, keepdim=True), r.value) for key, r in one.heads.items()}
        patch = type(one)(heads=rows)
        src = torch.tensor([pair.corrupt.ids])
        found = {}
        for beam in (1, 3):
            for name, p in (("plain", None), ("patched", patch)):
                enc = tr.model.encode(src, patch=p)
                (out,) = search(tr.model, enc, [len(pair.corrupt.ids)], beam, tr.generation_config)
                found[name, beam] = tr.tgt_tok.tokens(out.ids)[0]
    assert found["plain", 1] == found["plain", 3] == pair.foil_token == "她"
    assert found["patched", 1] == found["patched", 3] == pair.target_token == "他"
