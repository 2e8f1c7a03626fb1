""""Is attention an explanation?"'s view, computed without Streamlit (app_pages/pages/explanation_view.py): the
opening's sentences from each model's log, the four maps and their agreement, which heads agree, knocked-out heads,
importance and pruning, word alignment against the gold and the caveats, in English and 中文. What needs the page (its
tabs drawn, the gold read without the corpus or damaged, its widgets): tests/test_app_explanation*.py; layout:
tests/test_explanation*_browser.py. No assertion on what the zh-en model writes: its weights change with every
training run."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from app_pages.components.parts import Box, Caption, Chart, Expander, Notice, Table, Tables, Text, every, texts
from app_pages.pages import explanation_view
from app_pages.pages.explanation_view import Session
from app_pages.shell.text import in_language, md_escape
from evaluation.alignment import gold
from evaluation.alignment.directions import attention_scores, directed, pair_maps
from i18n import strings
from lessons.explanation import agreement, cross_rollout, kept_average
from model import Alignment, TrainingLog
from tests.support.explanation import expected_numbers, free, minus
from tests.support.paths import ZH_CHECKPOINT

SENTENCE, ZH_SENTENCE = "I have a dream.", "我有一个梦想。"
LANGS = ["en", "zh"]
EN_ZH = Session("en-zh", ("en", "zh"), "English", "Chinese")
needs_zh = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                              reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")


def session(model: str, lang: str = "en") -> Session:
    """The session as the page builds it, its languages named in `lang`."""
    codes = ("en", "zh") if model == "en-zh" else ("zh", "en")
    names = [strings(lang)[f"language.{code}"] for code in codes]
    return Session(model, codes, *names)


def words() -> str:
    return f"{np.mean([len(gold.english_words(p.english)) for p in gold.load_gold()]):.1f}"


def spec(chart: Chart) -> dict:
    """The figure as JSON, as the browser gets it."""
    return json.loads(chart.figure.to_json())


def cells(chart: Chart) -> np.ndarray:
    """A heatmap's values, a hidden cell NaN."""
    return np.array(chart.figure.data[0].z, dtype=float)


def charts(parts) -> list[Chart]:
    return [p for p in every(parts) if isinstance(p, Chart)]


def markdown(parts) -> str:
    return "\n".join(p.markdown for p in every(parts) if isinstance(p, Text))


def captions(parts) -> str:
    return "\n".join(p.text for p in every(parts) if isinstance(p, Caption))


def axis(lang: str, role: str, side: str, language: str) -> str:
    s = strings(lang)
    return s[f"axis.{role}_of"].format(tokens=s[f"axis.{side}_tokens"].format(language=s[f"language.{language}"]))


def axis_titles(chart: Chart) -> tuple[str, str]:
    """The chart's (row title, column title), line breaks undone."""
    layout = spec(chart)["layout"]
    row = layout.get("yaxis2", layout["yaxis"])["title"]["text"]
    column = layout.get("xaxis2", layout["xaxis"])["title"]["text"]
    return tuple(re.sub(r"\s*<br>\s*", " ", x) for x in (row, column))


@pytest.fixture(scope="module")
def result(translator):
    return translator.translate(SENTENCE)


@pytest.fixture(scope="module")
def found(translator, result):
    return translator.attribute(result, "integrated_gradients")


def log_of(translator, change=lambda log: log) -> TrainingLog:
    return TrainingLog.from_dict(change(translator.training_log))


# ---------------------------------------------------------------- the opening


def opening_text(written: dict, lang: str) -> str:
    with in_language(lang):
        box = explanation_view.opening(TrainingLog.from_dict(written), words())
    assert isinstance(box, Box) and box.key == "explain.opening"
    first = box.parts[0].markdown
    assert first.startswith("1. ") and "\n2. " in first and "\n3. " in first, first
    return first


