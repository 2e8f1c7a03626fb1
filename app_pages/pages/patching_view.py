"""What the "Which head carries it?" page shows, computed from a patched pair without drawing anything (patching.py
draws it): the pair and its metric, the three head grids, the two residual-stream grids, the logit lens and the
contrastive attribution as figures with their CSVs, a re-decoded translation beside the clean and corrupted ones,
a guess's verdict, the limits of what a grid says, and a bad pair as one sentence in the session's language.
Plain data out; tests/test_patching_view.py reads it without Streamlit.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from app_pages.shell.text import md_escape, sentences, t
from model import InputError, Translator
from model.causal import (Cell, Contrast, LogitLens, Patching, PatchingError, Redecoded, contrastive_attribution,
                          logit_lens, measure, read_pair, redecode)
from viz.options import Labels
from viz.patching import Panel, attribution_bars, effect_panels, lens_grid

VIEWS = ("heads", "residual", "lens", "attribution")
KINDS = ("encoder_self", "decoder_self", "cross")
SIDES = ("encoder", "decoder")
# Built-in pairs by the language the model reads: one token apart, translated right by the shipped models, and
# their translations part at one step (python -m evaluation.patching).
PAIRS = {
    "en": (("He bought a book.", "She bought a book."), ("I like cats.", "I like dogs.")),
    "zh": (("我很累。", "我很饿。"), ("他买了一本书。", "她买了一本书。"),
           ("我喜欢猫。", "我喜欢狗。")),
}


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


def redecoded(tr: Translator, found: Patching, cell: Cell) -> Redecoded:
    return redecode(tr, found.pair, cell)


def error_text(exc: Exception) -> str:
    """A PatchingError or InputError as one sentence in the session's language (values escaped for Markdown)."""
    if isinstance(exc, PatchingError):
        return t(f"patching.error.{exc.key}", **{k: md_escape(str(v)) for k, v in exc.values.items()})
    if isinstance(exc, InputError):
        return t(f"patching.error.input", why=md_escape(str(exc)))
    raise exc


@dataclass(frozen=True)
class Settings:
    view: str
    cell: Cell | None  # the cell whose patch re-decodes the corrupted sentence
    guess: Cell | None  # the head a student guessed ("head", kind, layer, head)
    guessing: bool  # "Guess first" is on: the head grids stay hidden until a guess is revealed
    revealed: bool
    width: int = 820


@dataclass(frozen=True)
class Chart:
    figure: go.Figure
    csv: str
    name: str  # the CSV's file name


@dataclass(frozen=True)
class PatchingView:
    pair_lines: tuple[str, str]  # clean and corrupted: sentence → translation
    metric: str
    unpatched: str  # which corrupted positions have no counterpart ("" when every position has one)
    chart: Chart | None  # the chosen view's figure (None while the head grids wait for a guess)
    second: Chart | None  # attribution: the ordinary attribution beside the contrastive one
    caption: str
    limits: list[str]
    redecoded: list[str]  # clean, corrupted and the patched run's translations, when a cell is chosen
    verdict: str  # the guess's verdict, once revealed
    target_options: tuple[str, ...]
    foil_options: tuple[str, ...]


def cell_name(cell: Cell) -> str:
    what, name, layer, index = cell
    if what == "head":
        return t("patching.cell.head", kind=t(f"patching.kind.{name}"), layer=layer + 1, head=index + 1)
    return t("patching.cell.residual", side=t(f"patching.side.{name}"), point=point_name(layer), position=index)


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


def lens_chart(lens: LogitLens, width: int) -> Chart:
    tokens = [[r.token for r in row] for row in lens.grid]
    probs = np.array([[r.p for r in row] for row in lens.grid])
    layers = [t("patching.layer_n", n=i + 1) for i in range(probs.shape[1])]
    rows = [f"{i + 1} → {tok}" for i, tok in enumerate(lens.output_tokens)]  # steps counted from 1, as the metric
    labels = Labels(rows, layers, query_title=t("patching.axis.steps"), key_title=t("patching.axis.decoder_layers"),
                    value_label="p")
    fig = lens_grid(tokens, probs, labels, title=t("patching.lens.title"), width=width)
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


