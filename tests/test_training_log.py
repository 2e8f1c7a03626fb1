"""The training log's one reader (model/loading/training_log.py): typed fields from the log as written, and its two
rules, checked on made-up logs (selection_bleu: which weights win; honest_score: the score a page quotes)."""

from __future__ import annotations

import ast
import json

import pytest

from model.loading.checkpoint import read_training_log
from model.loading.training_log import (TRAINING_LOG, Average, Evaluation, Scores, TrainingLog, selection_bleu,
                                        usable_calibration, write_training_log)
from tests.support.paths import CHECKPOINT, ROOT, ZH_CHECKPOINT

BEST = {"step": 700, "epoch": 4, "loss": 3.2, "bleu": 30.0, "chrf": 28.0, "dedup_bleu": 24.0, "dedup_chrf": 22.0,
        "bleu_signature": "nrefs:1|tok:zh", "chrf_signature": "nrefs:1|nc:6"}
AVERAGE = {"epochs": [3, 4], "bleu": 31.0, "chrf": 29.0, "dedup_bleu": 25.0, "dedup_chrf": 23.0}
FINAL = {"beam": 4, "bleu": 33.0, "chrf": 31.0, "dedup_bleu": 27.0, "dedup_chrf": 25.0}
TEST = {"beam": 4, "pairs": 606, "unseen_pairs": 392, "untouched": True, "bleu": 36.0, "chrf": 33.0,
        "dedup_bleu": 29.5, "dedup_chrf": 27.0}


def made_up(**entries) -> TrainingLog:
    """A log with 1,221 dev pairs, 788 of them unlike training, and `entries`."""
    return TrainingLog.from_dict({"args": {"out": "checkpoints/x"}, "dev_pairs": 1221, "dedup_dev_pairs": 788,
                                  **entries})


def test_selection_bleu_is_the_bleu_on_pairs_unlike_training_else_on_all():
    assert selection_bleu({"bleu": 30.0, "dedup_bleu": 24.0}) == 24.0
    assert selection_bleu({"bleu": 30.0, "dedup_bleu": None}) == 30.0  # no dev pair was unlike training
    assert selection_bleu({"bleu": 30.0}) == 30.0
    assert Evaluation.from_dict(BEST).selection_bleu == 24.0 and Average.from_dict(AVERAGE).selection_bleu == 25.0


def test_the_test_halfs_unseen_score_is_the_most_honest():
    score = made_up(best=BEST, average=AVERAGE, shipped="average of the weights of epochs 3–4", final=FINAL,
                    test=TEST).honest_score
    assert (score.bleu, score.set, score.pairs, score.beam) == (29.5, "test", 392, 4)
    touched = made_up(best=BEST, final=FINAL, test={**TEST, "untouched": False}).honest_score
    assert (touched.bleu, touched.set) == (29.5, "test_seen")  # the weights were chosen on all of dev


def test_without_a_test_half_the_beam_search_on_unseen_dev_pairs():
    score = made_up(best=BEST, final=FINAL).honest_score
    assert (score.bleu, score.set, score.pairs, score.beam) == (27.0, "unseen", 788, 4)
    assert made_up(best=BEST, final=FINAL, test={**TEST, "dedup_bleu": None}).honest_score.bleu == 27.0


def test_without_a_beam_search_the_shipped_weights_greedy_score():
    averaged = made_up(best=BEST, average=AVERAGE, shipped="average of the weights of epochs 3–4").honest_score
    assert (averaged.bleu, averaged.set, averaged.beam) == (25.0, "unseen", None)
    best = made_up(best=BEST, average=AVERAGE, shipped="best evaluation (step 700)").honest_score
    assert (best.bleu, best.beam) == (24.0, None)  # the average was scored but did not ship


def test_all_of_dev_when_no_pair_is_unlike_training_and_none_without_a_score():
    score = made_up(best={**BEST, "dedup_bleu": None}, dedup_dev_pairs=0).honest_score
    assert (score.bleu, score.set, score.pairs) == (30.0, "dev", None)
    assert made_up(best={**BEST}, dedup_dev_pairs=0).honest_score.set == "dev"  # no pair to name
    assert made_up().honest_score is None
    assert made_up(best={"step": 9, "bleu": None}).honest_score is None  # trained without dev pairs


