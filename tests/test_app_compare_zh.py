"""Compare with both directions offered, in a running page (streamlit.testing): Both directions shows one
sentence pair from both sides (the sidebar's model on the sentence, the other direction's model on what it wrote),
the right cross-attention map transposed so both have the same language on the same axis; every comparison works
with the Chinese → English model in the sidebar, on Chinese sentences, its captions naming Chinese as the source.
No assertion on what the zh-en model writes: its weights change with every training run."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import examples, state_keys
from lessons.attention_maps import clearest_layer
from app_pages.shell.text import md_escape
from i18n import strings
from tests.support.paths import ROOT, ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                                reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")

PAGE = "app_pages/pages/compare.py"
SENTENCES = {"en-zh": "I have a dream.", "zh-en": "我有一个梦想。"}
LANGS = ["en", "zh"]


def app(lang: str, model: str, mode: str | None = None, sentence: str | None = None, **state) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state[state_keys.CHECKPOINT] = model
    at.session_state[state_keys.SENTENCE] = sentence or SENTENCES[model]
    at.session_state[state_keys.LANG] = lang
    if mode is not None:  # as a link's mode= sets it (AppTest's set_value misses a Chinese-labelled option)
        at.session_state["compare.mode"] = mode
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.segmented_control(key="compare.mode").value == (mode or at.session_state["compare.mode"])
    return at


def charts(at) -> dict[str, dict]:
    return {chart.key: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}


def shape(spec: dict) -> tuple[int, int]:
    return np.array(spec["data"][0]["z"], dtype=float).shape


def captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def axis(lang: str, role: str, side: str, language: str) -> str:
    """An axis name as the page writes it: "queries (Chinese target tokens)"."""
    s = strings(lang)
    return s[f"axis.{role}_of"].format(tokens=s[f"axis.{side}_tokens"].format(language=s[f"language.{language}"]))


def label(model: str) -> str:
    return {"en-zh": "English → 中文 (en-zh)", "zh-en": "中文 → English (zh-en)"}[model]


def labels_shown(spec: dict, axis_name: str) -> int:
    """How many labels an axis letter ("x", "y") draws: its overlay's where it thins them (viz.heatmap)."""
    axes = [a for name, a in spec["layout"].items()
            if name.startswith(f"{axis_name}axis") and a.get("showticklabels", True)]
    return sum(len(a.get("ticktext", ())) for a in axes)


def axis_title(spec: dict, axis_name: str) -> str:
    """A figure's title of `axis_name` ("x" or "y"; its second axes where it has them), its line breaks undone."""
    layout = spec["layout"]
    title = (layout.get(f"{axis_name}axis2") or layout[f"{axis_name}axis"])["title"]
    return re.sub(r"\s*<br>\s*", " ", title["text"] if isinstance(title, dict) else title)


@pytest.mark.parametrize(("lang", "model", "sentence"), [("en", "en-zh", "Tom bought three apples yesterday."),
                                                    ("zh", "zh-en", "汤姆昨天买了三本书。")])
def test_both_directions_open_on_the_clearest_layer_with_one_pair_from_both_sides(translator, zh_translator, lang,
                                                                                  model, sentence):
    """A pill of each direction, a run per language: the page opens on Both directions (no second model reads the same
    language), on the layer clearest_layer computes from both models' cross-attention (not layer 1); the right model
    reads what the left one wrote, its cross-attention drawn transposed, its axes titled turned round, until the
    toggle under it turns it back; both maps label every row and column, one colour bar, on the right map. What the
    lines, the captions and every pair's axis titles say, in both languages: tests/test_compare_view.py and
    tests/test_compare_view_zh.py."""
    at = app(lang, model, sentence=sentence)
    assert at.segmented_control(key="compare.mode").value == "directions"
    models = {"en-zh": translator, "zh-en": zh_translator}
    other = "zh-en" if model == "en-zh" else "en-zh"
    left = models[model].translate(sentence)
    right = models[other].translate(left.translation)
    expected = clearest_layer(left.cross, right.cross)
    assert at.session_state["compare.layer"] == expected and expected != 0
    assert at.segmented_control(key="compare.layer").value == expected
    shown = charts(at)
    sizes = {"compare.chart.left": left.cross.shape[2:], "compare.chart.right": right.cross.shape[2:][::-1]}
    for key, (rows, cols) in sizes.items():
        assert shape(shown[key]) == (rows, cols), key  # the right map transposed: what the right model read, down
        assert (labels_shown(shown[key], "y"), labels_shown(shown[key], "x")) == (rows, cols), key
    assert [shown[f"compare.chart.{which}"]["data"][0]["showscale"] for which in ("left", "right")] == [False, True]
    says = [m.value for m in at.markdown]
    assert all([m for m in says if md_escape(r.translation) in m] for r in (left, right))  # each line names its own
    s = strings(lang)
    assert axis_title(shown["compare.chart.left"], "y") == s["axis.queries"]
    assert (axis_title(shown["compare.chart.right"], "y"), axis_title(shown["compare.chart.right"], "x")) == (
        s["axis.keys"], s["axis.queries"])
    assert at.toggle(key="compare.transpose").label == s["compare.transpose"]
    at.toggle(key="compare.transpose").set_value(False).run()  # as the right model computed it
    assert not at.exception
    assert shape(charts(at)["compare.chart.right"]) == right.cross.shape[2:]
    source, target = model.split("-")
    assert s["compare.directions_cross"].format(source=s[f"language.{source}"],
                                                target=s[f"language.{target}"]) in captions(at)