def tied_heads(log: dict) -> list[tuple[int, int]]:
    """The cross heads whose ρ, as shown (2 decimals), is the best: 1-based (layer, head)."""
    rho = log["agreement"]["integrated_gradients"]["rho"]
    best = max(round(v, 2) for row in rho for v in row)
    return [(l + 1, h + 1) for l, row in enumerate(rho) for h, v in enumerate(row) if round(v, 2) == best]


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_opens_with_three_sentences_carrying_the_logs_numbers(translator, lang):
    log = translator.training_log
    text = opening_text(log, lang)
    for number in expected_numbers(log, lang):
        assert number in text, (number, text)
    ties = tied_heads(log)
    layer = ties[0][0]
    assert len(ties) > 1 and {l for l, _ in ties} == {layer}  # en-zh: several heads of one layer tie at 0.27
    kept = free(log["heads"]["pruning"]["encoder_self"])
    if lang == "en":
        # Every kind of head said as its numbers do: the last removal within noise is a drop, not "free".
        assert f"encoder self-attention: with {kept['removed']} of 24 heads out, BLEU is {minus(kept['bleu_drop'])} " \
               f"lower" in text
        assert "go before BLEU drops" not in text and "ranks the source tokens" in text
        assert f"tie at {max(round(v, 2) for r in log['agreement']['integrated_gradients']['rho'] for v in r):.2f} " \
               f"(layer {layer} · heads {', '.join(str(h) for _, h in ties)})" in text
        assert f"short sentences from the dev set's test half ({words()} English words on average)" in text
        assert "optimistic" in text and "integrated gradients" in text and "IBM Model 1" in text
    else:
        assert f"编码器自注意力：去掉 24 个头中的 {kept['removed']} 个，BLEU 低 {minus(kept['bleu_drop'])}" in text
        assert f"第 {layer} 层第 {'、'.join(str(h) for _, h in ties)} 个头" in text
        assert f"平均 {words()} 个英文单词" in text and "偏乐观" in text and "IBM 模型 1" in text
        assert "源词" not in text and "源语言词元" in text


def test_the_opening_sentences_follow_the_log(translator):
    """Another log, other numbers: the sentences are computed, not written in."""
    ig = {"method": "integrated_gradients", "aer": 0.5, "low": 0.4, "high": 0.6}
    log = translator.training_log
    assert "integrated gradients 0.500 (0.400–0.600)" in opening_text(
        {**log, "alignment": {**log["alignment"], "integrated_gradients": ig}}, "en")


def test_a_log_without_the_evidence_has_no_opening(translator):
    bare = {k: v for k, v in translator.training_log.items() if k not in ("agreement", "heads", "alignment")}
    assert explanation_view.opening(TrainingLog.from_dict(bare), words()) is None


@needs_zh
@pytest.mark.parametrize("lang", LANGS)
def test_the_page_opens_with_zh_ens_own_figures(zh_translator, lang):
    log = zh_translator.training_log
    for key in ("heads", "agreement", "alignment"):  # evaluation.<key> measures each
        assert key in log, f"python -m evaluation.{key} --checkpoint checkpoints/zh-en measures it"
    text = opening_text(log, lang)
    for number in expected_numbers(log, lang):
        assert number in text, (number, text)


def test_the_heading_is_the_title_the_intro_and_the_sentence(translator, result):
    with in_language("zh"):
        shown = explanation_view.heading(log_of(translator), words(), result)
    assert shown.title == "注意力是解释吗？" and shown.intro == strings("zh")["explain.intro"]
    assert f"{SENTENCE}  →  {result.translation}" in texts(shown.banner)


# ---------------------------------------------------------------- 1: the four maps


def maps(result, found, layer=0, head=0, lang="en", log=None, model="en-zh"):
    with in_language(lang):
        return explanation_view.maps_view(result, found, "integrated_gradients", layer, head,
                                          log or TrainingLog(), session(model, lang))


