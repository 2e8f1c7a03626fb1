"""Every chart of the app: drawn once at the size its figure asks for, enlarged as a whole in presentation mode."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from app_pages.shell.screen import CONTENT_PX, present_factor
from viz.style import MIN_FONT_PX, figure_spec, min_font_px_at, scaled


def chart(fig: go.Figure, key: str, *, width: str = "content", present_max_px: int | None = None, **kwargs):
    """Every chart of the app, drawn at the size its figure asks for, enlarged as a whole in presentation mode
    (less than PRESENT_SCALE where that would not fit the screen: a chart is seen whole or not at all;
    `present_max_px`: the height left for it below the controls above it, where they take more than usual).

    The camera button saves an SVG named after the chart's key (Plotly would cut a long title into the name).
    """
    factor = present_factor(fig, present_max_px)
    config = {"displaylogo": False, "toImageButtonOptions": {"format": "svg", "filename": key.replace(".", "-")}}
    # theme=None: the figure is drawn as viz built it; Streamlit's theme reserves room the figure's own margins
    # already hold, and would narrow a 6-column map's cells below the size its labels are laid out for.
    fig = scaled(fig, factor, CONTENT_PX) if factor != 1 else fig
    return st.plotly_chart(redrawn_once(fig), key=key, width=width, config=config, theme=None, **kwargs)


def redrawn_once(fig: go.Figure) -> go.Figure:
    """A copy of `fig` that Plotly draws once, not twice, each time Streamlit shows it: its arrays as JSON lists,
    without the empty template, with a `layout.datarevision` (a digest of the figure).

    Why: whenever a chart appears or changes, Streamlit draws it, then hands Plotly.react a copy of the same figure
    (its theme pass, which runs even with theme=None). Plotly.react takes a data array as changed unless its layout
    has a datarevision and the array is a plain array; a NumPy array reaches it as a typed array (plotly.py sends
    those base64-encoded), which it always takes as changed, and so is a template that is a new object: a figure as
    viz builds it is calculated and drawn a second time (each Next on Decoding would draw its four charts eight
    times; CDP logpoints in Plotly.react's diff count them). A changed figure gets another digest (and Streamlit
    mounts a new chart for it: its element id hashes the figure), so no change is missed. A template with content
    (the model view's shared axes) is kept, and that chart is drawn twice.
    """
    digest = hashlib.blake2b(digest_size=8)
    spec = json_lists(figure_spec(fig), digest)
    layout = spec["layout"]
    if layout.get("template") == EMPTY_TEMPLATE:
        del layout["template"]
    layout["datarevision"] = digest.hexdigest()
    out = go.Figure(spec, _validate=False)  # validated already, when `fig` was built
    if "template" not in layout:
        out.layout.template = None  # the constructor put plotly.py's default one (9 KB) there
    return out


EMPTY_TEMPLATE = go.Figure(layout={"template": go.layout.Template()}).layout.to_plotly_json()["template"]


def json_lists(node, digest):
    """`node` (dicts and lists of a figure's properties) with every NumPy array as a list; every value is also fed
    to `digest` (an array as its bytes: hashing the JSON instead would take 17 of a 128×256 map's 30 ms)."""
    if isinstance(node, np.ndarray):
        digest.update(f"{node.dtype}{node.shape}".encode())
        digest.update(np.ascontiguousarray(node).tobytes())
        return node.tolist()
    if isinstance(node, dict):
        listed = {}
        for key, value in node.items():
            digest.update(f"{key}:".encode())
            listed[key] = json_lists(value, digest)
        return listed
    if isinstance(node, (list, tuple)):
        digest.update(b"[")
        listed = [json_lists(value, digest) for value in node]
        digest.update(b"]")
        return listed
    digest.update(repr(node).encode())
    return node


def fitted_map(build: Callable[..., go.Figure], layout: dict, present_max_px: int | None = None) -> go.Figure:
    """build(**layout), where `layout` is map_limits'; in presentation mode, where chart() will enlarge that figure
    more than map_limits could count on (a map narrower than its limits), built again with labels laid out for
    that enlargement, if that shows more of them, none under 11 px: Compare's B − A kept every other label."""
    fig = build(**layout)
    if "min_font_px" not in layout:  # not presenting
        return fig
    smaller = min_font_px_at(present_factor(fig, present_max_px))
    if smaller >= layout["min_font_px"]:
        return fig
    refit = build(**{**layout, "min_font_px": smaller})
    better = labels_shown(refit) > labels_shown(fig) and smaller * present_factor(refit, present_max_px) >= MIN_FONT_PX
    return refit if better else fig


def labels_shown(fig: go.Figure) -> int:
    """How many tick labels the figure's axes draw (a heatmap with thinned labels keeps every one on a hidden axis,
    for its hovers)."""
    axes = [*fig.select_xaxes(), *fig.select_yaxes()]
    return sum(len(axis.ticktext or ()) for axis in axes if axis.showticklabels is not False)
