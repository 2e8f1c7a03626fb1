"""The replay and live-lab pages (AppTest) in English and Chinese, and the arithmetic and figures they draw with."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from i18n import translate_key
from lessons import replay as lr
from lessons.attention_maps import axis_tokens, pick
from model import DEFAULT_CHECKPOINT
from model.training.snapshots import read_snapshots
from tests.support.apptest import open_page, page_text
from tests.support.paths import needs_checkpoint
from viz.labels import token_labels
from viz.options import Frame
from viz.teaching_anatomy import training_curves_figure
from viz.teaching_replay import lab_curves_figure, marked_at, share_figure


def has_chinese(text: str) -> bool:
    return re.search(r"[\u4e00-\u9fff]{4}", text) is not None


@pytest.fixture(scope="module")
def snapshots():
    log = json.loads((DEFAULT_CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))
    return log, read_snapshots(DEFAULT_CHECKPOINT, log)


# ---------------------------------------------------------------- replay


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_replay_renders_in_both_languages(lang):
    at = open_page("replay", lang)
    assert len(at.get("plotly_chart")) == 3  # the map, the entropy share, the training curves
    words = re.sub(r"\*\*[^*]*\*\*", "", page_text(at))  # translations, shown in bold, are Chinese on both
    assert has_chinese(words) == (lang == "zh")


@needs_checkpoint
def test_replay_moves_through_the_snapshots(snapshots):
    log, snaps = snapshots
    at = open_page("replay")
    first = snaps[0]["probes"][0]["translation"]
    assert at.session_state["replay.snapshot"] == 0 and "step 0**" in page_text(at)
    from lessons.replay import repeated_token

    if repeated_token(snaps[0]["probes"][0]["target_tokens"]):  # the untrained model's repetition is explained
        assert "before any training step the weights are random" in page_text(at)
    at.button(key="replay.next").click().run()
    assert at.session_state["replay.snapshot"] == 1
    assert f"step {snaps[1]['step']:,}**" in page_text(at)
    at.select_slider(key="replay.snapshot").set_value(len(snaps) - 1).run()
    text = page_text(at)
    last = snaps[-1]["probes"][0]["translation"]
    assert last in text and last != first
    assert at.button(key="replay.next").disabled and not at.exception
    at.button(key="replay.play").click().run()  # from the last snapshot Play starts over at the first
    assert at.session_state["replay.snapshot"] == 0 and at.session_state["replay.playing"]


@needs_checkpoint
def test_replay_opens_on_the_head_closest_to_the_average_of_all_heads_not_on_a_sink(snapshots):
    _, snaps = snapshots
    cross = np.asarray(snaps[-1]["probes"][0]["cross"])
    layer, head, agree, rows = lr.consensus_head(cross)
    strongest = cross[layer, head].argmax(-1)
    assert np.bincount(strongest).max() * 2 <= rows  # not a sink
    at = open_page("replay")
    assert (at.session_state["replay.layer"], at.session_state["replay.head"]) == (layer, head)
    text = page_text(at)
    assert f"agrees on {agree} of {rows} rows" in text and "entropy measures how focused" in text
    # the reference is named for what it is: the average of every head, sinks included, not an alignment
    heads = cross.shape[0] * cross.shape[1]
    assert f"with the average of all {heads} cross-attention heads, sinks included" in text
    assert "consensus" not in text and "best match to an alignment" not in text
    # the intro says which weights the shipped model holds
    assert f"after epoch {snaps[-1]['epoch']}" in text and "average of the weights after epochs" in text
    line = lr.shares_over_snapshots(snaps, 0, "cross")[layer, head]  # the caption's numbers are this head's
    assert f"{line[0]:.0%} at step 0" in page_text(at) and f"lowest {line.min():.0%}" in page_text(at)
    assert page_text(at).count(f"{line[0]:.0%} at step 0") == 1  # at the first snapshot, said once
    at.select_slider(key="replay.snapshot").set_value(3).run()
    assert f"{line[0]:.0%} at step 0, {line[3]:.0%} at step {snaps[3]['step']:,}, lowest" in page_text(at)


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_replay_says_how_many_probes_the_shipped_model_translates_differently(snapshots, lang):
    """The last snapshot is not the shipped weights: the intro counts the probes whose greedy translation differs
    (the count recomputed here with the model itself), and the step line shows the shipped model's own."""
    from model import Translator

    log, snaps = snapshots
    translator = Translator.from_checkpoint(DEFAULT_CHECKPOINT)
    own = [translator.translate(p, beam=1).translation for p in log["probes"]]
    differ = sum(o != p["translation"] for o, p in zip(own, snaps[-1]["probes"]))
    at = open_page("replay", lang)
    text = page_text(at)
    if lang == "en":
        assert f"translates {differ} of the {len(own)} probes differently" in text and "differ a little" not in text
        assert f"as the snapshots did, writes: **{own[0]}**" in text
    else:
        assert f"{len(own)} 个探针句子中有 {differ} 个它译得和最后一张快照不同" in text and "略有不同" not in text
        assert f"用贪心解码）译为：**{own[0]}**" in text


