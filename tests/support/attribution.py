"""What attribution methods are checked against: the model's log-probabilities by plain autograd."""

from __future__ import annotations

import torch


def independent_log_probs(translator, result, token):
    """log p(y_t | y_<t, x) for every step with `token` (batch, S, d) as the source embeddings: plain autograd."""
    model, n = translator.model, token.size(0)
    src = torch.tensor([result.source_embeddings.ids.tolist()]).expand(n, -1)
    tgt = torch.tensor([result.target_embeddings.ids.tolist()]).expand(n, -1)
    chosen = torch.tensor([s.chosen.token_id for s in result.steps])
    logits = model.decode(tgt, model.encode(src, token_embeddings=token)).logits
    logp = torch.log_softmax(translator.generation_config.never_next(logits, model.config), -1)
    return logp[:, torch.arange(len(chosen)), chosen]  # (batch, T)