def test_four_maps_share_the_cross_attention_axes_and_the_caption_computes_agreement(translator, result, found):
    shown = maps(result, found, log=log_of(translator))
    four = charts(shown.maps)
    assert [c.key for c in four] == [f"explain.map.{i}" for i in range(4)]
    for chart in four:
        assert axis_titles(chart)[0].startswith("queries (Chinese target tokens)")
        assert cells(chart).shape == result.cross.shape[2:]
    scores = found.scores
    magnitude = np.abs(scores)
    np.testing.assert_allclose(cells(four[0]), magnitude / magnitude.sum(1, keepdims=True), atol=1e-4)
    np.testing.assert_allclose(cells(four[1]), result.cross[0, 0], atol=1e-5)  # layer 1 · head 1
    np.testing.assert_allclose(cells(four[3]), cross_rollout(result.cross, result.encoder_self, 0), atol=1e-5)
    rho, _ = agreement(result.cross[0, 0], scores)
    caption = captions(shown.notes)
    assert f"this head ρ = {rho:.2f}" in caption
    # The completeness check names the points the integral took and its own error, both computed.
    assert f"({found.points} points on the straight path" in caption and f"within {found.gap:.1%}" in caption
    # The gap is the stopping rule, so it says so, and names the baseline and what does check the scores.
    assert "is the construction, not evidence" in caption and "agrees with Captum" in caption
    assert "zero token embedding" in caption and "it holds only below that cap" in caption
    (papers,) = [p for p in shown.notes if isinstance(p, Expander)]
    assert "Serrano & Smith 2019" in texts(papers.parts)  # beside Jain & Wallace, Wiegreffe & Pinter


def test_the_head_shown_is_the_one_pinned(result, found):
    """Pin to deck adds the head's map as the explorer shows it: a slide of the translate page, its link naming the
    sentence, the model, cross-attention and the layer and head picked (1-based)."""
    shown = maps(result, found, layer=2, head=4)
    pin = shown.pin
    assert pin.page == "translate"
    assert pin.query == {"s": SENTENCE, "model": "en-zh", "kind": "cross", "view": "head", "layer": "3", "head": "5"}
    assert "3" in pin.title and "5" in pin.title
    np.testing.assert_allclose(cells(charts(shown.maps)[1]), result.cross[2, 4], atol=1e-5)


@pytest.mark.parametrize("lang", LANGS)
def test_the_completeness_bound_is_said_to_hold_only_below_the_point_cap(translator, result, found, lang):
    """Where the log's alignment figures count the gold pairs whose path hit the cap, the gap caption gives them."""
    gaps = {"pairs": 150, "bound": 0.05, "most": 97, "above": 6, "worst": 0.139, "at_cap": 6}
    log = log_of(translator, lambda log: {**log, "alignment": {**log["alignment"], "completeness": gaps}})
    caption = captions(maps(result, found, lang=lang, log=log).notes)
    assert strings(lang)["explain.gap.gold"].format(pairs=150, above=6, bound="5%", worst="13.9%") in caption
    assert "97" in caption


@needs_zh
@pytest.mark.parametrize("lang", LANGS)
def test_attribution_and_attention_maps_name_chinese_as_the_source(zh_translator, lang):
    result = zh_translator.translate(ZH_SENTENCE)
    shown = maps(result, zh_translator.attribute(result, "integrated_gradients"), lang=lang, model="zh-en")
    four = charts(shown.maps)
    assert len(four) == 4
    assert {axis_titles(c) for c in four} == {(axis(lang, "queries", "target", "en"), axis(lang, "keys", "source",
                                                                                          "zh"))}
    for chart in four:
        layout = spec(chart)["layout"]
        x, y = (layout.get(f"{a}2") or layout[a] for a in ("xaxis", "yaxis"))
        assert x["tickangle"] == 0, "the Chinese source characters stand upright: there is room"
        assert y["ticktext"][0] == "&lt;s&gt;" == "&lt;" + result.target_tokens[0][1:-1] + "&gt;"
    # The rows are labelled by the token each step reads (<s> first), and the caption says so.
    caption = captions(shown.notes)
    assert strings(lang)["explain.maps.caption"].split("{")[0] in caption
    assert "<s>" in strings(lang)["explain.maps.caption"] and "being written" not in caption


# ---------------------------------------------------------------- 2: which heads agree


