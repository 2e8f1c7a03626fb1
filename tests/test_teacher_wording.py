"""What a teacher reads on the training page and the model card names no source files, Python names or command
lines (they are in the README), and 中文 mode quotes PyTorch's English error only as a labelled original."""

from __future__ import annotations

import re

import pytest

from i18n import strings
from tests.support.apptest import open_page, page_text

# A file or module path a page must not show: model/training/train.py, training_log.json, model.data.unlike_training
DEVELOPER_NAME = re.compile(r"\b[\w/]+\.(py|json)\b|\bmodel[./](data|training|architecture)\b|python -m")
TRAINING_KEYS = ("training.intro", "training.missing", "training.adam.settings", "training.batch.how",
                 "training.calib.missing", "training.calib.how", "training.dropout.embeddings",
                 "training.dropout.sublayers", "training.dropout.attention", "training.dropout.activation")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_training_pages_words_name_no_files(lang):
    found = {key: strings(lang)[key] for key in TRAINING_KEYS if DEVELOPER_NAME.search(strings(lang)[key])}
    assert not found, found


# The trainer's own names: a function (make_batches), a command-line flag (--max-tokens), a data file (dev.tsv)
TRAINER_NAME = re.compile(r"\bmake_batches\b|(?<![\w-])--[a-z][a-z-]+|\b[\w/]+\.tsv\b")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_training_page_text_names_the_trainers_functions_flags_or_files(lang):
    found = {key: text for key, text in strings(lang).items()
             if key.startswith("training.") and (TRAINER_NAME.search(text) or DEVELOPER_NAME.search(text))}
    assert not found, found


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_calibration_tab_shows_no_command_line(lang):
    at = open_page("training", lang, tab="calib")
    assert not [code.value for code in at.code if "python -m" in code.value]
    assert not DEVELOPER_NAME.search(" ".join(c.value for c in at.caption))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_model_card_names_no_python_function(translator, lang):
    card = translator.card_in(lang)
    assert "model.data." not in card and not re.search(r"`model\.\w+\.\w+`", card)


def test_the_multihead_page_in_chinese_says_pytorchs_refusal_in_chinese():
    at = open_page("multihead", "zh", tab="doc")
    (bugs,) = [i.value for i in at.info if "nn.MultiheadAttention" in i.value]
    english = re.sub(r"`[^`]*`", "", bugs)  # the original, quoted as such in a code span
    assert "was expecting" not in english and "英文原文" in bugs
    assert "期望的嵌入维度是 299" in bugs and "得到的却是 300" in bugs
