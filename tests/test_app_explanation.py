"""The "Is attention an explanation?" page, as a user reads it: four maps on the same axes with computed agreement,
heads knocked out and the sentence re-translated, the dev set's evidence — in English and 中文."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from app_pages.state import state_keys
from i18n import strings
from lessons.explanation import agreement, cross_rollout
from model import DEFAULT_BEAM, configure_torch_threads
from tests.support.apptest import cells, specs
from tests.support.explanation import SENTENCE, page
from tests.support.paths import ROOT
from tests.support.tables import shown_tables


@pytest.fixture(scope="module")
def english() -> AppTest:
    return page()


def test_four_maps_share_the_cross_attention_axes_and_the_caption_computes_agreement(english, translator):
    result = translator.translate(SENTENCE)
    maps = specs(english)[:4]
    for spec in maps:
        shown = spec["layout"].get("yaxis2", spec["layout"]["yaxis"])  # the axis that carries the labels
        assert shown["title"]["text"].replace("<br>", " ").startswith("queries (Chinese target tokens)")
        assert cells(spec).shape == result.cross.shape[2:]
    # The page's server set torch's threads (configure_torch_threads); bfloat16 sums, and so the points integrated
    # gradients adds, depend on them: the reference is computed under the same count.
    torch.set_num_threads(configure_torch_threads())
    found = translator.attribute(result, "integrated_gradients")
    scores = found.scores
    magnitude = np.abs(scores)
    np.testing.assert_allclose(cells(maps[0]), magnitude / magnitude.sum(1, keepdims=True), atol=1e-4)
    np.testing.assert_allclose(cells(maps[1]), result.cross[0, 0], atol=1e-5)  # layer 1 · head 1 first
    np.testing.assert_allclose(cells(maps[3]), cross_rollout(result.cross, result.encoder_self, 0), atol=1e-5)
    rho, _ = agreement(result.cross[0, 0], scores)
    caption = "\n".join(c.value for c in english.caption)
    assert f"this head ρ = {rho:.2f}" in caption
    # The completeness check names the points the integral took and its own error, both computed.
    assert f"({found.points} points on the straight path" in caption and f"within {found.gap:.1%}" in caption
    # The gap is the stopping rule, so it says so, and names the baseline and what does check the scores.
    assert "is the construction, not evidence" in caption and "agrees with Captum" in caption
    assert "zero token embedding" in caption and "it holds only below that cap" in caption
    assert any("Serrano & Smith 2019" in m.value for m in english.markdown)  # beside Jain & Wallace, Wiegreffe & Pinter


def test_the_dev_sets_evidence_is_read_from_the_training_log(translator):
    from lessons.explanation import free_pruning, significant

    text = "\n".join(m.value for m in page(tab="importance").markdown)
    heads = translator.training_log["heads"]
    top = max(s["bleu_drop"] for s in heads["single"])
    tied = [s for s in heads["single"] if s["bleu_drop"] == top]
    assert len(tied) == 2  # en-zh: two heads share the largest drop, and both are named
    assert f"The largest drop, {top:.2f}, is shared by " in text
    for s in tied:
        assert f"layer {s['layer'] + 1} · head {s['head'] + 1}" in text and f"{s['low']:.2f} to {s['high']:.2f}" in text
    assert "the largest of 72 drops measured on the same pairs" in text and "what chance gives" in text
    # Their drops on the test half, which picked nothing (evaluation.heads --largest-only); where the log has none,
    # the page says how to measure them, for this checkpoint.
    if "largest_on_test" in heads:
        for s in heads["largest_on_test"]:
            assert (f"layer {s['layer'] + 1} · head {s['head'] + 1} drops {s['bleu_drop']:.2f} (interval "
                    f"{s['low']:.2f} to {s['high']:.2f})") in text
    else:
        assert "python -m evaluation.heads --checkpoint checkpoints/en-zh --dev DEV.tsv --largest-only" in text
    # The noise a drop is read against is each knock-out's own paired interval (evaluation/heads.py).
    narrow = min((s["high"] - s["low"]) / 2 for s in heads["single"])
    assert f"±{narrow:.2f} to ±" in text
    assert f"{len(significant(heads['single']))} of 72 heads' intervals exclude 0" in text
    assert f"measured on the {heads['test_pairs']:,} pairs of the test half" in text
    for kind in ("encoder_self", "decoder_self", "cross"):
        curve = heads["pruning"][kind]
        kept = free_pruning(curve)
        # The last removal within noise is said as the drop it is, with its interval: not "free".
        assert (f"with {kept['removed']} of {len(curve) - 1} heads removed, BLEU {kept['bleu']:.2f}, "
                f"{kept['bleu_drop']:.2f} below the whole model (interval {kept['low']:.2f} to {kept['high']:.2f})"
                in text)
        if kept["removed"] + 1 < len(curve):
            after = curve[kept["removed"] + 1]
            assert f"Removing {after['removed']} costs {after['bleu_drop']:.2f} BLEU" in text
        assert f"{curve[-1]['bleu']:.2f} with all removed" in text


def test_the_agreement_summary_compares_heads_with_heads_and_maps_with_maps(translator):
    text = "\n".join(m.value for m in page(tab="heads").markdown)
    ig = translator.training_log["agreement"]["integrated_gradients"]
    rho = np.array(ig["rho"])
    assert f"layer 1 ρ = {rho[0].mean():.2f}, layer 3 ρ = {rho[-1].mean():.2f}" in text  # per-head ρ, averaged
    assert f"layer 1 ρ = {ig['layer_mean'][0][0]:.2f}" in text  # the averaged map's own ρ, for every layer quoted
    assert f"layer 3 ρ = {ig['layer_mean'][-1][0]:.2f}" in text
    best = max(round(v, 2) for row in ig["rho"] for v in row)
    tied = [h + 1 for h, v in enumerate(ig["rho"][-1]) if round(v, 2) == best]
    assert len(tied) > 1 and all(round(v, 2) < best for row in ig["rho"][:-1] for v in row)
    assert f"the best heads tie at ρ = {best:.2f}: layer 3 · heads {', '.join(map(str, tied))} (top-1 " in text
    zh = "\n".join(m.value for m in page("zh", tab="heads").markdown)
    assert "逐个头" in zh and "每层一张图" in zh and "各头平均" not in zh  # the two kinds read differently


def test_knocking_out_every_cross_head_retranslates_and_marks_the_change(translator):
    at = page(tab="knock")
    at.button(key="explain.knock.cross").click().run()
    assert not at.exception
    knocked = translator.translate(SENTENCE, knock_out=tuple(("cross", l, h) for l in range(3) for h in range(8)))
    text = "\n".join(m.value for m in at.markdown)
    assert f"with 24 head(s) knocked out: **{knocked.translation}**" in text
    assert any("Changed output tokens are marked" in c.value for c in at.caption)


def test_the_ablated_map_averages_only_the_heads_still_in_use(translator):
    from lessons.explanation import kept_average

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state[state_keys.SENTENCE] = SENTENCE
    at.session_state[state_keys.BEAM] = DEFAULT_BEAM
    at.session_state["explain.tab"] = strings("en")["explain.tab.knock"]
    # Every decoder self-attention head (which changes this translation) and two of the last layer's 8 cross heads.
    knocked_heads = [("decoder_self", l, h) for l in range(3) for h in range(8)] + [("cross", 2, 0), ("cross", 2, 1)]
    at.session_state["explain.knock"] = knocked_heads
    at.switch_page("app_pages/pages/explanation.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    knocked = translator.translate(SENTENCE, knock_out=tuple(knocked_heads))
    assert knocked.output_tokens != translator.translate(SENTENCE).output_tokens  # else no maps are drawn
    ablated = specs(at)[-1]
    expected = kept_average(knocked.cross[2], [0, 1])
    np.testing.assert_allclose(cells(ablated), expected, atol=1e-5)
    assert not np.allclose(expected, knocked.cross[2].mean(axis=0), atol=1e-3)  # all eight would differ
    assert any("average of the 6 of 8 heads still in use" in m.value for m in at.markdown)


def test_the_page_speaks_chinese():
    at = page("zh", tab="importance")
    assert at.title[0].value == "注意力是解释吗？"
    assert [tab.label for tab in at.tabs][:2] == ["1 · 注意力与归因并排", "2 · 哪些头一致"]
    assert any("开发集" in m.value for m in at.markdown)


def sink_share(weights: np.ndarray, keys: list[str], token: str) -> np.ndarray:
    """(layers,) the mass on `token`'s columns, averaged over heads and queries, computed here by loops."""
    layers, heads, queries, _ = weights.shape
    columns = [j for j, k in enumerate(keys) if k == token]
    return np.array([np.mean([weights[l, h, q, columns].sum() for h in range(heads) for q in range(queries)])
                     for l in range(layers)])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_caveat_shows_this_sentences_sinks_and_residual_ratios(translator, lang):
    at = page(lang, tab="caveat")
    result = translator.translate(SENTENCE, beam=DEFAULT_BEAM)
    frames = [(tuple(f.columns), f) for f in shown_tables(at)]
    (dec,) = [f for cols, f in frames if cols == ("<s>", "。")]  # decoder self-attention's keys: <s> and the full stop
    start = sink_share(result.decoder_self, result.target_tokens, "<s>")
    assert list(dec["<s>"])[:-1] == [f"{x:.0%}" for x in start]
    T = len(result.target_tokens)
    assert list(dec["<s>"])[-1] == f"{np.mean([1 / (q + 1) for q in range(T)]):.0%}", "uniform over the causal prefix"
    enc = [f for cols, f in frames if cols == ("</s>", ".")]
    assert len(enc) == 2, "encoder self-attention and cross-attention both have </s> and . among their keys"
    assert list(enc[1]["</s>"])[:-1] == [f"{x:.0%}" for x in sink_share(result.cross, result.source_tokens, "</s>")]
    ratios = next(f for cols, f in frames if len(cols) == 3)
    x, a = result.encoder_sublayers["input"], result.encoder_sublayers["self_attn_out"]
    expected = [np.mean([np.linalg.norm(a[l, i]) / np.linalg.norm(x[l, i]) for i in range(x.shape[1])])
                for l in range(x.shape[0])]
    assert list(ratios.iloc[:, 0]) == [f"{r:.2f}" for r in expected]
    x, a = result.decoder_sublayers["norm1"], result.decoder_sublayers["cross_attn_out"]
    cross = [np.mean(np.linalg.norm(a[l], axis=-1) / np.linalg.norm(x[l], axis=-1)) for l in range(x.shape[0])]
    assert list(ratios.iloc[:, 2]) == [f"{r:.2f}" for r in cross]
    text = "\n".join(m.value for m in at.markdown)
    assert f"{min(min(expected), min(cross), *[float(v) for v in ratios.iloc[:, 1]]):.2f}" in text



