"""AppTest: the "How it was trained" page renders in English and Chinese from the shipped model's own training log,
and its BLEU section agrees with sacrebleu."""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from lessons import training as lt
from model import DEFAULT_CHECKPOINT
from model.text.pairs import encode_pairs
from model.training.data import make_batches, read_pairs
from model.training.schedule import ADAM_BETAS, ADAM_EPS, peak_learning_rate
from tests.support.apptest import every_tab, open_page, page_text, whole_page_text
from tests.support.tables import shown_tables

pytestmark = pytest.mark.skipif(
    not (DEFAULT_CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {DEFAULT_CHECKPOINT}"
)
REFERENCE = "我有一个梦。"  # not the model's wording: some orders match, some do not


@pytest.fixture(scope="module")
def log(translator) -> dict:
    return translator.training_log


def shows(text: str, number: str) -> bool:
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d])", text) is not None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_in_both_languages(lang, classroom):
    charts, texts = 0, []
    for at in every_tab("training", lang):
        charts += len(at.get("plotly_chart"))
        texts.append(page_text(at))
        assert not at.error and not at.exception
    assert charts == 5, "Adam toy, schedule, smoothing, padding, reliability: one tab at a time"
    text = "\n".join(texts)
    pairs, outputs, _ = classroom
    for data in [zh for _, zh in pairs] + outputs:  # Chinese data, not prose: the BLEU-limits example's two sentences
        text = text.replace(data, "")
    assert (re.search(r"[\u4e00-\u9fff]{4}", text) is not None) == (lang == "zh")
    at = open_page("training", lang, tab="bleu")
    assert at.text_input(key="training.bleu.reference").value == "", "no answer is typed in for the student"


def test_numbers_on_the_page_are_the_logs(log, translator):
    text = whole_page_text("training")
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


def test_padding_statistics_are_those_of_make_batches_on_the_dev_pairs(log, translator):
    args = log["args"]
    path = lt.dev_file(args, DEFAULT_CHECKPOINT.parent.parent)
    if path is None:
        pytest.skip("the run's dev file is not on this machine")
    from tests.support.checkpoints import checkpoint_tokenizers

    examples = encode_pairs(read_pairs(path), *checkpoint_tokenizers(), translator.config)
    batches = make_batches(examples, args["max_tokens"], random.Random(0))
    expected = lt.padding([[(len(e.src), len(e.tgt)) for e in b] for b in batches])
    text = page_text(open_page("training", tab="batch"))
    assert f"{len(examples):,} dev pairs" in text
    assert f"{expected.batches} batches" in text and f"{expected.fraction:.1%}" in text


def test_missing_dev_file_is_said_and_the_app_sentences_are_used(monkeypatch):
    monkeypatch.setattr(lt, "dev_file", lambda args, root: None)
    at = open_page("training", tab="batch")
    assert any("is not on this machine" in w.value for w in at.warning)
    assert not at.exception


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bleu_of_a_typed_reference_is_sacrebleus_and_recomputed_alike(lang, log):
    at = open_page("training", lang, tab="bleu")
    at.text_input(key="training.bleu.reference").input(REFERENCE).run()
    assert not at.exception
    hypothesis = next(el.value for el in at.text if "→" in el.value).split("→")[-1].strip()
    expected = BLEU(tokenize="zh").corpus_score([hypothesis], [[REFERENCE]]).score
    assert lt.metric_from_signature(log["best"]["bleu_signature"]).corpus_score([hypothesis], [[REFERENCE]]).score == expected
    check = [s.value for s in at.success if f"{expected:.4f}" in s.value]
    assert len(check) == 1 and check[0].count(f"{expected:.4f}") == 2, "the recomputation and sacrebleu, both shown"
    latex = "\n".join(el.value for el in at.latex)
    assert f"= {expected:.2f}" in latex
    precisions = next(frame for frame in shown_tables(at) if "n" in frame.columns)
    assert list(precisions["n"]) == [1, 2, 3, 4]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model, reference", [("en-zh", "我有一個  夢。"), ("zh-en", "I have  a dream.")])
