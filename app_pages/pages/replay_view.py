"""What Replay shows, computed without drawing anything (replay.py draws it): the title and introduction, and for
one snapshot of training, one probe and one head the line that says where the replay is, the map of that snapshot,
how far from uniform the chosen kind's attention is at every snapshot, and the run's curves with the step marked.
A checkpoint whose snapshots cannot be replayed raises NoReplay, which holds what the page says instead. Plain data
out (components/parts); tests/test_replay_view.py reads it without Streamlit."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from app_pages.components import attention_view
from app_pages.components.attention_view import MapChart, MapView
from app_pages.components.chips import word_start_note
from app_pages.components.parts import Caption, Chart, Notice, Parts, Text
from app_pages.shell import screen
from app_pages.shell.text import md_escape, sentences, t
from lessons import attention_maps, replay
from lessons.attention_maps import ALL, axis_tokens
from model import Snapshot, SnapshotError, TrainingLog
from viz.options import Frame
from viz.style import MAX_HEIGHT_PX
from viz.teaching_anatomy import training_curves_figure
from viz.teaching_replay import marked_at, share_figure

MAP_MAX_PX = MAX_HEIGHT_PX  # the untrained model writes 22 tokens: its map needs all the height a figure may take
MAP_PX = 370  # the map's column: 9 of 19 parts of the page at 1280 px with the sidebar open (the pickers get the rest)
# The trainer's defaults, named in the command that retrains a checkpoint whose log does not give them.
TRAIN_FILE, DEV_FILE = "../shared/data/tatoeba-cmn-eng/train.tsv", "../shared/data/tatoeba-cmn-eng/dev.tsv"
DEFAULT_DIRECTION = "en-zh"


class NoReplay(LookupError):
    """The checkpoint's snapshots cannot be replayed. What the page shows instead: `notice`; for a checkpoint trained
    without snapshots, the command that trains one with them (`command`) and a note on its probes (`note`)."""

    def __init__(self, notice: Notice, command: str | None = None, note: str | None = None):
        super().__init__(notice.text)
        self.notice, self.command, self.note = notice, command, note


def retrain_command(log: TrainingLog, folder: str) -> str:
    """The trainer's command that trains `folder` again with snapshots, from the run's own arguments and probes."""
    args = log.args.given if log.args else {}  # the options TrainingArgs does not type: train, direction
    command = ["python", "-m", "model.training.train", "--train", args.get("train", TRAIN_FILE),
               "--dev", (log.args.dev if log.args else None) or DEV_FILE, "--out", folder]
    if args.get("direction", DEFAULT_DIRECTION) != DEFAULT_DIRECTION:  # the default is named only for the other one
        command += ["--direction", args["direction"]]
    command += [part for sentence in log.probes for part in ("--probe", sentence)]
    return shlex.join(command)


def snapshots_of(read: Callable[[], list[Snapshot]], log: TrainingLog, folder: str) -> list[Snapshot]:
    """The checkpoint's snapshots, as `read` returns them (model.read_snapshots); NoReplay where the file cannot be
    read (the model itself may be fine) or the checkpoint has none."""
    try:
        snapshots = read()
    except SnapshotError as exc:
        raise NoReplay(Notice(t("replay.corrupt", error=md_escape(exc)), "error", ":material/broken_image:")) from exc
    if not snapshots:
        raise NoReplay(Notice(t("replay.missing", folder=md_escape(folder)), "info", ":material/history_toggle_off:"),
                       retrain_command(log, folder), t("replay.missing_probes"))
    return snapshots


@dataclass(frozen=True)
class Replay:
    """What the page replays: the checkpoint's `snapshots` (model.read_snapshots), its `probes` (sentences), its
    training `log`, and `shipped`, the shipped weights' own greedy translation of each probe."""

    snapshots: list[Snapshot]
    probes: list[str]
    log: TrainingLog
    shipped: list[str]

    @property
    def steps(self) -> list[int]:
        return [s.step for s in self.snapshots]

    def last_cross(self, probe: int) -> np.ndarray:
        """The probe's cross-attention in the last snapshot: (layers, heads, Tq, Tk)."""
        return np.asarray(self.snapshots[-1].probes[probe].attention("cross"))


def probe_texts(log: TrainingLog, snapshots: list[Snapshot]) -> list[str]:
    """The probe sentences: the log's, or read back from the first snapshot's tokens where the log does not keep
    them."""
    return list(log.probes or [replay.sentence_of(p.source_tokens) for p in snapshots[0].probes])