def test_the_agreement_summary_compares_heads_with_heads_and_maps_with_maps(translator, result, found):
    log = log_of(translator)
    with in_language("en"):
        parts = explanation_view.heads_view(result, found.scores, "integrated_gradients", log, EN_ZH)
    text = markdown(parts)
    ig = translator.training_log["agreement"]["integrated_gradients"]
    rho = np.array(ig["rho"])
    assert f"layer 1 ρ = {rho[0].mean():.2f}, layer 3 ρ = {rho[-1].mean():.2f}" in text  # per-head ρ, averaged
    assert f"layer 1 ρ = {ig['layer_mean'][0][0]:.2f}" in text  # the averaged map's own ρ, for every layer quoted
    assert f"layer 3 ρ = {ig['layer_mean'][-1][0]:.2f}" in text
    best = max(round(v, 2) for row in ig["rho"] for v in row)
    tied = [h + 1 for h, v in enumerate(ig["rho"][-1]) if round(v, 2) == best]
    assert len(tied) > 1 and all(round(v, 2) < best for row in ig["rho"][:-1] for v in row)
    assert f"the best heads tie at ρ = {best:.2f}: layer 3 · heads {', '.join(map(str, tied))} (top-1 " in text
    sentence, dev = charts(parts)
    assert (sentence.key, dev.key) == ("explain.rho.sentence", "explain.rho.dev")
    np.testing.assert_allclose(cells(dev), rho, atol=1e-6)
    with in_language("zh"):
        zh = markdown(explanation_view.heads_view(result, found.scores, "integrated_gradients", log, EN_ZH))
    assert "逐个头" in zh and "每层一张图" in zh and "各头平均" not in zh  # the two kinds read differently


# ---------------------------------------------------------------- 3: heads knocked out


def every_cross_head(translator) -> tuple:
    c = translator.config
    return tuple(("cross", l, h) for l in range(c.n_decoder_layers) for h in range(c.n_heads))


@pytest.mark.parametrize("lang", LANGS)
def test_knocking_out_every_cross_head_retranslates_and_marks_the_change(translator, result, lang):
    heads = every_cross_head(translator)
    knocked = translator.translate(SENTENCE, knock_out=heads)
    assert knocked.translation != result.translation  # what this test is about
    with in_language(lang):
        shown = explanation_view.knock_view(result, list(heads), knocked, ("en", "zh"))
    s = strings(lang)
    assert len(shown.options) == 72 and [o for o in shown.options if o[0] == "cross"] == list(heads)
    assert s["explain.knock.result"].format(plain=md_escape(result.translation), n=len(heads),
                                            knocked=md_escape(knocked.translation)) in markdown(shown.after)
    changed = sum(i >= len(result.output_tokens) or token != result.output_tokens[i]
                  for i, token in enumerate(knocked.output_tokens))
    assert s["explain.knock.changed"].format(changed=changed, total=len(knocked.output_tokens)) in captions(
        shown.after)
    # With every cross head out, no ablated map is drawn (the decoder used none of those weights): it says so.
    assert [c.key for c in charts(shown.after)] == ["explain.knock.map_plain"]
    layers = translator.config.n_decoder_layers
    assert [n.text for n in every(shown.after) if isinstance(n, Notice)] == [s["explain.knock.map_none"].format(
        layer=layers)]


def test_no_head_chosen_says_so(translator, result):
    with in_language("en"):
        shown = explanation_view.knock_view(result, [], None, ("en", "zh"))
    assert [type(p) for p in shown.after] == [Caption] and shown.names[("cross", 0, 0)] == "Cross-attention · layer 1 · head 1"


def test_the_ablated_map_averages_only_the_heads_still_in_use(translator, result):
    # Every decoder self-attention head (which changes this translation) and two of the last layer's 8 cross heads.
    heads = [("decoder_self", l, h) for l in range(3) for h in range(8)] + [("cross", 2, 0), ("cross", 2, 1)]
    knocked = translator.translate(SENTENCE, knock_out=tuple(heads))
    assert knocked.output_tokens != result.output_tokens  # else no maps are drawn
    with in_language("en"):
        shown = explanation_view.knock_view(result, heads, knocked, ("en", "zh"))
    ablated = charts(shown.after)[-1]
    assert ablated.key == "explain.knock.map"
    expected = kept_average(knocked.cross[2], [0, 1])
    np.testing.assert_allclose(cells(ablated), expected, atol=1e-5)
    assert not np.allclose(expected, knocked.cross[2].mean(axis=0), atol=1e-3)  # all eight would differ
    assert "average of the 6 of 8 heads still in use" in markdown(shown.after)


@needs_zh
@pytest.mark.parametrize("lang", LANGS)
def test_knocking_out_every_cross_head_retranslates_the_chinese_sentence(zh_translator, lang):
    result = zh_translator.translate(ZH_SENTENCE)
    heads = every_cross_head(zh_translator)
    knocked = zh_translator.translate(ZH_SENTENCE, knock_out=heads)
    with in_language(lang):
        shown = explanation_view.knock_view(result, list(heads), knocked, ("zh", "en"))
    assert md_escape(knocked.translation or "∅") in markdown(shown.after)
    if knocked.output_tokens != result.output_tokens:
        assert {axis_titles(c)[1] for c in charts(shown.after)} == {axis(lang, "keys", "source", "zh")}