def test_bleu_names_the_cleaning_of_the_references_language_and_counts_the_models_4_grams(model, reference, lang):
    """An English reference is cleaned, not "converted to Simplified"; the 4-grams whose count says how noisy one
    sentence's BLEU is are the model's translation's (the hypothesis), in either direction."""
    at = open_page("training", lang, tab="bleu", checkpoint=model)
    at.text_input(key="training.bleu.reference").input(reference).run()
    assert not at.exception
    hypothesis = next(el.value for el in at.text if "→" in el.value).split("→")[-1].strip()
    normalised = next(el.value for el in at.text if "→" not in el.value)
    assert normalised == " ".join(reference.split()).replace("一個", "一个").replace("夢", "梦")
    captions = "\n".join(c.value for c in at.caption)
    simplified = "Simplified" in captions or "简体" in captions
    assert simplified == (model == "en-zh")
    metric = lt.metric_from_signature(json.loads((DEFAULT_CHECKPOINT.parent / model / "training_log.json").read_text(
        encoding="utf-8"))["best"]["bleu_signature"])
    tokens = metric.tokenizer(hypothesis).split()
    fours = max(len(tokens) - 3, 0)
    text = page_text(at)
    if lang == "en":
        assert f"the model's translation has {fours} 4-gram" in text and "your translation has" not in text
    else:
        assert f"模型的译文只有 {fours} 个 4 元语法" in text and "你的译文" not in text


def test_empty_reference_shows_a_hint_and_no_score():
    at = open_page("training", tab="bleu")
    assert not at.success
    assert any("Type a reference translation" in i.value for i in at.info)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_adams_first_step_moves_each_weight_against_its_gradient(lang):
    first = lt.adam_steps(lt.TOY_START, lt.TOY_ADAM_LR, 1, ADAM_BETAS, ADAM_EPS)[0]
    np.testing.assert_allclose(first.params - lt.TOY_START, first.change)
    assert (np.sign(first.change) == -np.sign(first.grad)).all()
    text = page_text(open_page("training", lang))
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
def test_dev_loss_is_set_against_the_last_complete_epochs_mean_training_loss(model, lang, words):
    """Like with like: the dev loss at the end against the mean of the last complete epoch's logged batch losses,
    and "below" said only where it is (zh-en's dev loss is above its luckiest batch, the lowest logged loss)."""
    from tests.support.paths import ROOT

    log = json.loads((ROOT / "checkpoints" / model / "training_log.json").read_text(encoding="utf-8"))
    epoch, mean, batches = last_complete_epoch(log)
    dev = log["dev"][-1]["loss"]
    text = page_text(open_page("training", lang, tab="ls", checkpoint=model))
    assert all(word in text for word in words)
    assert shows(text, f"{dev:.3f}") and shows(text, f"{mean:.3f}") and shows(text, str(epoch))
    below = "Why the dev loss" in text if lang == "en" else "为什么开发集损失" in text
    assert below == (dev < mean)
    if lang == "en":
        assert f"the mean of the {batches} batch losses logged in epoch {epoch}, the last complete one" in text
    assert "。 " not in text


def test_a_dev_loss_above_the_training_loss_is_not_called_below(monkeypatch):
    log = json.loads((DEFAULT_CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))
    above = log["dev"][-1]["loss"] - 0.5  # a training mean under the dev loss
    monkeypatch.setattr(lt, "last_full_epoch_loss", lambda log: lt.EpochLoss(7, above, 3))
    text = page_text(open_page("training", tab="ls"))
    assert "Why the dev loss" not in text and "are not measured alike" in text and shows(text, f"{above:.3f}")


def test_the_last_complete_epoch_leaves_out_one_the_clock_cut_short():
    train = [{"epoch": e, "loss": loss} for e, loss in ((1, 4.0), (1, 3.0), (2, 2.0), (2, 1.0), (3, 9.0))]
    cut = {"train": train, "epochs": 3, "args": {"epochs": 10}}  # stopped by --max-minutes inside epoch 3
    assert lt.last_full_epoch_loss(cut) == lt.EpochLoss(2, 1.5, 2)
    done = {"train": train, "epochs": 3, "args": {"epochs": 3}}
    assert lt.last_full_epoch_loss(done) == lt.EpochLoss(3, 9.0, 1)
    assert lt.last_full_epoch_loss({"train": []}) is None


@pytest.mark.parametrize("lang, words", [("en", "ours, not the paper's"), ("zh", "我们加的，不是论文的")])
def test_gradient_clipping_is_said_to_be_ours(lang, words, log):
    text = whole_page_text("training", lang)
    assert words in text and f"{log['args']['max_tokens']:,}" in text



