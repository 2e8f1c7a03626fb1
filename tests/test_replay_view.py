"""Replay's view, computed without Streamlit (app_pages/pages/replay_view.py): the introduction, the line that says
where the replay is, the map of a snapshot, the share of uniform entropy over training and its caption, the head the
page opens on, what a checkpoint without readable snapshots says; and the arithmetic and figures they are made of.
Read from the shipped checkpoints' own snapshots and logs, in English and 中文. What needs the page (Previous / Next,
the slider, Play, the pickers, the link): tests/test_app_replay.py; layout: tests/test_replay_browser.py."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from app_pages.components.parts import Chart, Notice, texts
from app_pages.pages import replay_view
from app_pages.pages.replay_view import NoReplay, Pick, Replay
from app_pages.shell.text import in_language
from i18n import translate_key
from lessons import replay as lr
from lessons.attention_maps import axis_tokens, pick
from model import Snapshot, SnapshotError, TrainingLog
from model.loading.training_log import SnapshotProbe
from model.training.snapshots import read_snapshots
from tests.support.paths import CHECKPOINT, ROOT, needs_checkpoint
from viz.labels import token_labels
from viz.options import Frame
from viz.teaching_anatomy import training_curves_figure
from viz.teaching_replay import marked_at, share_figure

LANGUAGES = {"en-zh": ("en", "zh"), "zh-en": ("zh", "en")}


def raw_log(model: str = "en-zh") -> dict:
    return json.loads((ROOT / "checkpoints" / model / "training_log.json").read_text(encoding="utf-8"))


def replay_of(translator, model: str = "en-zh") -> Replay:
    """What the page replays for `model`, the shipped translations decoded greedily as the page asks for them."""
    log = raw_log(model)
    typed = TrainingLog.from_dict(log)
    snapshots = read_snapshots(ROOT / "checkpoints" / model, typed)
    probes = replay_view.probe_texts(typed, snapshots)
    return Replay(snapshots, probes, typed, [translator.translate(p, beam=1).translation for p in probes])


@pytest.fixture(scope="module")
def shown(translator) -> Replay:
    return replay_of(translator)


def view_of(shown: Replay, lang: str = "en", model: str = "en-zh", **picked) -> replay_view.SnapshotView:
    """The view of snapshot 0, probe 0, cross-attention at the opening head, unless `picked` says otherwise."""
    probe = picked.get("probe", 0)
    layer, head = replay_view.opening_head(shown, probe)
    chosen = {"snapshot": 0, "probe": probe, "kind": "cross", "layer": layer, "head": head, **picked}
    with in_language(lang):
        return replay_view.snapshot_view(shown, Pick(**chosen), LANGUAGES[model], numbers=True)


def caption_text(view: replay_view.SnapshotView) -> str:
    return texts(view.notes)


# ---------------------------------------------------------------- the introduction and the step line


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_intro_counts_the_probes_the_shipped_model_translates_differently(shown, lang):
    """The last snapshot is not the shipped weights: the intro counts the probes whose greedy translation differs
    (recomputed here with the model itself), and the step line shows the shipped model's own."""
    own, last = shown.shipped, shown.snapshots[-1]
    differ = sum(o != p.translation for o, p in zip(own, last.probes))
    with in_language(lang):
        intro = replay_view.heading(shown).intro
    now = view_of(shown, lang).now
    if lang == "en":
        assert f"translates {differ} of the {len(own)} probes differently" in intro and "differ a little" not in intro
        assert f"as the snapshots did, writes: **{own[0]}**" in now
        assert f"after epoch {last.epoch}" in intro and "average of the weights after epochs" in intro
    else:
        assert f"{len(own)} 个探针句子中有 {differ} 个它译得和最后一张快照不同" in intro and "略有不同" not in intro
        assert f"用贪心解码）译为：**{own[0]}**" in now