def attribution_charts(found: Patching, contrast: Contrast, width: int) -> tuple[Chart, Chart]:
    pair = found.pair
    x_title = t("patching.axis.source")
    charts = []
    why_not = t("patching.attr.contrastive", target=pair.target_token, foil=pair.foil_token)
    why = t("patching.attr.ordinary", target=pair.target_token)
    for name, values, title in (("contrastive", contrast.contrastive, why_not), ("ordinary", contrast.ordinary, why)):
        fig = attribution_bars(contrast.source_tokens, [(title, shares(values))], title=title, x_title=x_title,
                               y_title=t("patching.attr.share"), width=width // 2 - 8, height=300)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["position", "token", "attribution"])
        writer.writerows([i, tok, f"{v:.6f}"] for i, (tok, v) in enumerate(zip(contrast.source_tokens, values)))
        charts.append(Chart(fig, out.getvalue(), f"attribution_{name}.csv"))
    return charts[0], charts[1]


def ranked_heads(found: Patching) -> list[tuple[float, Cell]]:
    return sorted(((float(v), ("head", kind, layer, head)) for kind in KINDS
                   for (layer, head), v in np.ndenumerate(found.heads[kind])), key=lambda x: -x[0])


def verdict(found: Patching, guess: Cell) -> str:
    ranked = ranked_heads(found)
    rank = next(i for i, (_, cell) in enumerate(ranked) if cell == guess) + 1
    effect = next(v for v, cell in ranked if cell == guess)
    best_effect, best = ranked[0]
    return t("patching.guess.verdict", guess=cell_name(guess), effect=f"{effect:.2f}", rank=rank, n=len(ranked),
             best=cell_name(best), best_effect=f"{best_effect:.2f}")


def pair_lines(found: Patching) -> tuple[str, str]:
    pair = found.pair
    return (t("patching.clean_line", sentence=md_escape(pair.clean.text),
              translation=md_escape(pair.clean.translation)),
            t("patching.corrupt_line", sentence=md_escape(pair.corrupt.text),
              translation=md_escape(pair.corrupt.translation)))


def metric_line(found: Patching) -> str:
    pair = found.pair
    return t("patching.metric", step=pair.step + 1, target=md_escape(pair.target_token),
             foil=md_escape(pair.foil_token),
             clean=f"{found.clean_diff:.2f}", corrupt=f"{found.corrupted_diff:.2f}")


def unpatched_line(found: Patching) -> str:
    pair = found.pair
    if not pair.unaligned:
        return ""
    return t("patching.unpatched", tokens=md_escape(", ".join(pair.corrupt.tokens[i] for i in pair.unaligned)))


def view_chart(measured: Measured, s: Settings) -> tuple[Chart | None, Chart | None]:
    found = measured.patching
    hover = t("patching.hover")
    if s.view == "heads":
        if s.guessing and not s.revealed:
            return None, None
        panels = head_panels(found)
        fig = effect_panels(panels, title=t("patching.heads.title"), colour_title=t("patching.effect"), hover=hover,
                            width=s.width)
        return Chart(fig, grid_csv(panels), "head_patching.csv"), None
    if s.view == "residual":
        panels = residual_panels(found)
        fig = effect_panels(panels, title=t("patching.residual.title"), colour_title=t("patching.effect"),
                            hover=hover, width=s.width)
        return Chart(fig, grid_csv(panels), "residual_patching.csv"), None
    if s.view == "lens":
        return lens_chart(measured.lens, s.width), None
    return attribution_charts(found, measured.contrast, s.width)


def redecoded_lines(found: Patching, again: Redecoded | None) -> list[str]:
    if again is None:
        return []
    pair = found.pair
    return [t("patching.redecode.clean", translation=md_escape(pair.clean.translation)),
            t("patching.redecode.corrupt", translation=md_escape(pair.corrupt.translation)),
            t("patching.redecode.patched", cell=cell_name(again.cell), translation=md_escape(again.translation))]


def token_options(found: Patching) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The target's choices (the clean translation's tokens) and the foil's (the corrupted one's, then the rest)."""
    pair = found.pair
    targets = tuple(dict.fromkeys(pair.clean.output_tokens))
    foils = tuple(dict.fromkeys((pair.foil_token, *pair.corrupt.output_tokens, *pair.clean.output_tokens)))
    return targets, foils


def view(measured: Measured, settings: Settings, again: Redecoded | None = None) -> PatchingView:
    found = measured.patching
    chart, second = view_chart(measured, settings)
    caption = t(f"patching.caption.{settings.view}")
    shown_verdict = verdict(found, settings.guess) if settings.revealed and settings.guess else ""
    targets, foils = token_options(found)
    limits = [t(f"patching.limit.{name}") for name in ("baseline", "backup", "one_pair", "lens")]
    return PatchingView(pair_lines(found), metric_line(found), unpatched_line(found), chart, second,
                        sentences([caption]), limits, redecoded_lines(found, again), shown_verdict, targets, foils)