def shipped_weights(log: TrainingLog) -> str:
    """Which weights the shipped model holds, in the page's language, from the training log."""
    if log.shipped_average and log.average.epochs:
        return t("replay.shipped_average", first=log.average.epochs[0], last=log.average.epochs[-1])
    return t("replay.shipped_best", step=f"{log.best.step:,}" if log.best else "?")


@dataclass(frozen=True)
class Heading:
    title: str
    intro: str


def heading(shown: Replay) -> Heading:
    """The title and the introduction: how many probes and snapshots, from which step to which, which weights
    shipped, and how many probes those weights translate otherwise than the last snapshot did."""
    first, last = shown.snapshots[0], shown.snapshots[-1]
    differ = sum(own != probe.translation for own, probe in zip(shown.shipped, last.probes))
    return Heading(t("replay.title"), t(
        "replay.intro", probes=len(shown.probes), snapshots=len(shown.snapshots), first=f"{first.step:,}",
        last=f"{last.step:,}", last_epoch=last.epoch, shipped=shipped_weights(shown.log), differ=differ))


def opening_head(shown: Replay, probe: int) -> tuple[int, int]:
    """The head the page opens on: the probe's cross-attention head closest to the average of all heads in the last
    snapshot (not the most focused one: that is often a sink)."""
    layer, head, _, _ = replay.consensus_head(shown.last_cross(probe))
    return layer, head


def layers_and_heads(shown: Replay, probe: int, kind: str) -> tuple[int, int]:
    """How many layers and heads the probe's maps of `kind` have."""
    layers, heads = np.shape(shown.snapshots[-1].probes[probe].attention(kind))[:2]
    return layers, heads


@dataclass(frozen=True)
class Pick:
    """What the reader chose: the snapshot's index, the probe's, the kind of attention, its layer and head (ALL:
    their average)."""

    snapshot: int
    probe: int
    kind: str
    layer: int
    head: int


@dataclass(frozen=True)
class SnapshotView:
    """Everything a snapshot or a picker changes: `now`, the line above the layer and head pickers; the map under
    its title (`title`), with `notes` under it; `share`, how far from uniform at every snapshot; `curves`, the run's
    loss and scores (none where the log has no losses)."""

    now: str
    title: Text
    map: MapChart
    notes: tuple
    share: tuple
    curves: tuple


def now_line(shown: Replay, pick: Pick) -> str:
    """Which snapshot of how many, at which step and epoch; the probe and that snapshot's translation, its dev BLEU
    where that step was evaluated, why the untrained model writes one token over and over, and what the shipped
    weights write."""
    snapshot = shown.snapshots[pick.snapshot]
    probe = snapshot.probes[pick.probe]
    evaluation = next((e for e in shown.log.dev if e.step == snapshot.step), None)  # None: a step not evaluated
    repeated = replay.repeated_token(probe.target_tokens)
    return (t("replay.now", n=pick.snapshot + 1, total=len(shown.snapshots), step=f"{snapshot.step:,}",
              epoch=snapshot.epoch, source=md_escape(shown.probes[pick.probe]),
              translation=md_escape(probe.translation or "∅"))
            + (t("replay.now_dev", bleu=evaluation.bleu) if evaluation else "")
            + (t("replay.untrained", token=md_escape(repeated)) if repeated else "")
            + "\n\n" + t("replay.now_shipped", translation=md_escape(shown.shipped[pick.probe] or "∅")))


def consensus_caption(last: np.ndarray, layer: int, head: int) -> str:
    """The probe's head closest to the average of all heads in the last snapshot (what the page opens on), said to
    be the map's head only when it is: another probe's, or the reader's pick, may be on the map."""
    best_layer, best_head, agree, rows = replay.consensus_head(last)
    names = dict(layer=attention_view.layer_name(best_layer), head=attention_view.head_name(best_head))
    shown = attention_view.layer_and_head_name(layer, head)
    which = t("replay.aligned.shown" if (layer, head) == (best_layer, best_head) else "replay.aligned.other",
              shown=shown, **names)
    return sentences([which, t("replay.aligned", agree=agree, rows=rows, heads=last.shape[0] * last.shape[1])])


