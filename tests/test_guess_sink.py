"""Guess first's "why": a sink is explained by the rule that names it (an end token or punctuation mark that is the
strongest key in at least SINK_SHARE of the rows), not as a head that "parks most of its attention" there, which
the numbers behind it do not measure."""

from __future__ import annotations

import math

import numpy as np
import pytest

from app_pages.components import guessing
from app_pages.shell.text import in_language
from lessons import classroom


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_sink_is_explained_by_its_rule(monkeypatch, lang):
    keys = ["▁I", "▁dream", "</s>"]
    sink = np.array([[0.1, 0.1, 0.8], [0.2, 0.1, 0.7], [0.6, 0.3, 0.1]])  # </s> strongest in 2 of 3 rows
    verdict = classroom.guess_verdict(sink, 0, 0, keys, False)
    assert verdict.reason == "sink"
    said = []
    for name in ("markdown", "success", "info", "caption"):
        monkeypatch.setattr(guessing.st, name, lambda text, *a, **k: said.append(text))
    with in_language(lang):
        guessing.say_verdict(verdict, keys, rows=3, n=3)
    (why,) = [text for text in said if "2 of 3 rows" in text or "3 行中有 2 行" in text]
    least = math.ceil(classroom.SINK_SHARE * 3)
    if lang == "en":
        assert f"at least {classroom.SINK_SHARE:.0%} of the rows ({least} of 3)" in why
        assert "parks most of its attention" not in why
    else:
        assert f"至少 {classroom.SINK_SHARE:.0%} 的行（3 行中的 {least} 行）" in why and "大部分注意力" not in why
        assert "。 " not in why and ", " not in why  # a Chinese list with 、
