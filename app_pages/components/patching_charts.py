"""The figures of "Which head carries it?" (activation patching between two sentences, the logit lens, contrastive
attribution) with their CSVs, computed from a measured pair, and the pair measured once per server (the result
cache). The page draws them (app_pages/pages/patching_view.py) and the slide deck rebuilds a pinned view from its
link (decks.py), so a slide shows the figure the page showed, from the same numbers. Also a view's slide and how a
slide's link values read.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from app_pages.components.attention_view import short_sentence
from app_pages.shell import link_values, links
from app_pages.shell.text import md_escape, t
from app_pages.state import models, result_cache
from lessons.deck import MAX_TITLE, Slide
from model import InputError, Translator
from model.causal import (Contrast, LogitLens, Patching, PatchingError, contrastive_attribution, logit_lens, measure,
                          read_pair)
from viz.options import Labels
from viz.patching import Panel, attribution_bars, effect_panels, lens_grid
from viz.style import scaled

VIEWS = ("heads", "residual", "lens", "attribution")
KINDS = ("encoder_self", "decoder_self", "cross")
SIDES = ("encoder", "decoder")
PAGE = "patching"  # the page's name in the registry and on a slide
WIDTH = 820  # the figures' width on the page (the main column at 1280 px)


@dataclass(frozen=True)
class Measured:
    """Everything the page shows of one pair, target and foil: the grids, the clean sentence's logit lens and the
    contrastive attribution (the lens without its whole distributions: the page reads only the top tokens)."""

    patching: Patching
    lens: LogitLens
    contrast: Contrast


def measure_all(tr: Translator, clean: str, corrupt: str, target: str | None, foil: str | None) -> Measured:
    """Raises PatchingError or InputError (ValueErrors of one sentence)."""
    pair = read_pair(tr, clean, corrupt, target, foil)
    lens = logit_lens(tr, clean)
    return Measured(measure(tr, pair), dataclasses.replace(lens, probabilities=None), contrastive_attribution(tr, pair))


def measured(checkpoint: str, device: str, clean: str, corrupt: str, target: str | None,
             foil: str | None) -> Measured:
    """measure_all once per server for a pair, target, foil and model (the page and the deck share it)."""
    return result_cache.shared().get(
        ("patching.measured", checkpoint, device, clean, corrupt, target, foil),
        lambda: measure_all(models.load(checkpoint, device), clean, corrupt, target, foil))


def error_text(exc: Exception, escape: bool = True) -> str:
    """A PatchingError or InputError as one sentence in the session's language (its values escaped for Markdown;
    escape=False: plain, for a caller that escapes the whole sentence)."""
    quote = md_escape if escape else str
    if isinstance(exc, PatchingError):
        return t(f"patching.error.{exc.key}", **{k: quote(str(v)) for k, v in exc.values.items()})
    if isinstance(exc, InputError):
        return t("patching.error.input", why=quote(str(exc)))
    raise exc


@dataclass(frozen=True)
class Chart:
    figure: go.Figure
    csv: str
    name: str  # the CSV's file name


def point_name(point: int) -> str:
    return t("patching.embeddings") if point == 0 else t("patching.layer_n", n=point)


def head_panels(found: Patching) -> list[Panel]:
    panels = []
    for kind in KINDS:
        grid = found.heads[kind]
        layers = [t("patching.layer_n", n=i + 1) for i in range(len(grid))]
        panels.append(Panel(t(f"patching.kind.{kind}"), grid, layers,
                            [t("patching.head_n", n=h + 1) for h in range(grid.shape[1])], t("patching.axis.heads")))
    return panels


def residual_panels(found: Patching) -> list[Panel]:
    return [Panel(t(f"patching.side.{side}"), found.residual[side], [point_name(p) for p in found.points[side]],
                  [f"{i} {tok}" for i, tok in enumerate(found.tokens[side])], t(f"patching.axis.{side}_positions"))
            for side in SIDES]


def grid_csv(panels: list[Panel]) -> str:
    """Every panel's cells as rows: grid, row, column, effect (empty where nothing was patched)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["grid", "row", "column", "effect"])
    for panel in panels:
        for (r, c), v in np.ndenumerate(panel.values):
            writer.writerow([panel.name, panel.rows[r], panel.columns[c], "" if math.isnan(v) else f"{v:.4f}"])
    return out.getvalue()


def effect_chart(panels: list[Panel], title: str, name: str, width: int) -> Chart:
    fig = effect_panels(panels, title=title, colour_title=t("patching.effect"), hover=t("patching.hover"), width=width)
    return Chart(fig, grid_csv(panels), name)


def lens_chart(lens: LogitLens, width: int, title: str | None = None) -> Chart:
    tokens = [[r.token for r in row] for row in lens.grid]
    probs = np.array([[r.p for r in row] for row in lens.grid])
    layers = [t("patching.layer_n", n=i + 1) for i in range(probs.shape[1])]
    rows = [f"{i + 1} → {tok}" for i, tok in enumerate(lens.output_tokens)]  # steps counted from 1, as the metric
    labels = Labels(rows, layers, query_title=t("patching.axis.steps"), key_title=t("patching.axis.decoder_layers"),
                    value_label="p")
    fig = lens_grid(tokens, probs, labels, title=t("patching.lens.title") if title is None else title, width=width)
    # the rotated step title clear of the row labels: at lens_grid's 4 px, 中文's title touched "5 → ▁tired"
    fig.update_yaxes(title_standoff=12)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["step", "written", "layer", "top_token", "p"])
    for step, (row, written) in enumerate(zip(lens.grid, lens.output_tokens)):
        for layer, reading in enumerate(row):
            writer.writerow([step, written, layer + 1, reading.token, f"{reading.p:.4f}"])
    return Chart(fig, out.getvalue(), "logit_lens.csv")