@needs_checkpoint
@pytest.mark.parametrize("kind", ["encoder_self", "decoder_self", "cross"])
def test_replay_draws_every_kind(kind, snapshots):
    """The map is the chosen kind's, of the chosen snapshot and probe: its cells are that snapshot's weights at the
    page's layer and head (recomputed with lessons.attention_maps.pick), on the kind's queries and keys; the
    decoder's masked self-attention alone leaves the future blank; the share chart is titled with the kind."""
    at = open_page("replay", **{"replay.kind": kind, "replay.snapshot": 5, "replay.probe": 1})
    charts = {chart.key: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}
    assert set(charts) == {"replay.chart.map", "replay.chart.share", "replay.chart.curves"}
    probe = snapshots[1][5]["probes"][1]
    expected = pick(probe[kind], at.session_state["replay.layer"], at.session_state["replay.head"])
    drawn = charts["replay.chart.map"]
    shown = np.array(drawn["data"][0]["z"], dtype=float)  # a masked cell is sent as None: NaN here
    blank = np.isnan(shown)
    np.testing.assert_allclose(shown[~blank], expected[~blank], atol=1e-6)
    assert np.array_equal(blank, np.triu(np.ones_like(blank), 1)) if kind == "decoder_self" else not blank.any()
    queries, keys = axis_tokens(probe["source_tokens"], probe["target_tokens"], kind)
    assert drawn["layout"]["yaxis"]["ticktext"] == token_labels(queries)
    assert drawn["layout"]["xaxis"]["ticktext"] == token_labels(keys)
    title = charts["replay.chart.share"]["layout"]["title"]["text"].replace("<br>", " ")
    assert title.startswith(translate_key("en", f"kind.{kind}") + ":")


@pytest.fixture
def no_snapshot_file(monkeypatch):
    """The shipped checkpoint as if trained before snapshots existed (the server's result cache, where the page
    keeps them, forgets the real ones)."""
    import model.training.snapshots
    from app_pages.state import result_cache

    monkeypatch.setattr(model.training.snapshots, "SNAPSHOTS", "missing.safetensors")
    result_cache.shared().clear()
    yield
    result_cache.shared().clear()


@needs_checkpoint
def test_replay_without_snapshots_says_how_to_retrain(no_snapshot_file):
    at = open_page("replay")
    text = page_text(at) + "\n".join(c.value for c in at.code)
    assert not at.get("plotly_chart")
    assert "no attention snapshots" in text and "python -m model.training.train" in text and "--probe" in text


# ---------------------------------------------------------------- live lab


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_renders_the_untrained_model_in_both_languages(lang):
    at = open_page("lab", lang)
    assert len(at.get("plotly_chart")) == 1  # the untrained model's map; the trained one waits for Train
    assert has_chinese(page_text(at)) == (lang == "zh")
    assert "5,952" in page_text(at)  # the tiny model's parameters, counted from its config


@needs_checkpoint
def test_lab_runs_a_capped_run_and_keeps_it():
    at = open_page("lab", **{"lab.task": "reverse"})
    at.select_slider(key="lab.max_steps").set_value(100).run()
    at.button(key="lab.train").click().run()
    runs = 0
    while at.session_state["lab.run"] is not None:
        assert runs < 10, "a 100-step run is 4 chunks of 25 after the untrained model's"
        at.run()
        runs += 1
    assert not at.exception
    last = at.session_state["lab.last"]
    assert last.step == 100 and last.stopped_by == "steps" and at.session_state["lab.first"].step == 0
    assert len(at.get("plotly_chart")) == 3  # before, after, curves
    assert "After 100 steps" in page_text(at) and "anti-diagonal" in page_text(at)
    from model.lab.tasks import EXAMPLE

    # the mirror of answer letter i among the example's letters (</s> is a source token, not a letter)
    assert f"source letter {len(EXAMPLE) - 1} − i" in page_text(at) and "n − 1 − i" not in page_text(at)
    assert not at.button(key="lab.train").disabled
    at.segmented_control(key="lab.head").set_value(1).run()  # another head: the run's maps, redrawn, not retrained
    assert at.session_state["lab.last"] is last and len(at.get("plotly_chart")) == 3


