"""How the translate page reads a Chinese → English translation, in a running page: which likely names the model
cannot read, and a confidence never shown equal to the line it is on one side of, in the verdict, the legend and the
token chips. What the page's texts say in both interface languages (no gap after 。, byte tokens explained where they
show, a name the model cannot read said under the translation) is checked on its view in tests/test_translate_view.py.
No assertion on what the zh-en model writes: its weights change with every training run."""

from __future__ import annotations

import json

import pytest

import model
from app_pages.components.table_view import percents_apart
from app_pages.shell.text import md_escape
from app_pages.state import examples
from i18n import strings
from model import Confidence, unread_names
from tests.support.apptest import opened
from tests.support.paths import ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                                reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")

DUMPLING = "我喜欢吃饺子。"  # 饺 has no token of its own: three byte tokens
FRIEND = "李明是我的好朋友。"  # 李明: a name Tatoeba's Chinese never holds
DREAM = "我有一个梦想。"  # neither


def app(lang: str, sentence: str = DREAM, kind: str = "encoder_self"):
    """The translate page of the Chinese → English model in a new session, as a link opens it."""
    return opened({"s": sentence, "model": "zh-en", "lang": lang, "kind": kind})


def test_likely_names_are_found_and_everyday_words_are_not():
    assert unread_names(FRIEND) == ["李明"]
    assert unread_names("我叫爱丽丝。") == ["爱丽丝"]  # CC-CEDICT's transliteration of Alice
    assert unread_names("王先生是老师。") == ["王先生"] and unread_names("他姓王。") == ["王"]
    assert unread_names("我和张伟去公园。") == ["张伟"]
    for learned in ("汤姆是我的好朋友。", "汤姆不是真的爱玛丽。"):  # the names it learned (爱玛 is no name here)
        assert unread_names(learned) == []
    for sentence in ("王子很帅。", "我买了一张纸。", "麦克风坏了。", DUMPLING):
        assert unread_names(sentence) == []
    assert not [e.sentence for e in examples.for_language("zh") if unread_names(e.sentence)]


def threshold_of(part: str) -> float:
    """The zh-en checkpoint's calibrated threshold for "sentence" or "token"."""
    log = json.loads((ZH_CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))
    return log["calibration"][part]["threshold"]


@pytest.mark.parametrize("side", [-1, 1])
def test_a_score_beside_the_line_is_shown_on_its_side_of_it(side):
    threshold = threshold_of("sentence")
    for gap in (4e-3, 4e-4, 4e-5):
        score, line = percents_apart(threshold + side * gap, threshold)
        assert score != line and (float(score[:-1]) - float(line[:-1])) * side > 0
    assert percents_apart(threshold - 0.05, threshold)[0] == f"{threshold - 0.05:.0%}"  # far from it: whole percents


@pytest.mark.parametrize("side", [-1, 1])
def test_the_page_never_says_80_below_the_80_line(side, monkeypatch):
    """A translation whose confidence, and a token whose probability, is 0.04 points from its line, either side:
    rounded to whole percents each would read as the line itself. The page's marks reach the verdict, the legend and
    the chips (in both languages the view's texts: tests/test_translate_view.py)."""
    lang = "en"
    threshold, tau = threshold_of("sentence"), threshold_of("token")
    score, first = threshold + side * 4e-4, tau + side * 4e-4
    measured = model.assess

    def assess(probs, log):  # the page imports assess from model on every run: this one scores `score`
        c = measured(probs, log)
        return Confidence([first, *c.probs[1:]], [first < tau, *c.low[1:]], score, score < threshold, c.calibration)

    monkeypatch.setattr(model, "assess", assess)
    shown, line = percents_apart(score, threshold)
    key = "confidence.unsure_short" if side < 0 else "confidence.sure_short"
    at = app(lang)
    expected = strings(lang)[key].format(score=shown, threshold=line)
    assert any(expected in m for m in [m.value for m in at.markdown] + [c.value for c in at.caption])
    assert shown != line and f"{threshold:.0%}" == line
    chip, token_line = percents_apart(first, tau)
    assert chip != token_line
    legend = [c.value for c in at.caption if strings(lang)["confidence.legend"][:8] in c.value]
    assert legend and f" {token_line}" in legend[0]  # the legend's line, as the chip's digits compare to it
    badges = [m for m in at.markdown if "badge" in m.value and md_escape(chip) in m.value]
    assert badges and chip in badges[0].proto.help  # its tooltip's exact value: no fewer digits than the chip
