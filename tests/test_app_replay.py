"""The replay and live-lab pages drawn (AppTest), in English and 中文: what only the page shows — its buttons,
slider and pickers wired to its view, the lab's queue across two sessions and its fragment ticking through a run, the
download buttons' addresses while it ticks, a checkpoint whose snapshots are missing or unreadable. What the pages
show (texts, numbers, maps, charts) is checked on their views without Streamlit: tests/test_replay_view.py,
tests/test_lab_view.py; the queue's arithmetic: tests/test_lab_queue.py."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from lessons import replay as lr
from model import DEFAULT_CHECKPOINT, TrainingLog
from model.training.snapshots import read_snapshots
from tests.support.apptest import open_page, page_text
from tests.support.paths import needs_checkpoint


def has_chinese(text: str) -> bool:
    return re.search(r"[\u4e00-\u9fff]{4}", text) is not None


@pytest.fixture(scope="module")
def snapshots():
    log = json.loads((DEFAULT_CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))
    return log, read_snapshots(DEFAULT_CHECKPOINT, TrainingLog.from_dict(log))


def charts_of(at) -> dict[str, dict]:
    return {chart.key: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}


def downloads(at) -> dict[str, str]:
    """Each download button's key and the address its file is served at (a hash of the file's content)."""
    return {button.proto.id.split("-", 2)[-1]: button.proto.url for button in at.get("download_button")}


# ---------------------------------------------------------------- replay


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_replay_renders_in_both_languages(lang, snapshots):
    """The map, the entropy share and the training curves, in the session's language, opened on the first probe's
    head closest to the average of all heads."""
    _, snaps = snapshots
    at = open_page("replay", lang)
    assert set(charts_of(at)) == {"replay.chart.map", "replay.chart.share", "replay.chart.curves"}
    words = re.sub(r"\*\*[^*]*\*\*", "", page_text(at))  # translations, shown in bold, are Chinese on both
    assert has_chinese(words) == (lang == "zh")
    layer, head, _, _ = lr.consensus_head(np.asarray(snaps[-1].probes[0].attention("cross")))
    assert (at.session_state["replay.layer"], at.session_state["replay.head"]) == (layer, head)


@needs_checkpoint
def test_replay_moves_through_the_snapshots_and_keeps_the_readers_head(snapshots):
    """Next, the slider and Play move the snapshot the page shows; another kind is drawn on the map; another probe
    keeps the head on the map, and its caption names that probe's own."""
    _, snaps = snapshots
    at = open_page("replay")
    opened = at.session_state["replay.layer"], at.session_state["replay.head"]
    assert at.session_state["replay.snapshot"] == 0 and "step 0**" in page_text(at)
    at.button(key="replay.next").click().run()
    assert at.session_state["replay.snapshot"] == 1 and f"step {snaps[1].step:,}**" in page_text(at)
    at.select_slider(key="replay.snapshot").set_value(len(snaps) - 1).run()
    assert f"as **{snaps[-1].probes[0].translation}**" in page_text(at)
    assert at.button(key="replay.next").disabled and not at.exception
    heads = [lr.consensus_head(np.asarray(p.attention("cross")))[:2] for p in snaps[-1].probes]
    other = next(i for i, h in enumerate(heads) if h != heads[0])
    at.selectbox(key="replay.probe").set_value(other).run()
    assert (at.session_state["replay.layer"], at.session_state["replay.head"]) == opened  # the reader's view kept
    assert "For this probe the head closest to the average of all heads is" in "\n".join(c.value for c in at.caption)
    at.segmented_control(key="replay.kind").set_value("decoder_self").run()
    shown = np.array(charts_of(at)["replay.chart.map"]["data"][0]["z"], dtype=float)  # the future is blank
    assert np.array_equal(np.isnan(shown), np.triu(np.ones_like(shown, dtype=bool), 1))
    at.button(key="replay.play").click().run()  # from the last snapshot Play starts over at the first
    assert at.session_state["replay.snapshot"] == 0 and at.session_state["replay.playing"] and not at.exception


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


# ---------------------------------------------------------------- live lab


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_renders_the_untrained_model_in_both_languages(lang):
    at = open_page("lab", lang)
    assert set(charts_of(at)) == {"lab.chart.before"}  # the untrained model's map; the trained one waits for Train
    assert has_chinese(page_text(at)) == (lang == "zh")
    assert set(downloads(at)) == {"lab.chart.before.csv"}


@needs_checkpoint
def test_lab_runs_a_capped_run_keeps_it_and_no_download_changes_its_address_while_it_runs():
    """Train runs the fragment chunk by chunk until the cap, and the run is kept (another head redraws its maps, not
    the run). A button redrawn with new numbers gets a new address at every tick (0.1 s), and Streamlit deletes the
    old file as soon as any session's run ends: a click the browser sent before it redrew the button found nothing
    (issue 53: four 404s in a 30-student run). The live map offers its numbers when the run stops; the untrained
    map's never change, so its address stays."""
    from app_pages.state import lab_queue

    lab_queue.shared().__init__()  # an empty queue: runs of earlier tests leave nothing behind
    at = open_page("lab", **{"lab.task": "reverse"})
    at.select_slider(key="lab.max_steps").set_value(100).run()
    at.button(key="lab.train").click().run()
    ticks, said = [], []
    while at.session_state["lab.run"] is not None:
        assert len(ticks) < 10, "a 100-step run is 4 chunks of 25 after the untrained model's"
        ticks.append(downloads(at))
        said.append("once the run stops" in page_text(at))  # under the live map, from its first chunk on
        at.run()
    assert not at.exception and said[0] is False and all(said[1:])
    assert len(ticks) >= 3 and all(tick == ticks[0] for tick in ticks), ticks  # the same addresses at every tick
    assert set(ticks[0]) == {"lab.chart.before.csv"}
    last = at.session_state["lab.last"]
    assert last.step == 100 and last.stopped_by == "steps" and at.session_state["lab.first"].step == 0
    assert set(charts_of(at)) == {"lab.chart.before", "lab.chart.after", "lab.chart.curves"}
    assert set(downloads(at)) == {"lab.chart.before.csv", "lab.chart.after.csv"}
    assert downloads(at)["lab.chart.before.csv"] == ticks[0]["lab.chart.before.csv"]
    assert "After 100 steps" in page_text(at) and not at.button(key="lab.train").disabled
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
