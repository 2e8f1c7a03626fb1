"""AppTest: Inside, the teaching pages' live parts, How it was trained and the lab with the Chinese → English model
(issue 49), in both interface languages: no exception, the source named Chinese and the target English, the live
sentences in Chinese. No assertion reads the zh-en model's wording (its weights change). The model card and Start here
with this model are checked on their views (tests/test_model_card_view.py, tests/test_start_view.py)."""

from __future__ import annotations

import json
import re

import pytest

from app_pages.state import examples
from i18n import strings
from model.translation.alignment import word_positions
from lessons.masks import EXPOSURE_EXAMPLES
from tests.support.apptest import open_page, page_text
from tests.support.paths import ZH_CHECKPOINT
from tests.support.tables import shown_tables
from viz.teaching_inside import architecture_blocks

SENTENCE = "我有一个梦想。"
HAN = re.compile(r"[\u4e00-\u9fff]")
LANGS = ["en", "zh"]
NAMES = {"en": ("Chinese", "English"), "zh": ("中文", "英文")}  # (source, target) as each interface names them


def zh_page(page: str, lang: str, tab: str | None = None, **state):
    """`page` with the zh-en model and the session's sentence 我有一个梦想。, no exception (open_page checks)."""
    if not (ZH_CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"needs the Chinese → English checkpoint in {ZH_CHECKPOINT}")
    at = open_page(page, lang, tab, checkpoint="zh-en", sentence=SENTENCE, **state)
    assert not at.error, [e.value for e in at.error]
    return at


def texts(at, kind: str) -> list[str]:
    return [str(el.value) for el in getattr(at, kind)]


@pytest.mark.parametrize("lang", LANGS)
def test_inside_says_the_encoder_reads_chinese_and_the_decoder_writes_english(lang):
    at = zh_page("inside", lang)
    source, target = NAMES[lang]
    intro = strings(lang)["inside.intro"]
    text = page_text(at)
    assert intro.split("{source}")[0].split("}")[-1] + source in text  # "… reads the Chinese sentence"
    assert target in text and SENTENCE in texts(at, "text")[0]


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_inside_block_agrees_with_the_chinese_model(lang):
    """Every block of the diagram, on the Chinese sentence: its figure drawn and its recomputation agreeing."""
    at = zh_page("inside", lang)
    config = json.loads((ZH_CHECKPOINT / "config.json").read_text())
    for block in architecture_blocks(config["n_encoder_layers"], config["n_decoder_layers"]):
        at = zh_page("inside", lang, **{"inside.block": block})
        assert len(at.get("plotly_chart")) >= 2 and at.success and not at.error, block


@pytest.mark.parametrize("lang", LANGS)
def test_insides_batch_norm_demo_pads_the_sentence_with_another_chinese_sentence(lang):
    at = zh_page("inside", lang, **{"inside.block": "enc.0.self_attn"})
    demo = next(m for m in texts(at, "markdown") if "BatchNorm" in m and ("“" in m))
    other = re.search(r"“([^”]+)”", demo).group(1).replace("\\", "")
    assert other in [e.reference for e in examples.EXAMPLES], demo  # a Chinese example, not an English one


def test_anatomy_counts_chinese_source_and_english_target_tokens_and_dead_units_on_chinese():
    """The page hands the zh-en model's languages and sentences to its view (what the view makes of them, in both
    interface languages: tests/test_anatomy_view.py)."""
    lang = "zh"
    at = zh_page("anatomy", lang, tab="dead")
    source, target = NAMES[lang]
    intro = next(m for m in texts(at, "caption") if "d_model = H" in m)
    assert intro.index(source) < intro.index(target), intro
    assert not at.exception


@pytest.mark.parametrize("lang", LANGS)
def test_exposure_bias_feeds_a_chinese_sentence_and_an_english_reference(lang):
    at = zh_page("masks", lang, tab="exposure")
    turned = {zh: en for en, zh in EXPOSURE_EXAMPLES}
    shown = "\n".join(texts(at, "markdown") + texts(at, "info"))
    if strings(lang)["masks.exposure.none"] in shown:
        return  # the model translated all four as our references: nothing to show, said so
    sentence = next(zh for zh in turned if zh in shown)
    assert turned[sentence] in shown  # its reference is the English sentence
    frame = shown_tables(at)[0]
    assert any("▁" in cell for cell in frame.iloc[:, 0])  # the decoder reads English pieces


