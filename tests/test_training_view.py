""""How it was trained"'s view, computed without Streamlit (app_pages/pages/training_view.py): every tab's words and
numbers, read from the model's own training log and checked against sacrebleu and the lessons' arithmetic, in
English and 中文. What needs the page (its tabs drawn, the dev file found and batched, its widgets): tests/
test_app_training.py; layout: tests/test_training_browser.py."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF

from app_pages.components.parts import Chart, Formula, Notice, Table, every, texts
from app_pages.pages import training_view
from app_pages.pages.training_view import Classroom, NoTrainingArgs, Run
from app_pages.shell.text import in_language, md_escape
from i18n import strings
from lessons import training as lt
from model import DEFAULT_BEAM, DEFAULT_CHECKPOINT, TrainingLog
from model.training.data import read_pairs
from model.training.schedule import ADAM_BETAS, ADAM_EPS, peak_learning_rate
from tests.support.backtranslation import BACKTRANSLATION
from tests.support.paths import ROOT, ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(
    not (DEFAULT_CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {DEFAULT_CHECKPOINT}"
)
REFERENCE = "我有一个梦。"  # not the model's wording: some orders match, some do not
SENTENCES = {"en-zh": "I have a dream.", "zh-en": "我有一个梦想。"}
LANGS = ["en", "zh"]
needs_zh = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                              reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")


def raw_log(model: str = "en-zh") -> dict:
    return json.loads((ROOT / "checkpoints" / model / "training_log.json").read_text(encoding="utf-8"))


def run_of(translator) -> Run:
    return Run(translator.config, TrainingLog.from_dict(translator.training_log))


def shows(text: str, number: str) -> bool:
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d])", text) is not None


def tables(parts) -> str:
    return "\n".join((p.data.to_string() if hasattr(p.data, "to_string") else str(p.data))
                     for p in every(parts) if isinstance(p, Table))


@pytest.fixture(scope="module")
def result(translator):
    return translator.translate(SENTENCES["en-zh"], beam=DEFAULT_BEAM)


@pytest.fixture(scope="module")
def classroom(translator) -> Classroom:
    """The classroom pairs and the model's translations at the default beam, as the page asks for them."""
    pairs = tuple(read_pairs(ROOT / "evaluation" / "classroom.tsv"))
    return Classroom(pairs, tuple(translator.translations([en for en, _ in pairs], DEFAULT_BEAM)), DEFAULT_BEAM)


def every_section(translator, result, classroom, lang: str, reference: str = "") -> dict[str, tuple]:
    """Each tab's parts (the BLEU tabs' before, then after), the batch tab on made-up padding."""
    run = run_of(translator)
    padding = lt.padding([[(5, 6), (5, 7)], [(9, 9)]])
    with in_language(lang):
        bleu = training_view.bleu_section(run, result, reference)
        limits = training_view.bleu_limits_section(run, classroom)
        return {"heading": (training_view.heading(run, "en-zh").intro,),
                "adam": training_view.adam_section(run), "lr": training_view.learning_rate_section(run),
                "dropout": training_view.dropout_section(run, result), "ls": training_view.label_smoothing_section(run),
                "batch": training_view.batching_section(run, training_view.Batching(3, True, padding, padding)),
                "bleu": bleu.before + bleu.after, "bleuzh": limits.before + limits.after,
                "calib": training_view.calibration_section(run)}


def all_text(sections: dict[str, tuple]) -> str:
    """The introduction, then every tab's words and table cells."""
    return "\n".join([sections["heading"][0], *(texts(parts) + "\n" + tables(parts) for name, parts in sections.items()
                                               if name != "heading")])


