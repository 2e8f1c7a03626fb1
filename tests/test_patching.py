"""Activation patching, the logit lens and contrastive attribution (model/causal, python -m evaluation.patching) on
the shipped checkpoints, in both directions: exact where patching puts back what a run computed itself, and the
same grids as an independent patcher written here with torch's forward hooks on a copy of the model."""

from __future__ import annotations

import copy
import dataclasses
import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

from evaluation.patching import main
from model.architecture.patch import Patch, Replace
from model.architecture.transformer import KINDS, HeadMask
from model.causal import PatchingError, align, patch_pair, read_pair, redecode
from model.causal import runs
from model.causal.contrast import contrastive_attribution
from model.causal.lens import logit_lens
from model.causal.patching import baseline, build_patch, head_cells
from model.loading import MARIAN
from model.translation.attribution import GAP_BOUND
from tests.support.paths import CHECKPOINT, ZH_CHECKPOINT

HE, SHE = "He bought a book.", "She bought a book."  # en→zh: 他 / 她 at step 0, six source tokens each
TIRED, HUNGRY = "我很累。", "我很饿。"  # zh→en: ▁tired / ▁hungry at step 4, five source tokens each
ANIMAL = ("The animal didn't cross the street because it was tired.",
          "The animal didn't cross the street because it was wide.")  # 15 and 16 tokens: aligned by difflib


def every_head(run: runs.Run, rows: int = 1) -> dict:
    """Every head of every layer of every kind replaced at every position by `run`'s own output."""
    return {(kind, layer): Replace(torch.ones(rows, *value.shape[1:-1], dtype=torch.bool), value)
            for kind in KINDS for layer, value in enumerate(run.heads[kind])}


def memory(tr, pair, patch) -> torch.Tensor:
    """The encoder's output for the corrupted sentence, with `patch`."""
    with torch.inference_mode():
        return tr.model.encode(torch.tensor([pair.corrupt.ids]), trace=True, patch=patch).memory


def clean_memory(tr, pair) -> torch.Tensor:
    with torch.inference_mode():
        return tr.model.encode(torch.tensor([pair.clean.ids]), trace=True).memory


def test_every_head_patched_from_clean_into_clean_changes_nothing(translator):
    pair = read_pair(translator, HE, SHE)
    tgt_in = [translator.config.bos_id, *pair.clean.output[:-1]]  # the whole clean translation
    with torch.inference_mode():
        clean = runs.traced(translator.model, list(pair.clean.ids), tgt_in)
        patched = runs.forward(translator.model, list(pair.clean.ids), tgt_in, Patch(heads=every_head(clean)))[0]
        # and each head alone, one per row of one batched pass per kind
        itself = dataclasses.replace(pair, corrupt=pair.clean, aligned=align(list(pair.clean.tokens),
                                                                             list(pair.clean.tokens)))
        rows = {kind: runs.forward(translator.model, list(pair.clean.ids), tgt_in,
                                   build_patch(head_cells(translator, kind), clean, itself), rows=24)
                for kind in KINDS}
    assert (patched - clean.logits).abs().max() <= 1e-6
    # A batch of 24 rows rounds differently from a batch of one (its matrix products are cut into other blocks): a
    # few 1e-6 on logits of magnitude ~20, so there the bound is 1e-6 of the logits' scale.
    scale = float(clean.logits.abs().max())
    for kind, logits in rows.items():
        assert (logits - clean.logits).abs().max() <= 1e-6 * scale, kind