def test_an_empty_or_partial_log_reads_with_nothing_measured():
    empty = TrainingLog.from_dict(None)
    assert empty.args is None and empty.best is None and empty.train == () and empty.steps_done == 0
    assert empty.mixed_precision == "fp32" and empty.selection_pairs is None
    old = TrainingLog.from_dict({"args": {"warmup": 1500}, "train": [{"step": 50, "epoch": 1, "loss": 6.1, "lr": 1e-4}],
                                 "a_key_no_tool_writes": 1})
    assert old.args.warmup == 1500 and old.args.token_dropout == 0.0 and old.args.attention_dropout is None
    assert old.args.given == {"warmup": 1500} and old.steps_done == 50  # steps absent: the last logged batch's


def test_the_selection_half_is_all_dev_when_training_never_read_the_test_half():
    assert made_up(test=TEST).selection_pairs == 1221 - 606
    split = TrainingLog.from_dict({"args": {"test_split": True}, "dev_pairs": 615, "test": TEST})
    assert split.selection_pairs == 615


def test_a_sweeps_settings_are_equal_whatever_was_measured_with_them():
    sweep = made_up(decoding_sweep={"chosen": {"beam": 4, "alpha": 1.2}, "default": {"beam": 4, "alpha": 0.6},
                                    "best": {"beam": 4, "alpha": 1.2},
                                    "test": {"chosen": {"beam": 4, "alpha": 1.2, "bleu": 40.3}}}).decoding_sweep
    assert sweep.chosen == sweep.best != sweep.default and sweep.test["chosen"] == sweep.chosen
    assert sweep.test["chosen"].bleu == 40.3


@pytest.mark.parametrize("folder", [CHECKPOINT, ZH_CHECKPOINT], ids=["en-zh", "zh-en"])
def test_the_shipped_logs_read_whole(folder):
    written = read_training_log(folder)
    log = TrainingLog.read(folder)
    assert log.args.given == written["args"] and len(log.train) == len(written["train"])
    assert log.best == Evaluation.from_dict(written["best"]) and log.best.bleu_signature
    assert [row.run for row in log.study] == [row["run"] for row in written["study"]]
    assert log.shipped_average == written["shipped"].startswith("average")
    assert log.honest_score.bleu == written["test"]["dedup_bleu"]
    ig = written["agreement"]["integrated_gradients"]
    assert log.agreement.integrated_gradients.rho == tuple(map(tuple, ig["rho"]))
    calibration = written["calibration"]
    assert (log.calibration.token.threshold, log.calibration.sentence.below.translations) == (
        calibration["token"]["threshold"], calibration["sentence"]["below"]["translations"])
    assert (log.lengths.source_tokens, log.ffn_units.used) == (written["lengths"]["source_tokens"],
                                                             tuple(written["ffn_units"]["used"]))
    heads, alignment, roles = written["heads"], written["alignment"], written["head_roles"]
    assert [(s.kind, s.layer, s.head, s.bleu_drop, s.low, s.high, s.nll_rise) for s in log.heads.single] == [
        (s["kind"], s["layer"], s["head"], s["bleu_drop"], s["low"], s["high"], s["nll_rise"]) for s in heads["single"]]
    assert {kind: [(p.removed, p.bleu, p.bleu_drop, p.head) for p in curve] for kind, curve in log.heads.pruning.items()
            } == {kind: [(p["removed"], p["bleu"], p.get("bleu_drop"), tuple(p["head"]) if "head" in p else None)
                         for p in curve] for kind, curve in heads["pruning"].items()}
    assert (log.heads.test_pairs, log.heads.test_bleu, len(log.heads.largest_on_test or ())) == (
        heads["test_pairs"], heads["test_bleu"], len(heads.get("largest_on_test", ())))
    assert log.alignment.heads_plain == tuple(map(tuple, alignment["heads_plain"]))
    assert log.alignment.layers_shifted == tuple(alignment["layers_shifted"])
    assert (log.alignment.source_language, log.alignment.chosen.aer, log.alignment.baseline.method) == (
        alignment["source_language"], alignment["chosen"]["aer"], alignment["baseline"]["method"])
    assert [(p.reading, p.layer, p.head) for p in log.alignment.chosen.picked] == [
        (p["reading"], p["layer"], p["head"]) for p in alignment["chosen"]["picked"]]
    assert {name: (d.mean, d.low, d.high) for name, d in log.alignment.differences.items()} == {
        name: (d["difference"], d["low"], d["high"]) for name, d in alignment["differences"].items()}
    assert log.alignment.completeness.at_cap == alignment["completeness"]["at_cap"]
    assert log.head_roles.pairs == roles["pairs"] and all(
        log.head_roles.of(kind)[role] == tuple(map(tuple, roles[kind][role])) for kind in ("encoder_self",
                                                                                          "decoder_self", "cross")
        for role in roles[kind])


