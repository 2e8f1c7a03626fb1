"""What the live lab shows, computed without drawing anything (lab.py draws it and keeps the session's run in the
server's lab queue): the title and introduction, the example the task makes of it, a run's progress line, the
example's map before training and now, the head that learned the task's alignment, the curves, the place of a run
that waits its turn, and the tested claims under it all. Plain data out (components/parts); tests/test_lab_view.py
reads it without Streamlit."""

from __future__ import annotations

import math
from dataclasses import dataclass

from app_pages.components import attention_view
from app_pages.components.attention_view import MapChart, MapView
from app_pages.components.teaching_slides import Pick
from app_pages.components.parts import Caption, Chart, Notice, Text
from app_pages.shell.text import md_escape, t
from lessons.anatomy import total_parameters
from lessons.attention_maps import axis_tokens
from model.lab import ALIGNED_SHARE, EXAMPLE, TESTED_EXACT, LabSettings, Progress, answer
from viz.options import Frame
from viz.teaching_replay import lab_curves_figure

# Each of the two maps side by side, at 1280 px with the sidebar open: with the controls above, on one screen.
MAP_PX, MAP_HEIGHT_PX = 400, 330
WAIT_ROUNDING_S = 5  # a waiting run is told its wait in steps of this many seconds (at least one): an estimate


@dataclass(frozen=True)
class Heading:
    title: str
    intro: str


def heading(translation_parameters: int, settings: LabSettings = LabSettings()) -> Heading:
    """The title, and the introduction: the tiny model's sizes and parameters (counted from its config) beside the
    translation model's (`translation_parameters`), the example's length, the batch, the held-out sequences and
    how often the page redraws."""
    config = settings.config()
    return Heading(t("lab.title"), t(
        "lab.intro", d=config.d_model, heads=config.n_heads, layers=config.n_encoder_layers, d_ff=config.d_ff,
        params=f"{total_parameters(config):,}", big=f"{translation_parameters:,}", symbols=len(EXAMPLE),
        batch=settings.batch, held_out=settings.held_out, every=settings.every))


def example_line(task: str) -> str:
    """The fixed example and the answer `task` asks for."""
    return t("lab.example", source="".join(EXAMPLE), answer="".join(answer(task, EXAMPLE)))


def tested_line(settings: LabSettings = LabSettings()) -> str:
    """What the tests hold the lab to: exact accuracy and the aligned head's share within the step and time caps,
    against a uniform head's share."""
    return t("lab.tested", exact=f"{TESTED_EXACT:.0%}", share=f"{ALIGNED_SHARE:.0%}", steps=settings.max_steps,
             seconds=f"{settings.max_seconds:.0f}", uniform=f"{1 / (settings.length + 1):.0%}")


def waiting_notice(place: int, runs: int, seconds: float | None) -> Notice:
    """A run whose turn has not come: how many runs are ahead of it (`place` in the queue, of which the first
    `runs` train) and about how long until its turn (`seconds`, LabQueue.wait; None: no longer queued)."""
    rounded = max(WAIT_ROUNDING_S, WAIT_ROUNDING_S * math.ceil((seconds or 0.0) / WAIT_ROUNDING_S))
    return Notice(t("lab.queued", ahead=place - runs + 1, runs=runs, seconds=rounded), "info",
                  ":material/hourglass_top:")


@dataclass(frozen=True)
class LabMap:
    """One map of the fixed example under its heading, with the captions under it."""

    heading: Text
    chart: MapChart
    notes: tuple


def lab_map(progress: Progress, picked: Pick, heading: str, key: str, live: bool, presenting: bool) -> LabMap:
    """The example's map at `progress`: queries on rows, keys on columns, as the explorer draws them, and what the
    model writes for it then.

    A `live` map (the run's, redrawn every tick) offers its numbers once the run stops: a download button redrawn
    with new numbers gets a new address each time, and Streamlit deletes the old file as soon as any session's run
    ends, so a click on a button the browser had not redrawn yet would find nothing (404). None in presentation
    mode either."""
    queries, keys = axis_tokens(progress.source_tokens, progress.target_tokens, picked.kind)
    shown = MapView(progress.attention[picked.kind], picked.kind, picked.layer, picked.head, queries, keys)
    chart = attention_view.map_chart_of(shown, key, sentence=" ".join(progress.source_tokens),
                                        numbers=not (live or presenting), max_width=MAP_PX, max_height=MAP_HEIGHT_PX)
    wrote = Caption(t("lab.wrote", wrote=md_escape(" ".join(progress.prediction) or "∅"),
                      exact=f"{progress.accuracy.exact:.0%}", per_token=f"{progress.accuracy.per_token:.0%}"))
    return LabMap(Text(f"**{heading}**"), chart, (Caption(t("lab.numbers_when_stopped")), wrote) if live else (wrote,))