def test_every_head_and_the_embeddings_from_clean_into_corrupted_give_the_clean_logits(translator, zh_translator):
    for tr, (clean_text, corrupt_text) in ((translator, (HE, SHE)), (zh_translator, (TIRED, HUNGRY))):
        pair = read_pair(tr, clean_text, corrupt_text)
        with torch.inference_mode():
            clean = runs.traced(tr.model, list(pair.clean.ids), list(pair.prefix))
            embeddings = Replace(torch.ones(1, len(pair.clean.ids), dtype=torch.bool), clean.stream["encoder"][0])
            corrupted = runs.forward(tr.model, list(pair.corrupt.ids), list(pair.prefix))[0]
            heads_only = runs.forward(tr.model, list(pair.corrupt.ids), list(pair.prefix), Patch(every_head(clean)))[0]
            patched = runs.forward(tr.model, list(pair.corrupt.ids), list(pair.prefix),
                                   Patch(every_head(clean), {("encoder", 0): embeddings}))[0]
        assert (patched - clean.logits).abs().max() <= 1e-5
        assert (corrupted - clean.logits).abs().max() > 1.0
        # The decoder reads the source only through cross-attention: its heads restore the logits without the
        # embeddings, while the encoder's own output still differs.
        assert (heads_only - clean.logits).abs().max() <= 1e-5
        assert (memory(tr, pair, Patch(every_head(clean))) - memory(tr, pair, None)).abs().max() > 1e-2
        assert (memory(tr, pair, Patch(every_head(clean), {("encoder", 0): embeddings})) - clean_memory(tr, pair)
                ).abs().max() <= 1e-5


def test_the_logit_lens_last_layer_is_the_models_own_distribution(translator, zh_translator):
    for tr, text in ((translator, HE), (zh_translator, TIRED)):
        lens = logit_lens(tr, text)
        src = torch.tensor([tr.prepare(text)[1]])
        ids = [tr.config.bos_id, *(r[-1].token_id for r in lens.grid)][:-1]
        with torch.inference_mode():  # the model's own pass, untraced (the fused kernel)
            logits = tr.model.decode(torch.tensor([ids]), tr.model.encode(src)).logits[0]
        own = torch.softmax(tr.generation_config.never_next(logits, tr.config), dim=-1)
        assert (lens.probabilities[-1] - own).abs().max() <= 1e-6
        assert [row[-1].token for row in lens.grid] == list(lens.output_tokens)  # greedy: the top reading is written
        assert len(lens.grid[0]) == tr.config.n_decoder_layers


@pytest.mark.slow
def test_contrastive_attribution_is_complete_within_the_projects_rule(translator, zh_translator):
    for tr, texts in ((translator, (HE, SHE)), (zh_translator, (TIRED, HUNGRY))):
        pair = read_pair(tr, *texts)
        found = contrastive_attribution(tr, pair)
        assert max(found.gaps) <= GAP_BOUND
        src, tgt = torch.tensor([pair.clean.ids]), torch.tensor([pair.prefix])
        with torch.no_grad():
            token = tr.model.src_embed(src)
            ends = [tr.model.decode(tgt, tr.model.encode(src, token_embeddings=x)).logits[0, -1]
                    for x in (token, torch.zeros_like(token))]
        change = float((ends[0][pair.target] - ends[0][pair.foil]) - (ends[1][pair.target] - ends[1][pair.foil]))
        assert abs(found.contrastive.sum() - change) / max(abs(change), 1.0) <= GAP_BOUND
        assert found.contrastive.shape == found.ordinary.shape == (len(pair.clean.ids),)