@needs_checkpoint
def test_the_step_line_follows_the_snapshot_and_explains_the_untrained_repetition(shown):
    snaps = shown.snapshots
    first = view_of(shown).now
    assert "step 0**" in first and f"Snapshot 1 of {len(snaps)}" in first and snaps[0].probes[0].translation in first
    if lr.repeated_token(snaps[0].probes[0].target_tokens):  # the untrained model's repetition is explained
        assert "before any training step the weights are random" in first
    assert f"step {snaps[1].step:,}**" in view_of(shown, snapshot=1).now
    last = view_of(shown, snapshot=len(snaps) - 1).now
    written = f"as **{snaps[-1].probes[0].translation}**"  # the snapshot's translation, not the shipped one
    assert written in last and written not in first
    evaluated = {e.step: e.bleu for e in shown.log.dev}
    step = snaps[-1].step
    assert (f"dev BLEU at this step: {evaluated[step]}" in last) == (step in evaluated)


# ---------------------------------------------------------------- the head the page opens on, and its caption


@needs_checkpoint
def test_the_page_opens_on_the_head_closest_to_the_average_of_all_heads_not_on_a_sink(shown):
    snaps = shown.snapshots
    cross = np.asarray(snaps[-1].probes[0].attention("cross"))
    layer, head, agree, rows = lr.consensus_head(cross)
    assert replay_view.opening_head(shown, 0) == (layer, head)
    strongest = cross[layer, head].argmax(-1)
    assert np.bincount(strongest).max() * 2 <= rows  # not a sink
    view = view_of(shown)
    text = caption_text(view)
    assert f"agrees on {agree} of {rows} rows" in text and "entropy measures how focused" in text
    # the reference is named for what it is: the average of every head, sinks included, not an alignment
    heads = cross.shape[0] * cross.shape[1]
    assert f"with the average of all {heads} cross-attention heads, sinks included" in text
    assert "consensus" not in text and "best match to an alignment" not in text
    line = lr.shares_over_snapshots(snaps, 0, "cross")[layer, head]  # the share caption's numbers are this head's
    share = texts(view.share)
    assert f"{line[0]:.0%} at step 0" in share and f"lowest {line.min():.0%}" in share
    assert share.count(f"{line[0]:.0%} at step 0") == 1  # at the first snapshot, said once
    later = texts(view_of(shown, snapshot=3).share)
    assert f"{line[0]:.0%} at step 0, {line[3]:.0%} at step {snaps[3].step:,}, lowest" in later


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", ["en-zh", "zh-en"])
def test_the_consensus_caption_names_the_head_on_the_map_for_another_probe(model, lang, translator, zh_translator):
    """The page opens on the first probe's consensus head; another probe's may differ, and its caption then says
    which head the map shows instead of claiming the map was opened on that probe's."""
    shown = replay_of(translator if model == "en-zh" else zh_translator, model)
    heads = [lr.consensus_head(np.asarray(p.attention("cross")))[:2] for p in shown.snapshots[-1].probes]
    other = next((i for i, h in enumerate(heads) if h != heads[0]), None)
    if other is None:
        pytest.skip("every probe's consensus head is the first's")
    opened = caption_text(view_of(shown, lang, model))
    assert ("The map shows" in opened) if lang == "en" else ("图中显示的是" in opened)
    layer, head = heads[0]
    captions = caption_text(view_of(shown, lang, model, probe=other, layer=layer, head=head))
    best = (translate_key(lang, "explorer.layer_n", n=heads[other][0] + 1),
            translate_key(lang, "explorer.head_n", n=heads[other][1] + 1))
    which = translate_key(lang, "decoding.which", layer=translate_key(lang, "explorer.layer_n", n=layer + 1),
                          head=translate_key(lang, "explorer.head_n", n=head + 1))
    if lang == "en":
        assert f"For this probe the head closest to the average of all heads is {best[0]}, {best[1]}" in captions
        assert f"(the map shows {which};" in captions and "Opened on" not in captions
    else:
        assert f"最接近所有头平均的头是{best[0]}{best[1]}（图中显示的是{which}" in captions and "打开时" not in captions
    with in_language(lang):
        intro = replay_view.heading(shown).intro
    assert "on the word being translated" not in intro and "集中在正在翻译的词上" not in intro
    assert "。 " not in captions


