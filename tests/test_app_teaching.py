"""AppTest: every teaching page renders in English and Chinese; the worked example shows the notes' numbers."""

from __future__ import annotations

import json
import math
import re

import pytest

from app_pages.state import widget_state
from lessons.masks import EXPOSURE_EXAMPLES
from tests.support.apptest import PAGES, TAB_PREFIX, every_tab, open_page, open_tab, page_text, whole_page_text
from tests.support.paths import needs_checkpoint
from tests.support.tables import shown_tables

pytestmark = needs_checkpoint


@pytest.fixture(scope="module")
def exposure_data(translator) -> list[str]:
    """Chinese data, not prose: the masks page's exposure example (references and the model's translations)."""
    return [zh for _, zh in EXPOSURE_EXAMPLES] + [translator.translate(en).translation for en, _ in EXPOSURE_EXAMPLES]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_teaching_page_renders(page, lang, exposure_data):
    at = open_page(page, lang)
    assert at.get("plotly_chart"), "every teaching page draws at least one figure"
    text = page_text(at)
    prose = [run for run in re.findall(r"[\u4e00-\u9fff]{4,}", text) if not any(run in d for d in exposure_data)]
    assert bool(prose) == (lang == "zh"), prose[:3]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_worked_example_shows_the_notes_numbers(lang):
    at = open_page("qkv", lang)
    text = page_text(at)
    for number in ("112", "96", "14", "12", "0.88", "0.12"):
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text), number


@pytest.mark.parametrize("step", ["project", "dot", "scale", "softmax", "sum"])
def test_every_step_of_the_worked_example_renders(step):
    at = open_page("qkv", **{"qkv.step": step})
    text = page_text(at)
    expected = {"project": r"q_1 = x_1 W_Q", "dot": "= 112", "scale": "= 14", "softmax": "0.8808", "sum": "z_1"}[step]
    assert expected in text


@pytest.mark.parametrize("kind", ["encoder_self", "decoder_self", "cross"])
def test_live_walkthrough_agrees_with_the_model_for_each_kind(kind):
    at = open_page("qkv", tab="live", **{"qkv.live.kind": kind, "qkv.live.layer": 2, "qkv.live.head": 5, f"qkv.live.{kind}.query": 1})
    checks = [s.value for s in at.success if "the attention the model returned" in s.value]
    assert len(checks) == 1 and not at.error
    explained = {"encoder_self": "of the **encoder**", "decoder_self": "decoder's self-attention", "cross": "cross-attention"}
    assert explained[kind] in page_text(at) and "Layer 3, head 6" in page_text(at)
    query = next(f for f in shown_tables(at) if list(f.columns)[0] == "+0")  # under the query's label
    assert query.index.name.startswith("1: ")


def test_choosing_cross_attention_puts_the_query_picker_on_the_decoders_first_token():
    """The live part switched from its first kind to cross-attention: the picker lists the decoder's tokens and shows
    the first, <s> (moved from test_teaching_browser, which keeps the layout check of this state)."""
    at = open_page("qkv", tab="live")
    at.segmented_control(key="qkv.live.kind").set_value("cross").run()
    assert not at.exception
    picker = at.selectbox(key="qkv.live.cross.query")
    assert picker.value == 0 and picker.format_func(picker.value) == "0: <s>"


def test_indivisible_heads_explain_themselves():
    at = open_page("multihead", tab="doc", **{"multihead.heads": 7})
    assert any("300 / 7" in e.value for e in at.error)


# ---------------------------------------------------------------- classroom readiness (issue 13)
NOTE_CITATION = re.compile(r"(?i)\bnotes? 0\d\d|笔记 ?0\d\d")  # "study note 000", "学习笔记 002": no student has them
CJK = r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
ASCII_COMMA_IN_CHINESE = re.compile(rf"{CJK}\s*,|,\s*{CJK}")


def teaching_strings(lang: str) -> dict[str, str]:
    from i18n import strings

    return {k: v for k, v in strings(lang).items() if k.split(".")[0] in {p.split(".")[0] for p in TEACHING_PREFIXES}}


TEACHING_PREFIXES = ("teach.", "qkv.", "masks.", "positional.", "scaling.", "multihead.", "anatomy.")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_teaching_text_cites_no_study_note_by_number(lang):
    cited = {k: v for k, v in teaching_strings(lang).items() if NOTE_CITATION.search(v)}
    assert not cited


