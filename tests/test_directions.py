"""Both directions at the model's level: a source's language decides its normalisation, its tokens and what is said
about a sentence in the other language (issue 49)."""

from __future__ import annotations

import pytest

from model import ModelConfig
from model.text.normalize import normalize_source
from model.training.data import in_direction, split_dev
from model.training.metrics import score
from model.translation.scripts import script_notices
from tests.support.tiny import tiny_chinese_translator, tiny_translator


@pytest.mark.parametrize(("typed", "language", "said"), [
    ("I have a dream.", "en", []),
    ("我有一个梦想。", "en", ["not_english"]),
    ("I have a 梦想.", "en", ["mixed_chinese"]),
    ("😀 123 ?!", "en", []),
    ("我有一个梦想。", "zh", []),
    ("I have a dream.", "zh", ["not_chinese"]),
    ("我买了一件T恤。", "zh", []),  # one letter is not yet English
    ("我喜欢Python。", "zh", ["mixed_latin"]),
    ("我有一個夢想。", "zh", ["simplified"]),
    ("我有一个梦想，你呢？", "zh", []),  # full-width punctuation made ASCII by NFKC is no conversion
])
def test_what_is_said_about_a_sentence_in_either_direction(typed, language, said):
    used = normalize_source(typed, language)
    assert [n.key for n in script_notices(typed, used, language)] == said


def test_a_chinese_source_is_simplified_and_its_punctuation_one_way():
    assert normalize_source("我有一個夢想，你呢？", "zh") == "我有一个梦想,你呢?"
    assert normalize_source("我有一个梦想,你呢?", "zh") == "我有一个梦想,你呢?"
    assert normalize_source("我有一個夢想", "en") == "我有一個夢想"  # an English source is never converted


def test_the_chinese_reading_model_translates_and_says_what_it_was_given():
    zh = tiny_chinese_translator()
    result = zh.translate("我有一個夢想。")
    assert result.source_tokens[:6] == ["我", "有", "一", "个", "梦", "想"]
    assert result.source_text == "我有一个梦想。" and "simplified" in [n.key for n in result.notices]
    assert "not_chinese" in [n.key for n in zh.translate("I have a dream.").notices]
    assert "not_english" in [n.key for n in tiny_translator().translate("我有一个梦想。").notices]


def test_a_model_states_its_languages_and_refuses_nonsense():
    assert (ModelConfig(10, 10).source_language, ModelConfig(10, 10).target_language) == ("en", "zh")
    with pytest.raises(ValueError, match="source_language must be one of"):
        ModelConfig(10, 10, source_language="fr")
    with pytest.raises(ValueError, match="both 'zh'"):
        ModelConfig(10, 10, source_language="zh", target_language="zh")


def test_both_directions_hold_out_the_same_test_half():
    pairs = [(f"Sentence number {i}.", f"第{i}句。") for i in range(40)]
    select, test = split_dev(pairs)
    turned = in_direction(test, "zh")
    assert [en for _, en in turned] == [en for en, _ in test] and select and test
    assert in_direction(pairs, "en") is pairs


def test_english_output_is_scored_on_words_and_chinese_on_characters():
    english = score(["I have a dream ."], ["I have a dream ."], "en")
    assert english["bleu"] == 100.0 and "tok:13a" in english["bleu_signature"]
    assert "tok:zh" in score(["我有一个梦想。"], ["我有一个梦想。"])["bleu_signature"]


def test_dev_tools_read_english_first_pairs_and_turn_them_for_a_chinese_model():
    """The dev file stays (English, Chinese); each tool turns it to the model's direction where it decodes."""
    from evaluation import decoding_sweep
    from model.training.train import dev_scores

    zh = tiny_chinese_translator()
    pairs = [("I have a dream.", "我有一个梦想。"), ("Who are you?", "你是谁？")]
    row, outputs = decoding_sweep.decode(zh, pairs, 1, None)
    assert "tok:13a" in row["signature"] and outputs == zh.translations(["我有一个梦想。", "你是谁？"], 1)
    scored = dev_scores(zh.model, zh.src_tok, zh.tgt_tok, pairs, [0])
    assert "tok:13a" in scored["bleu_signature"] and scored["samples"] == outputs


