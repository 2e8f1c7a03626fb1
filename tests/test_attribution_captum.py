"""Integrated gradients (the project's own forward-mode code, model/translation/attribution.py) against Captum's
IntegratedGradients on the same function, baseline and target: the check that the scores themselves are right.
The completeness gap alone cannot show it: the path is refined until the gap is within the bound, so a small gap
holds by construction.

The top token is compared on the steps where Captum's top two differ by more than the error the path is refined to
(GAP_BOUND of the step's log-probability change, at least 1 nat): a step the zero baseline already predicts (often the
last, </s>) has a few thousandths of a nat spread over its tokens, and which of two tokens 0.0005 apart comes first
turns on the path's points and the precision the passes multiply in (float32 or bfloat16), not on the method."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from captum.attr import IntegratedGradients

from model.translation.attribution import GAP_BOUND
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
    tolerance = GAP_BOUND * np.maximum(np.abs(theirs.sum(axis=1)), 1.0)  # (T,) nats: the error each step may keep
    first, second = np.sort(theirs, axis=1)[:, :-3:-1].T
    decided = first - second > tolerance  # steps whose top token the integral's error cannot swap
    assert decided.mean() >= 0.5, f"only {decided.sum()} of {steps} steps have a top token to compare"
    agree = ours.argmax(axis=1) == theirs.argmax(axis=1)
    assert agree[decided].all(), f"the top token differs on steps {np.flatnonzero(decided & ~agree).tolist()}"
