"""What the "Which head carries it?" page shows of the built-in study (evaluation/patching_study.py, read from the
checkpoint's training log), for each kind of pair it holds (a pronoun swapped, an adjective swapped): how many pairs
were kept, each head's mean effect over them as the head grids, its 95 % bootstrap interval in the hover, and which
heads matter consistently; a checkpoint without the study says so with the command that measures it. Plain data out;
patching.py draws it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from app_pages.components.patching_charts import Chart, grid_csv
from app_pages.shell.text import md_escape, t
from model import PatchingStudy, StudyHead, TrainingLog
from viz.patching import Panel, effect_panels


@dataclass(frozen=True)
class StudyView:
    kind: str  # the kind of pair ("pronoun", "adjective"; "" for a log without the study)
    title: str  # the expander's label
    lines: tuple[str, ...]  # Markdown: what was measured, or the command that measures it; the consistent heads
    chart: Chart | None  # the mean effects per kind; None without a study or without a kept pair


def head_name(entry: StudyHead) -> str:
    return t("patching.cell.head", kind=t(f"patching.kind.{entry.kind}"), layer=entry.layer + 1, head=entry.head + 1)


def consistent_line(study: PatchingStudy) -> str:
    threshold = f"{study.threshold:.2f}"
    if not study.consistent:
        return t("patching.study.no_consistent", threshold=threshold)
    heads = "; ".join(t("patching.study.head", head=head_name(h), mean=f"{h.mean:.2f}", low=f"{h.low:.2f}",
                        high=f"{h.high:.2f}") for h in study.consistent)
    return t("patching.study.consistent", threshold=threshold, heads=heads)


def study_chart(study: PatchingStudy, width: int) -> Chart:
    """The mean effects as the page's head grids (one panel per kind), each cell's interval in its hover."""
    panels = []
    for kind, grid in study.heads.items():
        mean = np.asarray(grid.mean, dtype=float)
        layers = [t("patching.layer_n", n=i + 1) for i in range(len(mean))]
        hovers = [[t("patching.study.hover", kind=t(f"patching.kind.{kind}"), layer=layer + 1, head=head + 1,
                     mean=f"{grid.mean[layer][head]:.2f}", low=f"{grid.low[layer][head]:.2f}",
                     high=f"{grid.high[layer][head]:.2f}", n=study.kept)
                   for head in range(mean.shape[1])] for layer in range(len(mean))]
        panels.append(Panel(t(f"patching.kind.{kind}"), mean, layers,
                            [t("patching.head_n", n=h + 1) for h in range(mean.shape[1])], t("patching.axis.heads"),
                            hovers))
    figure_title = t("patching.study.figure", n=study.kept, kind=t(f"patching.study.short.{study.kind}"))
    fig = effect_panels(panels, title=figure_title,
                        colour_title=t("patching.study.colour"), hover=t("patching.hover"), width=width)
    return Chart(fig, grid_csv(panels), f"patching_study_{study.kind}.csv")


def word(token: str) -> str:
    return md_escape(token.replace("▁", ""))  # ▁ marks a word's start: "▁He" is He


def kind_view(study: PatchingStudy, width: int) -> StudyView:
    """One kind's study: what was measured, the consistent heads and the mean grids."""
    couples = t("patching.study.couples_sep").join(t("patching.study.couple", target=word(target), foil=word(foil))
                                                   for target, foil in study.couples)
    intro = t("patching.study.intro", kept=study.kept, tried=study.tried, couples=couples,
              kind=t(f"patching.study.kind.{study.kind}"), resamples=f"{study.resamples:,}")
    title = t("patching.study.title", n=study.kept, kind=t(f"patching.study.short.{study.kind}"))
    if not study.kept:
        return StudyView(study.kind, title, (intro, t("patching.study.empty")), None)
    return StudyView(study.kind, title, (intro, consistent_line(study)), study_chart(study, width))


def view(log: Mapping | None, checkpoint: str, width: int = 820) -> tuple[StudyView, ...]:
    """One view per kind of pair the log's study holds; without a study, one view giving the command."""
    studies = TrainingLog.from_dict(log).patching_study
    if not studies:
        command = f"python -m evaluation.patching_study --checkpoint {checkpoint}"
        return (StudyView("", t("patching.study.title_none"), (t("patching.study.none", command=command),), None),)
    return tuple(kind_view(study, width) for study in studies.values())