def map_parts(shown: Replay, pick: Pick, languages: tuple[str, str], numbers: bool) -> tuple[Text, MapChart, tuple]:
    """The snapshot's map of the probe at the pick's layer and head, its title above it (a narrow map of 6 source
    tokens would wrap a title of its own into a column of words) and its captions under it; its numbers to
    download where `numbers` (not in presentation mode)."""
    kind, step = pick.kind, shown.snapshots[pick.snapshot].step
    probe = shown.snapshots[pick.snapshot].probes[pick.probe]
    queries, keys = axis_tokens(list(probe.source_tokens), list(probe.target_tokens), kind)
    title = Text("**" + t("replay.map_title", kind=attention_view.kind_name(kind),
                          layer=attention_view.layer_name(pick.layer), head=attention_view.head_name(pick.head),
                          step=f"{step:,}") + "**")
    # In a third of the page the usual colour bar and full axis titles would take half the map's width (17-px
    # cells, every other row labelled, Chinese characters on their side): a compact bar and short titles, and the
    # caption says which tokens the axes are.
    drawn = MapView(probe.attention(kind), kind, pick.layer, pick.head, queries, keys, languages)
    chart = attention_view.map_chart_of(
        drawn, "replay.chart.map", sentence=shown.probes[pick.probe], numbers=numbers, max_width=MAP_PX,
        max_height=MAP_MAX_PX, compact_scale=True, **attention_view.short_axis_titles())
    # ▁ marks English words: in the source of an English → Chinese model, in the target of a Chinese → English one.
    notes = Parts().add(
        Caption(sentences([attention_view.axes_note(kind, languages), attention_view.kind_help(kind, languages),
                           word_start_note([*queries, *keys])])),
        Caption(consensus_caption(shown.last_cross(pick.probe), pick.layer, pick.head)) if kind == "cross" else None)
    return title, chart, notes.done()


def share_parts(shown: Replay, pick: Pick) -> tuple:
    """How far from uniform the chosen kind's attention is at every snapshot: a line per layer, and one for the
    selection (or that layer's line, highlighted, where the selection is a layer's average); the caption reads the
    selection's line."""
    steps, index = shown.steps, pick.snapshot
    shares = replay.shares_over_snapshots(shown.snapshots, pick.probe, pick.kind)  # (layers, heads, snapshots)
    lines, names = list(shares.mean(axis=1)), [attention_view.layer_name(i) for i in range(shares.shape[0])]
    if pick.head == ALL and pick.layer != ALL:
        highlight = pick.layer
    else:
        lines.append(attention_maps.pick(shares, pick.layer, pick.head))
        names.append(attention_view.layer_and_head_name(pick.layer, pick.head))
        highlight = len(lines) - 1
    chosen = lines[highlight]
    figure = share_figure(
        steps, np.stack(lines), names, step=steps[index], highlight=highlight, width=screen.HALF_COLUMN_PX,
        frame=Frame(t("replay.share.fig", kind=t(f"kind.{pick.kind}")), t("anatomy.axis.step"), t("replay.share.axis")),
        uniform_label=t("replay.share.uniform"))
    # At the first snapshot "now" is the first value: said once.
    now = t("replay.share.now", now=f"{chosen[index]:.0%}", step=f"{steps[index]:,}") if index else ""
    return (Text("#### " + t("replay.share.header")), Chart(figure, "replay.chart.share"),
            Caption(t("replay.share.text", which=names[highlight], first=f"{chosen[0]:.0%}",
                      first_step=f"{steps[0]:,}", now=now, lowest=f"{chosen.min():.0%}",
                      lowest_step=f"{steps[int(chosen.argmin())]:,}")))


def curves_parts(log: TrainingLog, step: int) -> tuple:
    """The shipped run's loss and dev scores, the replayed step marked on both panels; nothing where the log has no
    training losses."""
    train, dev = log.train, log.dev
    if not train:
        return ()
    figure = training_curves_figure([e.step for e in train], [e.loss for e in train], [e.step for e in dev],
                                    [e.loss for e in dev], [e.bleu for e in dev], [e.chrf for e in dev],
                                    frame=Frame(t("replay.curves.fig", step=f"{step:,}"), t("anatomy.axis.step"),
                                                t("anatomy.axis.loss"), t("anatomy.axis.score")),
                                    labels=(t("anatomy.curves.train"), t("anatomy.curves.dev"), "BLEU", "chrF"))
    return (Text("#### " + t("replay.curves.header")),
            Chart(marked_at(figure, step, ("x", "x2")), "replay.chart.curves"))


def snapshot_view(shown: Replay, pick: Pick, languages: tuple[str, str], numbers: bool) -> SnapshotView:
    """What the page shows of `pick`: its snapshot's line, map, share and curves; `languages`: the model's (source,
    target), which the map's axes name; `numbers`: whether the map offers its numbers (not in presentation mode)."""
    title, chart, notes = map_parts(shown, pick, languages, numbers)
    return SnapshotView(now_line(shown, pick), title, chart, notes, share_parts(shown, pick),
                        curves_parts(shown.log, shown.snapshots[pick.snapshot].step))
