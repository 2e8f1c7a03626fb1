"""Integrated gradients (the project's own forward-mode code, model/translation/attribution.py) against Captum's
IntegratedGradients on the same function, baseline and target: the check that the scores themselves are right.
The completeness gap alone cannot show it: the path is refined until the gap is within the bound, so a small gap
holds by construction."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from captum.attr import IntegratedGradients

from tests.support.attribution import independent_log_probs


@pytest.mark.parametrize("sentence", ["I have a dream.", "He likes mathematics, but I don't."])
def test_integrated_gradients_agree_with_captums(translator, sentence):
    result = translator.translate(sentence)
    ours = translator.attribute(result, "integrated_gradients").scores  # (T, S), summed over d_model
    steps = len(result.steps)
    with torch.no_grad():
        token = translator.model.src_embed(torch.tensor([result.source_embeddings.ids.tolist()]))
    end = token.expand(steps, -1, -1).detach()  # one copy per output step: Captum's target t is column t
    captum = IntegratedGradients(lambda x: independent_log_probs(translator, result, x)).attribute(
        end, baselines=torch.zeros_like(end), target=list(range(steps)), n_steps=128, method="gausslegendre",
        internal_batch_size=4 * steps)
    theirs = captum.sum(-1).detach().numpy()  # (T, S): step t's row from copy t
    assert theirs.shape == ours.shape
    assert np.corrcoef(ours.ravel(), theirs.ravel())[0, 1] >= 0.99
    assert (ours.argmax(axis=1) == theirs.argmax(axis=1)).mean() >= 0.9  # the same top token, step by step
