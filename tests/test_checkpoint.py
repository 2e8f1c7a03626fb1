"""Checkpoint folders: lossless round trip, and a clear error for every way they can be broken."""

import json

import numpy as np
import pytest
import torch

from model import CheckpointError, TrainingLog, Translator, load_checkpoint, save_checkpoint
from model.loading.checkpoint import CONFIG, WEIGHTS
from model.architecture.config import ModelConfig
from tests.support.checkpoints import flipped_exponents, unchecked_copy
from tests.support.tiny import tiny_model, tokenizers


@pytest.fixture()
def saved(tmp_path):
    src, tgt = tokenizers()
    model = tiny_model(seed=7)
    folder = save_checkpoint(tmp_path / "ck", model, src, tgt, card="# card", training_log={"train": []})
    return folder, model


def test_round_trip_gives_identical_weights_and_outputs(saved):
    folder, model = saved
    loaded, src, tgt = load_checkpoint(folder, "cpu")
    assert loaded.config == model.config and not loaded.training
    for k, v in model.state_dict().items():
        assert torch.equal(v, loaded.state_dict()[k]), k
    a = Translator(model, src, tgt).translate("I have a dream.")
    b = Translator(loaded, src, tgt).translate("I have a dream.")
    assert a.output_tokens == b.output_tokens
    # Loading lays the matrices out column-major, which sums in another order: equal to float32 rounding.
    for kind in ("encoder_self", "decoder_self", "cross"):
        np.testing.assert_allclose(a.attention(kind), b.attention(kind), atol=1e-6, rtol=0)


def test_loaded_matrices_are_column_major_and_save_back_unchanged(saved, tmp_path):
    folder, model = saved
    loaded, src, tgt = load_checkpoint(folder, "cpu")
    for name, module in loaded.named_modules():
        if isinstance(module, torch.nn.Linear):
            assert module.weight.t().is_contiguous(), name
    assert loaded.tgt_embed.weight.t().is_contiguous()
    again, _, _ = load_checkpoint(save_checkpoint(tmp_path / "again", loaded, src, tgt), "cpu")
    for k, v in model.state_dict().items():
        assert torch.equal(v, again.state_dict()[k]), k
    # Training from a loaded model: the optimizer sees ordinary parameters, only their strides differ.
    loss = loaded.train()(torch.tensor([[5, 6, 3]]), torch.tensor([[2, 7]])).logsumexp(-1).mean()
    loss.backward()
    assert all(p.grad is not None for p in loaded.parameters() if p.requires_grad)


def test_cpu_layout_can_be_left_out(saved):
    """The benchmark compares against this: the same values, each matrix in the modules' own row-major storage."""
    folder, model = saved
    plain, _, _ = load_checkpoint(folder, "cpu", cpu_layout=False)
    for name, module in plain.named_modules():
        if isinstance(module, torch.nn.Linear):
            assert module.weight.is_contiguous(), name
    for k, v in model.state_dict().items():
        assert torch.equal(v, plain.state_dict()[k]), k


def test_float16_checkpoint_loads_as_float32_within_rounding(tmp_path):
    src, tgt = tokenizers()
    model = tiny_model(seed=7)
    folder = save_checkpoint(tmp_path / "half", model, src, tgt, dtype=torch.float16)
    loaded, _, _ = load_checkpoint(folder, "cpu")
    for k, v in model.state_dict().items():
        assert loaded.state_dict()[k].dtype == torch.float32
        torch.testing.assert_close(loaded.state_dict()[k], v, atol=1e-3, rtol=1e-3)


def expect_error(folder, *words):
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(folder, "cpu")
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert "retrain" in message  # says what to do


def test_missing_folder(tmp_path):
    expect_error(tmp_path / "nope", "does not exist")


def test_missing_file(saved):
    folder, _ = saved
    (folder / WEIGHTS).unlink()
    expect_error(folder, "missing", WEIGHTS)


def test_corrupt_weights(saved):
    folder, _ = saved
    (folder / WEIGHTS).write_bytes(b"\x00garbage" * 100)
    expect_error(folder, "corrupt or truncated")


