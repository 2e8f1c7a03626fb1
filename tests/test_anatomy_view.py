"""The model-anatomy page's view, computed without Streamlit (app_pages/pages/anatomy_view.py): parameters against
the notes' formulas, FLOPs, the learning-rate schedule and curves with the weights the app loads, label smoothing,
and the FFN units that never fire, for both shipped models and in both interface languages. The checks that were
AppTests of the page's texts and numbers (tests/test_app_teaching.py, tests/test_app_teaching_zh.py); the page's
run stays an AppTest there."""

from __future__ import annotations

import functools
import json
import re

import numpy as np
import pytest

from app_pages.components.parts import Chart, Columns, Notice, Table, every, texts
from app_pages.pages import anatomy_view
from app_pages.shell.text import in_language, t
from app_pages.state.examples import DEFAULT_SENTENCE, EXAMPLES, EXAMPLES_ZH
from lessons import anatomy
from lessons.anatomy import dead_units
from model import DEFAULT_BEAM, DEFAULT_CHECKPOINT, ModelConfig, TrainingLog
from tests.support.paths import needs_checkpoint

NOTE_CITATION = re.compile(r"(?i)\bnotes? 0\d\d|笔记 ?0\d\d")  # "study note 000", "学习笔记 002": no student has them
CJK = r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
ASCII_COMMA_IN_CHINESE = re.compile(rf"{CJK}\s*,|,\s*{CJK}")
ZH_SENTENCE = "我有一个梦想。"


def charts(parts) -> list[str]:
    return [p.key for p in every(parts) if isinstance(p, Chart)]


@pytest.fixture(scope="module")
def log(translator) -> TrainingLog:
    return TrainingLog.from_dict(translator.training_log)


@pytest.fixture(scope="module")
def hidden_of(translator):
    """The shipped model's FFN hidden units of a sentence, each sentence once."""
    return functools.lru_cache(maxsize=None)(translator.ffn_activations)


def every_tab(translator, log, hidden_of) -> tuple:
    """Every tab's parts for the shipped model, as first opened, in the session's language."""
    config, counts = translator.config, translator.parameter_counts
    result = translator.translate(DEFAULT_SENTENCE, beam=DEFAULT_BEAM)
    return (*anatomy_view.parameters_parts(config, counts, log.parameters),
            *anatomy_view.formula_parts(config, counts, t("language.en"), t("language.zh")),
            *anatomy_view.flops_parts(config, result),
            *anatomy_view.learning_rate_parts(config, log, translator.checkpoint),
            *anatomy_view.curves_parts(log, translator.checkpoint), anatomy_view.SMOOTHING_FORMULA,
            *anatomy_view.smoothing_parts(config, log.args, anatomy_view.starting_epsilon(log.args), t("language.zh")),
            *anatomy_view.dead_units_parts(config, (DEFAULT_SENTENCE, *(e.sentence for e in EXAMPLES)), hidden_of,
                                           log.ffn_units))


@needs_checkpoint
def test_the_page_says_which_weights_the_app_loads_and_the_machine_in_the_page_language(translator, log, hidden_of):
    """Moved from test_app_teaching (every tab, as AppTests, in each language). The shipped checkpoint is an average
    of its last epochs (its log's "average" beats its "best"): the page must not call the best single evaluation
    "the checkpoint the app loads"; the machine reads as Chinese in 中文."""
    raw = json.loads((DEFAULT_CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))
    first, last = raw["average"]["epochs"][0], raw["average"]["epochs"][-1]
    with in_language("en"):
        en = texts(every_tab(translator, log, hidden_of))
    with in_language("zh"):
        zh = texts(every_tab(translator, log, hidden_of))
    assert f"average of the weights of epochs {first}–{last}" in en and str(raw["average"]["bleu"]) in en
    assert "checkpoint the app loads" not in en
    assert f"第 {first}–{last} 轮权重的平均" in zh and "threads" not in zh and "个线程" in zh


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_tab_cites_no_notes_and_joins_chinese_lists_with_chinese_marks(translator, log, hidden_of, lang):
    """Moved from test_app_teaching's rendered-page check (every tab of every teaching page)."""
    with in_language(lang):
        text = "\n".join((anatomy_view.intro(translator.config, t("language.en"), t("language.zh")),
                          texts(every_tab(translator, log, hidden_of))))
    assert not NOTE_CITATION.search(text)
    if lang == "zh":
        assert not ASCII_COMMA_IN_CHINESE.search(text), ASCII_COMMA_IN_CHINESE.search(text).group(0)
    assert bool(re.search(r"[\u4e00-\u9fff]{4,}", text)) == (lang == "zh")


@needs_checkpoint
def test_the_parameters_the_formulas_count_are_the_models_and_its_logs(translator, log):
    config, counts = translator.config, translator.parameter_counts
    with in_language("en"):
        chart, table, total = anatomy_view.parameters_parts(config, counts, log.parameters)
        formulas = texts(anatomy_view.formula_parts(config, counts, "English", "Chinese"))
    model = sum(counts.values())
    assert total.level == "success" and f"{anatomy.total_parameters(config):,}" in total.text
    assert f"{model:,}" in total.text and f"{log.parameters:,}" in total.text
    assert table.data.shape[0] == len(anatomy.parameter_breakdown(config)) and chart.key == "anatomy.params"
    layer = anatomy.layer_parameters(counts, "encoder", 0)
    assert f"{anatomy.note_formula(config.d_model):,}" in formulas and f"{layer:,}" in formulas
    assert f"{anatomy.decoder_layer_params(config.d_model, config.d_ff):,}" in formulas