@pytest.mark.parametrize("lang", LANGS)
def test_every_tab_speaks_the_sessions_language_and_draws_five_charts(translator, result, classroom, lang):
    sections = every_section(translator, result, classroom, lang)
    charts = [p.key for parts in list(sections.values())[1:] for p in every(parts) if isinstance(p, Chart)]
    assert charts == ["training.toy", "training.lr", "training.ls", "training.batch", "training.calib"]
    text = all_text(sections)
    for data in [zh for _, zh in classroom.pairs] + list(classroom.outputs):  # Chinese data, not prose
        text = text.replace(data, "")
    text = text.replace(result.translation, "")
    assert (re.search(r"[\u4e00-\u9fff]{4}", text) is not None) == (lang == "zh")


def test_numbers_on_the_page_are_the_logs(translator, result, classroom):
    text = all_text(every_section(translator, result, classroom, "en"))
    log = raw_log()
    args = log["args"]
    for number in (f"{log['train_pairs']:,}", f"{log['steps']:,}", f"{args['warmup']:,}", f"{args['max_tokens']:,}",
                   f"{log['parameters']:,}", str(log["best"]["bleu"]), str(log["average"]["bleu"]),
                   str(log["final"]["bleu"]), f"{peak_learning_rate(translator.config.d_model, args['warmup']):.2e}"):
        assert shows(text, number), number
    assert f"ε = {args['label_smoothing']:g}" in text or f"ε = {args['label_smoothing']:.2f}" in text
    rates = re.findall(r"^- \*\*([\d.]+)\*\* · ", text, flags=re.M)  # one line per place dropout acts
    assert rates == [f"{args['dropout']:.2f}"] * 4  # attention and activation were not given: "same as --dropout"
    eps = f"{ADAM_EPS:g}".replace("e-0", "e-")  # 1e-9
    assert f"β₁ = {ADAM_BETAS[0]:g}, β₂ = {ADAM_BETAS[1]:g}, ε = {eps}" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_back_translated_models_pairs_are_said_real_and_synthetic(translator, lang):
    log = TrainingLog.from_dict({**translator.training_log, "train_pairs": 70870,
                                 "backtranslation": BACKTRANSLATION})
    with in_language(lang):
        intro = training_view.heading(Run(translator.config, log), "en-zh").intro
        plain = training_view.heading(run_of(translator), "en-zh").intro
    assert "70,870" in intro and "17,316" in intro and "26,777" in intro and "zh-en" in intro and "◆" in intro
    assert "17,316" not in plain and "◆" not in plain
    assert (" Of those pairs" in intro) if lang == "en" else ("。其中" in intro)  # one paragraph, as each writes it


def test_a_log_without_training_arguments_is_said_so(translator):
    with pytest.raises(NoTrainingArgs) as missing, in_language("en"):
        training_view.heading(Run(translator.config, TrainingLog.from_dict({"train": []})), "somewhere/model")
    with in_language("en"):
        assert md_escape("somewhere/model") in missing.value.message()


def test_padding_is_said_as_measured_and_the_missing_dev_file_warned(translator):
    run = run_of(translator)
    bucketed = lt.padding([[(5, 6), (5, 7)], [(9, 9)]])
    shuffled = lt.padding([[(5, 6), (9, 9)], [(5, 7)]])
    with in_language("en"):
        dev = training_view.batching_section(run, training_view.Batching(1221, True, bucketed, shuffled))
        missing = training_view.batching_section(run, training_view.Batching(12, False, bucketed, shuffled))
    text = texts(dev)
    assert "1,221 dev pairs" in text and f"{bucketed.batches} batches" in text and f"{bucketed.fraction:.1%}" in text
    assert f"{shuffled.fraction:.1%}" in text
    assert not [p for p in dev if isinstance(p, Notice)]
    (warning,) = [p for p in missing if isinstance(p, Notice)]
    assert warning.level == "warning" and "is not on this machine" in warning.text


def bleu_parts(run: Run, result, reference: str, lang: str = "en") -> tuple:
    with in_language(lang):
        return training_view.bleu_section(run, result, reference).after


