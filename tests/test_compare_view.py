"""The compare page's views, computed without Streamlit (app_pages/pages/compare_view.py): two heads of one sentence
and one head for two sentences with their difference map B − A, two models, and one sentence pair from both
directions; their lines, maps, axis titles and captions, in both interface languages. No assertion on what the zh-en
model writes: its weights change with every training run."""

from __future__ import annotations

import html

import numpy as np
import pytest

from app_pages.pages import compare_view
from app_pages.pages.compare_view import Room, Side
from app_pages.shell.text import in_language, md_escape
from app_pages.state import examples
from i18n import strings
from lessons.attention_maps import pick
from lessons.token_alignment import token_spans
from tests.support.paths import ZH_CHECKPOINT

ROOM = Room({"max_width": 400, "max_height": 430, "compact_scale": True, "query_title": "queries",
             "key_title": "keys"}, 430, True)  # a MapRoom's limits outside presentation mode, axes titled short
EN_ZH = ("en", "zh")
LABELS = {"en-zh": "English → 中文 (en-zh)", "zh-en": "中文 → English (zh-en)"}

needs_zh = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                              reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")


def heat(chart) -> tuple:
    """A map chart's heatmap trace and its values."""
    trace = chart.figure.data[0]
    assert trace.type == "heatmap"
    return trace, np.asarray(trace.z, dtype=float)


def ticks(chart, axis: str) -> list[str]:
    return [html.unescape(label) for label in chart.figure.layout[f"{axis}axis"].ticktext]


def side(translator, name: str, result, label: str | None = None) -> Side:
    config = translator.config
    return Side(name, label or name, LABELS[name], (config.source_language, config.target_language), config, result)


def heads(translator, sentence: str, picks, lang: str = "en"):
    with in_language(lang):
        return compare_view.heads_view(translator.translate(sentence), "cross", picks, "en-zh", ROOM, EN_ZH)


def test_two_heads_show_both_and_their_difference(translator):
    result = translator.translate("I have a dream.")
    shown = heads(translator, "I have a dream.", ((0, 0), (0, 1)))
    assert [one.chart.key for one in shown.maps] + [shown.difference.chart.key] == [
        "compare.chart.a", "compare.chart.b", "compare.chart.difference"]
    trace, diff = heat(shown.difference.chart)
    np.testing.assert_allclose(diff, pick(result.cross, 0, 1) - pick(result.cross, 0, 0), atol=1e-6)  # B − A
    assert trace.zmin == -trace.zmax == pytest.approx(-np.abs(diff).max(), abs=1e-6)  # centred on 0
    assert trace.colorscale[0][1] != trace.colorscale[-1][1]  # diverging, not the maps' white-to-blue
    top = f"{np.abs(diff).max():.2g}"
    assert list(trace.colorbar.ticktext) == [f"−{top}", "0", top]  # the bar says how far the scale runs
    en = strings("en")
    assert shown.maps[0].line == (f"**{en['compare.side.a']} · {en['explorer.layer_n'].format(n=1)} · "
                                  f"{en['explorer.head_n'].format(n=1)}**")
    # One translation for both maps, said once under them, not above each map.
    assert shown.translation == en["compare.heads_translation"].format(translation=md_escape(result.translation))
    assert not [one.line for one in shown.maps if result.translation in one.line]
    same = heads(translator, "I have a dream.", ((0, 0), (0, 0)))  # the same head twice: no difference at all
    assert np.abs(heat(same.difference.chart)[1]).max() == 0


def test_the_difference_map_covers_the_changed_word_of_another_length(translator):
    """"…too tired." against "…too wide.": "▁tired" is one token, "▁w ide" two. The B − A map lines the sentences up
    and keeps the changed word: its column is B's two columns added less A's one."""
    tired, wide = examples.WHERE_IT_GOES_WRONG[0].sentences
    a, b = translator.translate(tired), translator.translate(wide)
    assert "▁tired" in a.source_tokens and "▁w" in b.source_tokens and len(a.source_tokens) != len(b.source_tokens)
    layer, head = 2, 3
    with in_language("en"):
        shown = compare_view.sentences_view(a, b, ("cross", layer, head), "en-zh", ROOM, EN_ZH)
    _, diff = heat(shown.difference.chart)
    keys, rows = ticks(shown.difference.chart, "x"), ticks(shown.difference.chart, "y")
    assert "▁tired/▁wide" in keys and len(keys) == len(a.source_tokens)  # every token, the changed word included
    col, w = keys.index("▁tired/▁wide"), b.source_tokens.index("▁w")
    assert rows[0] == "<s>" and all(("/" in r) or (r in a.target_tokens and r in b.target_tokens) for r in rows)
    spans = token_spans(a.target_tokens, b.target_tokens)
    on_b = pick(b.cross, layer, head)[:, w:w + 2].sum(axis=1)
    on_a = pick(a.cross, layer, head)[:, a.source_tokens.index("▁tired")]
    expected = [on_b[s.b.start:s.b.stop].mean() - on_a[s.a.start:s.a.stop].mean() for s in spans]
    np.testing.assert_allclose(diff[:, col], expected, atol=1e-6)
    assert "lined up" in shown.difference.caption and "▁tired/▁wide" in shown.difference.caption.replace("\\", "")


