"""The model card in English and 中文 from one generator: the same numbers in both, the Chinese card free of
untranslated English prose, the shipped cards what the generator writes from the shipped log."""

from __future__ import annotations

import copy
import json
import re
import string
from collections import Counter

import pytest

from model.architecture.config import ModelConfig
from cards import model_card
from cards.phrasebooks import EN, PHRASEBOOKS, ZH
from cards.writer import main as write_cards_cli
from model.loading.checkpoint import CARDS, CONFIG, read_training_log
from tests.support.backtranslation import BACKTRANSLATION
from tests.support.paths import CHECKPOINT

NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
# What stays as written in a Chinese card: code spans, links, the metrics' names, and ASCII tokens with a digit, _, =,
# ., / or - in them (run names, recipe changes, file names, x86_64).
NOT_PROSE = re.compile(r"`[^`]*`|<?https?://[^\s>）)]+>?|\b(?:BLEU|chrF)\b|[A-Za-z0-9]*[\d_=./-][A-Za-z0-9_=./-]*")
CJK = re.compile(r"[\u4e00-\u9fff]")
MIN_LETTERS = 12  # fewer ASCII letters than this is a name or two ("BLEU 签名"), not a sentence
MAX_ENGLISH = 0.6  # the Chinese card's lines: about 0.45 at most (the intro's Transformer, Vaswani, PyTorch)


def shipped(folder: str = "en-zh") -> tuple[ModelConfig, dict]:
    checkpoint = CHECKPOINT.parent / folder
    return ModelConfig.from_dict(json.loads((checkpoint / CONFIG).read_text(encoding="utf-8"))), read_training_log(checkpoint)


def every_branch(log: dict) -> dict:
    """The shipped log with what the shipped card leaves out: CC-CEDICT pairs, a test half no choice saw, no beam,
    a decoding sweep that kept its default, back-translated pairs."""
    log = copy.deepcopy(log)
    log["backtranslation"] = BACKTRANSLATION
    log["args"].update(dictionary_words=8000, names=3000)
    log["test"]["untouched"] = True
    log.pop("final")
    sweep = log["decoding_sweep"]  # a best setting whose lead was not significant: the default stays
    sweep.update(chosen=sweep["default"], p_value=0.3, test={**sweep["test"], "chosen": sweep["test"]["default"]})
    return log


def prose_lines(card: str) -> list[str]:
    """The card's lines outside ``` blocks."""
    lines, in_code = [], False
    for line in card.split("\n"):
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code:
            lines.append(line)
    return lines


def english_lines(card: str) -> list[tuple[float, str]]:
    """(share of ASCII letters among letters and CJK characters, line) of each line that reads as English."""
    found = []
    for line in prose_lines(card):
        rest = NOT_PROSE.sub("", line)
        letters, cjk = len(re.findall(r"[A-Za-z]", rest)), len(CJK.findall(rest))
        if letters >= MIN_LETTERS and letters / (letters + cjk) > MAX_ENGLISH:
            found.append((round(letters / (letters + cjk), 2), line))
    return found


@pytest.mark.parametrize("variant", ["shipped", "every_branch"])
def test_the_chinese_card_has_every_number_of_the_english_one_and_no_english_prose(variant):
    config, log = shipped()
    log = every_branch(log) if variant == "every_branch" else log
    en, zh = model_card(config, log, "en-zh", "en"), model_card(config, log, "en-zh", "zh")
    assert Counter(NUMBER.findall(en)) - Counter(NUMBER.findall(zh)) == Counter()
    assert english_lines(zh) == []
    assert english_lines(en)  # the check sees English prose where there is some
    # the same tables, row for row and column for column
    assert [line.count("|") for line in zh.split("\n") if line.startswith("|")] == [
        line.count("|") for line in en.split("\n") if line.startswith("|")]


def test_the_phrasebooks_have_the_same_entries_with_the_same_values():
    assert EN.keys() == ZH.keys()
    fields = {lang: {key: sorted(f for _, f, _, _ in string.Formatter().parse(text) if f) for key, text in book.items()}
              for lang, book in (("en", EN), ("zh", ZH))}
    assert fields["en"] == fields["zh"]


def test_the_phrasebooks_name_no_source_file():
    """The model card page shows the card to a teacher: the names section said "(`model/translation/names.py`)"."""
    files = {f"{book}.{key}": found for book, entries in PHRASEBOOKS.items() for key, text in entries.items()
             if (found := re.findall(r"[\w/]+\.py\b", text))}
    assert not files