def test_the_long_sentence_past_the_trained_lengths_is_chinese():
    """The page hands the zh-en model's sentences and source language to its view (what the view makes of them, in
    both interface languages: tests/test_positional_view.py)."""
    at = zh_page("positional", "zh", tab="ext")
    long = next((x for x in texts(at, "text") if x.startswith(SENTENCE) and len(x) > 60), None)
    if long is None:
        pytest.skip("the training log records no lengths")
    source = long.split("  →  ")[0]
    assert not re.search(r"[A-Za-z]", source) and " " not in source, source  # Chinese sentences, run together


@pytest.mark.parametrize("page", ["qkv", "masks", "multihead"])
def test_each_live_section_opens_on_the_chinese_sentence(page):
    for lang in LANGS:
        at = zh_page(page, lang, tab="live")
        assert any(x.startswith(SENTENCE) for x in texts(at, "text")), texts(at, "text")
        assert at.get("plotly_chart")


@pytest.mark.parametrize("lang", LANGS)
def test_the_qkv_live_part_reads_english_queries_against_chinese_keys(lang):
    """Cross-attention chosen on the live part: the Chinese sentence still shown, the query picker on the English
    output's first token, its walk-through checked against the model (moved from test_teaching_zh_browser; the switch
    from another kind: test_app_teaching)."""
    at = zh_page("qkv", lang, tab="live", **{"qkv.live.kind": "cross"})
    assert any(x.startswith(SENTENCE) for x in texts(at, "text")), texts(at, "text")
    assert at.selectbox(key="qkv.live.cross.query").value == 0  # "0: <s>", the decoder's first token
    assert at.get("plotly_chart") and at.success  # the recomputation agrees with the model


def test_the_scaling_pages_embedding_tables_are_the_chinese_models():
    """The page runs on the zh-en model's tables (their numbers, in both interface languages:
    tests/test_scaling_view.py)."""
    at = zh_page("scaling", "zh", tab="emb")
    assert at.get("plotly_chart")


@pytest.mark.parametrize("lang", LANGS)
def test_training_names_the_directions_languages_and_scores_an_english_reference(lang):
    source, target = NAMES[lang]
    at = zh_page("training", lang, tab="bleu")
    text = page_text(at)
    assert f"{source}–{target}" in text
    box = at.text_input(key="training.bleu.reference")
    assert box.label == strings(lang)["training.bleu.reference"].format(target=target)
    assert "tok:13a" in text and "tok:zh" not in text
    box.input("I have a dream .").run()
    assert not at.exception
    check = at.success[0].value
    scores = re.findall(r"\d+\.\d{4}", check)
    assert len(scores) == 2 and scores[0] == scores[1], check  # recomputed BLEU = sacrebleu's, on English words


@pytest.mark.parametrize("lang", LANGS)
def test_training_bleu_limits_reads_chinese_classroom_sentences_and_shows_english(lang):
    at = zh_page("training", lang, tab="bleuzh")
    frames = shown_tables(at)
    if not frames:  # every classroom sentence as our reference: said so
        assert at.info
        return
    assert NAMES[lang][1] in frames[0].columns
    box = at.selectbox(key="training.bleuzh.sentence")
    assert HAN.search(box.value_label if hasattr(box, "value_label") else box.format_func(box.value))


@pytest.mark.parametrize("lang", LANGS)
def test_the_lab_still_opens_with_the_chinese_model(lang):
    at = zh_page("lab", lang)
    assert at.button  # its Train button


def test_a_chinese_word_and_an_english_word_are_found_on_either_side():
    assert word_positions(["我", "有", "一", "个", "梦", "想", "。", "</s>"], "梦想") == [4, 5]
    assert word_positions(["▁I", "▁have", "▁a", "▁dre", "am", "."], "dream") == [3, 4]
    assert word_positions(["▁I", "▁dreamt"], "dream") == []