@pytest.mark.parametrize("lang", LANGS)
def test_bleu_of_a_typed_reference_is_sacrebleus_and_recomputed_alike(translator, result, lang):
    parts = bleu_parts(run_of(translator), result, REFERENCE, lang)
    hypothesis = result.translation
    log = raw_log()
    expected = BLEU(tokenize="zh").corpus_score([hypothesis], [[REFERENCE]]).score
    assert lt.metric_from_signature(log["best"]["bleu_signature"]).corpus_score([hypothesis],
                                                                                [[REFERENCE]]).score == expected
    checks = [p.text for p in parts if isinstance(p, Notice) and p.level == "success"]
    assert len(checks) == 1 and checks[0].count(f"{expected:.4f}") == 2, "the recomputation and sacrebleu, both shown"
    assert f"= {expected:.2f}" in "\n".join(p.text for p in parts if isinstance(p, Formula))
    (precisions,) = [p.data for p in parts if isinstance(p, Table) and "n" in p.data]
    assert list(precisions["n"]) == [1, 2, 3, 4]


def test_empty_reference_shows_a_hint_and_no_score(translator, result):
    parts = bleu_parts(run_of(translator), result, "  ")
    assert not [p for p in parts if isinstance(p, Notice) and p.level == "success"]
    assert any("Type a reference translation" in p.text for p in parts if isinstance(p, Notice))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("model, reference", [("en-zh", "我有一個  夢。"), ("zh-en", "I have  a dream.")])