@pytest.fixture(scope="module")
def classroom(translator) -> tuple[list, list[str], list[int]]:
    """The classroom pairs, the model's translations at the default beam, and the sentences it words differently."""
    from model import DEFAULT_BEAM
    from tests.support.paths import ROOT

    pairs = read_pairs(ROOT / "evaluation" / "classroom.tsv")
    outputs = translator.translations([en for en, _ in pairs], DEFAULT_BEAM)
    return pairs, outputs, [i for i, (out, (_, ref)) in enumerate(zip(outputs, pairs)) if out != ref]


def char_bleu(out: str, ref: str) -> float:  # the log's signature: nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp
    return BLEU(tokenize="zh", smooth_method="exp").sentence_score(out, [ref]).score


def chrf(out: str, ref: str) -> float:
    from sacrebleu.metrics import CHRF

    return CHRF().sentence_score(out, [ref]).score


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bleu_limits_for_chinese_are_computed_on_the_classroom_sentences(log, classroom, lang):
    pairs, outputs, differing = classroom
    assert log["best"]["bleu_signature"].startswith("nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp")
    gap = {i: chrf(outputs[i], pairs[i][1]) - char_bleu(outputs[i], pairs[i][1]) for i in differing}
    full = [i for i in differing if len(outputs[i]) >= len(pairs[i][1])]  # not cut short: no brevity penalty
    widest = max(full, key=gap.get)
    at = open_page("training", lang, tab="bleuzh")
    assert at.selectbox(key="training.bleuzh.sentence").value == widest
    text = page_text(at)
    out, ref = outputs[widest], pairs[widest][1]
    words = BLEU(tokenize="13a", smooth_method="exp").sentence_score(out, [ref]).score
    for number in (char_bleu(out, ref), chrf(out, ref), words):
        assert f"**{number:.1f}**" in text, number
    assert gap[widest] > 0, "the example shown is one where chrF gives more credit than BLEU"
    assert " ".join(out) in text.replace("\\", ""), "the output cut into characters, as tok:zh cuts it"
    higher = sum(g > 0 for g in gap.values())
    summary = next(line for line in text.split("\n") if "chrF" in line and f"{len(differing)} " in line and "50" in line)
    assert shows(summary, str(higher)), summary
    frame = next(f.to_string() for f in shown_tables(at) if out in f.to_string())
    assert ref in frame


def test_bleu_limits_follow_the_sentence_picked(classroom):
    pairs, outputs, differing = classroom
    at = open_page("training", tab="bleuzh")
    box = at.selectbox(key="training.bleuzh.sentence")
    other = next(i for i in differing if i != box.value)
    box.set_value(other).run()
    text = page_text(at)
    assert f"**{char_bleu(outputs[other], pairs[other][1]):.1f}**" in text
    assert f"**{chrf(outputs[other], pairs[other][1]):.1f}**" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_calibration_shows_the_logs_reliability_curve_and_its_ece(log, translator, lang):
    bins = [b for b in log["reliability"]["bins"] if b["positions"]]
    n = sum(b["positions"] for b in bins)
    assert n == log["reliability"]["positions"]
    ece = sum(b["positions"] / n * abs(b["right"] - b["confidence"]) for b in bins)
    over = sum(b["right"] < b["confidence"] for b in bins)
    at = open_page("training", lang, tab="calib")
    text = page_text(at)
    assert f"**{ece:.3f}**" in text
    top = bins[-1]
    for number in (f"{top['confidence']:.1%}", f"{top['right']:.1%}", f"{top['positions'] / n:.0%}", str(over)):
        assert shows(text, number), number
    if lang == "en":
        assert ("still more sure than right" in text) == (2 * over > len(bins))
    eps = log["args"]["label_smoothing"]
    V = translator.config.tgt_vocab_size
    assert f"{1 - eps + eps / V:.4f}" in text and f"{1 - eps + eps / V:.1%}" in text  # the smoothed target's top
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    (curve,) = [f for f in specs if f["data"][0].get("line", {}).get("dash") == "dash"]  # the diagonal, then ours
    model = curve["data"][1]
    xs, ys = model["x"], model["y"]  # JSON lists, as the browser gets them (app_pages.components.charts.redrawn_once)
    assert np.allclose(xs, [b["confidence"] for b in bins], atol=1e-6)
    assert np.allclose(ys, [b["right"] for b in bins], atol=1e-6)