class HookPatcher:
    """A separately written patcher: torch forward hooks on a deep copy of the model record the clean run's values
    and put them into the corrupted run, one patch per pass, through the model's plain (fused-kernel) forward."""

    def __init__(self, tr, pair) -> None:
        self.model = copy.deepcopy(tr.model)
        self.src = {"clean": torch.tensor([pair.clean.ids]), "corrupt": torch.tensor([pair.corrupt.ids])}
        self.tgt = torch.tensor([pair.prefix])
        self.target, self.foil, self.d_head = pair.target, pair.foil, tr.config.d_head
        self.clean: dict = {}
        self.clean_diff = self.run("clean", record=True)
        self.corrupted_diff = self.run("corrupt")

    def sites(self):
        """(name, module, hook kind): heads' outputs are out_proj's input; the stream, each layer's input or output."""
        m = self.model
        for i, layer in enumerate(m.encoder_layers):
            yield ("encoder_self", i), layer.self_attn.out_proj, "pre"
            yield ("encoder", i + 1), layer, "out"
        yield ("encoder", 0), m.encoder_layers[0], "pre"
        for i, layer in enumerate(m.decoder_layers):
            yield ("decoder_self", i), layer.self_attn.out_proj, "pre"
            yield ("cross", i), layer.cross_attn.out_proj, "pre"
            yield ("decoder", i + 1), layer, "out"

    def run(self, which: str, record: bool = False, site=None, columns=None, positions=None) -> float:
        handles = []
        for name, module, kind in self.sites():
            if record or name == site:
                hook = self.hook(name, record, columns, positions)
                handles.append(module.register_forward_pre_hook(hook) if kind == "pre"
                               else module.register_forward_hook(hook))
        try:
            with torch.inference_mode():
                logits = self.model.decode(self.tgt, self.model.encode(self.src[which])).logits[0, -1]
        finally:
            for handle in handles:
                handle.remove()
        return float(logits[self.target] - logits[self.foil])

    def hook(self, name, record, columns, positions):
        def swap(x):
            if record:
                self.clean[name] = x.detach().clone()
                return x
            x = x.clone()
            x[:, positions, columns] = self.clean[name][:, positions, columns]
            return x

        def pre(module, args):
            return (swap(args[0]), *args[1:])

        def out(module, args, output):
            return (swap(output[0]), *output[1:])

        return pre if name[0] in KINDS or name == ("encoder", 0) else out

    def effect(self, site, columns, positions) -> float:
        patched = self.run("corrupt", site=site, columns=columns, positions=positions)
        return (patched - self.corrupted_diff) / (self.clean_diff - self.corrupted_diff)


@pytest.mark.slow
def test_an_independent_hook_patcher_gives_the_same_grids(zh_translator):
    tr = zh_translator
    pair = read_pair(tr, TIRED, HUNGRY)
    found = patch_pair(tr, TIRED, HUNGRY)
    hooks = HookPatcher(tr, pair)
    assert hooks.clean_diff == pytest.approx(found.clean_diff, abs=1e-4)
    every = slice(None)
    for kind, grid in found.heads.items():
        theirs = [[hooks.effect((kind, layer), slice(h * hooks.d_head, (h + 1) * hooks.d_head), every)
                   for h in range(grid.shape[1])] for layer in range(grid.shape[0])]
        np.testing.assert_allclose(grid, theirs, atol=1e-5, err_msg=kind)
    for side, grid in found.residual.items():
        theirs = [[hooks.effect((side, point), every, [position]) for position in range(grid.shape[1])]
                  for point in found.points[side]]
        np.testing.assert_allclose(grid, theirs, atol=1e-5, err_msg=side)
    assert np.abs(found.heads["cross"]).max() > 0.05  # the grids are not all zero: the comparison has teeth


@pytest.mark.slow
def test_three_threads_patching_at_once_get_what_each_gets_alone(translator, zh_translator):
    """Three sessions on the two cached models at once, two of them on the same one, as a class shares them."""
    jobs = [(translator, HE, SHE), (zh_translator, TIRED, HUNGRY), (translator, *ANIMAL)]
    alone = [patch_pair(*job) for job in jobs]
    with ThreadPoolExecutor(3) as pool:
        together = list(pool.map(lambda job: patch_pair(*job), jobs))
    for one, other in zip(alone, together):
        for kind in KINDS:
            np.testing.assert_allclose(other.heads[kind], one.heads[kind], atol=1e-6)
        for side in one.residual:
            np.testing.assert_allclose(other.residual[side], one.residual[side], atol=1e-6)