def shares(values: np.ndarray) -> list[float]:
    """Each attribution as a share of the total |attribution|: contrastive and ordinary read on one axis."""
    total = float(np.abs(values).sum())
    return [float(v) / total if total else 0.0 for v in values]


def attribution_titles(found: Patching) -> tuple[str, str]:
    """The contrastive attribution's name (why the target and not the foil?) and the ordinary one's."""
    pair = found.pair
    return (t("patching.attr.contrastive", target=pair.target_token, foil=pair.foil_token),
            t("patching.attr.ordinary", target=pair.target_token))


def attribution_charts(found: Patching, contrast: Contrast, width: int) -> tuple[Chart, Chart]:
    """The contrastive attribution and the ordinary one, side by side on the page (each half the width)."""
    charts = []
    for name, values, title in zip(("contrastive", "ordinary"), (contrast.contrastive, contrast.ordinary),
                                   attribution_titles(found)):
        fig = attribution_bars(contrast.source_tokens, [(title, shares(values))], title=title,
                               x_title=t("patching.axis.source"), y_title=t("patching.attr.share"),
                               width=width // 2 - 8, height=300)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["position", "token", "attribution"])
        writer.writerows([i, tok, f"{v:.6f}"] for i, (tok, v) in enumerate(zip(contrast.source_tokens, values)))
        charts.append(Chart(fig, out.getvalue(), f"attribution_{name}.csv"))
    return charts[0], charts[1]


def attribution_together(found: Patching, contrast: Contrast, width: int, title: str) -> go.Figure:
    """Both attributions as grouped bars in one figure (a slide holds one chart)."""
    series = [(name, shares(values)) for name, values in zip(attribution_titles(found),
                                                             (contrast.contrastive, contrast.ordinary))]
    return attribution_bars(contrast.source_tokens, series, title=title, x_title=t("patching.axis.source"),
                            y_title=t("patching.attr.share"), width=width, height=360)


def view_charts(found: Measured, view: str, width: int = WIDTH,
                title: str | None = None) -> tuple[Chart, Chart | None]:
    """The view's chart as the page draws it, titled `title` (None: its own title); the attribution's ordinary chart
    second (None for the other views)."""
    if view == "heads":
        title = t("patching.heads.title") if title is None else title
        return effect_chart(head_panels(found.patching), title, "head_patching.csv", width), None
    if view == "residual":
        title = t("patching.residual.title") if title is None else title
        return effect_chart(residual_panels(found.patching), title, "residual_patching.csv", width), None
    if view == "lens":
        return lens_chart(found.lens, width, title), None
    return attribution_charts(found.patching, found.contrast, width)


@dataclass(frozen=True)
class PinnedView:
    """What a patching slide shows: `view` of `checkpoint`'s pair (target and foil None: the pair's own)."""

    checkpoint: str
    clean: str
    corrupt: str
    target: str | None
    foil: str | None
    view: str


def link_readers() -> dict:
    """How the page's link values read (the page's link and a slide's): the sentences, the target and foil, the view."""
    return {"clean": link_values.sentence, "corrupt": link_values.sentence, "target": link_values.sentence,
            "foil": link_values.sentence, "view": link_values.one_of(VIEWS)}


def slide_title(shown: PinnedView) -> str:
    title = t("patching.slide_title", view=t(f"patching.view.{shown.view}"), clean=short_sentence(shown.clean),
              corrupt=short_sentence(shown.corrupt))
    return title[:MAX_TITLE]


def pinned(shown: PinnedView) -> Slide:
    """The slide of a view on the page: the page's link to it and a title in the session's language."""
    query = {"clean": shown.clean, "corrupt": shown.corrupt, "model": shown.checkpoint, "view": shown.view,
             **{name: value for name, value in (("target", shown.target), ("foil", shown.foil)) if value}}
    return Slide(PAGE, query, slide_title(shown))


def slide_view(query: dict[str, str], read) -> PinnedView:
    """A slide's view, each value read as the page's link reads it; read(name, text, reader) raises BadLinkValue
    naming the value that does not read."""
    readers = {**link_readers(), "model": links.shared_params()["model"].read}
    values = {name: read(name, query[name], reader) if name in query else None for name, reader in readers.items()}
    return PinnedView(values["model"], values["clean"], values["corrupt"], values["target"] or None,
                      values["foil"] or None, values["view"])


def slide_figure(shown: PinnedView, title: str, max_width: int | None = None,
                 max_height: int | None = None) -> go.Figure:
    """The slide's chart rebuilt from its view (raises PatchingError or InputError where its pair cannot be
    patched), made smaller as a whole where it is larger than the limits."""
    width = min(WIDTH, max_width or WIDTH)
    found = measured(shown.checkpoint, models.device(), shown.clean, shown.corrupt, shown.target, shown.foil)
    if shown.view == "attribution":
        fig = attribution_together(found.patching, found.contrast, width, title)
    else:
        fig = view_charts(found, shown.view, width, title)[0].figure
    factor = min(1.0, (max_height or fig.layout.height) / fig.layout.height)
    return scaled(fig, factor) if factor < 1 else fig