def test_findings_the_study_gave_no_chinese_for_are_shown_in_english_under_a_note():
    config, log = shipped()
    log = {k: v for k, v in log.items() if k != "study_findings_zh"}
    zh = model_card(config, log, "en-zh", "zh")
    assert ZH["findings.untranslated"] in zh and f"- {log['study_findings'][0]}" in zh


def test_a_chinese_to_english_card_shows_the_findings_in_each_cards_own_language():
    """The zh-en model's phrasebooks are "en/zh-en" and "zh/zh-en": its English card is English too (no note that
    the findings are English only) and its Chinese card takes study_findings_zh."""
    config, log = shipped("zh-en")
    log = {**log, "study_findings": ["More steps helped."], "study_findings_zh": ["更多步数有帮助。"]}
    english, chinese = model_card(config, log, "zh-en", "en"), model_card(config, log, "zh-en", "zh")
    assert "- More steps helped." in english and PHRASEBOOKS["en/zh-en"]["findings.untranslated"] not in english
    assert "- 更多步数有帮助。" in chinese and "- More steps helped." not in chinese


def test_the_shipped_cards_are_what_the_generator_writes_from_the_shipped_log():
    config, log = shipped()
    for language, filename in CARDS.items():
        assert (CHECKPOINT / filename).read_text(encoding="utf-8") == model_card(config, log, "en-zh", language), (
            f"{filename} is stale: run python -m cards checkpoints/en-zh")


def test_the_cards_of_a_checkpoint_are_rewritten_without_retraining(tmp_path):
    folder = tmp_path / "en-zh"
    folder.mkdir()
    for name in (CONFIG, "training_log.json"):
        (folder / name).write_bytes((CHECKPOINT / name).read_bytes())
    assert write_cards_cli([str(folder)]) == 0
    for filename in CARDS.values():
        assert (folder / filename).read_text(encoding="utf-8") == (CHECKPOINT / filename).read_text(encoding="utf-8")


def test_python_m_cards_writes_both_cards_and_refuses_a_folder_without_a_log(tmp_path):
    """The command README.md and model/training/README.md run after training (the trainer writes no card)."""
    import subprocess
    import sys

    folder = tmp_path / "zh-en"
    folder.mkdir()
    for name in (CONFIG, "training_log.json"):
        (folder / name).write_bytes((CHECKPOINT.parent / "zh-en" / name).read_bytes())
    done = subprocess.run([sys.executable, "-m", "cards", str(folder)], capture_output=True, text=True,
                          cwd=CHECKPOINT.parent.parent, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(folder / name) for name in CARDS.values()]
    for filename in CARDS.values():
        expected = (CHECKPOINT.parent / "zh-en" / filename).read_text(encoding="utf-8")
        assert (folder / filename).read_text(encoding="utf-8") == expected
    (folder / "training_log.json").unlink()
    refused = subprocess.run([sys.executable, "-m", "cards", str(folder)], capture_output=True, text=True,
                             cwd=CHECKPOINT.parent.parent, timeout=120)
    assert refused.returncode == 2 and "no readable training_log.json" in refused.stderr


def test_the_card_shows_names_read_as_known_ones_beside_reading_as_typed():
    config, log = shipped()
    effect = log["names_effect"]
    for language, header in (("en", "## Names it never learned"), ("zh", "## 没学过的名字")):
        card = model_card(config, log, "en-zh", language)
        section = card[card.index(header):]
        for label in ("as_typed", "names_read_as"):
            row = effect[label]
            assert f"| {row['test']['bleu']} | {row['test']['chrf']} |" in section
            assert f"| {row['names_survived']} / {row['names']} |" in section
        assert "CC BY-SA 4.0" in section
    assert model_card(config, {k: v for k, v in log.items() if k != "names_effect"}).count("Names it never") == 0


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_test_half_says_the_confidence_thresholds_were_fitted_on_it_when_they_were(language):
    config, log = shipped()
    assert log["calibration"]["pairs"] == log["dev_pairs"]  # the shipped thresholds: fitted on all of dev
    card = model_card(config, log, "en-zh", language)
    test_section = card[card.index("## " + ("Held-out" if language == "en" else "留出")):]
    said = PHRASEBOOKS[language]["test.thresholds_all"].format(pairs=f"{log['dev_pairs']:,}")
    assert said in test_section.split("\n\n")[1]
    selection = copy.deepcopy(log)
    selection["calibration"]["pairs"] = log["dev_pairs"] - log["test"]["pairs"]  # the selection half only
    card = model_card(config, selection, "en-zh", language)
    assert said not in card
    fitted = f"{selection['calibration']['pairs']:,}"
    assert PHRASEBOOKS[language]["test.thresholds_selection"].format(pairs=fitted) in card
    # Trained with --test-split, the log's dev pairs are the selection half itself: thresholds fitted on all of it
    # never saw the test half (the zh-en model's case), and one pair more than it did.
    split = copy.deepcopy(selection)
    split["args"]["test_split"] = True
    split["dev_pairs"] = split["calibration"]["pairs"]
    assert PHRASEBOOKS[language]["test.thresholds_selection"].format(pairs=fitted) in model_card(config, split, "x",
                                                                                                   language)
    split["calibration"]["pairs"] += 1
    assert PHRASEBOOKS[language]["test.thresholds_all"].format(
        pairs=f"{split['calibration']['pairs']:,}") in model_card(config, split, "x", language)