@dataclass(frozen=True)
class LabRun:
    """A run as the page holds it: its `first` Progress (the untrained model's), its `last` (None: not started),
    its settings, and whether it is still `running`."""

    first: Progress
    last: Progress | None
    settings: LabSettings
    running: bool

    @property
    def trained(self) -> Progress | None:
        """The last Progress once at least one step is taken."""
        return self.last if self.last is not None and self.last.step > 0 else None


@dataclass(frozen=True)
class ResultsView:
    """The run's progress bar (`done`, from 0 to 1, and its `status` line); the map before training and the map now
    (or a notice to press Train); what the trained run learned (`learned`: the aligned head, the curves); and a
    caption while it runs."""

    done: float
    status: str
    before: LabMap
    after: LabMap | Notice
    learned: tuple
    footer: tuple


def status_line(run: LabRun) -> str:
    """Where the run is (step, seconds, loss, accuracies), or why it stopped once it has."""
    now, settings = run.last or run.first, run.settings
    exact, per_token = f"{now.accuracy.exact:.0%}", f"{now.accuracy.per_token:.0%}"
    if now.stopped_by:
        return t(f"lab.stopped.{now.stopped_by}", step=now.step, exact=exact, per_token=per_token,
                 held_out=settings.held_out, seconds=f"{now.seconds:.1f}")
    return t("lab.status", step=now.step, steps=settings.max_steps, seconds=f"{now.seconds:.1f}",
             loss=f"{now.losses[-1]:.3f}" if now.losses else "—", exact=exact, per_token=per_token)


def learned_parts(run: LabRun, last: Progress) -> tuple:
    """The head whose cross-attention falls most on where the task's answer comes from (its share now and before,
    against uniform), and the loss and held-out accuracy over the run."""
    first, settings = run.first, run.settings
    best = int(last.aligned.argmax())
    _, heads = last.aligned.shape
    n = len(first.source_tokens)  # the example's letters and </s>
    aligned = Text(t(f"lab.aligned.{settings.task}", layer=best // heads + 1, head=best % heads + 1,
                     share=f"{last.aligned.max():.0%}", before=f"{first.aligned.flat[best]:.0%}",
                     uniform=f"{1 / n:.0%}", n=n, letters=n - 1, mirror=n - 2))
    curves = lab_curves_figure(
        list(range(1, len(last.losses) + 1)), last.losses, [e.step for e in last.evaluations],
        [e.exact for e in last.evaluations], [e.per_token for e in last.evaluations], max_steps=settings.max_steps,
        frame=Frame(t("lab.curves.fig", task=t(f"lab.task.{settings.task}")), t("anatomy.axis.step"),
                    t("lab.axis.loss"), t("lab.axis.accuracy")),
        labels=(t("lab.curves.loss"), t("lab.curves.exact"), t("lab.curves.per_token")))
    return aligned, Chart(curves, "lab.chart.curves")


def results_view(run: LabRun, picked: Pick, presenting: bool) -> ResultsView:
    """The run's progress, the example's map before training and now, the alignment and the curves; `presenting`:
    the page fills a projector's screen (the maps offer no numbers)."""
    which = attention_view.layer_and_head_name(picked.layer, picked.head)
    before = lab_map(run.first, picked, t("lab.before", which=which), "lab.chart.before", False, presenting)
    trained = run.trained
    if trained is None:
        after, learned = Notice(t("lab.press_train")), ()
    else:
        after = lab_map(trained, picked, t("lab.after", step=trained.step, which=which), "lab.chart.after",
                        run.running, presenting)
        learned = learned_parts(run, trained)
    now = run.last or run.first
    return ResultsView(now.step / run.settings.max_steps, status_line(run), before, after, learned,
                       (Caption(t("lab.running")),) if run.running else ())
