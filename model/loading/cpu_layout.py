"""Speed-ups for serving a trained model on the CPU, kept apart from the readable model.

The arithmetic is the paper's, in model/architecture/transformer.py; this module changes only
how the weights lie in memory, never a value (benchmarks/run.py measures what it buys).
"""

from __future__ import annotations

import torch
from torch import nn

from ..architecture.transformer import Transformer


def lay_out_for_cpu_decoding(model: Transformer) -> Transformer:
    """Store every matrix that multiplies activations transposed in memory (column-major), in place.

    F.linear(x, W) computes x Wᵀ; with Wᵀ contiguous, one decoding position (x of a single row) runs
    MKL's non-transposed kernel, which streams the weights faster. Values, shapes and state_dict keys
    stay the same; only the strides change.
    """
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.Linear):
                module.weight.data = module.weight.data.t().contiguous().t()
        # The target embedding doubles as the output projection, read in full at every step.
        model.tgt_embed.weight.data = model.tgt_embed.weight.data.t().contiguous().t()
    return model