# ---------------------------------------------------------------- 4: importance and pruning


def importance_text(log: TrainingLog, lang: str = "en", checkpoint: str = "en-zh") -> str:
    with in_language(lang):
        shown = explanation_view.importance_view(log, "cross", checkpoint)
    return markdown(shown.before) + "\n" + texts(shown.before)


def test_the_dev_sets_evidence_is_read_from_the_training_log(translator):
    text = importance_text(log_of(translator))
    heads = translator.training_log["heads"]
    top = max(s["bleu_drop"] for s in heads["single"])
    tied = [s for s in heads["single"] if s["bleu_drop"] == top]
    assert len(tied) == 2  # en-zh: two heads share the largest drop, and both are named
    assert f"The largest drop, {top:.2f}, is shared by " in text
    for s in tied:
        assert f"layer {s['layer'] + 1} · head {s['head'] + 1}" in text and f"{s['low']:.2f} to {s['high']:.2f}" in text
    assert "the largest of 72 drops measured on the same pairs" in text and "what chance gives" in text
    if "largest_on_test" in heads:
        for s in heads["largest_on_test"]:
            assert (f"layer {s['layer'] + 1} · head {s['head'] + 1} drops {s['bleu_drop']:.2f} (interval "
                    f"{s['low']:.2f} to {s['high']:.2f})") in text
    else:
        assert "python -m evaluation.heads --checkpoint checkpoints/en-zh --dev DEV.tsv --largest-only" in text
    narrow = min((s["high"] - s["low"]) / 2 for s in heads["single"])
    assert f"±{narrow:.2f} to ±" in text
    significant = sum(s["low"] > 0 or s["high"] < 0 for s in heads["single"])
    assert f"{significant} of 72 heads' intervals exclude 0" in text
    assert f"measured on the {heads['test_pairs']:,} pairs of the test half" in text
    for kind in ("encoder_self", "decoder_self", "cross"):
        curve = heads["pruning"][kind]
        kept = free(curve)
        assert (f"with {kept['removed']} of {len(curve) - 1} heads removed, BLEU {kept['bleu']:.2f}, "
                f"{kept['bleu_drop']:.2f} below the whole model (interval {kept['low']:.2f} to {kept['high']:.2f})"
                in text)
        if kept["removed"] + 1 < len(curve):
            after = curve[kept["removed"] + 1]
            assert f"Removing {after['removed']} costs {after['bleu_drop']:.2f} BLEU" in text
        assert f"{curve[-1]['bleu']:.2f} with all removed" in text


def test_the_drop_grid_is_the_picked_kinds(translator):
    log = log_of(translator)
    with in_language("en"):
        shown = explanation_view.importance_view(log, "decoder_self", "en-zh")
    pruning, drops = charts(shown.after)
    assert shown.picker and (pruning.key, drops.key) == ("explain.pruning", "explain.drops")
    single = [s for s in translator.training_log["heads"]["single"] if s["kind"] == "decoder_self"]
    grid = cells(drops)
    assert all(grid[s["layer"], s["head"]] == pytest.approx(s["bleu_drop"]) for s in single)


@pytest.mark.parametrize("lang", LANGS)
def test_the_largest_drop_is_given_on_the_test_half_where_the_log_has_it(translator, lang):
    """evaluation.heads --largest-only stores the tied heads' drops on the test half: each is said, with its
    interval, and the command to measure them is not."""
    def tested(log):
        top = max(s["bleu_drop"] for s in log["heads"]["single"])
        again = [{"kind": s["kind"], "layer": s["layer"], "head": s["head"], "bleu_drop": 0.09 - i, "low": -0.61 - i,
                  "high": 0.82 - i} for i, s in enumerate(s for s in log["heads"]["single"] if s["bleu_drop"] == top)]
        return {**log, "heads": {**log["heads"], "largest_on_test": again}}

    text = importance_text(log_of(translator, tested), lang)
    s = strings(lang)
    for found in tested(translator.training_log)["heads"]["largest_on_test"]:
        assert f"{found['bleu_drop']:.2f}" in text and f"{found['low']:.2f}" in text and f"{found['high']:.2f}" in text
    assert s["explain.importance.largest_untested"].split("{")[0] not in text
    assert s["explain.importance.largest_test"].split("{")[0] in text