# ---------------------------------------------------------------- the map and the charts


@needs_checkpoint
@pytest.mark.parametrize("kind", ["encoder_self", "decoder_self", "cross"])
def test_the_map_is_the_snapshots_weights_of_the_chosen_kind(kind, shown):
    """The map is the chosen kind's, of the chosen snapshot and probe: its cells are that snapshot's weights at the
    chosen layer and head (recomputed with lessons.attention_maps.pick), on the kind's queries and keys; the
    decoder's masked self-attention alone leaves the future blank; the share chart is titled with the kind; the
    curves mark the snapshot's step."""
    view = view_of(shown, kind=kind, snapshot=5, probe=1, layer=1, head=3)
    probe = shown.snapshots[5].probes[1]
    expected = pick(probe.attention(kind), 1, 3)
    figure = view.map.figure
    drawn = np.array(figure.data[0].z, dtype=float)  # a masked cell is NaN
    blank = np.isnan(drawn)
    np.testing.assert_allclose(drawn[~blank], expected[~blank], atol=1e-6)
    assert np.array_equal(blank, np.triu(np.ones_like(blank), 1)) if kind == "decoder_self" else not blank.any()
    queries, keys = axis_tokens(list(probe.source_tokens), list(probe.target_tokens), kind)
    assert list(figure.layout.yaxis.ticktext) == token_labels(queries)
    assert list(figure.layout.xaxis.ticktext) == token_labels(keys)
    assert view.map.key == "replay.chart.map" and view.map.numbers is not None  # its numbers under it
    charts = {part.key: part.figure for part in (*view.share, *view.curves) if isinstance(part, Chart)}
    assert set(charts) == {"replay.chart.share", "replay.chart.curves"}
    assert charts["replay.chart.share"].layout.title.text.replace("<br>", " ").startswith(
        translate_key("en", f"kind.{kind}") + ":")
    step = shown.snapshots[5].step
    assert [s.x0 for s in charts["replay.chart.curves"].layout.shapes] == [step, step]
    assert f"step {step:,}" in view.title.markdown
    assert (kind == "cross") == ("closest to the average" in caption_text(view))


@needs_checkpoint
def test_in_presentation_mode_the_map_offers_no_numbers(shown):
    layer, head = replay_view.opening_head(shown, 0)
    view = replay_view.snapshot_view(shown, Pick(0, 0, "cross", layer, head), LANGUAGES["en-zh"], numbers=False)
    assert view.map.numbers is None


@needs_checkpoint
def test_a_layers_average_is_that_layers_line_highlighted(shown):
    """The selection "layer 2, every head" is the layer's own line, not a line of its own."""
    from lessons.attention_maps import ALL

    view = view_of(shown, layer=1, head=ALL)
    (chart,) = [part for part in view.share if isinstance(part, Chart)]
    layers = np.shape(shown.snapshots[0].probes[0].attention("cross"))[0]
    assert len(chart.figure.data) == layers + 1  # uniform and one line per layer
    assert texts(view.share).count(translate_key("en", "explorer.layer_n", n=2) + ":") == 1


# ---------------------------------------------------------------- a checkpoint without readable snapshots


@needs_checkpoint
def test_a_checkpoint_without_snapshots_says_how_to_retrain():
    log = TrainingLog.from_dict(raw_log())
    with pytest.raises(NoReplay) as raised:
        replay_view.snapshots_of(lambda: [], log, "en-zh")
    none = raised.value
    assert "no attention snapshots" in none.notice.text and none.notice.level == "info"
    assert none.command.startswith("python -m model.training.train") and "--out en-zh" in none.command
    assert none.command.count("--probe") == len(log.probes) and "--direction" not in none.command
    assert none.note == translate_key("en", "replay.missing_probes")
    zh_log = TrainingLog.from_dict(raw_log("zh-en"))
    with pytest.raises(NoReplay) as raised:
        replay_view.snapshots_of(lambda: [], zh_log, "zh-en")
    assert "--direction zh-en" in raised.value.command