def test_the_metric_and_the_grids_read_as_the_definitions_say(translator, zh_translator):
    found = patch_pair(zh_translator, TIRED, HUNGRY)
    pair = found.pair
    assert (pair.step, pair.target_token, pair.foil_token) == (4, "▁tired", "▁hungry")
    assert found.clean_diff > 0 > found.corrupted_diff  # greedy: each run's own top token at the parting step
    assert {kind: grid.shape for kind, grid in found.heads.items()} == {kind: (3, 8) for kind in KINDS}
    # The one differing token's embedding put back makes the inputs the same: the clean answer, whole.
    assert found.residual["encoder"][0, 2] == pytest.approx(1.0, abs=1e-6)
    assert np.abs(np.delete(found.residual["encoder"][0], 2)).max() <= 1e-6
    # The decoder's last layer at the step's position is what the logits are read from.
    assert found.residual["decoder"][-1, -1] == pytest.approx(1.0, abs=1e-6)
    assert redecode(zh_translator, pair, ("residual", "encoder", 0, 2)).translation == pair.clean.translation
    # The decoder's last layer at the step: the same prefix is written, then the clean token where the runs part.
    restored = redecode(zh_translator, pair, ("residual", "decoder", 3, pair.step)).output_tokens
    assert restored[: pair.step + 1] == pair.clean.output_tokens[: pair.step + 1]
    with pytest.raises(PatchingError):
        redecode(zh_translator, pair, ("head", "cross", 3, 0))


def test_sentences_of_different_lengths_patch_only_the_positions_that_correspond(translator):
    found = patch_pair(translator, *ANIMAL)
    pair = found.pair
    assert len(pair.clean.ids) == 15 and len(pair.corrupt.ids) == 16
    assert pair.unaligned == (12, 13)  # "▁w", "ide" against "▁tired"
    assert (14, 13) in pair.aligned and (15, 14) in pair.aligned  # "." and </s> one position on
    grid = found.residual["encoder"]
    assert np.isnan(grid[:, [12, 13]]).all() and not np.isnan(np.delete(grid, [12, 13], axis=1)).any()
    assert found.clean_diff > found.corrupted_diff
    with pytest.raises(PatchingError):
        redecode(translator, pair, ("residual", "encoder", 1, 12))


@pytest.mark.parametrize("clean, corrupt, target, foil, key", [
    (HE, " He  bought a book. ", None, None, "identical"),
    (HE, SHE, "他", "他", "same_token"),
    ("I am tired.", "I'm tired.", None, None, "no_difference"),
    (HE, SHE, "猫", None, "target_missing"),
    (HE, SHE, "no such token", None, "unknown_token"),
    (" ".join(["book"] * 60), SHE, None, None, "too_long"),
])
def test_bad_pairs_say_why_in_a_sentence(translator, clean, corrupt, target, foil, key):
    with pytest.raises(PatchingError) as caught:
        read_pair(translator, clean, corrupt, target, foil)
    assert caught.value.key == key and str(caught.value).endswith(".")
    assert isinstance(caught.value, ValueError)


def test_a_marian_model_is_refused_and_a_pair_with_nothing_to_restore_too(translator):
    marian = copy.copy(translator)
    marian.capabilities = MARIAN
    with pytest.raises(PatchingError, match="trained here"):
        read_pair(marian, HE, SHE)
    with pytest.raises(PatchingError, match="trained here"):
        logit_lens(marian, HE)
    pair = read_pair(translator, HE, SHE)
    same = dataclasses.replace(pair, corrupt=pair.clean)
    with pytest.raises(PatchingError) as caught:
        baseline(translator, same)
    assert caught.value.key == "no_effect"


def test_a_batched_patch_keeps_each_row_to_its_own_head(translator):
    """Row r of a kind's pass patches head r alone: the same number as a pass of that one patch."""
    pair = read_pair(translator, HE, SHE)
    with torch.inference_mode():
        clean = runs.traced(translator.model, list(pair.clean.ids), list(pair.prefix))
        cells = head_cells(translator, "cross")
        batched = runs.forward(translator.model, list(pair.corrupt.ids), list(pair.prefix),
                               build_patch(cells, clean, pair), rows=len(cells))[:, -1]
        for row in (0, 13, 23):
            alone = runs.forward(translator.model, list(pair.corrupt.ids), list(pair.prefix),
                                 build_patch([cells[row]], clean, pair))[0, -1]
            assert (batched[row] - alone).abs().max() <= 1e-5
    assert HeadMask.layer_counts(translator.config)["cross"] * translator.config.n_heads == len(cells)


