"""The figure as the browser gets it: `sent_figure` turns a figure viz built into the one Streamlit hands Plotly.js,
enlarged for presentation mode where asked, in one pass from figure to dict to figure."""

from __future__ import annotations

import hashlib

import numpy as np
import plotly.graph_objects as go

from .style import EMPTY_TEMPLATE, figure_spec, scaled_spec, spec_figure


def sent_figure(fig: go.Figure, factor: float = 1.0, width: float | None = None) -> go.Figure:
    """A copy of `fig`, `factor` times larger as a whole (viz.style.scaled_spec; `width`: the width a figure without
    one of its own is drawn at), that Plotly draws once, not twice, each time Streamlit shows it: its arrays as JSON
    lists, without the empty template, with a `layout.datarevision` (a digest of the figure).

    Why: whenever a chart appears or changes, Streamlit draws it, then hands Plotly.react a copy of the same figure
    (its theme pass, which runs even with theme=None). Plotly.react takes a data array as changed unless its layout
    has a datarevision and the array is a plain array; a NumPy array reaches it as a typed array (plotly.py sends
    those base64-encoded), which it always takes as changed, and so is a template that is a new object: a figure as
    viz builds it is calculated and drawn a second time (each Next on Decoding would draw its four charts eight
    times; CDP logpoints in Plotly.react's diff count them). A changed figure gets another digest (and Streamlit
    mounts a new chart for it: its element id hashes the figure), so no change is missed. A template with content
    (the model view's shared axes) is kept, and that chart is drawn twice.
    """
    spec = figure_spec(fig)
    if factor != 1:
        spec = scaled_spec(spec, factor, width)
    digest = hashlib.blake2b(digest_size=8)
    spec = json_lists(spec, digest)
    layout = spec["layout"]
    if layout.get("template") == EMPTY_TEMPLATE:
        del layout["template"]
    layout["datarevision"] = digest.hexdigest()
    out = spec_figure(spec)
    if "template" not in layout:
        out.layout.template = None  # the constructor put plotly.py's default one (9 KB) there
    return out


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
