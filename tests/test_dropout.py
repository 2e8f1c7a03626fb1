"""Dropout acts while training and nowhere else: the layers read it from their parameter bundles."""

import torch

from tests.tiny import tiny_model

SRC = torch.tensor([[5, 6, 7, 8, 3]])
TGT = torch.tensor([[2, 9, 10, 11]])


def test_training_passes_drop_activations_and_eval_passes_do_not():
    model = tiny_model(seed=1, dropout=0.5)
    with torch.no_grad():
        evaluated = model.eval()(SRC, TGT)
        assert torch.equal(evaluated, model(SRC, TGT))  # eval is deterministic
        torch.manual_seed(0)
        first = model.train()(SRC, TGT)
        second = model(SRC, TGT)
    assert not torch.allclose(first, second)  # a fresh mask each pass
    assert not torch.allclose(first, evaluated)
    # The bundles carry the probability only in training, for every attention and layer.
    layer = model.decoder_layers[0]
    assert layer.params().dropout == 0.5 and layer.params().self_attn.dropout == 0.5
    model.eval()
    assert layer.params().dropout == 0.0 and layer.params().cross_attn.dropout == 0.0


def test_no_dropout_model_trains_to_the_same_numbers_as_it_evaluates():
    model = tiny_model(seed=2, dropout=0.0)
    with torch.no_grad():
        torch.testing.assert_close(model.train()(SRC, TGT), model.eval()(SRC, TGT), atol=0, rtol=0)