def test_chinese_teaching_text_has_no_ascii_comma_next_to_chinese():
    commas = {k: v for k, v in teaching_strings("zh").items() if ASCII_COMMA_IN_CHINESE.search(v)}
    assert not commas


# Pages whose every tab's words are checked on their views: tests/test_positional_view.py, test_scaling_view.py,
# test_anatomy_view.py (the classroom checks below, there); here each of their tabs is run once.
VIEW_CHECKED = ("positional", "scaling", "anatomy")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", [page for page in PAGES if page not in VIEW_CHECKED])
def test_rendered_pages_cite_no_notes_and_join_chinese_lists_with_chinese_marks(page, lang):
    """The computed parts too: lists of numbers or tokens in Chinese text take 、, not ", "."""
    text = whole_page_text(page, lang)
    assert not NOTE_CITATION.search(text)
    if lang == "zh":
        assert not ASCII_COMMA_IN_CHINESE.search(text), ASCII_COMMA_IN_CHINESE.search(text).group(0)


@pytest.mark.parametrize("page", VIEW_CHECKED)
def test_every_tab_of_a_page_checked_on_its_view_runs(page):
    """What each tab says is checked on the page's view; this runs the page script on each tab (the pickers, the
    session's sentence and model handed to the view): no exception or error box, and something drawn in each
    tab."""
    for at in every_tab(page):
        assert not at.exception and not at.error, [e.value for e in (*at.exception, *at.error)]
        (drawn,) = [tab for tab in at.tabs if tab.children]  # only the open tab is drawn
        assert sum(1 for _ in with_ancestors(drawn)) >= 2, drawn.label  # (a fragment's are in a block)


def test_qkv_tables_show_every_number():
    """x has all 4 columns, and the live query all d_head numbers, 8 to a row (a 32-column table overflowed)."""
    from app_pages.components.teaching_shared import DIMS_PER_TABLE

    frames = [f for page in (open_page("qkv"), open_page("qkv", tab="live")) for f in shown_tables(page)]
    x = next(f for f in frames if f.index[0].startswith("x₁"))
    assert list(x.columns) == ["0", "1", "2", "3"] and x.loc["x₁ · Thinking"].tolist() == ["2", "2", "1", "1"]
    q = next(f for f in frames if list(f.columns) == [f"+{j}" for j in range(DIMS_PER_TABLE)])
    assert q.size == 32 and q.index[-1] == "dimensions 24–31"
    assert max(len(f.columns) for f in frames) <= DIMS_PER_TABLE


def with_ancestors(node, ancestors=()):
    """Every element under `node` with the types of the blocks it sits in (columns, containers, …)."""
    for child in getattr(node, "children", {}).values():
        yield child, ancestors
        yield from with_ancestors(child, (*ancestors, child.type))


@pytest.mark.parametrize("page", ["qkv", "multihead"])
def test_attention_kinds_are_offered_with_their_full_names(page):
    """A segmented control outside any column: in a column, its row scrolled and cut "Cross-attention" short."""
    at = open_page(page, tab="live")
    key = {"qkv": "qkv.live.kind", "multihead": "multihead.live.kind"}[page]
    picker, ancestors = next((el, up) for el, up in with_ancestors(at.main) if getattr(el, "key", None) == key)
    assert picker.type == "button_group" and "column" not in ancestors
    assert picker.options == ["Encoder self-attention", "Decoder masked self-attention", "Cross-attention"]


def test_causal_mask_is_explained_for_training_too():
    text = whole_page_text("masks")
    assert "teacher forcing" in text and "training matches translation" not in text  # positions match, tokens do not
    assert "the same positions, not the same tokens" in text


@pytest.mark.parametrize("kind", ["self", "combined", "cross"])
def test_masks_page_draws_one_padded_attention_at_a_time(kind):
    """3 charts in the padding tab (the only tab drawn): the padded batch, then the chosen attention's 4 stages, two
    to a chart (viz.tiling.side_by_side)."""
    at = open_page("masks", tab="pad", **{"masks.pad.kind": kind})
    assert [c.key for c in at.get("plotly_chart")] == [
        "masks.pad.batch", f"masks.pad.{kind}.mask-scores", f"masks.pad.{kind}.masked-weights"]
    assert {"self": "Encoder self-attention with padding", "combined": "Padding + causal",
            "cross": "Cross-attention: target queries"}[kind] in page_text(at)