def test_sentences_one_token_apart_compare_every_cell(translator):
    sick, busy = (translator.translate(s) for s in examples.SENTENCE_PAIRS[0].sentences)
    assert len(sick.source_tokens) == len(busy.source_tokens)
    with in_language("en"):
        shown = compare_view.sentences_view(sick, busy, ("encoder_self", 1, 2), "en-zh", ROOM, EN_ZH)
    assert ticks(shown.difference.chart, "x") == [x if x == y else f"{x}/{y}" for x, y in
                                                  zip(sick.source_tokens, busy.source_tokens)]
    np.testing.assert_allclose(heat(shown.difference.chart)[1],
                               pick(busy.encoder_self, 1, 2) - pick(sick.encoder_self, 1, 2), atol=1e-6)
    assert shown.a.line.startswith("**A**") and shown.b.line.startswith("**B**")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_name_read_as_another_ends_the_maps_caption_as_the_language_writes(translator, lang):
    """The maps of "Alice is my friend." show ▁Tom (model/translation/names.py): the caption's last sentence says
    why, joined as the rest (in 中文 no space after 。)."""
    assert "▁Tom" in translator.translate("Alice is my friend.").source_tokens
    caption = heads(translator, "Alice is my friend.", ((0, 0), (0, 1)), lang).caption
    note = md_escape(strings(lang)["model.names_read_as"].format(swaps="Alice → Tom"))
    assert caption.endswith(note)
    assert ("。 " not in caption) if lang == "zh" else (". " in caption)
    assert "Alice" not in heads(translator, "I have a dream.", ((0, 0), (0, 1)), lang).caption


def test_the_maps_axes_are_titled_short_and_said_in_full_under_them(translator):
    en = strings("en")
    named = {role: en["axis.{}_tokens".format(role)].format(language=en[f"language.{code}"])
             for role, code in (("source", "en"), ("target", "zh"))}  # the model's languages named
    note = en["axis.note"].format(queries=en["axis.queries_of"].format(tokens=named["target"]),
                                  keys=en["axis.keys_of"].format(tokens=named["source"]))
    shown = heads(translator, "I have a dream.", ((0, 0), (0, 1)))
    assert md_escape(note) in shown.caption or note in shown.caption
    charts = [one.chart for one in shown.maps] + [shown.difference.chart]
    titles = {axis.title.text for chart in charts for axis in (*chart.figure.select_xaxes(), *chart.figure.select_yaxes())
              if axis.title.text}
    assert titles == {"queries", "keys"}


@pytest.mark.parametrize(("offered", "lead"), [(1, "compare.one_model"), (2, "compare.same_model")])
def test_one_model_twice_says_so_beside_the_title_and_why_under_the_maps(translator, offered, lead):
    result = translator.translate("I have a dream.")
    both = (side(translator, "en-zh", result), side(translator, "en-zh", result))
    with in_language("en"):
        shown = compare_view.models_view(both, ("cross", 0, 0), ROOM, offered)
    en = strings("en")
    assert shown.caption.startswith(f"**{en[lead]}** ") and shown.title.endswith(en["compare.one_map_twice"])
    assert [s.line for s in shown.sides] == [f"**en\\-zh** {md_escape(result.translation)}"] * 2


@needs_zh
def test_two_models_of_two_directions_say_it_is_another_comparison(translator, zh_translator):
    left, right = translator.translate("I have a dream."), zh_translator.translate("I have a dream.")
    with in_language("en"):
        shown = compare_view.models_view((side(translator, "en-zh", left), side(zh_translator, "zh-en", right)),
                                         ("cross", 0, 0), ROOM, 2)
    en = strings("en")
    assert en["compare.other_way"].format(left=LABELS["en-zh"], right=LABELS["zh-en"],
                                          mode=en["compare.mode.directions"]) in shown.caption
    assert en["axis.cross.queries"] in shown.caption  # two directions: axes said without a language