@pytest.mark.parametrize("model", ["en-zh", "zh-en"])
def test_every_measure_it_command_names_the_checkpoint_it_measures(translator, result, found, model):
    """A log without the dev-set figures: each tab says how to measure them, for the model in use, not the
    default one (--checkpoint checkpoints/<model>); the alignment's where not even the live figures could be
    measured (the gold pairs unreadable: none found)."""
    bare = log_of(translator, lambda log: {k: v for k, v in log.items()
                                           if k not in ("agreement", "heads", "alignment", "head_roles")})
    where = session(model)
    with in_language("en"):
        shown = [explanation_view.heads_view(result, found.scores, "integrated_gradients", bare, where),
                 explanation_view.importance_view(bare, "cross", model).before,
                 explanation_view.roles_view(bare, "cross", None, where).before,
                 explanation_view.align_view(bare, None, True, "—", where).before]
    commands = [[n.text for n in every(parts) if isinstance(n, Notice) and "python -m evaluation." in n.text]
                for parts in shown]
    assert [len(c) for c in commands] == [1, 1, 1, 1], commands  # agreement, heads, roles, alignment
    for (command,) in commands:
        assert f"--checkpoint checkpoints/{model} " in command, command


# ---------------------------------------------------------------- 5: word alignment


def test_the_alignment_tab_shows_the_logs_aer_table_and_the_first_gold_pairs_links(translator):
    log = log_of(translator)
    with in_language("en"):
        shown = explanation_view.align_view(log, log.alignment, False, words(), EN_ZH)
    s = strings("en")
    assert any("| AER |" in p.markdown for p in shown.before if isinstance(p, Text))
    # The note on test-half figures follows a paragraph that says the gold lies in the test half.
    noted = [p.markdown for p in shown.before if isinstance(p, Text) and s["explain.weights_touched"] in p.markdown]
    assert len(noted) == 1 and "test half" in noted[0].split(s["explain.weights_touched"])[0]
    layer, head = shown.best
    first = directed(gold.load_gold()[0], "en")
    maps = pair_maps(translator.teacher_forced(first.source, first.target), first)
    with in_language("en"):
        chart, caption = explanation_view.gold_view(first, maps, layer, head, "dev", log.alignment.pairs,
                                                    ("en", "zh"))
    shapes = spec(chart)["layout"]["shapes"]
    assert len([x for x in shapes if x["type"] == "rect"]) == len(first.sure)
    assert len([x for x in shapes if x["type"] == "circle"]) == len(first.possible)
    assert caption.text.startswith(s["explain.align.source_dev"].format(line=first.gold.line,
                                                                              pairs=log.alignment.pairs))


@pytest.fixture(scope="module")
def live(zh_translator) -> dict:
    """The alignment figures as the page should show them for the zh-en model: its log's, where evaluation.alignment
    stored them for a Chinese source; otherwise measured as the page measures them live."""
    stored = zh_translator.training_log.get("alignment")
    if stored and stored.get("source_language") == "zh":
        return stored
    return attention_scores(zh_translator.teacher_forced, [directed(p, "zh") for p in gold.load_gold()])


