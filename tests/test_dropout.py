"""Dropout acts while training and nowhere else: on attention weights, and on activations (embeddings, sublayers, FFN)."""

import pytest
import torch
from torch import nn

from model.architecture.attention import MultiHeadAttention
from tests.support.tiny import tiny_model

SRC = torch.tensor([[5, 6, 7, 8, 3]])
TGT = torch.tensor([[2, 9, 10, 11]])


def model_dropping(where: str):
    """A tiny model whose dropout (0.5) acts only on attention weights, or only on the other activations."""
    model = tiny_model(seed=1, dropout=0.5)
    for module in model.modules():
        if where == "activations" and isinstance(module, MultiHeadAttention):
            module.dropout = 0.0
        if where == "attention" and isinstance(module, nn.Dropout):
            module.p = 0.0
    return model


@pytest.mark.parametrize("where", ["attention", "activations"])
def test_training_passes_drop_and_eval_passes_do_not(where):
    model = model_dropping(where)
    with torch.no_grad():
        evaluated = model.eval()(SRC, TGT)
        assert torch.equal(evaluated, model(SRC, TGT))  # eval is deterministic
        torch.manual_seed(0)
        first = model.train()(SRC, TGT)
        second = model(SRC, TGT)
    assert not torch.allclose(first, second)  # a fresh mask each pass
    assert not torch.allclose(first, evaluated)


def test_no_dropout_model_trains_to_the_same_numbers_as_it_evaluates():
    model = tiny_model(seed=2, dropout=0.0)
    with torch.no_grad():
        torch.testing.assert_close(model.train()(SRC, TGT), model.eval()(SRC, TGT), atol=0, rtol=0)
