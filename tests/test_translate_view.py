"""The translate page's view, computed without Streamlit (app_pages/pages/translate_view.py): what the heading, the
translation's verdict, the token details and the explorer say and draw, in both interface languages. No assertion on
what a model writes beyond the tokens it reads: its weights change with every training run."""

from __future__ import annotations

import html
import json

import numpy as np
import pytest

from app_pages.components.chips import byte_runs
from app_pages.components.table_view import percents_apart
from app_pages.pages import translate_view
from app_pages.pages.translate_view import ALL_QUERIES, ExplorerSettings
from app_pages.shell.text import in_language, md_escape
from i18n import strings
from lessons.attention_maps import ALL, pick
from lessons.attention_table import MapName, attention_table
from model import Confidence, TrainingLog, assess
from tests.support.backtranslation import BACKTRANSLATION
from tests.support.paths import ZH_CHECKPOINT
from viz.style import MAX_WIDTH_PX

DUMPLING = "我喜欢吃饺子。"  # 饺 has no token of its own: three byte tokens
FRIEND = "李明是我的好朋友。"  # 李明: a name Tatoeba's Chinese never holds
DREAM = "我有一个梦想。"  # neither
LANGS = ["en", "zh"]
PLAIN = {"max_width": MAX_WIDTH_PX}  # screen.map_limits() outside presentation mode

needs_zh = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                              reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")


def settings(kind: str = "encoder_self", view: str = "head", layer: int = 0, head: int = ALL, *,
             languages=("en", "zh"), guessing: bool = False, query: int | None = None) -> ExplorerSettings:
    """The explorer's choices as a session makes them, on the en-zh model unless `languages` says otherwise."""
    return ExplorerSettings(kind, view, layer, head, guessing, query, 0.1, "-".join(languages), languages, PLAIN,
                            PLAIN, PLAIN, True)


def page_view(translator, sentence: str, lang: str, marks: Confidence | None = None):
    """(the page's view, the explorer's on encoder self-attention) of `translator`'s translation of `sentence`."""
    result = translator.translate(sentence)
    marks = marks or assess([step.chosen.prob for step in result.steps], translator.training_log)
    languages = (translator.config.source_language, translator.config.target_language)
    with in_language(lang):
        return (translate_view.view(translator, result, marks),
                translate_view.explorer_view(result, settings(languages=languages)))


def every_text(shown, explorer) -> str:
    """Everything the view says in words: the verdict, its tooltip, the legend, the token notes, the explorer's
    caption."""
    details = shown.details
    return "\n".join([shown.verdict.help, shown.verdict.line, details.confidence.legend, details.about,
                      details.tokens_note, details.knows, explorer.caption])


@needs_zh
def test_chinese_sentences_run_together_without_a_space(zh_translator):
    """The confidence's evidence and its beam note, the legend, the token help and the ▁ note, the map's help: each
    pair joined as 中文 writes it, with no gap after 。."""
    result = zh_translator.translate(DUMPLING)
    marks = assess([step.chosen.prob for step in result.steps], zh_translator.training_log)
    with in_language("zh"):
        shown = translate_view.view(zh_translator, result, marks)
        explorer = translate_view.explorer_view(result, settings("cross", languages=("zh", "en")))
    text = every_text(shown, explorer)
    assert strings("zh")["confidence.beam_same"][:8] in text  # the beam note after the confidence's evidence
    assert strings("zh")["tokens.word_start"] in text  # the English target's ▁ note follows a Chinese sentence
    assert "。 " not in text


@needs_zh
@pytest.mark.parametrize("lang", LANGS)
def test_byte_tokens_are_said_to_be_bytes_where_they_show(zh_translator, lang):
    runs = byte_runs(zh_translator.translate(DUMPLING).source_tokens)
    assert runs == [(" ".join(f"<0x{b:02X}>" for b in "饺".encode()), "饺")]  # computed from the tokens drawn
    expected = strings(lang)["tokens.bytes"].format(runs=md_escape(f"{runs[0][0]} = 饺"))
    shown, explorer = page_view(zh_translator, DUMPLING, lang)
    assert expected in explorer.caption and expected in shown.details.tokens_note  # under the map and the chips
    shown, explorer = page_view(zh_translator, DREAM, lang)  # no byte token, no note
    assert "0x" not in explorer.caption and "0x" not in shown.details.tokens_note


@needs_zh
@pytest.mark.parametrize("lang", LANGS)
def test_a_name_the_model_cannot_read_is_said_under_the_translation(zh_translator, lang):
    """One short line under the confidence names it; the translation's tooltip says why."""
    s = strings(lang)
    verdict = page_view(zh_translator, FRIEND, lang)[0].verdict
    assert md_escape(s["translate.names_unread"].format(names="李明")) in verdict.line
    assert verdict.heading.startswith("### ") and s["translate.names_unread_help"] in verdict.help
    quiet = page_view(zh_translator, DREAM, lang)[0].verdict  # no name, nothing said
    assert s["translate.names_unread"][:8] not in quiet.line and s["translate.names_unread_help"] not in quiet.help


