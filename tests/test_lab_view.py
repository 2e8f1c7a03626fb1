"""The live lab's view, computed without Streamlit (app_pages/pages/lab_view.py): the introduction, the example, a
run's status line, the maps before training and now, what the trained head learned, the curves, the place of a run
that waits, in English and 中文, on runs of the lab's own tiny model. What needs the page (Train, the queue across
sessions, the fragment that ticks, the download buttons' addresses): tests/test_app_replay.py; the browser:
tests/test_replay_browser.py and tests/test_lab_download_browser.py."""

from __future__ import annotations

import re

import numpy as np
import pytest

from app_pages.components.parts import Caption, Chart, Notice, texts
from app_pages.pages import lab_view
from app_pages.components.teaching_slides import Pick
from app_pages.pages.lab_view import LabMap, LabRun
from app_pages.shell.text import in_language
from i18n import translate_key
from lessons.attention_maps import pick
from model.lab import EXAMPLE, TASKS, LabSettings, answer, train_steps
from viz.options import Frame
from viz.teaching_replay import lab_curves_figure

REVERSE = LabSettings(task="reverse", max_steps=100)


@pytest.fixture(scope="module")
def reverse_run():
    """A 100-step run of the reverse task: the untrained model's Progress, then one per chunk of 25 steps."""
    return list(train_steps(REVERSE))


def has_chinese(text: str) -> bool:
    return re.search(r"[\u4e00-\u9fff]{4}", text) is not None


def map_text(shown: LabMap) -> str:
    return texts((shown.heading, *shown.notes))


def which(lang: str, layer: int, head: int) -> str:
    """"layer 1, head 2", as the maps' headings name the pickers' choice."""
    return translate_key(lang, "decoding.which", layer=translate_key(lang, "explorer.layer_n", n=layer + 1),
                         head=translate_key(lang, "explorer.head_n", n=head + 1))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_intro_counts_the_tiny_models_parameters_beside_the_translation_models(lang):
    settings = LabSettings()
    parameters = next(train_steps(settings)).parameters  # counted in the model itself: 5,952 for the default
    with in_language(lang):
        heading = lab_view.heading(75_000_123)
    assert heading.title == translate_key(lang, "lab.title")
    assert f"{parameters:,}" in heading.intro and "75,000,123" in heading.intro
    assert f"{settings.batch}" in heading.intro and f"{settings.held_out}" in heading.intro
    assert has_chinese(heading.intro) == (lang == "zh")


@pytest.mark.parametrize("task", TASKS)
def test_the_example_shows_the_answer_the_task_asks_for(task):
    line = lab_view.example_line(task)
    assert "".join(EXAMPLE) in line and "".join(answer(task, EXAMPLE)) in line


def test_the_tested_claims_are_the_labs_own_numbers():
    from model.lab import ALIGNED_SHARE, TESTED_EXACT

    line = lab_view.tested_line()
    settings = LabSettings()
    assert f"{TESTED_EXACT:.0%}" in line and f"{ALIGNED_SHARE:.0%}" in line
    assert f"{settings.max_steps}" in line and f"{1 / (settings.length + 1):.0%}" in line


def test_before_a_run_the_untrained_maps_and_a_word_to_press_train(reverse_run):
    first = reverse_run[0]
    shown = lab_view.results_view(LabRun(first, None, REVERSE, running=False), Pick("cross", 0, 1), presenting=False)
    assert shown.done == 0 and isinstance(shown.after, Notice)
    assert shown.after.text == translate_key("en", "lab.press_train")
    assert shown.learned == () and shown.footer == ()
    assert shown.before.heading.markdown == f"**{translate_key('en', 'lab.before', which=which('en', 0, 1))}**"
    np.testing.assert_allclose(shown.before.chart.figure.data[0].z, pick(first.attention["cross"], 0, 1), atol=1e-6)
    assert shown.before.chart.numbers is not None  # its numbers never change: offered at once


@pytest.mark.parametrize("lang, mirror", [("en", f"source letter {len(EXAMPLE) - 1} − i"),
                                          ("zh", f"第 {len(EXAMPLE) - 1} − i 个")])
def test_a_stopped_run_says_what_its_heads_learned(reverse_run, lang, mirror):
    """After a capped run of the reverse task: why it stopped, the trained map beside the untrained one, the head
    that reads the anti-diagonal (the mirror counts the example's letters, not </s>) and the curves up to the cap."""
    first, last = reverse_run[0], reverse_run[-1]
    assert last.step == 100 and last.stopped_by == "steps"
    with in_language(lang):
        shown = lab_view.results_view(LabRun(first, last, REVERSE, running=False), Pick("cross", 0, 1), False)
    assert shown.done == 1 and shown.status == translate_key(
        lang, "lab.stopped.steps", step=100, exact=f"{last.accuracy.exact:.0%}",
        per_token=f"{last.accuracy.per_token:.0%}", held_out=REVERSE.held_out, seconds=f"{last.seconds:.1f}")
    assert isinstance(shown.after, LabMap)
    assert shown.after.heading.markdown == f"**{translate_key(lang, 'lab.after', step=100, which=which(lang, 0, 1))}**"
    np.testing.assert_allclose(shown.after.chart.figure.data[0].z, pick(last.attention["cross"], 0, 1), atol=1e-6)
    said = texts(shown.learned)
    best = int(last.aligned.argmax())
    assert f"{last.aligned.max():.0%}" in said and f"{first.aligned.flat[best]:.0%}" in said
    assert mirror in said and "n − 1 − i" not in said
    if lang == "en":
        assert "After 100 steps" in map_text(shown.after) and "anti-diagonal" in said
    (curves,) = [part for part in shown.learned if isinstance(part, Chart)]
    assert curves.key == "lab.chart.curves" and list(curves.figure.layout.xaxis.range) == [0, 100]
    assert shown.footer == ()