def test_unreadable_snapshots_say_so_in_an_error_box():
    def read():
        raise SnapshotError("x.safetensors is corrupt or does not match the training log (KeyError).")

    with pytest.raises(NoReplay) as raised:
        replay_view.snapshots_of(read, TrainingLog(), "broken")
    assert isinstance(raised.value.notice, Notice) and raised.value.notice.level == "error"
    assert "corrupt or does not match" in raised.value.notice.text and raised.value.command is None


def test_probes_are_read_back_from_their_tokens_where_the_log_has_none():
    tokens = ("▁I", "▁have", "▁a", "▁dre", "am", ".", "</s>")
    snapshots = [Snapshot(probes=(SnapshotProbe(source_tokens=tokens),))]
    assert replay_view.probe_texts(TrainingLog(), snapshots) == ["I have a dream."]
    assert replay_view.probe_texts(TrainingLog(probes=("Hi.",)), snapshots) == ["Hi."]


# ---------------------------------------------------------------- arithmetic and figures


def test_entropy_share_is_one_for_uniform_and_zero_for_one_key():
    uniform = np.full((2, 3, 4, 5), 0.2)
    np.testing.assert_allclose(lr.entropy_share(uniform, "cross"), np.ones((2, 3)))
    one_key = np.zeros((1, 1, 4, 5))
    one_key[..., 2] = 1
    np.testing.assert_allclose(lr.entropy_share(one_key, "cross"), [[0.0]])
    half = np.zeros((1, 1, 1, 4))
    half[..., :2] = 0.5
    np.testing.assert_allclose(lr.entropy_share(half, "encoder_self"), [[math.log(2) / math.log(4)]])


def test_entropy_share_of_masked_rows_counts_only_visible_keys():
    causal = np.tril(np.ones((4, 4)))
    uniform_visible = (causal / causal.sum(axis=1, keepdims=True))[None, None]
    np.testing.assert_allclose(lr.entropy_share(uniform_visible, "decoder_self"), [[1.0]])
    with pytest.raises(ValueError, match="layers, heads"):
        lr.entropy_share(np.ones((4, 4)), "cross")


@needs_checkpoint
def test_training_made_cross_attention_less_uniform():
    snaps = read_snapshots(CHECKPOINT, TrainingLog.from_dict(raw_log()))
    shares = lr.shares_over_snapshots(snaps, 0, "cross")  # (layers, heads, snapshots)
    assert shares.shape[-1] == len(snaps)
    assert shares[..., 0].mean() > 0.9 and shares[..., -1].min() < shares[..., 0].min() - 0.2


def test_marked_at_adds_a_line_on_each_panel_and_keeps_the_figure():
    fig = training_curves_figure([1, 2], [3, 2], [2], [2.5], [5], [10], frame=Frame("t", "s", "l", "c"),
                                 labels=("a", "b", "c", "d"))
    marked = marked_at(fig, 2, ("x", "x2"))
    assert [(s.xref, s.x0) for s in marked.layout.shapes] == [("x", 2), ("x2", 2)]
    assert len(marked.data) == len(fig.data) and not fig.layout.shapes


def test_share_figure_checks_its_shapes_and_highlights_one_line():
    fig = share_figure([0, 10], [[1.0, 0.5], [0.9, 0.4]], ["a", "b"], frame=Frame("t", "s", "y"), step=10,
                       uniform_label="u", highlight=1, width=400)
    assert [d.name for d in fig.data] == ["u", "a", "b"] and fig.data[2].line.width > fig.data[1].line.width
    assert fig.layout.width == 400 and fig.layout.shapes[0].x0 == 10
    with pytest.raises(ValueError, match="one column per step"):
        share_figure([0, 10, 20], [[1.0, 0.5]], ["a"], frame=Frame("", "", ""), step=0, uniform_label="")