def test_pe_dimensions_survive_a_smaller_d_model_without_a_widget_warning():
    """And the d_model slider reaches the view: the slowest pair's period (2π·10000^((d−2)/d) positions) follows it
    (the period itself: tests/test_positional_view.py)."""
    at = open_page("positional")
    at.multiselect(key="positional.dims").set_value([0, 3, 64, 100]).run()
    at.select_slider(key="positional.d_model").set_value(16).run()
    assert f"{2 * math.pi * 10000 ** (14 / 16):,.0f}" in page_text(at)
    assert at.multiselect(key="positional.dims").value == [0, 3]
    at.select_slider(key="positional.d_model").set_value(2).run()
    assert at.multiselect(key="positional.dims").value == [0]
    at.select_slider(key="positional.d_model").set_value(256).run()
    assert at.multiselect(key="positional.dims").value == [0, 3, 64, 100]
    # The widget's default is the session's own picks (widget_state.kept: a browser that lost the widget's value sends
    # none, and Streamlit takes the default); .streamlit/config.toml silences the log line Streamlit writes for that.
    assert not at.exception and list(at.multiselect(key="positional.dims").proto.default) == [0, 3, 64, 100]


@pytest.mark.parametrize("lang, words", [("en", "exposure bias"), ("zh", "暴露偏差")])
def test_masks_page_shows_where_teacher_forcing_and_decoding_part(lang, words, translator):
    from lessons.masks import first_divergence
    from model import DEFAULT_BEAM

    for english, reference in EXPOSURE_EXAMPLES:
        free, forced = translator.translate(english, beam=DEFAULT_BEAM), translator.teacher_forced(english, reference)
        k = first_divergence(free.output_tokens, forced.output_tokens)
        if k is not None and k + 1 < min(len(free.steps), len(forced.steps)):
            break
    text = page_text(open_page("masks", lang, tab="exposure"))
    assert words in text and free.translation in text
    train_prefix = "".join(forced.target_tokens[1 : k + 2])
    assert f"**{train_prefix}**" in text and f"**{''.join(free.target_tokens[1 : k + 2])}**" in text
    assert f"{forced.steps[k + 1].candidates[0].prob:.0%}" in text


# ---------------------------------------------------------------- topics: each number recomputed from the model
def shown(number: str, text: str) -> bool:
    """`number` on the page as a number of its own (not the middle of a longer one)."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text) is not None


def session_result(translator):
    from app_pages.state.examples import DEFAULT_SENTENCE
    from model import DEFAULT_BEAM

    return translator.translate(DEFAULT_SENTENCE, beam=DEFAULT_BEAM)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_several_heads_section_shows_the_two_heads_the_model_computed(lang, translator):
    from lessons.multihead import most_different_heads

    at = open_page("multihead", lang, tab="why")
    pair = most_different_heads(session_result(translator).encoder_self[0])  # the pickers start on encoder, layer 1
    (a, b), (wa, wb) = pair.heads, pair.peaks()
    text = page_text(at)
    head = {"en": "head {n}", "zh": "第 {n} 个头"}[lang]
    assert head.format(n=a + 1) in text and head.format(n=b + 1) in text
    for number in (wa, wb, pair.average[pair.keys[0]], pair.average[pair.keys[1]]):
        assert shown(f"{number:.2f}", text), number
    traces = [[d.get("name") for d in json.loads(c.proto.spec)["data"]] for c in at.get("plotly_chart")]
    mean = {"en": "average of the two", "zh": "两者的平均"}[lang]
    assert [head.format(n=a + 1), head.format(n=b + 1), mean] in traces  # the two heads and their average, drawn


@pytest.mark.parametrize("page", sorted(TAB_PREFIX))
def test_only_the_open_tab_is_drawn(page):
    """Drawing every tab's charts on every run made the teaching pages the slowest to open: a new visit draws the
    first tab only, and opening another draws that one instead."""
    at = open_page(page)
    assert [bool(tab.children) for tab in at.tabs] == [True] + [False] * (len(at.tabs) - 1)
    open_tab(at, page, at.tabs[-1].label)
    assert [bool(tab.children) for tab in at.tabs] == [False] * (len(at.tabs) - 1) + [True]