def test_the_reader_reads_what_the_writer_wrote_and_nothing_when_absent_or_broken(tmp_path):
    assert TrainingLog.read(tmp_path) is None
    (tmp_path / TRAINING_LOG).write_text("[1, 2]", encoding="utf-8")
    assert TrainingLog.read(tmp_path) is None  # JSON, but not a log
    write_training_log(tmp_path, {"best": BEST, "steps": 700})
    assert json.loads((tmp_path / TRAINING_LOG).read_text(encoding="utf-8"))["steps"] == 700
    assert TrainingLog.read(tmp_path).best == Evaluation.from_dict(BEST)
    assert Scores.from_dict(BEST).bleu_signature == "nrefs:1|tok:zh"


GRID = {"mean": [[0.5, 0.0]], "low": [[0.4, -0.1]], "high": [[0.6, 0.1]]}
HEAD = {"kind": "cross", "layer": 0, "head": 0, "mean": 0.5, "low": 0.4, "high": 0.6}
PAIR = {"clean": "He is tired.", "corrupt": "She is tired.", "kept": True, "step": 1, "target": "他", "foil": "她",
        "clean_diff": 3.1, "corrupted_diff": -2.0, "heads": {"cross": [[0.6, 0.0]]}}
DROPPED = {"clean": "I like cats.", "corrupt": "I like dogs.", "kept": False, "reason": "writes 猫 / 狗"}


def study(kind: str, **changes) -> dict:
    return {"kind": kind, "name": f"{kind} swapped", "couples": [["他", "她"]], "tried": 2, "kept": 1,
            "pairs": [PAIR, DROPPED], "heads": {"cross": GRID}, "threshold": 0.1, "consistent": [HEAD],
            "resamples": 1000, "seed": 12345, **changes}


def test_the_patching_study_reads_each_kind_of_pair_typed():
    studies = made_up(patching_study={"pronoun": study("pronoun"),
                                      "adjective": study("adjective", couples=[["累", "饿"], ["热", "冷"]],
                                                         consistent=[])}).patching_study
    assert list(studies) == ["pronoun", "adjective"]
    pronoun, adjective = studies["pronoun"], studies["adjective"]
    assert (pronoun.kind, pronoun.name, pronoun.tried, pronoun.kept, pronoun.threshold) == (
        "pronoun", "pronoun swapped", 2, 1, 0.1)
    assert pronoun.heads["cross"].mean == ((0.5, 0.0),) and pronoun.heads["cross"].low[0][1] == -0.1
    assert (pronoun.consistent[0].kind, pronoun.consistent[0].layer, pronoun.consistent[0].high) == ("cross", 0, 0.6)
    kept, dropped = pronoun.pairs
    assert kept.kept and kept.heads["cross"] == ((0.6, 0.0),) and kept.clean_diff == 3.1
    assert not dropped.kept and dropped.reason == "writes 猫 / 狗" and dropped.heads == {}
    assert adjective.couples == (("累", "饿"), ("热", "冷")) and adjective.consistent == ()
    assert made_up().patching_study == {} and made_up(patching_study=None).patching_study == {}


def test_a_log_holding_one_study_alone_reads_as_that_kind():
    alone = {k: v for k, v in study("pronoun He → She").items() if k not in ("name", "couples")}
    studies = made_up(patching_study={**alone, "target": "▁He", "foil": "▁She"}).patching_study
    assert list(studies) == ["pronoun"]
    assert (studies["pronoun"].name, studies["pronoun"].couples) == ("pronoun He → She", (("▁He", "▁She"),))
    assert studies["pronoun"].heads["cross"].high == ((0.6, 0.1),)