@needs_zh
@pytest.mark.parametrize("lang", LANGS)
def test_the_alignment_tab_scores_the_turned_gold(zh_translator, live, lang):
    """The zh-en model's alignment figures — its log's, or where it has none, measured on the page, said so; the
    best layer average is weighed against the chosen head; the map has English words down and Chinese characters
    across."""
    s = strings(lang)
    stored = "baseline" in live
    log = TrainingLog.from_dict(zh_translator.training_log)
    with in_language(lang):
        shown = explanation_view.align_view(log, Alignment.from_dict(live), not stored, words(),
                                            session("zh-en", lang))
    chosen = live["chosen"]
    assert live["pairs"] > 0
    template = s["explain.align.intro" if stored else "explain.align.intro_live"]
    marker = max(re.split(r"\{[^}]*\}", template), key=len)  # its longest fixed text
    intro = [p.markdown for p in shown.before if isinstance(p, Text) and marker in p.markdown]
    assert intro, markdown(shown.before)
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
    table = next(p.markdown for p in shown.before if isinstance(p, Text) and p.markdown.startswith("| "))
    best = min(x for row in live["heads_plain"] for x in row)
    assert f"| {best:.3f} |" in table
    first = directed(gold.load_gold()[0], "zh")
    maps = pair_maps(zh_translator.teacher_forced(first.source, first.target), first)
    with in_language(lang):
        overlay = explanation_view.gold_view(first, maps, *shown.best, "dev", live["pairs"], ("zh", "en"))
    assert axis_titles(overlay[0]) == (s["explain.align.rows"].format(target_units=s["explain.align.units.en"]),
                                       s["explain.align.cols"].format(source_units=s["explain.align.units.zh"]))
    text = markdown(shown.before) + "\n" + captions(overlay)
    assert s["explain.align.map_units.zh"] in text
    for wrong in (s["explain.align.map_units.en"], s["explain.align.how.en"],
                  s["explain.align.rows"].format(target_units=s["explain.align.units.zh"])):
        assert wrong not in text


def test_the_roles_grid_counts_each_role(translator):
    log = log_of(translator)
    with in_language("en"):
        shown = explanation_view.roles_view(log, "cross", log.alignment, EN_ZH)
    (chart,) = charts(shown.after)
    assert shown.picker and chart.key == "explain.roles.grid"
    caption = captions(shown.after)
    assert f"{translator.training_log['head_roles']['pairs']}" in caption and "English" in caption


# ---------------------------------------------------------------- 6: caveats


def sink_share(weights: np.ndarray, keys: list[str], token: str) -> np.ndarray:
    """(layers,) the mass on `token`'s columns, averaged over heads and queries, computed here by loops."""
    layers, heads, queries, _ = weights.shape
    columns = [j for j, k in enumerate(keys) if k == token]
    return np.array([np.mean([weights[l, h, q, columns].sum() for h in range(heads) for q in range(queries)])
                     for l in range(layers)])


@pytest.mark.parametrize("lang", LANGS)
def test_the_caveat_shows_this_sentences_sinks_and_residual_ratios(translator, lang):
    result = translator.translate(SENTENCE)
    with in_language(lang):
        parts = explanation_view.caveat_view(result)
    (sinks,) = [p for p in parts if isinstance(p, Tables)]
    frames = [(tuple(f.columns), f) for _, f in sinks.tables]
    (dec,) = [f for cols, f in frames if cols == ("<s>", "。")]  # decoder self-attention's keys: <s> and the full stop
    start = sink_share(result.decoder_self, result.target_tokens, "<s>")
    assert list(dec["<s>"])[:-1] == [f"{x:.0%}" for x in start]
    T = len(result.target_tokens)
    assert list(dec["<s>"])[-1] == f"{np.mean([1 / (q + 1) for q in range(T)]):.0%}", "uniform over the causal prefix"
    enc = [f for cols, f in frames if cols == ("</s>", ".")]
    assert len(enc) == 2, "encoder self-attention and cross-attention both have </s> and . among their keys"
    assert list(enc[1]["</s>"])[:-1] == [f"{x:.0%}" for x in sink_share(result.cross, result.source_tokens, "</s>")]
    (ratios,) = [p.data for p in parts if isinstance(p, Table)]
    x, a = result.encoder_sublayers["input"], result.encoder_sublayers["self_attn_out"]
    expected = [np.mean([np.linalg.norm(a[l, i]) / np.linalg.norm(x[l, i]) for i in range(x.shape[1])])
                for l in range(x.shape[0])]
    assert list(ratios.iloc[:, 0]) == [f"{r:.2f}" for r in expected]
    x, a = result.decoder_sublayers["norm1"], result.decoder_sublayers["cross_attn_out"]
    cross = [np.mean(np.linalg.norm(a[l], axis=-1) / np.linalg.norm(x[l], axis=-1)) for l in range(x.shape[0])]
    assert list(ratios.iloc[:, 2]) == [f"{r:.2f}" for r in cross]
    assert f"{min(min(expected), min(cross), *[float(v) for v in ratios.iloc[:, 1]]):.2f}" in markdown(parts)