def test_a_model_whose_d_ff_is_not_4h_is_told_the_formula_does_not_apply():
    config = ModelConfig(100, 100, d_model=16, d_ff=32)
    with in_language("en"):
        said = texts(anatomy_view.formula_parts(config, {}, "English", "Chinese"))
    assert "does not apply" in said and f"{anatomy.encoder_layer_params(16, 32):,}" in said


@needs_checkpoint
def test_the_flops_are_the_sentences(translator):
    result = translator.translate(DEFAULT_SENTENCE, beam=DEFAULT_BEAM)
    with in_language("en"):
        text, chart, _ = anatomy_view.flops_parts(translator.config, result)
    S, T = len(result.source_tokens), len(result.target_tokens)
    total = sum(f.flops for f in anatomy.forward_flops(translator.config, S, T))
    assert f"{total:,}" in text.markdown and f"{total / 1e6:.1f}" in text.markdown and chart.key == "anatomy.flops"


@needs_checkpoint
def test_the_learning_rate_is_the_runs_schedule_against_its_logged_rates(translator, log):
    with in_language("en"):
        parts = anatomy_view.learning_rate_parts(translator.config, log, translator.checkpoint)
    assert charts(parts) == ["anatomy.lr"] and f"{log.args.warmup}" in texts(parts)
    logged = next(trace for trace in parts[-1].figure.data if len(trace.x) == len(log.train))
    assert np.allclose(np.asarray(logged.y, dtype=float), [e.lr for e in log.train])


def test_a_log_without_the_trainers_arguments_shows_no_schedule_or_curves():
    with in_language("en"):
        parts = (*anatomy_view.learning_rate_parts(ModelConfig(10, 10), TrainingLog.from_dict(None), "elsewhere"),
                 *anatomy_view.curves_parts(TrainingLog.from_dict(None), "elsewhere"))
    assert not charts(parts) and [p.text.count("elsewhere") for p in parts if isinstance(p, Notice)] == [1, 1]


@pytest.mark.parametrize("epsilon", [0.0, 0.1, 0.35])
def test_label_smoothing_is_the_picked_epsilons(epsilon):
    config = ModelConfig(100, 8000)
    with in_language("en"):
        chart, text = anatomy_view.smoothing_parts(config, None, epsilon, "Chinese")
    real = anatomy.smoothed_target(8000, 0, epsilon)
    assert f"{real[0]:.5f}" in text.markdown and f"{anatomy.smoothed_loss_floor(8000, epsilon):.3f}" in text.markdown
    assert "—" in text.markdown  # no log: the run's own ε unknown
    smooth = np.asarray(chart.figure.data[-1].y, dtype=float)
    assert np.allclose(smooth, anatomy.smoothed_target(anatomy_view.SMOOTHING_CLASSES, 0, epsilon))
    assert anatomy_view.starting_epsilon(None) == anatomy_view.DEFAULT_EPSILON


@needs_checkpoint
def test_the_dead_units_are_the_models_silent_units(translator, log, hidden_of):
    """Moved from test_app_teaching (an AppTest of the page's last tab)."""
    with in_language("en"):
        parts = anatomy_view.dead_units_parts(translator.config, (DEFAULT_SENTENCE, *(e.sentence for e in EXAMPLES)),
                                              hidden_of, log.ffn_units)
    text = texts(parts)
    own = dead_units([translator.ffn_activations(DEFAULT_SENTENCE)])
    examples = dead_units([translator.ffn_activations(e.sentence) for e in EXAMPLES])
    assert f"{', '.join(str(n) for n in own)} units never fire" in text
    assert f"({sum(translator.ffn_activations(e.sentence).shape[1] for e in EXAMPLES)} tokens) " \
           f"{', '.join(str(n) for n in examples)}" in text
    dev = TrainingLog.from_dict(translator.training_log).ffn_units
    assert f"use {', '.join(f'{u:,}' for u in dev.used)} of their {dev.d_ff:,} units" in text
    assert isinstance(parts[0], Columns) and charts(parts) == ["anatomy.dead"]
    assert len(parts[0].columns[0][0].figure.data) == 3  # the sentence, the examples, the dev set


def test_a_model_without_relu_has_no_dead_units_to_count():
    def refuse(sentence):
        raise AssertionError("no hidden units to read for a swish FFN")

    with in_language("en"):
        (notice,) = anatomy_view.dead_units_parts(ModelConfig(10, 10, activation="swish"), ("x",), refuse, None)
    assert "swish" in notice.text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chinese_model_reads_chinese_and_counts_its_dead_units_on_chinese(zh_translator, lang):
    """Moved from test_app_teaching_zh (the page's last tab with the zh-en model; 中文 stays an AppTest there):
    the introduction names the Chinese source before the English target, and the dead units are counted on the
    Chinese sentences."""
    config = zh_translator.config
    with in_language(lang):
        source, target = t(f"language.{config.source_language}"), t(f"language.{config.target_language}")
        intro = anatomy_view.intro(config, source, target)
        sentences = (ZH_SENTENCE, *(e.sentence for e in EXAMPLES_ZH))
        parts = anatomy_view.dead_units_parts(config, sentences, zh_translator.ffn_activations,
                                              TrainingLog.from_dict(zh_translator.training_log).ffn_units)
        separator = t("teach.sep")
    assert source == {"en": "Chinese", "zh": "中文"}[lang] and intro.index(source) < intro.index(target)
    own = dead_units([zh_translator.ffn_activations(ZH_SENTENCE)])
    assert separator.join(str(n) for n in own) in texts(parts)
    assert [p for p in parts if isinstance(p, Table)] == [] and charts(parts) == ["anatomy.dead"]