@pytest.mark.parametrize("folder", [CHECKPOINT, ZH_CHECKPOINT], ids=["en-zh", "zh-en"])
def test_the_shipped_patching_studies_read_whole(folder):
    written = read_training_log(folder).get("patching_study")
    if not written:
        pytest.skip(f"python -m evaluation.patching_study --checkpoint {folder}")
    studies = TrainingLog.read(folder).patching_study
    assert studies and all(s.kept == sum(p.kept for p in s.pairs) and s.tried == len(s.pairs)
                           for s in studies.values())
    assert all(len(s.heads["cross"].mean) == len(s.heads["cross"].high) > 0 for s in studies.values() if s.kept)


# The log's keys whose every read goes through TrainingLog: no module outside the reader reads one from the log as
# written (log["key"], log.get("key"), or through a name bound to the key); a key's writer, which reads back what it
# stored to keep what it does not rewrite, is named beside it. Left out: keys that other data also uses, which this
# check, reading the source alone, cannot tell from the log's ("heads" of a poll's question and of a patching pair,
# "steps" of a back-translation log, "probes" and "train" of a snapshot and of the trainer's arguments, "best" of the
# explanation page's opening figures). Keys inside the heads and alignment entries that no other data uses are
# watched too ("single", "chosen", "heads_plain" are left out: a poll, a beam and the alignment's per-pair links use
# them).
TRAINER = "model/training/train.py"
TYPED_KEYS = {"patching_study": {"evaluation/patching_study.py"}, "names_effect": set(), "decoding_sweep": set(),
              "study_findings": set(), "study_findings_zh": set(), "reliability": set(), "calibration": set(),
              "study": {"evaluation/study.py"}, "agreement": set(), "alignment": set(), "head_roles": set(),
              "lengths": set(), "ffn_units": set(), "args": set(), "argv": set(), "hardware": set(),
              "mixed_precision": set(), "train_pairs": set(), "dev_pairs": set(), "dedup_dev_pairs": set(),
              "train_minutes": set(), "average": set(), "final": set(), "test": set(), "everyday": set(),
              "dev": {TRAINER}, "epochs": {TRAINER}, "parameters": {TRAINER}, "shipped": {TRAINER},
              "largest_on_test": set(), "pruning": set(), "test_bleu": set(), "nll_rise": set(), "gold_pairs": set(),
              "heads_shifted": set(), "layers_plain": set(), "layers_shifted": set(), "picked": set(),
              "differences": set(), "completeness": set(), "snapshots": {TRAINER}}
APP_CODE = ("app.py", "app_pages", "cards", "evaluation", "lessons", "model", "viz", "benchmarks")