def test_the_words_say_what_is_measured():
    """ρ runs over source tokens, every full stop counts as a sink (sink_shares counts them all), rows are the steps
    labelled by the token each reads, and 中文 calls rollout 注意力累积 (first as 注意力累积（rollout）), never 展开."""
    from lessons.explanation import sink_shares

    en, zh = strings("en"), strings("zh")
    weights = np.full((1, 1, 1, 5), 0.2)
    present, shares, _ = sink_shares(weights, ["a", ".", "b", ".", "</s>"])
    assert present == ["</s>", "."] and shares[0, 1] == pytest.approx(0.4)  # both full stops, not the last alone
    assert "final full stop" not in en["explain.caveat.sinks"] and "句末" not in zh["explain.caveat.sinks"]
    assert "source words" not in en["explain.open.agreement"] and "源词" not in zh["explain.open.agreement"]
    assert "being written" not in en["explain.maps.caption"] and "正在写出" not in zh["explain.maps.caption"]
    assert "training set's {source} sentences" in en["explain.roles.caption"]
    assert "按训练集中的{source}句子计" in zh["explain.roles.caption"]
    page_zh = [v for k, v in zh.items() if k.startswith("explain.")]
    assert not [v for v in page_zh if "展开" in v]
    assert "注意力累积（rollout）" in zh["explain.papers"]
    assert zh["explain.papers"].index("注意力累积（rollout）") == zh["explain.papers"].index("注意力累积")