ZH_ODD = {  # what a class types into the Chinese → English model, and what it is told
    "emoji": ("我爱你😀🙈", []),
    "full-width punctuation": ("你好，世界！（测试）", []),
    "traditional": ("我們學習中文。", ["simplified"]),
    "mixed script": ("我喜欢Python和AI。", ["mixed_latin"]),
    "English": ("I have a dream.", ["not_chinese"]),
    "markup": ("<script>alert(1)</script>我", ["mixed_latin"]),
    "special-token names": ("我 <pad> </s> <s> 你", ["mixed_latin"]),
    "Japanese kana": ("こんにちは、世界", []),
}


@pytest.mark.parametrize(("text", "said"), ZH_ODD.values(), ids=ZH_ODD.keys())
def test_the_chinese_model_translates_odd_input_and_says_what_it_should(zh_translator, text, said):
    result = zh_translator.translate(text)
    keys = [n.key for n in result.notices]
    assert keys in (said, [*said, "output_cut"]), keys
    assert result.source_tokens[-1] == "</s>" and not {"<pad>", "<s>", "<unk>"} & set(result.source_tokens[:-1])
    assert result.cross.shape[2:] == (len(result.target_tokens), len(result.source_tokens))


def test_the_chinese_model_refuses_nothing_and_cuts_a_paste(zh_translator):
    from model import InputError

    for empty in ("", "  \u200b ", "\u3000\u3000"):  # an ideographic space is a space too
        with pytest.raises(InputError, match="empty"):
            zh_translator.translate(empty)
    result = zh_translator.translate("我有一个梦想。" * 400, beam=1)
    assert {"chars_cut", "tokens_cut"} <= {n.key for n in result.notices}
    assert len(result.source_tokens) <= zh_translator.config.max_len


def test_the_benchmark_times_the_chinese_model_on_chinese_sentences_of_each_length(zh_translator):
    from benchmarks.run import sentence_of

    for n in (10, 20, 40):
        text = sentence_of(zh_translator.src_tok, n, "zh")
        assert len(zh_translator.src_tok.encode(text)) == n and not any(ch.isascii() and ch.isalpha() for ch in text)


def test_every_measurement_reads_the_dev_file_in_the_models_direction(tmp_path):
    """evaluation/: calibrate, reliability, coverage and heads, given the (English, Chinese) dev file and a model
    reading Chinese, feed it the Chinese side and score its English (each writes its entry into the log)."""
    from evaluation import calibrate, coverage, heads, reliability
    from model.loading.checkpoint import read_training_log, save_checkpoint

    zh = tiny_chinese_translator()
    folder = save_checkpoint(tmp_path / "ck", zh.model, zh.src_tok, zh.tgt_tok, training_log={"train_pairs": 3})
    dev = tmp_path / "dev.tsv"
    dev.write_text("I have a dream.\t我有一个梦想。\nWho are you?\t你是谁？\nI love you.\t我爱你。\n"
                   "What is your name?\t你叫什么名字？\n", encoding="utf-8")
    common = ["--checkpoint", str(folder), "--dev", str(dev)]
    assert reliability.main(common) == 0 and calibrate.main([*common, "--beam", "1"]) == 0
    assert coverage.main([*common, "--train", str(dev)]) == 0
    assert heads.main([*common, "--pairs", "2"]) == 0
    log = read_training_log(folder)
    longest_chinese = max(len(zh.src_tok.encode(z)) for z in ("我有一个梦想。", "你是谁？", "我爱你。", "你叫什么名字？"))
    assert log["lengths"]["source_tokens"] == longest_chinese + 1  # Chinese sources, with </s>
    assert log["reliability"]["pairs"] == 4 and log["heads"]["pairs"] <= 2
