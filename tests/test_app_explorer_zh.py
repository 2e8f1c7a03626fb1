"""Translate & explore with the Chinese → English model (issue 49), in both interface languages (streamlit.testing):
the page names Chinese as what is typed and read, English as what is written, on the sentence box, the intro, the
maps' axes (and so their hovers), the captions and the token rows; the English-model page still names English as
its source. What the views compute (every kind's and view's axes, captions, numbers' labels, notices, the English
model's box and axes) is checked without Streamlit in tests/test_explorer_view_zh.py; here a page per language, and
what needs one drawn. No assertion on what the zh-en model writes: its weights change with every training run."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import examples, state_keys
from app_pages.shell.text import md_escape
from i18n import strings
from model import TrainingLog
from tests.support.paths import ROOT, ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                                reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")

SENTENCE = "我有一个梦想。"
LANGS = ["en", "zh"]


def app(lang: str, sentence: str = SENTENCE, model: str = "zh-en", kind: str = "encoder_self", view: str = "head"
        ) -> AppTest:
    """The translate page of a new session; `kind` and `view` as a link sets them (AppTest's set_value on a segmented
    control finds its option by its English label, so it cannot choose one in 中文)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state[state_keys.CHECKPOINT] = model
    at.session_state[state_keys.SENTENCE] = sentence
    at.session_state[state_keys.LANG] = lang
    at.session_state["explorer.kind"], at.session_state["explorer.view"] = kind, view
    at.switch_page("app_pages/pages/translate.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.fixture(scope="module")
def default_page():
    """The translate page of a new session on the Chinese sentence's default view, opened once per interface language
    for the module's tests that only read it (none of them touches a widget)."""
    opened: dict[str, AppTest] = {}

    def page(lang: str) -> AppTest:
        if lang not in opened:
            opened[lang] = app(lang)
        return opened[lang]

    return page


def named(lang: str, language: str) -> str:
    return strings(lang)[f"language.{language}"]


def axis(lang: str, role: str, side: str, language: str) -> str:
    """An axis title as the explorer writes it: "queries (Chinese source tokens)"."""
    s = strings(lang)
    return s[f"axis.{role}_of"].format(tokens=s[f"axis.{side}_tokens"].format(language=named(lang, language)))


def chart_text(at: AppTest) -> str:
    """Every chart's spec as one text, its titles' line breaks undone."""
    text = " ".join(json.dumps(json.loads(c.proto.spec), ensure_ascii=False) for c in at.get("plotly_chart"))
    return re.sub(r"\s*<br>\s*", " ", text)


def screen_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [e.value for e in at.warning]
    parts += [e.value for e in at.info] + [at.title[0].proto.help]
    return "\n".join(parts)


def heatmap_ticks(at: AppTest) -> tuple[list[str], list[str]]:
    (spec,) = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    return spec["layout"]["yaxis"]["ticktext"], spec["layout"]["xaxis"]["ticktext"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_says_chinese_is_typed_and_english_written(default_page, lang):
    s, zh, en = strings(lang), named(lang, "zh"), named(lang, "en")
    at = default_page(lang)
    box = at.text_area(key="translate.input")
    assert box.value == SENTENCE
    assert box.label == box.proto.placeholder == s["translate.input_in"].format(source=zh)
    assert at.title[0].proto.help == s["translate.intro"].format(source=zh, target=en)
    text = screen_text(at)
    log = TrainingLog.read(ZH_CHECKPOINT)
    data = ({"key": "knows.data_bt", "synthetic": f"{log.backtranslation.mix.synthetic:,}"}
            if log.backtranslation is not None else {"key": "knows.data"})
    key = data.pop("key")  # "… Chinese into English …", the real pairs apart from back-translated ones
    assert s[key].format(pairs=f"{log.real_pairs:,}", source=zh, target=en, **data) in text
    assert "**" + s["translate.source_tokens"].format(language=zh, n=len(SENTENCE) + 1) + "**" in text  # + </s>
    target_heading = re.escape(s["translate.target_tokens"].format(language=en, n=0)).replace("0", r"\d+")
    assert re.search(target_heading, text)
    assert s["translate.input_in"].format(source=en) not in text  # "English sentence" nowhere
    queries, keys = heatmap_ticks(at)  # the map drawn: encoder self-attention, one character a token
    assert queries == keys == [*SENTENCE, "&lt;/s&gt;"]


def test_the_rollout_of_cross_attention_names_both_languages():
    """The rollout view in 中文 (its numbers are written where it is drawn: rollout_view.rollout_chart); the grid's and
    the lines': tests/test_explorer_view_zh.py."""
    at = app("zh", kind="cross", view="rollout")
    charts = chart_text(at)
    assert axis("zh", "queries", "target", "en") in charts and axis("zh", "keys", "source", "zh") in charts
    (code,) = [c.value for c in at.code if c.value.startswith("# kind=cross")]  # the numbers' TSV: its labels
    labels = code.splitlines()[1].split("\t")[1:]
    assert labels == [f"{i}:{c}" for i, c in enumerate([*SENTENCE, "</s>"])]


def test_the_example_pills_offer_chinese_sentences(default_page):
    at = default_page("en")
    pills = at.pills(key="translate.example")
    expected = [e.sentence for e in examples.for_language("zh")] or [examples.default_sentence("zh")]
    assert list(pills.options) == expected
    assert all(re.search(r"[\u4e00-\u9fff]", option) for option in pills.options)
    assert not [i for i in at.info if strings("en")["example.show"] in i.value]  # no English pill's hint


def test_english_typed_into_the_chinese_model_is_warned_about():
    """The wrong-language notice drawn as a warning (in 中文; what it says in both languages, and the traditional
    characters' note: tests/test_explorer_view_zh.py)."""
    at = app("zh", "I have a dream.")
    assert [w for w in at.warning if w.value == md_escape(strings("zh")["model.not_chinese"])]


@pytest.mark.parametrize("lang", LANGS)
def test_guess_first_hides_the_weights_of_a_map_that_names_its_languages(lang):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    for key, value in {state_keys.CHECKPOINT: "zh-en", state_keys.SENTENCE: SENTENCE, state_keys.LANG: lang,
                       "explorer.kind": "cross", "explorer.guess": True}.items():
        at.session_state[key] = value
    at.switch_page("app_pages/pages/translate.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.segmented_control(key="explorer.kind").value == "cross"  # the picker follows the session's kind
    assert strings(lang)["guess.hidden"][:6] in chart_text(at)  # the weights are hidden until a guess
    charts = chart_text(at)
    assert axis(lang, "queries", "target", "en") in charts and axis(lang, "keys", "source", "zh") in charts
