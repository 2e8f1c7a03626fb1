"""Length penalty re-scoring (lessons/length_penalty.py) against hand-worked numbers and the decoder's own penalty."""

from __future__ import annotations

import numpy as np
import pytest

from lessons import length_penalty as lp
from model import GenerationConfig


def test_hand_worked_case():
    # a 3-token hypothesis at log P −1.0 and a 9-token one at −2.0: ((5+3)/6)^1 = 4/3, ((5+9)/6)^1 = 7/3
    r = lp.rescore([-1.0, -2.0], [3, 9], (0.0, 1.0))
    assert r.scores[:, 0].tolist() == [-1.0, -2.0]
    assert r.scores[:, 1] == pytest.approx([-0.75, -6 / 7])
    assert r.winners == (0, 0)
    r = lp.rescore([-1.0, -1.2], [3, 9], (0.0, 1.0))  # −0.75 against −1.2·3/7 = −0.514: the long one wins at α = 1
    assert r.winners == (0, 1)


@pytest.mark.parametrize("length", [1, 5, 17])
def test_the_penalty_is_the_decoders(length):
    assert lp.penalty(length, 0.6) == pytest.approx(GenerationConfig(gnmt_alpha=0.6).penalty(length))
    own = GenerationConfig().gnmt_alpha
    assert lp.penalty(length, own) == pytest.approx(GenerationConfig().penalty(length))
    assert lp.penalty(length, 1.3, "power") == pytest.approx(GenerationConfig(length_penalty=1.3).penalty(length))


def test_alpha_zero_is_no_penalty_and_bad_input_says_so():
    assert np.all(lp.penalty([1, 4, 30], 0.0) == 1.0)
    assert lp.alphas_with(0.6) == (0.0, 0.6, 1.0)
    assert lp.alphas_with(1.3) == (0.0, 0.6, 1.0, 1.3)
    with pytest.raises(ValueError, match="one log-probability per length"):
        lp.rescore([-1.0], [3, 4])
    with pytest.raises(ValueError, match="form is one of"):
        lp.penalty(3, 0.6, "square")