def test_a_model_with_fewer_layers_shows_its_last_and_says_so(translator):
    result = translator.translate("I have a dream.")
    layers = result.cross.shape[0]
    both = (side(translator, "en-zh", result), side(translator, "en-zh", result))
    with in_language("en"):
        shown = compare_view.models_view(both, ("cross", layers + 2, 0), ROOM, 2)
    said = strings("en")["compare.clamped"].format(layers=layers, heads=result.cross.shape[1], layer=layers,
                                                   head=strings("en")["explorer.head_n"].format(n=1))
    assert [s.clamped for s in shown.sides] == [said, said]
    assert heat(shown.sides[0].chart)[1].shape == result.cross.shape[2:]


SENTENCES = {"en-zh": "I have a dream.", "zh-en": "我有一个梦想。"}


def directions(models: dict, lang: str, model: str = "en-zh", kind: str = "cross", transposed: bool = True):
    """(the left result, the right one, the view) of Both directions with `model` in the sidebar."""
    other = "zh-en" if model == "en-zh" else "en-zh"
    left = models[model].translate(SENTENCES[model])
    right = models[other].translate(left.translation)
    sides = (side(models[model], model, left, LABELS[model]), side(models[other], other, right, LABELS[other]))
    with in_language(lang):
        return left, right, compare_view.directions_view(sides, (kind, 2, 0), ROOM, transposed)


def axis(lang: str, role: str, side_name: str, language: str) -> str:
    """An axis name as the page writes it: "queries (Chinese target tokens)"."""
    s = strings(lang)
    return s[f"axis.{role}_of"].format(tokens=s[f"axis.{side_name}_tokens"].format(language=s[f"language.{language}"]))


@needs_zh
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", ["en-zh", "zh-en"])
def test_both_directions_show_one_pair_from_both_sides(translator, zh_translator, lang, model):
    """The right model reads what the left one wrote, its cross-attention drawn transposed: both maps have the left
    target language down the side; one colour bar, the right map's."""
    s = strings(lang)
    models = {"en-zh": translator, "zh-en": zh_translator}
    source, target = model.split("-")
    other = "zh-en" if model == "en-zh" else "en-zh"
    left, right, shown = directions(models, lang, model)
    left_map, right_map = (heat(one.chart) for one in shown.sides)
    assert left_map[1].shape == left.cross.shape[2:] and right_map[1].shape == right.cross.shape[2:][::-1]
    assert not left_map[0].showscale and right_map[0].showscale and shown.transposable
    assert all(md_escape(r.translation) in one.line for r, one in zip((left, right), shown.sides))
    assert shown.sides[1].chart.numbers is None  # a transposed map gives no numbers: they would read the other way
    words = {"source": s[f"language.{source}"], "target": s[f"language.{target}"]}
    assert s["compare.directions_note"].format(left=LABELS[model], right=LABELS[other]) in shown.caption
    assert s["compare.directions_transposed"].format(**words) in shown.caption
    assert s["compare.side_axes"].format(side=s["compare.left"], rows=axis(lang, "queries", "target", target),
                                         cols=axis(lang, "keys", "source", source)) in shown.caption
    assert s["compare.side_axes"].format(side=s["compare.right"], rows=axis(lang, "keys", "source", target),
                                         cols=axis(lang, "queries", "target", source)) in shown.caption
    _, _, turned_back = directions(models, lang, model, transposed=False)  # as the right model computed it
    assert heat(turned_back.sides[1].chart)[1].shape == right.cross.shape[2:]
    assert s["compare.directions_cross"].format(**words) in turned_back.caption


@needs_zh
def test_the_encoders_of_both_directions_side_by_side(translator, zh_translator):
    """Encoder self-attention: neither map transposed, and no toggle (it turns cross-attention only)."""
    left, right, shown = directions({"en-zh": translator, "zh-en": zh_translator}, "en", kind="encoder_self",
                                    transposed=False)
    assert [heat(one.chart)[1].shape for one in shown.sides] == [left.encoder_self.shape[2:],
                                                                right.encoder_self.shape[2:]]
    assert not shown.transposable