@needs_checkpoint
def test_a_second_lab_run_waits_its_turn_shows_its_place_and_can_cancel():
    """Two sessions press Train: the second waits (no step computed) until the first ends, or cancels."""
    from app_pages.state import lab_queue

    lab_queue.shared().__init__()  # an empty queue: runs of earlier tests leave nothing behind
    first = open_page("lab")
    first.select_slider(key="lab.max_steps").set_value(100).run()
    first.button(key="lab.train").click().run()
    second = open_page("lab")
    second.select_slider(key="lab.max_steps").set_value(100).run()
    second.button(key="lab.train").click().run()
    second.run()
    assert second.session_state["lab.last"] is None  # not one chunk computed while the first trains
    assert "1 ahead of you in the queue" in page_text(second) and not second.exception
    assert re.search(r"starts by itself, in about (5|10|15|20) s", page_text(second))  # the first run's 20-s cap left
    second.button(key="lab.cancel").click().run()
    assert second.session_state["lab.run"] is None and len(lab_queue.shared()) == 1
    second.button(key="lab.train").click().run()  # in line again
    while first.session_state["lab.run"] is not None:
        first.run()
    assert first.session_state["lab.last"].stopped_by and len(lab_queue.shared()) == 1  # the first left the queue
    second.run()
    second.run()
    assert second.session_state["lab.last"] is not None and "ahead of you" not in page_text(second)


def test_the_lab_queue_keeps_order_limits_runs_and_drops_a_closed_tab():
    from app_pages.state.lab_queue import LabQueue

    now = [0.0]
    queue = LabQueue(runs=1, stale_s=15, clock=lambda: now[0])
    a, b, c = queue.join(), queue.join(), queue.join()
    assert [queue.place(x) for x in (a, b, c)] == [0, 1, 2]
    assert queue.place(a) == 0 and queue.place(b) == 1  # one run at a time: a trains, b waits
    queue.leave(a)
    assert queue.place(b) == 0 and queue.place(c) == 1
    now[0] = 10.0
    queue.place(c)  # c's page is still open; b's tab was closed and asks no more
    now[0] = 26.0
    assert queue.place(c) == 0 and queue.place(b) is None and len(queue) == 1


def test_the_lab_trains_in_its_own_process_at_a_lower_priority():
    """The chunks are computed by the lab's worker process, niced, so that translations get the cores first; a run
    goes on where it left off, and one dropped starts afresh."""
    import os

    from model.lab import LAB_NICE, LabSettings, Trainer, train_steps

    trainer, settings = Trainer(), LabSettings(task="reverse", max_steps=100)
    try:
        assert trainer.niceness() == LAB_NICE and os.nice(0) == 0  # this process, the server's, is not niced
        here = train_steps(settings)
        for _ in range(3):  # the same seed: the worker's run is the run this process would have computed
            there, expected = trainer.next("a", settings), next(here)
            assert there.step == expected.step and np.allclose(there.losses, expected.losses, rtol=1e-4)
        trainer.drop("a")
        assert trainer.next("a", settings).step == 0
    finally:
        trainer.shutdown()


def test_a_waiting_lab_run_is_told_about_how_long_until_its_turn():
    """Before any run has ended each takes the cap; then the mean of those that ran. The run computing now counts
    only what it has left; with two slots the queue drains two at a time."""
    from app_pages.state.lab_queue import LabQueue

    now = [0.0]
    queue = LabQueue(runs=1, stale_s=1000, clock=lambda: now[0])
    a, b, c = queue.join(), queue.join(), queue.join()
    assert queue.place(a) == 0  # its run starts now
    now[0] = 5.0
    assert queue.wait(a, 20) == 0 and queue.wait(b, 20) == 15 and queue.wait(c, 20) == 35
    now[0] = 12.0
    queue.leave(a)  # it ran 12 s: the next estimates use 12
    assert queue.place(b) == 0 and queue.wait(c, 20) == 12
    now[0] = 20.0
    assert queue.wait(c, 20) == 4 and queue.wait("gone", 20) is None
    queue.leave(c)  # cancelled before it ran: not a run's length
    queue.leave(b)
    d, e = queue.join(), queue.join()
    assert queue.wait(e, 20) == 10  # d will take the mean of the two runs, 12 s and 8 s
    two = LabQueue(runs=2, stale_s=1000, clock=lambda: now[0])
    tickets = [two.join() for _ in range(5)]
    assert [two.wait(t, 10) for t in tickets] == [0, 0, 10, 10, 20]


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
def test_training_made_cross_attention_less_uniform(snapshots):
    _, snaps = snapshots
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