def test_a_running_runs_live_map_offers_its_numbers_once_it_stops(reverse_run):
    """A download button redrawn with new numbers at every tick gets a new address each time, and a click on an old
    one finds nothing: while the run goes on, the live map says its numbers come when it stops; the untrained map's
    never change and stay offered."""
    first, chunk = reverse_run[0], reverse_run[1]
    shown = lab_view.results_view(LabRun(first, chunk, REVERSE, running=True), Pick("cross", 0, 0), False)
    assert shown.after.chart.numbers is None and shown.before.chart.numbers is not None
    assert translate_key("en", "lab.numbers_when_stopped") in map_text(shown.after)
    assert translate_key("en", "lab.numbers_when_stopped") not in map_text(shown.before)
    assert shown.footer == (Caption(translate_key("en", "lab.running")),)
    assert shown.done == chunk.step / REVERSE.max_steps and f"{chunk.losses[-1]:.3f}" in shown.status
    stopped = lab_view.results_view(LabRun(first, chunk, REVERSE, running=False), Pick("cross", 0, 0), False)
    assert stopped.after.chart.numbers is not None


def test_in_presentation_mode_no_map_offers_numbers(reverse_run):
    shown = lab_view.results_view(LabRun(reverse_run[0], reverse_run[-1], REVERSE, False), Pick("cross", 0, 0),
                                  presenting=True)
    assert shown.before.chart.numbers is None and shown.after.chart.numbers is None


@pytest.mark.parametrize("kind", ["encoder_self", "decoder_self"])
def test_every_kind_is_drawn_on_its_own_axes(reverse_run, kind):
    last = reverse_run[-1]
    shown = lab_view.results_view(LabRun(reverse_run[0], last, REVERSE, False), Pick(kind, 0, 1), False)
    figure = shown.after.chart.figure
    assert np.asarray(figure.data[0].z, dtype=float).shape == pick(last.attention[kind], 0, 1).shape
    wrote = [part.text for part in shown.after.notes if isinstance(part, Caption)][-1]
    assert " ".join(last.prediction) in wrote.replace("\\", "")


def test_a_waiting_run_is_told_its_place_and_about_how_long():
    notice = lab_view.waiting_notice(place=1, runs=1, seconds=12.0)
    assert "1 ahead of you in the queue" in notice.text and "in about 15 s" in notice.text
    assert notice.level == "info" and notice.icon
    assert "in about 5 s" in lab_view.waiting_notice(1, 1, 0.0).text  # never "0 s"
    assert "in about 5 s" in lab_view.waiting_notice(1, 1, None).text
    assert "3 ahead of you" in lab_view.waiting_notice(4, 2, 20.0).text and "in about 20 s" in lab_view.waiting_notice(
        4, 2, 20.0).text
    with in_language("zh"):
        assert has_chinese(lab_view.waiting_notice(1, 1, 12.0).text)


@pytest.mark.parametrize("lang, mirror", [("en", "source letter 7 − i"), ("zh", "第 7 − i 个")])
def test_the_reverse_tasks_mirror_counts_letters_not_the_end_token(lang, mirror):
    """The source of the lab's example is its 8 letters and </s>: the mirror of answer letter i is letter 7 − i,
    not n − 1 − i with n the 9 source tokens."""
    n = len(EXAMPLE) + 1  # </s>
    text = translate_key(lang, "lab.aligned.reverse", layer=1, head=1, share="90%", before="11%", uniform="11%", n=n,
                         letters=n - 1, mirror=n - 2)
    assert mirror in text and "n − 1 − i" not in text


def test_lab_curves_span_the_cap():
    fig = lab_curves_figure([1, 2], [2.0, 1.0], [0, 2], [0.0, 0.5], [0.1, 0.6], frame=Frame("t", "s", "l", "a"),
                            max_steps=300, labels=("l", "e", "p"))
    assert list(fig.layout.xaxis.range) == [0, 300] == list(fig.layout.xaxis2.range)
    with pytest.raises(ValueError, match="pair up"):
        lab_curves_figure([1], [2.0, 1.0], [0], [0.0], [0.1], frame=Frame("", "", "", ""), max_steps=1,
                          labels=("", "", ""))
