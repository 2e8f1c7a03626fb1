"""Is attention an explanation? with the Chinese → English model (issue 49), in English and 中文 (streamlit.testing):
attribution beside attention and head knock-out run on it, its maps' axes name Chinese as the source and English as
the target, and the alignment tab scores it against the gold links turned round, its AER figures measured live (the
numbers on screen are the ones evaluation.alignment.directions computes), with no wording of an English source or
Chinese output. No assertion on what the zh-en model writes: its weights change with every training run."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.shell.text import md_escape
from evaluation.alignment.directions import attention_scores, directed
from evaluation.alignment.gold import load_gold
from i18n import strings
from tests.support.explanation import expected_numbers, page as english_model_page
from tests.support.paths import ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                                reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")

SENTENCE = "我有一个梦想。"
LANGS = ["en", "zh"]


def page(lang: str, tab: str | None = None) -> AppTest:
    return english_model_page(lang, tab, model="zh-en", sentence=SENTENCE)


def axis(lang: str, role: str, side: str, language: str) -> str:
    s = strings(lang)
    return s[f"axis.{role}_of"].format(tokens=s[f"axis.{side}_tokens"].format(language=s[f"language.{language}"]))


def titles(at: AppTest) -> list[tuple[str, str]]:
    """Each chart's (row title, column title), line breaks undone."""
    out = []
    for chart in at.get("plotly_chart"):
        layout = json.loads(chart.proto.spec)["layout"]
        row = layout.get("yaxis2", layout["yaxis"])["title"]["text"]
        column = layout.get("xaxis2", layout["xaxis"])["title"]["text"]
        out.append(tuple(re.sub(r"\s*<br>\s*", " ", x) for x in (row, column)))
    return out


def screen(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info])


@pytest.fixture(scope="module")
def live(zh_translator) -> dict:
    """The alignment figures as the page should show them for the zh-en model: its log's, where evaluation.alignment
    stored them for a Chinese source; otherwise measured as the page measures them live."""
    stored = zh_translator.training_log.get("alignment")
    if stored and stored.get("source_language") == "zh":
        return stored
    return attention_scores(zh_translator.teacher_forced, [directed(p, "zh") for p in load_gold()])


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_opens_with_zh_ens_own_figures(lang, zh_translator):
    """The opening box reads the zh-en model's own log: every figure of its three parts (agreement, head importance
    and pruning, alignment)."""
    log = zh_translator.training_log
    for key in ("heads", "agreement", "alignment"):  # evaluation.<key> measures each
        assert key in log, f"python -m evaluation.{key} --checkpoint checkpoints/zh-en measures it"
    at = page(lang)
    box = at.markdown[0].value
    assert box.startswith("1. "), box
    for number in expected_numbers(log, lang):
        assert number in box, (number, box)
    assert "\n2. " in box and "\n3. " in box


@pytest.mark.parametrize("lang", LANGS)
def test_attribution_and_attention_maps_name_chinese_as_the_source(lang, zh_translator):
    at = page(lang)
    shown = titles(at)
    assert len(shown) == 4
    assert set(shown) == {(axis(lang, "queries", "target", "en"), axis(lang, "keys", "source", "zh"))}
    result = zh_translator.translate(SENTENCE)
    for chart in at.get("plotly_chart"):
        layout = json.loads(chart.proto.spec)["layout"]
        x, y = (layout.get(f"{a}2") or layout[a] for a in ("xaxis", "yaxis"))
        assert x["tickangle"] == 0, "the Chinese source characters stand upright: there is room"
        assert y["ticktext"][0] == "&lt;s&gt;" == "&lt;" + result.target_tokens[0][1:-1] + "&gt;"
    # The rows are labelled by the token each step reads (<s> first), and the caption says so.
    caption = "\n".join(c.value for c in at.caption)
    assert strings(lang)["explain.maps.caption"].split("{")[0] in caption
    assert "<s>" in strings(lang)["explain.maps.caption"] and "being written" not in caption


@pytest.mark.parametrize("lang", LANGS)
def test_knocking_out_every_cross_head_retranslates_the_chinese_sentence(lang, zh_translator):
    at = page(lang, "knock")
    at.button(key="explain.knock.cross").click().run()
    assert not at.exception, [e.message for e in at.exception]
    layers, heads = zh_translator.config.n_decoder_layers, zh_translator.config.n_heads
    knocked = zh_translator.translate(SENTENCE, knock_out=tuple(("cross", l, h) for l in range(layers)
                                                                   for h in range(heads)))
    assert [m.value for m in at.markdown if md_escape(knocked.translation or "∅") in m.value]
    assert {axis(lang, "keys", "source", "zh")} == {column for _, column in titles(at)}


@pytest.mark.parametrize("lang", LANGS)
def test_the_alignment_tab_scores_the_turned_gold(lang, live):
    """The zh-en model's alignment figures — its log's, or where it has none, measured on the page, said so, and
    equal to attention_scores' on the gold turned round; the best layer average is weighed against the chosen head
    (zh-en: layer 3's average beats the best single head); the map has English words down and Chinese characters
    across."""
    at = page(lang, "align")
    s = strings(lang)
    text = screen(at)
    chosen = live["chosen"]
    assert live["pairs"] > 0
    stored = "baseline" in live
    template = s["explain.align.intro" if stored else "explain.align.intro_live"]
    marker = max(re.split(r"\{[^}]*\}", template), key=len)  # its longest fixed text
    intro = [m.value for m in at.markdown if marker in m.value]
    assert intro, text
    for number in (f"{chosen['aer']:.3f}", f"{chosen['low']:.3f}", f"{chosen['high']:.3f}"):
        assert number in intro[0]
    if not stored:
        assert s["language.zh"] + " → " + s["language.en"] in intro[0]
    layers = [(aer, reading, layer) for reading in ("plain", "shifted")
              for layer, aer in enumerate(live[f"layers_{reading}"])]
    aer, reading, layer = min(layers)
    key = "explain.align.layer_better" if aer < chosen["aer"] else "explain.align.layer_worse"
    assert s[key].format(layer=layer + 1, aer=f"{aer:.3f}", shifted=s["explain.align.shifted"] if reading ==
                         "shifted" else "") in intro[0]
    table = next(m.value for m in at.markdown if m.value.startswith("| "))
    best = min(x for row in live["heads_plain"] for x in row)
    assert f"| {best:.3f} |" in table
    map_titles = titles(at)[0]  # the gold sentence's map; the heads' roles follow where the log has them
    assert map_titles == (s["explain.align.rows"].format(target_units=s["explain.align.units.en"]),
                          s["explain.align.cols"].format(source_units=s["explain.align.units.zh"]))
    assert s["explain.align.map_units.zh"] in text
    first = directed(load_gold()[0], "zh")
    assert at.selectbox(key="explain.align.pair").options[0] == f"{first.source} — {first.target}"
    # Nothing says the source is English or the output Chinese.
    for wrong in (s["explain.align.map_units.en"], s["explain.align.how.en"],
                  s["explain.align.rows"].format(target_units=s["explain.align.units.zh"])):
        assert wrong not in text