def test_lab_curves_span_the_cap():
    fig = lab_curves_figure([1, 2], [2.0, 1.0], [0, 2], [0.0, 0.5], [0.1, 0.6], frame=Frame("t", "s", "l", "a"),
                            max_steps=300, labels=("l", "e", "p"))
    assert list(fig.layout.xaxis.range) == [0, 300] == list(fig.layout.xaxis2.range)
    with pytest.raises(ValueError, match="pair up"):
        lab_curves_figure([1], [2.0, 1.0], [0], [0.0], [0.1], frame=Frame("", "", "", ""), max_steps=1,
                          labels=("", "", ""))


@needs_checkpoint
def test_a_truncated_snapshots_file_fails_softly_on_replay_only(tmp_path, monkeypatch):
    import shutil

    from app_pages.state import server
    from model import DEFAULT_CHECKPOINT
    from model.training.snapshots import SNAPSHOTS

    folder = tmp_path / "en-zh-broken-snapshots"
    shutil.copytree(DEFAULT_CHECKPOINT, folder)
    (folder / SNAPSHOTS).write_bytes((folder / SNAPSHOTS).read_bytes()[:5000])
    monkeypatch.setattr(server, "EXTRA_MODELS", tmp_path)
    at = open_page("replay", checkpoint=folder.name)
    assert any("corrupt or does not match" in e.value for e in at.error)
    assert not at.get("plotly_chart")
    at.switch_page("app_pages/pages/translate.py").run()
    assert not at.exception and not at.error and at.get("plotly_chart")  # the model itself still works


@pytest.mark.parametrize("lang, mirror", [("en", "source letter 7 − i"), ("zh", "第 7 − i 个")])
def test_the_reverse_tasks_mirror_counts_letters_not_the_end_token(lang, mirror):
    """The source of the lab's example is its 8 letters and </s>: the mirror of answer letter i is letter 7 − i,
    not n − 1 − i with n the 9 source tokens."""
    from model.lab.tasks import EXAMPLE

    n = len(EXAMPLE) + 1  # </s>
    text = translate_key(lang, "lab.aligned.reverse", layer=1, head=1, share="90%", before="11%", uniform="11%", n=n,
                         letters=n - 1, mirror=n - 2)
    assert mirror in text and "n − 1 − i" not in text


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", ["en-zh", "zh-en"])
def test_replays_consensus_caption_names_the_head_on_the_map_after_the_probe_changes(model, lang):
    """The page opens on the first probe's consensus head; another probe's may differ, and its caption then says
    which head the map shows instead of claiming the map was opened on that probe's."""
    from tests.support.paths import ROOT

    folder = ROOT / "checkpoints" / model
    log = json.loads((folder / "training_log.json").read_text(encoding="utf-8"))
    last = read_snapshots(folder, log)[-1]["probes"]
    heads = [lr.consensus_head(np.asarray(p["cross"]))[:2] for p in last]
    other = next((i for i, h in enumerate(heads) if h != heads[0]), None)
    if other is None:
        pytest.skip("every probe's consensus head is the first's")
    at = open_page("replay", lang, checkpoint=model)
    assert (at.session_state["replay.layer"], at.session_state["replay.head"]) == heads[0]
    captions = "\n".join(c.value for c in at.caption)
    assert ("The map shows" in captions) if lang == "en" else ("图中显示的是" in captions)
    at.selectbox(key="replay.probe").set_value(other).run()
    assert (at.session_state["replay.layer"], at.session_state["replay.head"]) == heads[0]  # the reader's view kept
    captions = "\n".join(c.value for c in at.caption)
    best = translate_key(lang, "explorer.layer_n", n=heads[other][0] + 1), translate_key(lang, "explorer.head_n",
                                                                                         n=heads[other][1] + 1)
    shown = translate_key(lang, "decoding.which", layer=translate_key(lang, "explorer.layer_n", n=heads[0][0] + 1),
                          head=translate_key(lang, "explorer.head_n", n=heads[0][1] + 1))
    if lang == "en":
        assert f"For this probe the head closest to the average of all heads is {best[0]}, {best[1]}" in captions
        assert f"(the map shows {shown};" in captions and "Opened on" not in captions
    else:
        assert f"最接近所有头平均的头是{best[0]}{best[1]}（图中显示的是{shown}" in captions and "打开时" not in captions
    intro = page_text(at)
    assert "on the word being translated" not in intro and "集中在正在翻译的词上" not in intro
    assert "。 " not in captions