def key_reads(path) -> list[tuple[str, int]]:
    """(key, line) of every read of a TYPED_KEYS key in the file: a subscript or .get() with the key as a string,
    or with a name assigned that string."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound = {target.id: node.value.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
             and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
             for target in node.targets if isinstance(target, ast.Name)}

    def key(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        return bound.get(node.id) if isinstance(node, ast.Name) else None

    reads = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            reads.append((key(node.slice), node.lineno))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args):
            reads.append((key(node.args[0]), node.lineno))
    return [(k, line) for k, line in reads if k in TYPED_KEYS]


def test_no_module_reads_a_typed_key_from_the_log_as_written():
    files = [ROOT / "app.py"] + [f for package in APP_CODE[1:] for f in sorted((ROOT / package).rglob("*.py"))]
    found = [f"{f.relative_to(ROOT).as_posix()}:{line} reads {k!r}" for f in files
             if f.relative_to(ROOT).as_posix() != "model/loading/training_log.py"
             for k, line in key_reads(f) if f.relative_to(ROOT).as_posix() not in TYPED_KEYS[k]]
    assert not found, "read it through TrainingLog (model/loading/training_log.py):\n" + "\n".join(found)


def test_the_check_finds_a_read_by_the_key_and_by_a_name_bound_to_it(tmp_path):
    page = tmp_path / "page.py"
    page.write_text('KEY = "patching_study"\n\ndef f(log):\n    return log.get(KEY), log["names_effect"]\n',
                    encoding="utf-8")
    assert key_reads(page) == [("patching_study", 4), ("names_effect", 4)]


def test_each_writer_named_reads_its_key_back():
    """A writer named in TYPED_KEYS that no longer reads its key is taken out, not kept as a standing permission."""
    assert all(key in {k for k, _ in key_reads(ROOT / writer)} for key, writers in TYPED_KEYS.items()
               for writer in writers)


def test_a_calibration_is_read_only_where_serving_can_mark_by_it():
    token, sentence = {"threshold": 0.32, "below": {"tokens": 9, "right": 0.3}}, {"threshold": 0.83}
    found = usable_calibration({"calibration": {"beam": 4, "token": token, "sentence": sentence}})
    assert (found.beam, found.token.threshold, found.token.below.tokens, found.sentence.threshold) == (4, 0.32, 9, 0.83)
    for broken in ({"threshold": 1.0}, {"threshold": 0}, {"threshold": "x"}, {}, None):
        assert usable_calibration({"calibration": {"token": broken, "sentence": sentence}}) is None, broken
    assert usable_calibration(None) is None and usable_calibration({}) is None
    assert made_up(calibration={"token": {"threshold": 2}}).calibration.usable is False


def test_the_agreement_reads_each_methods_grids_typed():
    ig = {"rho": [[0.1, 0.3], [0.2, 0.4]], "top1": [[0.5, 0.6], [0.7, 0.8]], "layer_mean": [[0.25, 0.5], [0.3, 0.6]],
          "rollout": [0.45, 0.58]}
    found = made_up(agreement={"sentences": 200, "beam": 1, "source_language": "en", "integrated_gradients": ig,
                               "input_x_gradient": {**ig, "rollout": [0.35, 0.34]}}).agreement
    assert (found.sentences, found.beam, found.source_language) == (200, 1, "en")
    assert found.integrated_gradients.rho == ((0.1, 0.3), (0.2, 0.4)) and found.integrated_gradients.top1[1][0] == 0.7
    assert found.integrated_gradients.layer_mean[-1] == (0.3, 0.6) and found.input_x_gradient.rollout == (0.35, 0.34)
    assert made_up().agreement is None


def test_the_trained_lengths_and_the_ffn_units_in_use_read_typed():
    found = made_up(lengths={"pairs": 26777, "source_tokens": 45, "target_tokens": 44},
                    ffn_units={"sentences": 1221, "d_ff": 1024, "used": [1021, 1015, 956]})
    assert (found.lengths.pairs, found.lengths.source_tokens, found.lengths.target_tokens) == (26777, 45, 44)
    assert (found.ffn_units.sentences, found.ffn_units.d_ff, found.ffn_units.used) == (1221, 1024, (1021, 1015, 956))
    assert made_up().lengths is None and made_up().ffn_units is None


SINGLE = [{"kind": "cross", "layer": 0, "head": 1, "bleu_drop": 1.5, "low": 0.5, "high": 2.5, "nll_rise": 0.01}]
PRUNING = {"cross": [{"removed": 0, "bleu": 30.0},
                     {"removed": 1, "bleu": 29.0, "head": ["cross", 0, 1], "bleu_drop": 1.0, "low": 0.2, "high": 1.8}]}


def test_the_heads_knocked_out_and_the_pruning_curves_read_typed():
    heads = made_up(heads={"pairs": 615, "beam": 1, "bleu": 34.86, "nll": 1.67, "resamples": 1000, "single": SINGLE,
                           "test_pairs": 606, "test_bleu": 38.92, "pruning": PRUNING}).heads
    assert (heads.pairs, heads.bleu, heads.resamples, heads.test_pairs, heads.test_bleu) == (615, 34.86, 1000, 606,
                                                                                             38.92)
    (single,) = heads.single
    assert (single.kind, single.layer, single.head, single.bleu_drop, single.low, single.high, single.nll_rise) == (
        "cross", 0, 1, 1.5, 0.5, 2.5, 0.01)
    start, first = heads.pruning["cross"]
    assert (start.removed, start.bleu, start.bleu_drop, start.low, start.head) == (0, 30.0, None, None, None)
    assert (first.removed, first.bleu, first.bleu_drop, first.high, first.head) == (1, 29.0, 1.0, 1.8, ("cross", 0, 1))
    assert heads.largest_on_test is None  # not measured yet: not the same as measured and empty
    tested = made_up(heads={"single": SINGLE, "largest_on_test": [{k: v for k, v in SINGLE[0].items()
                                                                   if k != "nll_rise"}]}).heads
    assert tested.largest_on_test[0].bleu_drop == 1.5 and tested.largest_on_test[0].nll_rise is None
    assert made_up(heads={"single": SINGLE, "largest_on_test": []}).heads.largest_on_test == ()
    assert made_up().heads is None


ALIGNMENT = {"pairs": 150, "gold_pairs": 150, "teacher_forced": True, "source_language": "zh",
             "heads_plain": [[0.8, 0.7]], "layers_plain": [0.75], "heads_shifted": [[0.6, 0.9]],
             "layers_shifted": [0.7], "resamples": 1000,
             "chosen": {"aer": 0.6, "low": 0.55, "high": 0.65,
                        "picked": [{"scored_on": "even pairs", "reading": "shifted", "layer": 0, "head": 0}]},
             "integrated_gradients": {"method": "integrated_gradients", "aer": 0.4, "low": 0.38, "high": 0.42},
             "attribution": {"method": "input_x_gradient", "aer": 0.7, "low": 0.68, "high": 0.72},
             "baseline": {"method": "ibm_model_1", "iterations": 5, "aer": 0.3, "low": 0.28, "high": 0.32},
             "differences": {"chosen - baseline": {"difference": 0.3, "low": 0.27, "high": 0.33}},
             "completeness": {"pairs": 150, "bound": 0.05, "most": 97, "above": 11, "worst": 0.09, "at_cap": 23}}


def test_the_alignment_figures_read_typed_and_an_older_log_without_the_intervals_too():
    found = made_up(alignment=ALIGNMENT).alignment
    assert (found.pairs, found.gold_pairs, found.source_language, found.resamples) == (150, 150, "zh", 1000)
    assert found.heads_plain == ((0.8, 0.7),) and found.layers_shifted == (0.7,)
    assert (found.chosen.aer, found.chosen.low, found.chosen.method) == (0.6, 0.55, "")
    assert [(p.scored_on, p.reading, p.layer, p.head) for p in found.chosen.picked] == [("even pairs", "shifted", 0, 0)]
    assert (found.integrated_gradients.method, found.attribution.aer, found.baseline.iterations) == (
        "integrated_gradients", 0.7, 5)
    assert (found.differences["chosen - baseline"].mean, found.differences["chosen - baseline"].high) == (0.3, 0.33)
    assert (found.completeness.above, found.completeness.worst, found.completeness.at_cap) == (11, 0.09, 23)
    older = made_up(alignment={"pairs": 150, "heads_plain": [[0.8]], "layers_plain": [0.8], "heads_shifted": [[0.7]],
                               "layers_shifted": [0.7], "attribution": {"aer": 0.7}}).alignment
    assert older.source_language == "en" and older.chosen is None and older.integrated_gradients is None
    assert (older.attribution.aer, older.attribution.low) == (0.7, None)
    assert older.differences == {} and older.completeness is None
    assert made_up().alignment is None


def test_the_head_roles_read_typed_per_kind():
    grid = {"previous": [[0.0, 0.9]], "next": [[0.0, 0.0]], "sink": [[0.6, 0.1]], "rare": [[0.1, 0.0]]}
    roles = made_up(head_roles={"pairs": 150, "source": "gold pairs, teacher-forced", "encoder_self": grid,
                                "decoder_self": grid, "cross": {**grid, "sink": [[0.2, 0.3]]}}).head_roles
    assert (roles.pairs, roles.source) == (150, "gold pairs, teacher-forced")
    assert roles.of("encoder_self")["previous"] == ((0.0, 0.9),) and roles.cross["sink"] == ((0.2, 0.3),)
    assert roles.of("decoder_self") is roles.decoder_self and made_up().head_roles is None


def test_the_snapshots_index_reads_typed_and_its_maps_come_from_the_file():
    log = TrainingLog.from_dict({"snapshots": [{"step": 5, "epoch": 1, "probes": [
        {"source_tokens": ["▁a", "</s>"], "target_tokens": ["<s>", "甲"], "translation": "甲"}]}]})
    (snapshot,) = log.snapshots
    (probe,) = snapshot.probes
    assert (snapshot.step, snapshot.epoch, probe.source_tokens, probe.translation) == (5, 1, ("▁a", "</s>"), "甲")
    assert probe.maps == {}  # the log holds the index; model.read_snapshots adds the maps
    with pytest.raises(KeyError):
        probe.attention("cross")
    assert TrainingLog.from_dict({}).snapshots == ()
