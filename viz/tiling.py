"""Figures laid out side by side as one figure: each keeps its size, margins, axes, colour bar and title.

Why: Plotly's and Streamlit's work per figure comes once. In bare Plotly four 4×4 maps took 61–63 ms to draw as four
figures and 28–29 ms as one; on the masks page, which draws four stages anew with each tab, two charts of two stages
made a tab's switch 0.28 s instead of 0.30–0.33 s (an A/B of two servers in one Chromium).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import plotly.graph_objects as go

from viz.style import figure_spec, rebuilt

AXIS = re.compile(r"^([xy])axis(\d*)$")
AXIS_REF = re.compile(r"^([xy])(\d*)( domain)?$")


def side_by_side(figures: Sequence[go.Figure], column_px: float, gap_px: float) -> go.Figure:
    """One figure holding `figures` in columns `column_px` wide, `gap_px` apart, each at its column's top left and
    drawn as it would be alone (as st.columns would place them).

    Each figure needs its width (at most column_px) and height in px; its paper coordinates (titles, notes, colour
    bars) are moved to its place, its axes renumbered after the ones before it. Legends are not carried over (the
    figures joined so far have none); fonts and hover labels are the first figure's.
    """
    if not figures:
        raise ValueError("side_by_side needs at least one figure")
    sizes = [(fig.layout.width, fig.layout.height) for fig in figures]
    if any(not w or not h for w, h in sizes):
        raise ValueError("every figure needs layout.width and layout.height in px: lay each out for its room first")
    if max(w for w, _ in sizes) > column_px:
        raise ValueError(f"a figure is wider than its column ({max(w for w, _ in sizes)} > {column_px} px): "
                         "lay it out for max_width=column_px")
    width = column_px * len(figures) + gap_px * (len(figures) - 1)
    height = max(h for _, h in sizes)
    data, layout = [], {"annotations": [], "shapes": []}
    left, used = 0.0, {"x": 0, "y": 0}
    specs = [figure_spec(fig) for fig in figures]
    for spec, (w, h) in zip(specs, sizes):
        tile = _Tile(spec["layout"], left, w, h, width, height, used)
        data += [tile.trace(trace) for trace in spec["data"]]
        tile.place_into(layout)
        left += column_px + gap_px
    first = specs[0]["layout"]
    shared = {k: first[k] for k in ("font", "hoverlabel", "template", "hovermode") if k in first}
    return rebuilt(data, {**shared, **layout, "width": width, "height": height, "margin": dict(l=0, r=0, t=0, b=0),
                          "plot_bgcolor": "rgba(0,0,0,0)", "showlegend": False})


class _Tile:
    """One figure's place in the combined one: its plot area in the combined paper's coordinates."""

    def __init__(self, layout: dict, left: float, w: float, h: float, width: float, height: float, used: dict):
        self.layout = layout
        margin = layout.get("margin", {})
        self.left, self.width, self.height = left, width, height
        # The plot area of this figure, in px from the combined figure's top left corner.
        self.x0, self.x1 = left + margin.get("l", 80), left + w - margin.get("r", 80)
        self.y0, self.y1 = margin.get("t", 100), h - margin.get("b", 80)
        self.names = {}  # "x2" → its new name
        for key in sorted(k for k in layout if AXIS.match(k)):
            letter, _ = AXIS.match(key).groups()
            used[letter] += 1
            self.names[_short(key)] = letter + (str(used[letter]) if used[letter] > 1 else "")

    def paper_x(self, x: float) -> float:
        return (self.x0 + x * (self.x1 - self.x0)) / self.width

    def paper_y(self, y: float) -> float:
        return 1 - (self.y1 - y * (self.y1 - self.y0)) / self.height

    def ref(self, name: str) -> str:
        """An axis reference ("x", "y2 domain") under its new name; "paper" and others unchanged."""
        found = AXIS_REF.match(name or "")
        if not found:
            return name
        letter, number, domain = found.groups()
        return self.names[f"{letter}{number}"] + (domain or "")

    def trace(self, trace: dict) -> dict:
        trace = {**trace, "xaxis": self.ref(trace.get("xaxis", "x")), "yaxis": self.ref(trace.get("yaxis", "y"))}
        if "colorbar" in trace:  # its x and y are the plot area's paper coordinates
            bar = trace["colorbar"]
            trace["colorbar"] = {**bar, "x": self.paper_x(bar.get("x", 1.02)), "y": self.paper_y(bar.get("y", 0.5))}
        return trace

    def place_into(self, layout: dict) -> None:
        """Add this figure's axes, notes, shapes, title and plot colour to the combined `layout`."""
        for key, axis in self.layout.items():
            if AXIS.match(key):
                layout[_long(self.names[_short(key)])] = self.axis(key[0], axis)
        for note in self.layout.get("annotations", []):
            layout["annotations"].append(self.moved(note))
        for shape in self.layout.get("shapes", []):
            layout["shapes"].append(self.moved(shape, ("x0", "x1"), ("y0", "y1")))
        x_axis = self.names["x"] if "x" in self.names else None
        background = self.layout.get("plot_bgcolor", "white")
        if x_axis and "y" in self.names:  # the plot's own background, under its cells
            layout["shapes"].append(dict(type="rect", xref=f"{x_axis} domain", yref=f"{self.names['y']} domain",
                                         x0=0, x1=1, y0=0, y1=1, fillcolor=background, line_width=0, layer="below"))
        title = self.layout.get("title", {})
        if title.get("text"):
            layout["annotations"].append(self.title(title))

    def axis(self, letter: str, axis: dict) -> dict:
        other = "y" if letter == "x" else "x"
        # Unanchored, an axis would sit by the combined figure's first axis of the other letter, not by its own.
        axis = {"anchor": other, **axis, "automargin": False}  # the figure's margins already hold its labels
        for key in ("anchor", "overlaying", "matches", "scaleanchor"):
            if key in axis:
                axis[key] = self.ref(axis[key])
        if "overlaying" not in axis:  # an overlay takes the place of the axis it overlays
            at = self.paper_x if letter == "x" else self.paper_y
            axis["domain"] = [at(0), at(1)]
        return axis

    def moved(self, item: dict, xs: tuple[str, ...] = ("x",), ys: tuple[str, ...] = ("y",)) -> dict:
        item = {**item, "xref": self.ref(item.get("xref", "paper")), "yref": self.ref(item.get("yref", "paper"))}
        if item["xref"] == "paper":
            item.update({k: self.paper_x(item[k]) for k in xs if k in item})
        if item["yref"] == "paper":
            item.update({k: self.paper_y(item[k]) for k in ys if k in item})
        return item

    def title(self, title: dict) -> dict:
        """The figure's title (left-aligned at its top, as styled_figure sets it) as a note at the same place (Plotly
        draws such a title 4 px below the figure's top, whatever its pad, measured: here the note's border)."""
        return dict(text=title["text"], font=title.get("font", {}), showarrow=False, xref="paper", yref="paper",
                    x=self.left / self.width, xanchor="left", y=1, yanchor="top", align="left", borderpad=4,
                    borderwidth=0, xshift=-4)


def _short(key: str) -> str:
    """"xaxis2" → "x2", "yaxis" → "y"."""
    letter, number = AXIS.match(key).groups()
    return f"{letter}{number}"


def _long(name: str) -> str:
    """"x2" → "xaxis2", "y" → "yaxis"."""
    return f"{name[0]}axis{name[1:]}"