def test_bleu_names_the_cleaning_of_the_references_language_and_counts_the_models_4_grams(
        request, model, reference, lang):
    """An English reference is cleaned, not "converted to Simplified"; the 4-grams whose count says how noisy one
    sentence's BLEU is are the model's translation's (the hypothesis), in either direction."""
    if model == "zh-en" and not (ZH_CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")
    translator = request.getfixturevalue("translator" if model == "en-zh" else "zh_translator")
    result = translator.translate(SENTENCES[model], beam=DEFAULT_BEAM)
    parts = bleu_parts(run_of(translator), result, reference, lang)
    normalised = next(p.text for p in parts if type(p).__name__ == "Plain")
    assert normalised == " ".join(reference.split()).replace("一個", "一个").replace("夢", "梦")
    captions = texts([p for p in parts if type(p).__name__ == "Caption"])
    assert ("Simplified" in captions or "简体" in captions) == (model == "en-zh")
    metric = lt.metric_from_signature(raw_log(model)["best"]["bleu_signature"])
    fours = max(len(metric.tokenizer(result.translation).split()) - 3, 0)
    text = texts(parts)
    if lang == "en":
        assert f"the model's translation has {fours} 4-gram" in text and "your translation has" not in text
    else:
        assert f"模型的译文只有 {fours} 个 4 元语法" in text and "你的译文" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_adams_first_step_moves_each_weight_against_its_gradient(translator, lang):
    first = lt.adam_steps(lt.TOY_START, lt.TOY_ADAM_LR, 1, ADAM_BETAS, ADAM_EPS)[0]
    np.testing.assert_allclose(first.params - lt.TOY_START, first.change)
    assert (np.sign(first.change) == -np.sign(first.grad)).all()
    with in_language(lang):
        text = texts(training_view.adam_section(run_of(translator)))
    for i, change in enumerate(first.change, 1):
        sign = "+" if change > 0 else "−"
        assert f"Δw{'₁₂'[i - 1]} = {sign}{abs(change):g}" in text, (i, change)


def last_complete_epoch(log: dict) -> tuple[int, float, int]:
    """(epoch, mean logged batch loss, batches) of the run's last complete epoch, recomputed from the log: a run
    that stopped before the epochs it was given was stopped by its clock, inside its last epoch."""
    by_epoch: dict[int, list[float]] = {}
    for entry in log["train"]:
        by_epoch.setdefault(entry["epoch"], []).append(entry["loss"])
    epoch = max(by_epoch) - (log["epochs"] < log["args"]["epochs"])
    return epoch, sum(by_epoch[epoch]) / len(by_epoch[epoch]), len(by_epoch[epoch])


@pytest.mark.parametrize("lang, words", [("en", ("Dropout is on", "eval mode", "one batch's")),
                                         ("zh", ("dropout 是打开的", "eval 模式", "一个批次"))])
@pytest.mark.parametrize("model", ["en-zh", "zh-en"])
def test_dev_loss_is_set_against_the_last_complete_epochs_mean_training_loss(request, model, lang, words):
    """Like with like: the dev loss at the end against the mean of the last complete epoch's logged batch losses,
    and "below" said only where it is (zh-en's dev loss is above its luckiest batch, the lowest logged loss)."""
    if model == "zh-en" and not (ZH_CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")
    translator = request.getfixturevalue("translator" if model == "en-zh" else "zh_translator")
    log = raw_log(model)
    epoch, mean, batches = last_complete_epoch(log)
    dev = log["dev"][-1]["loss"]
    with in_language(lang):
        text = texts(training_view.label_smoothing_section(run_of(translator)))
    assert all(word in text for word in words)
    assert shows(text, f"{dev:.3f}") and shows(text, f"{mean:.3f}") and shows(text, str(epoch))
    below = "Why the dev loss" in text if lang == "en" else "为什么开发集损失" in text
    assert below == (dev < mean)
    if lang == "en":
        assert f"the mean of the {batches} batch losses logged in epoch {epoch}, the last complete one" in text
    assert "。 " not in text


def test_a_dev_loss_above_the_training_loss_is_not_called_below(monkeypatch, translator):
    above = raw_log()["dev"][-1]["loss"] - 0.5  # a training mean under the dev loss
    monkeypatch.setattr(lt, "last_full_epoch_loss", lambda log: lt.EpochLoss(7, above, 3))
    with in_language("en"):
        text = texts(training_view.label_smoothing_section(run_of(translator)))
    assert "Why the dev loss" not in text and "are not measured alike" in text and shows(text, f"{above:.3f}")


def test_the_last_complete_epoch_leaves_out_one_the_clock_cut_short():
    train = [{"epoch": e, "loss": loss} for e, loss in ((1, 4.0), (1, 3.0), (2, 2.0), (2, 1.0), (3, 9.0))]
    cut = {"train": train, "epochs": 3, "args": {"epochs": 10}}  # stopped by --max-minutes inside epoch 3
    assert lt.last_full_epoch_loss(TrainingLog.from_dict(cut)) == lt.EpochLoss(2, 1.5, 2)
    done = {"train": train, "epochs": 3, "args": {"epochs": 3}}
    assert lt.last_full_epoch_loss(TrainingLog.from_dict(done)) == lt.EpochLoss(3, 9.0, 1)
    assert lt.last_full_epoch_loss(TrainingLog.from_dict({"train": []})) is None


@pytest.mark.parametrize("lang, words", [("en", "ours, not the paper's"), ("zh", "我们加的，不是论文的")])
def test_gradient_clipping_is_said_to_be_ours(translator, lang, words):
    with in_language(lang):
        text = texts(training_view.adam_section(run_of(translator)))
    assert words in text and f"{raw_log()['args']['max_tokens']:,}" in text


def char_bleu(out: str, ref: str) -> float:  # the log's signature: nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp
    return BLEU(tokenize="zh", smooth_method="exp").sentence_score(out, [ref]).score


def chrf(out: str, ref: str) -> float:
    return CHRF().sentence_score(out, [ref]).score


@pytest.mark.parametrize("lang", LANGS)
def test_bleu_limits_for_chinese_are_computed_on_the_classroom_sentences(translator, classroom, lang):
    pairs, outputs = classroom.pairs, classroom.outputs
    differing = [i for i, (out, (_, ref)) in enumerate(zip(outputs, pairs)) if out != ref]
    assert raw_log()["best"]["bleu_signature"].startswith("nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp")
    gap = {i: chrf(outputs[i], pairs[i][1]) - char_bleu(outputs[i], pairs[i][1]) for i in differing}
    full = [i for i in differing if len(outputs[i]) >= len(pairs[i][1])]  # not cut short: no brevity penalty
    widest = max(full, key=gap.get)
    with in_language(lang):
        shown = training_view.bleu_limits_section(run_of(translator), classroom)
    assert shown.choice.options[shown.choice.index] == widest and list(shown.choice.options) == differing
    text = texts(shown.before + shown.after)
    out, ref = outputs[widest], pairs[widest][1]
    words = BLEU(tokenize="13a", smooth_method="exp").sentence_score(out, [ref]).score
    for number in (char_bleu(out, ref), chrf(out, ref), words):
        assert f"**{number:.1f}**" in text, number
    assert gap[widest] > 0, "the example shown is one where chrF gives more credit than BLEU"
    assert " ".join(out) in text.replace("\\", ""), "the output cut into characters, as tok:zh cuts it"
    higher = sum(g > 0 for g in gap.values())
    summary = next(line for line in text.split("\n") if "chrF" in line and f"{len(differing)} " in line and "50" in line)
    assert shows(summary, str(higher)), summary
    assert ref in tables(shown.after) and out in tables(shown.after)


def test_bleu_limits_follow_the_sentence_picked(translator, classroom):
    pairs, outputs = classroom.pairs, classroom.outputs
    with in_language("en"):
        first = training_view.bleu_limits_section(run_of(translator), classroom)
        other = next(i for i in first.choice.options if i != first.choice.options[first.choice.index])
        shown = training_view.bleu_limits_section(run_of(translator), classroom, other)
    text = texts(shown.after)
    assert f"**{char_bleu(outputs[other], pairs[other][1]):.1f}**" in text
    assert f"**{chrf(outputs[other], pairs[other][1]):.1f}**" in text
    assert shown.choice.index == first.choice.index  # the picker's default stays the widest gap


def test_bleu_limits_without_the_classroom_sentences_say_so(translator):
    with in_language("en"):
        shown = training_view.bleu_limits_section(run_of(translator), None)
    assert shown.choice is None and [p.level for p in shown.before if isinstance(p, Notice)] == ["info"]


@pytest.mark.parametrize("lang", LANGS)
def test_calibration_shows_the_logs_reliability_curve_and_its_ece(translator, lang):
    log = raw_log()
    bins = [b for b in log["reliability"]["bins"] if b["positions"]]
    n = sum(b["positions"] for b in bins)
    assert n == log["reliability"]["positions"]
    ece = sum(b["positions"] / n * abs(b["right"] - b["confidence"]) for b in bins)
    over = sum(b["right"] < b["confidence"] for b in bins)
    with in_language(lang):
        parts = training_view.calibration_section(run_of(translator))
    text = texts(parts)
    assert f"**{ece:.3f}**" in text
    top = bins[-1]
    for number in (f"{top['confidence']:.1%}", f"{top['right']:.1%}", f"{top['positions'] / n:.0%}", str(over)):
        assert shows(text, number), number
    if lang == "en":
        assert ("still more sure than right" in text) == (2 * over > len(bins))
    eps = log["args"]["label_smoothing"]
    V = translator.config.tgt_vocab_size
    assert f"{1 - eps + eps / V:.4f}" in text and f"{1 - eps + eps / V:.1%}" in text  # the smoothed target's top
    (curve,) = [p.figure for p in parts if isinstance(p, Chart)]
    assert curve.data[0].line.dash == "dash"  # the diagonal, then the model's curve
    assert np.allclose(curve.data[1].x, [b["confidence"] for b in bins], atol=1e-6)
    assert np.allclose(curve.data[1].y, [b["right"] for b in bins], atol=1e-6)


def test_a_log_without_a_reliability_curve_says_so(translator):
    log = TrainingLog.from_dict({k: v for k, v in translator.training_log.items() if k != "reliability"})
    with in_language("en"):
        parts = training_view.calibration_section(Run(translator.config, log))
    assert not [p for p in parts if isinstance(p, Chart)] and [p for p in parts if isinstance(p, Notice)]