def test_a_chinese_to_english_card_names_its_direction_in_both_languages():
    """The same generator writes the zh-en card: its own direction, vocabularies and everyday set, the same numbers."""
    config, log = shipped()
    turned = ModelConfig.from_dict({**config.__dict__, "source_language": "zh", "target_language": "en"})
    english, chinese = model_card(turned, log, "zh-en"), model_card(turned, log, "zh-en", language="zh")
    assert "**Chinese → English**" in english and "| direction | Chinese (zh, Simplified) → English (en) |" in english
    assert "Chinese 4000 (one token per character), English BPE 3273" in english
    assert "classroom_zh.tsv" in english and "classroom_zh.tsv" in chinese
    assert "把**中文译成英文**" in chinese and "中文（zh，简体）→ 英文（en）" in chinese
    assert "English → Chinese" not in english and "把**英文译成中文" not in chinese
    assert Counter(NUMBER.findall(english)) == Counter(NUMBER.findall(model_card(config, log, "zh-en")))


@pytest.mark.parametrize("folder", ["en-zh", "zh-en"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_shipped_cards_name_no_source_file(folder, lang):
    """What the card page shows comes from the phrasebooks and the log's own findings too: en-zh's study finding said
    "(model/translation/names.py)"."""
    config, log = shipped(folder)
    assert not re.findall(r"[\w/]+\.py\b", model_card(config, log, folder, lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_card_of_back_translated_pairs_credits_the_test_sets_and_says_what_was_kept_out(lang):
    config, log = shipped()
    card = model_card(config, every_branch(log), "en-zh", lang)
    plain = model_card(config, shipped()[1], "en-zh", lang)
    section = card[card.index("### "):card.index("## ", card.index("### ") + 4)]
    assert "[Helsinki-NLP/OPUS-MT-testsets](https://github.com/Helsinki-NLP/OPUS-MT-testsets)" in section
    assert "CC-BY 2.0 FR" in section and "`ac0f19c`" in section and "v2021-08-07" in section
    assert ("English–Chinese test" if lang == "en" else "所有英中测试文件") in section  # the exclusion rule
    assert "| 17,346 |" in section and "17,316" in section and "17,346" in section
    assert ("en-zh-bt (this model)" if lang == "en" else "en-zh-bt（本模型）") in section
    assert "**+1.16** [0.60, 1.70]" in section and "**+1.40** [−0.50, 3.30]" in section
    # the model it replaced: its row named, and the shipping rule's comparison with it in a sentence of its own
    assert ("en-zh (reference, shipped first)" if lang == "en" else "en-zh（参照，最早发布的）") in section
    assert ("en-zh-bt-first (shipped before this one)" if lang == "en" else "en-zh-bt-first（本模型之前发布的）") in section
    replaced = next(p for p in section.split("\n\n") if p.startswith(("Against en-zh-bt-first", "与本模型取代的 en-zh-bt-first")))
    assert "**+0.90** [−1.10, 2.90]" in replaced and "**+0.41** [0.03, 0.80]" in replaced
    assert "--method beam-noise --beam 4 --delete 0.1 --blank 0.1 --swap 3 --seed 1 --limit 17346" in section
    assert "--tag --real-copies 2" in section
    assert "26,777" in card and "70,870 training pairs" not in card  # the real pairs, not the training file's lines
    assert "OPUS-MT-testsets" not in plain and "### " not in plain


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_chinese_to_english_cards_limits_quote_its_own_classroom_translation_of_two_names(lang):
    config, log = shipped("zh-en")
    log = copy.deepcopy(log)
    row = next(r for r in log["everyday"]["classroom"] if r["en"] == "爱丽丝和鲍勃是朋友。")
    row["translation"] = "Alice and Bob are friends, made up."
    assert "Alice and Bob are friends, made up." in model_card(config, log, "zh-en", lang)
    log.pop("everyday")
    assert "爱丽丝和鲍勃是朋友。" not in model_card(config, log, "zh-en", lang)  # no example without the log's