@pytest.mark.slow
def test_the_command_prints_one_json_object_and_exits_2_on_bad_input(capsys):
    assert main(["--checkpoint", str(CHECKPOINT), "--clean", HE, "--corrupt", SHE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["target"], out["foil"], out["step"]) == ("他", "她", 0)
    assert out["clean_diff"] > 0 > out["corrupted_diff"]
    assert {kind: np.shape(grid) for kind, grid in out["heads"].items()} == {kind: (3, 8) for kind in KINDS}
    assert np.shape(out["residual"]["encoder"]) == (4, 6) and np.shape(out["residual"]["decoder"]) == (3, 1)
    assert out["residual_points"] == {"encoder": [0, 1, 2, 3], "decoder": [1, 2, 3]}
    assert out["tokens"]["encoder"] == ["▁She", "▁bought", "▁a", "▁book", ".", "</s>"]
    assert [len(row) for row in out["logit_lens"]] == [3] * 8 and set(out["logit_lens"][0][0]) == {"token", "p"}
    assert main(["--checkpoint", str(CHECKPOINT), "--clean", HE, "--corrupt", SHE]) == 0
    assert "largest:" in capsys.readouterr().out
    for bad in (["--clean", HE, "--corrupt", HE], ["--clean", "", "--corrupt", SHE],
                ["--clean", HE, "--corrupt", SHE, "--target", "他", "--foil", "他"],
                ["--clean", HE, "--corrupt", "He bought one book."], ["--clean", HE * 12, "--corrupt", SHE * 12],
                ["--checkpoint", "no/such/folder", "--clean", HE, "--corrupt", SHE]):
        assert main([*(["--checkpoint", str(CHECKPOINT)] if "--checkpoint" not in bad else []), *bad, "--json"]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_benchmark_runs_and_prints_its_row(capsys):
    from benchmarks.patching import main as benchmark

    assert benchmark(["--repeats", "1", "--checkpoint", str(CHECKPOINT)]) == 0
    row = capsys.readouterr().out.strip().splitlines()[-1].split("|")
    assert row[1].strip().startswith("S=15") and all(float(cell) > 0 for cell in row[2:5])


@pytest.mark.slow
def test_the_study_benchmark_prints_a_row_per_direction_and_kind_with_its_times(capsys, monkeypatch):
    """--study runs each kind of each checkpoint's direction as the command does (here two pairs of each: a kept one
    and one the model writes otherwise) and prints its pairs tried and kept and positive times, under one header."""
    from benchmarks.patching import main as benchmark
    from evaluation import patching_study

    other = {"en": ("I like cats.", "I like dogs.", "他", "她"), "zh": ("我喜欢猫。", "我喜欢狗。", "▁He", "▁She")}
    for source, pair in other.items():
        small = {kind: {**study, "pairs": study["pairs"][:1] + (pair,)}
                 for kind, study in patching_study.STUDIES[source].items()}
        monkeypatch.setitem(patching_study.STUDIES, source, small)
    both = ["--checkpoint", str(CHECKPOINT), "--checkpoint", str(ZH_CHECKPOINT)]
    assert benchmark(["--study", *both]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("| direction |") and sum(line.startswith("| direction |") for line in lines) == 1
    rows = [line.split("|") for line in lines[2:]]
    assert [(row[1].strip(), row[2].strip()) for row in rows] == [
        (direction, kind) for direction in ("en→zh", "zh→en") for kind in patching_study.KINDS]
    assert all(row[3].strip() == "2 / 1" for row in rows)
    assert all(float(row[4]) >= 0 and float(row[5]) > 0 for row in rows)