def test_truncated_weights(saved):
    folder, _ = saved
    data = (folder / WEIGHTS).read_bytes()
    (folder / WEIGHTS).write_bytes(data[: len(data) // 2])
    expect_error(folder, "corrupt or truncated")


def test_config_that_does_not_match_the_weights(saved, tmp_path):
    folder, _ = saved
    config = json.loads((folder / CONFIG).read_text())
    config["d_ff"] = 128
    (folder / CONFIG).write_text(json.dumps(config))
    expect_error(folder, "does not match", "shape")


def test_broken_config(saved):
    folder, _ = saved
    (folder / CONFIG).write_text("{not json")
    expect_error(folder, "not valid JSON")
    (folder / CONFIG).write_text(json.dumps({"src_vocab_size": 10, "tgt_vocab_size": 10, "d_model": 30, "n_heads": 4}))
    expect_error(folder, "divisible")


def test_pickle_is_never_loaded(saved):
    """A torch pickle (which could run code) renamed to the weights file is refused, not executed."""
    folder, model = saved

    class Boom:
        def __reduce__(self):
            return (exec, ("raise SystemExit('code ran')",))

    torch.save({"x": Boom()}, folder / WEIGHTS)
    expect_error(folder, "corrupt or truncated")


def test_shipped_checkpoint_is_small_and_loads():
    from model.translation.translator import DEFAULT_CHECKPOINT

    if not DEFAULT_CHECKPOINT.exists():
        pytest.skip("shipped checkpoint not present")
    size = sum(p.stat().st_size for p in DEFAULT_CHECKPOINT.iterdir())
    assert size <= 25 * 2**20
    model, _, _ = load_checkpoint(DEFAULT_CHECKPOINT, "cpu")
    assert (DEFAULT_CHECKPOINT / "README.md").read_text().count("Tatoeba") >= 1


def test_device_is_cpu_when_asked(saved):
    folder, _ = saved
    model, _, _ = load_checkpoint(folder, "cpu")
    assert next(model.parameters()).device.type == "cpu"
    if not torch.cuda.is_available():
        with pytest.raises(CheckpointError, match="no CUDA"):
            load_checkpoint(folder, "cuda")


def test_training_log_is_tolerated_missing_or_broken(tmp_path):
    from model.loading.checkpoint import TRAINING_LOG, read_training_log

    assert read_training_log(tmp_path) is None
    (tmp_path / TRAINING_LOG).write_text("{not json", encoding="utf-8")
    assert read_training_log(tmp_path) is None
    (tmp_path / TRAINING_LOG).write_text('{"train": [], "dev": []}', encoding="utf-8")
    assert read_training_log(tmp_path) == {"train": [], "dev": []}


def test_shipped_checkpoint_records_how_attention_formed_during_training():
    """The probe sentences' attention maps at each snapshot: compact, well-formed and consistent with their tokens."""
    from model.loading.checkpoint import read_training_log
    from model.training.snapshots import SNAPSHOTS, read_snapshots
    from model.translation.translator import DEFAULT_CHECKPOINT

    log = read_training_log(DEFAULT_CHECKPOINT)
    assert (DEFAULT_CHECKPOINT / SNAPSHOTS).stat().st_size < 4 * 2**20
    snaps = read_snapshots(DEFAULT_CHECKPOINT, TrainingLog.from_dict(log))
    assert len(snaps) >= 5 and snaps[0].step == 0 and snaps[-1].step == log["steps"]
    assert "I have a dream." in log["probes"]
    model, _, _ = load_checkpoint(DEFAULT_CHECKPOINT, "cpu")
    layers, heads = model.config.n_encoder_layers, model.config.n_heads
    for snap in snaps:
        assert len(snap.probes) == len(log["probes"])
        for probe in snap.probes:
            S, T = len(probe.source_tokens), len(probe.target_tokens)
            assert probe.source_tokens[-1] == "</s>" and probe.target_tokens[0] == "<s>"
            cross, encoder = probe.attention("cross"), probe.attention("encoder_self")
            assert cross.shape == (layers, heads, T, S) and encoder.shape == (layers, heads, S, S)
            assert np.allclose(cross.sum(-1), 1, atol=1e-2)
            assert np.triu(probe.attention("decoder_self"), 1).max() == 0
    # Training changed what the model says: the untrained model babbles, the last snapshot translates.
    first, last = snaps[0].probes[0].translation, snaps[-1].probes[0].translation
    assert last and first != last


def test_shipped_model_card_reports_the_honest_dev_split_and_the_recipe_study():
    from model.loading.checkpoint import read_training_log
    from model.translation.translator import DEFAULT_CHECKPOINT

    log = read_training_log(DEFAULT_CHECKPOINT)
    card = (DEFAULT_CHECKPOINT / "README.md").read_text()
    assert 0 < log["dedup_dev_pairs"] < log["dev_pairs"]
    assert log["final"]["dedup_bleu"] is not None
    assert f"| beam {log['final']['beam']} | {log['final']['bleu']} |" in card
    assert "## Recipe study" in card and len(log["study"]) >= 2


def test_model_card_says_which_study_groups_had_unequal_budgets_and_why_scores_differ():
    from cards import model_card

    base = {"group": 1, "hardware": "cpu", "changes": "reference", "bleu": 30.0, "chrf": 30.0, "dedup_bleu": 20.0,
            "dedup_chrf": 20.0, "run": "a"}
    log = {"args": {"out": "x", "save_dtype": "float16", "warmup": 1, "label_smoothing": 0.1, "max_tokens": 9},
           "argv": [], "best": {"step": 1, "bleu": 36.87, "bleu_signature": "", "chrf_signature": ""},
           "parameters": 1, "hardware": "cpu", "train_minutes": 1.0, "steps": 1, "epochs": 1,
           "study": [{**base, "minutes": 90.0, "steps": 5516},
                     {**base, "run": "en-zh", "bleu": 36.83, "minutes": 80.0, "steps": 6471},
                     {**base, "group": 2, "minutes": 20.0, "steps": 100},
                     {**base, "group": 2, "run": "b", "minutes": 30.0, "steps": 100}]}
    card = model_card(ModelConfig(100, 100), log, "en-zh")
    assert "Group 1: **not** the same budget: 90.0 min / 5516 steps vs 80.0 min / 6471 steps" in card
    assert "Group 2: the same steps (not the same minutes)" in card
    assert "en-zh (36.83) differs from its training log's (36.87)" in card and "float16" in card
    log["args"]["save_dtype"] = "float32"
    assert "differs from its training log's" not in model_card(ModelConfig(100, 100), log, "en-zh")


def test_a_flipped_bit_in_the_weights_is_caught_by_the_checksum(tmp_path, monkeypatch):
    from model.loading.checkpoint import CHECKSUMS, SKIP_CHECKSUMS, CheckpointError, write_checksums

    src, tgt = tokenizers()
    folder = save_checkpoint(tmp_path / "ck", tiny_model(), src, tgt)
    assert (folder / CHECKSUMS).read_text().count("\n") == 4
    load_checkpoint(folder, "cpu")  # as saved: verified
    data = bytearray((folder / WEIGHTS).read_bytes())
    data[-3] ^= 0x10  # one bit in the last tensor's data: still parses, still finite
    (folder / WEIGHTS).write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="does not match its checksum") as caught:
        load_checkpoint(folder, "cpu")
    assert "\n" not in str(caught.value) and SKIP_CHECKSUMS in str(caught.value)
    monkeypatch.setenv(SKIP_CHECKSUMS, "1")
    load_checkpoint(folder, "cpu")  # a deliberate change: skipped on request
    monkeypatch.delenv(SKIP_CHECKSUMS)
    write_checksums(folder)  # or recorded anew
    load_checkpoint(folder, "cpu")


def test_the_shipped_checkpoint_matches_its_checksums():
    from model.loading.checkpoint import CHECKSUMS, verify_checksums
    from model.translation.translator import DEFAULT_CHECKPOINT

    assert (DEFAULT_CHECKPOINT / CHECKSUMS).is_file()
    verify_checksums(DEFAULT_CHECKPOINT)


def huge_config(folder) -> None:
    """Issue 53's config: every number inside its declared range, ~61 billion parameters in all."""
    config = json.loads((folder / CONFIG).read_text())
    config.update(d_model=4096, d_ff=65536, n_heads=8, n_encoder_layers=48, n_decoder_layers=48)
    (folder / CONFIG).write_text(json.dumps(config))


@pytest.fixture()
def built_on(monkeypatch):
    """The devices the loader builds Transformers on; building one anywhere but on the meta device fails the test
    (the old loader built issue 53's config for real before any check: tens of GB, until memory ran out)."""
    from model.loading import checkpoint

    devices = []

    class Recorded(checkpoint.Transformer):
        def __init__(self, config):
            devices.append(torch.get_default_device().type)
            if devices[-1] != "meta" and config.d_model == 4096:
                raise AssertionError("issue 53's model was built in memory before its size was checked")
            super().__init__(config)

    monkeypatch.setattr(checkpoint, "Transformer", Recorded)
    return devices


def test_a_config_too_big_for_its_weights_is_refused_before_the_model_is_built(saved, built_on):
    folder, _ = saved
    huge_config(folder)
    expect_error(folder, "describes 61,", "parameters", "too few to hold them")
    assert built_on == ["meta"]


def test_the_command_line_refuses_a_too_big_config_in_one_line(saved, built_on, capsys):
    from model.translation.cli import main

    folder, _ = saved
    huge_config(folder)
    status = main(["--checkpoint", str(folder), "I love you."])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("error: ") and err.count("\n") == 1 and "too few to hold them" in err


def test_a_header_whose_shapes_differ_from_the_config_is_refused_before_loading(saved, monkeypatch):
    from model.loading import checkpoint

    folder, _ = saved
    config = json.loads((folder / CONFIG).read_text())
    config["n_decoder_layers"] = 1  # fewer parameters than the file holds: the size alone cannot tell
    (folder / CONFIG).write_text(json.dumps(config))
    monkeypatch.setattr(checkpoint, "load_file", lambda path: pytest.fail("tensors read before the header's check"))
    expect_error(folder, "does not match", "unexpected decoder_layers.1")


def test_an_unchecked_folder_whose_weights_are_fine_raises_no_doubt(tmp_path):
    assert Translator.from_checkpoint(unchecked_copy(tmp_path), "cpu").doubts == ()


def test_huge_weights_in_an_unchecked_folder_are_doubted(tmp_path, capsys):
    from model.translation.cli import main

    folder = unchecked_copy(tmp_path, flipped_exponents)
    (doubt,) = Translator.from_checkpoint(folder, "cpu").doubts
    assert doubt.key == "weights_large" and doubt.values["name"] == "decoder_layers.1.ffn.linear2.weight"
    assert doubt.values["value"] == "30,000" and "sha256sums.txt" in str(doubt)
    assert main(["--checkpoint", str(folder), "I love you."]) == 0  # it still translates, and says so on stderr
    first, *_ = capsys.readouterr().err.splitlines()
    assert first.startswith("warning: ") and "probably damaged" in first


def test_weights_that_translate_nonsense_in_an_unchecked_folder_are_doubted(tmp_path):
    def scrambled_vocabulary(tensors):  # plausible sizes, wrong numbers: no magnitude check can tell
        table = tensors["tgt_embed.weight"]
        generator = torch.Generator().manual_seed(0)
        tensors["tgt_embed.weight"] = (torch.randn(table.shape, generator=generator) * table.float().std()).half()

    translator = Translator.from_checkpoint(unchecked_copy(tmp_path, scrambled_vocabulary), "cpu")
    (doubt,) = translator.doubts
    output = translator.translate("I love you.", beam=1)
    assert doubt.key == "weights_nonsense" and doubt.values["sentence"] == "I love you."
    assert any(notice.key == "output_cut" for notice in output.notices)  # it ran to the output limit
    assert doubt.values["output"] == output.translation[:20] + ("…" if len(output.translation) > 20 else "")


def test_a_checksummed_folder_is_not_tried_again(saved, monkeypatch):
    from model.translation import translator as module

    monkeypatch.setattr(module, "weight_doubts", lambda *a: pytest.fail("checked by its checksums already"))
    folder, _ = saved
    assert Translator.from_checkpoint(folder, "cpu").doubts == ()