@needs_zh
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("side", [-1, 1])
def test_a_score_beside_the_line_is_never_shown_as_the_line(zh_translator, lang, side):
    """A translation whose confidence, and a token whose probability, is 0.04 points from its line, either side:
    the verdict and the legend each show it on its own side."""
    log = json.loads((ZH_CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))
    threshold, tau = log["calibration"]["sentence"]["threshold"], log["calibration"]["token"]["threshold"]
    result = zh_translator.translate(DREAM)
    measured = assess([step.chosen.prob for step in result.steps], zh_translator.training_log)
    score, first = threshold + side * 4e-4, tau + side * 4e-4
    marks = Confidence([first, *measured.probs[1:]], [first < tau, *measured.low[1:]], score, score < threshold,
                       measured.calibration)
    shown = page_view(zh_translator, DREAM, lang, marks)[0]
    line_shown, line = percents_apart(score, threshold)
    key = "confidence.unsure_short" if side < 0 else "confidence.sure_short"
    assert strings(lang)[key].format(score=line_shown, threshold=line) in shown.verdict.line
    assert shown.verdict.unsure == (side < 0) and line_shown != line and f"{threshold:.0%}" == line
    confidence = shown.details.confidence
    chip, token_line = percents_apart(first, tau)
    assert chip != token_line and f" {token_line}" in confidence.legend  # the legend's line, as the chip compares
    assert confidence.threshold == tau and confidence.low[0] == (side < 0)


def test_the_heading_names_the_language_to_type_in_and_offers_its_examples(translator):
    with in_language("en"):
        heading = translate_view.heading(translator)
    assert heading.title == strings("en")["translate.title"]
    assert heading.input_label == "English sentence"
    assert heading.examples[0] == "I have a dream." and "Who are you?" in heading.examples
    assert "English" in heading.intro and "Chinese" in heading.intro


@pytest.mark.parametrize("sentence", ["I have a dream.", "the cat saw the dog and the bird."])
def test_every_view_draws_the_picked_map_once(translator, sentence):
    """The head view's map on the sentence's own tokens, each repeated token its own column; the grid, every
    layer's heads with the opened map under it (its pin saves the grid); the lines, with every weight of their
    head as numbers; a rollout, drawn by its own component."""
    result = translator.translate(sentence)
    tokens = result.source_tokens
    with in_language("en"):
        head = translate_view.explorer_view(result, settings())
        grid = translate_view.explorer_view(result, settings("cross", "grid", 1, 2))
        lines = translate_view.explorer_view(result, settings("cross", "lines", 1, 2, query=3))
        rollout = translate_view.explorer_view(result, settings("cross", "rollout", 1))
    figure = head.one_head.figure
    labels = [[html.unescape(label) for label in axis.ticktext] for axis in (figure.layout.xaxis, figure.layout.yaxis)]
    assert labels == [tokens, tokens]  # the default view: encoder self-attention, layer 1, the heads' average
    en = strings("en")
    layer_1 = en["explorer.layer_n"].format(n=1)
    assert head.title == en["explorer.map_title"].format(kind=en["kind.encoder_self"], layer=layer_1,
                                                         head=en["explorer.all_heads"])
    assert (head.grid, head.lines) == (None, None) and head.one_head.key == "explorer.chart.head"
    layers, heads = result.cross.shape[:2]
    assert sum(trace.type == "heatmap" for trace in grid.grid.data) == layers * heads
    assert grid.one_head.key == "explorer.chart.opened" and grid.one_head.pin.query["view"] == "grid"
    assert any(trace.showlegend for trace in lines.lines.figure.data)
    assert lines.lines.pin.query == {**lines.lines.pin.query, "view": "lines", "query": "3", "min": "0.1"}
    assert (rollout.one_head, rollout.grid, rollout.lines) == (None, None, None)
    assert lines.queries[ALL_QUERIES] == en["explorer.focus_all"]
    assert lines.queries[0] == f"0: {result.target_tokens[0]}"  # cross-attention's queries: the target tokens


def test_the_numbers_are_the_drawn_weights_written_once_for_both_formats(translator):
    """The CSV to download and the TSV to copy hold the same table: the TSV is the CSV's rows with tabs."""
    result = translator.translate("I have a dream.")
    with in_language("en"):
        numbers = translate_view.explorer_view(result, settings("cross", "head", 1, 2)).one_head.numbers
    about = dict(kind="cross", layer=1, head=2, sentence="I have a dream.")
    drawn = pick(result.cross, 1, 2)
    assert numbers.csv == attention_table(drawn, result.target_tokens, result.source_tokens, about=MapName(**about))
    assert numbers.tsv == attention_table(drawn, result.target_tokens, result.source_tokens, delimiter="\t",
                                          about=MapName(**about))
    assert numbers.file_name == "attention-cross-layer-2-head-3.csv"


def test_guess_first_hides_the_map_and_the_hint(translator):
    result = translator.translate("I have a dream.")
    with in_language("en"):
        shown = translate_view.explorer_view(result, settings("cross"))
        hidden = translate_view.explorer_view(result, settings("cross", guessing=True))
    assert shown.hint is not None and shown.hint.head is not None and "梦想" in shown.hint.text
    assert hidden.one_head is None and hidden.hint is None


def test_a_sentence_that_is_no_pill_has_no_hint(translator):
    with in_language("en"):
        assert translate_view.explorer_view(translator.translate("The cat sleeps."), settings()).hint is None


def test_what_the_model_knows_comes_from_its_log(translator):
    """The line under the tokens names the pairs it trained on and a score, both read from its training log."""
    with in_language("en"):
        knows = translate_view.model_knows(translator)
    assert f"{TrainingLog.from_dict(translator.training_log).real_pairs:,}" in knows
    assert np.isfinite(float(knows.split("BLEU ")[1].split(" ")[0]))


class WithLog:
    """The translator with another training log."""

    def __init__(self, translator, log: dict) -> None:
        self._translator, self.training_log = translator, log

    def __getattr__(self, name):
        return getattr(self._translator, name)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_back_translated_model_knows_its_real_pairs_and_its_synthetic_ones_apart(translator, lang):
    log = {**translator.training_log, "train_pairs": 60870, "backtranslation": BACKTRANSLATION}
    with in_language(lang):
        knows = translate_view.model_knows(WithLog(translator, log))
    assert "26,777" in knows and "17,316" in knows and "60,870" not in knows
    assert ("back-translation" if lang == "en" else "回译") in knows