@pytest.mark.parametrize(("lang", "mode"), [("zh", "models"), ("en", "sentences")])
def test_the_two_models_and_two_sentences_work_with_the_chinese_model_in_the_sidebar(lang, mode):
    """Two models in 中文 (the picker, and the caption once the other direction is chosen), two sentences in English
    (the pairs of Chinese sentences in the boxes and pills). Two heads and two sentences' captions in both languages:
    tests/test_compare_view_zh.py."""
    at = app(lang, "zh-en", mode)
    s = strings(lang)
    assert len(charts(at)) >= 2
    named = s["axis.note"].format(queries=axis(lang, "queries", "target", "en"),
                                  keys=axis(lang, "keys", "source", "zh"))
    if mode == "models":  # no other model reads Chinese: zh-en beside itself; en-zh chosen, the caption says why not
        assert at.selectbox(key="compare.right").value == "zh-en"
        assert s["compare.other_way"].format(left=label("zh-en"), right=label("en-zh"),
                                             mode=s["compare.mode.directions"]) not in captions(at)
        at.selectbox(key="compare.right").set_value("en-zh").run()
        assert not at.exception
        assert s["compare.other_way"].format(left=label("zh-en"), right=label("en-zh"),
                                             mode=s["compare.mode.directions"]) in captions(at)
    else:
        assert named in captions(at) or md_escape(named) in captions(at)
    if mode == "sentences":  # Chinese sentences: the pairs zh-en translates right, and zh-en's own mistranslations
        pairs = examples.SENTENCE_PAIRS_ZH  # tests/test_examples.py runs zh-en on each
        assert [at.text_input(key=k).value for k in ("compare.sentence_a", "compare.sentence_b")] == list(
            pairs[0].sentences)
        assert at.pills(key="compare.pair").options == [p.label() for p in pairs]
        wrong = at.pills(key="compare.wrong_pair")  # measured on zh-en, not en-zh's English pair
        assert wrong.options == [p.label() for p in examples.WHERE_IT_GOES_WRONG_ZH]
        wrong.set_value(0).run()
        assert [at.text_input(key=k).value for k in ("compare.sentence_a", "compare.sentence_b")] == list(
            examples.WHERE_IT_GOES_WRONG_ZH[0].sentences)
        at.pills(key="compare.pair").set_value(1).run()
        assert not at.exception
        assert [at.text_input(key=k).value for k in ("compare.sentence_a", "compare.sentence_b")] == list(
            pairs[1].sentences)


def test_two_sentences_follow_a_change_of_direction():
    """A and B typed for the English model become Chinese ones when the sidebar's model reads Chinese."""
    at = app("en", "en-zh", "sentences")
    assert at.text_input(key="compare.sentence_a").value == examples.SENTENCE_PAIRS[0].sentences[0]
    at.session_state[state_keys.CHECKPOINT] = "zh-en"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert [at.text_input(key=k).value for k in ("compare.sentence_a", "compare.sentence_b")] == list(
        examples.SENTENCE_PAIRS_ZH[0].sentences)


def test_without_a_model_the_other_way_both_directions_says_so(monkeypatch):
    from app_pages.state import server

    folders = server.model_folders()
    monkeypatch.setattr(server, "model_folders", lambda: {"zh-en": folders["zh-en"]})
    at = app("en", "zh-en", "directions")
    assert [i.value for i in at.info] == [strings("en")["compare.no_reverse"].format(model=label("zh-en"))]
    assert not charts(at)
