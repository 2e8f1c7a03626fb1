"""The live lab's tiny Transformer learns copy and reverse within its cap, and its cross-attention shows how.

Each trained run takes a few seconds on one core (the cap is 1,000 steps; copy and reverse stop after
about 300, when every held-out sequence is right). The alignment checks would fail for the untrained
model, which spreads its attention over the source (about 1/S on the expected position). A server's runs are computed
by the lab's worker process, niced.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from lessons.anatomy import total_parameters
from model.lab import ALIGNED_SHARE, EXAMPLE, LAB_NICE, TESTED_EXACT, LabSettings, Trainer, answer, train_steps
from model.lab.run import held_out_set, on_alignment
from model.lab.tasks import source_positions


def run(settings: LabSettings):
    return list(train_steps(settings))


@pytest.fixture(scope="module", params=["copy", "reverse"])
def trained(request):
    return request.param, run(LabSettings(task=request.param, max_seconds=300))  # the step cap decides, not the machine


@pytest.mark.parametrize("settings", [LabSettings(), LabSettings(d_model=8, d_ff=24, n_layers=2)])
def test_the_lab_model_has_the_parameters_its_config_gives(settings):
    """Counted by hand from the config (5,952 for the lab's default, the figure the README states): embeddings for
    both vocabularies (the output projection is tied, positions are computed); per attention q, k, v and output
    projections with biases; per FFN two matrices with biases; per LayerNorm a gain and a bias; the encoder layer
    has one attention and two norms, the decoder layer two attentions and three norms."""
    c = settings.config()
    d, f = c.d_model, c.d_ff
    attention, ffn, norm = 4 * (d * d + d), d * f + f + f * d + d, 2 * d
    expected = ((c.src_vocab_size + c.tgt_vocab_size) * d + c.n_encoder_layers * (attention + ffn + 2 * norm)
                + c.n_decoder_layers * (2 * attention + ffn + 3 * norm))
    progress = next(train_steps(settings))
    assert progress.parameters == expected == total_parameters(c)  # the model, and the count the lab page shows


@pytest.mark.slow
def test_learns_within_its_cap_on_held_out_sequences(trained):
    _, (first, *_, last) = trained
    settings = LabSettings()
    assert last.step <= settings.max_steps and last.stopped_by in ("learned", "steps", "seconds")
    assert first.accuracy.exact == 0.0 and first.accuracy.per_token < 0.3  # chance is 1/8 per symbol
    assert last.accuracy.exact >= TESTED_EXACT and last.accuracy.per_token >= TESTED_EXACT
    assert np.mean(last.losses[-10:]) < last.losses[0] / 10


def test_cross_attention_reads_where_the_answer_comes_from(trained):
    """Copy: a diagonal; reverse: the anti-diagonal — in at least one head of the trained model, not the untrained."""
    task, (first, *_, last) = trained
    assert first.aligned.max() < ALIGNED_SHARE
    assert last.aligned.max() >= ALIGNED_SHARE
    cross = last.attention["cross"]  # (layers, heads, T, S)
    layer, head = np.unravel_index(last.aligned.argmax(), last.aligned.shape)
    strongest = cross[layer, head, : len(EXAMPLE)].argmax(axis=-1)
    assert (strongest == np.array(source_positions(task, EXAMPLE))).mean() >= 0.75
    assert last.prediction == list(answer(task, EXAMPLE))


def test_a_run_is_reproducible_and_capped():
    settings = LabSettings(task="reverse", max_steps=30, every=10)
    a, b = run(settings), run(settings)
    assert [p.step for p in a] == [0, 10, 20, 30] and a[-1].stopped_by == "steps"
    assert a[-1].losses == b[-1].losses
    np.testing.assert_array_equal(a[-1].attention["cross"], b[-1].attention["cross"])
    timed = run(LabSettings(max_steps=1000, max_seconds=0.01, every=5))
    assert timed[-1].stopped_by == "seconds" and timed[-1].step == 5


def test_shapes_of_what_a_page_draws():
    progress = next(train_steps(LabSettings(length=6)))
    assert progress.source_tokens == [*EXAMPLE[:6], "</s>"] and progress.target_tokens[0] == "<s>"
    layers, heads = progress.aligned.shape
    assert progress.attention["cross"].shape == (layers, heads, 7, 7)
    assert progress.attention["encoder_self"].shape == (layers, heads, 7, 7)
    assert progress.attention["decoder_self"].shape == (layers, heads, 7, 7)


def test_answers_and_where_they_come_from():
    assert answer("reverse", "ABC") == "CBA" and answer("sort", "CAB") == "ABC"
    assert source_positions("copy", "CAB") == [0, 1, 2]
    assert source_positions("reverse", "CAB") == [2, 1, 0]
    assert source_positions("sort", "CAB") == [1, 2, 0]
    uniform = np.full((1, 2, 4, 4), 0.25)
    np.testing.assert_allclose(on_alignment(uniform, [0, 1, 2]), [[0.25, 0.25]])
    diagonal = np.eye(4)[None, None].repeat(2, axis=1)
    np.testing.assert_allclose(on_alignment(diagonal, [0, 1, 2]), [[1.0, 1.0]])


def test_held_out_sequences_are_distinct_and_fixed():
    tests = held_out_set(LabSettings())
    assert len(set(tests)) == len(tests) == LabSettings().held_out
    assert tests == held_out_set(LabSettings(task="reverse"))


def test_settings_refuse_what_the_lab_cannot_draw():
    with pytest.raises(ValueError, match="task"):
        LabSettings(task="add")
    with pytest.raises(ValueError, match="length"):
        LabSettings(length=len(EXAMPLE) + 1)


def test_the_lab_trains_in_its_own_process_at_a_lower_priority():
    """The chunks are computed by the lab's worker process, niced, so that translations get the cores first; a run
    goes on where it left off, and one dropped starts afresh."""
    trainer, settings = Trainer(), LabSettings(task="reverse", max_steps=100)
    try:
        assert trainer.niceness() == LAB_NICE and os.nice(0) == 0  # this process, the server's, is not niced
        here = train_steps(settings)
        for _ in range(3):  # the same seed: the worker's run is the run this process would have computed
            there, expected = trainer.next("a", settings), next(here)
            assert there.step == expected.step and np.allclose(there.losses, expected.losses, rtol=1e-4)
        trainer.drop("a")
        assert trainer.next("a", settings).step == 0
    finally:
        trainer.shutdown()
