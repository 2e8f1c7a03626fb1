"""A deck as a folder of PNGs: a .zip with one image per slide, each at its figure's own size, drawn by Plotly's
static export (kaleido), which drives a Chrome or Chromium it finds on this machine (Debian's chromium will do)."""

from __future__ import annotations

import importlib.util
import io
import tempfile
import zipfile
from pathlib import Path

import plotly.graph_objects as go


def browser() -> str | None:
    """The browser kaleido would drive, or None where kaleido or a browser is missing (the page then says so)."""
    if importlib.util.find_spec("kaleido") is None:  # an optional part of the app
        return None
    from choreographer.browsers.chromium import Chromium  # kaleido's own way to find one (a dependency of it)

    path = Chromium.find_browser(skip_local=False)
    return path if path and Path(path).is_file() else None


def file_names(count: int) -> list[str]:
    """slide-01.png, slide-02.png, …: names that sort in the deck's order."""
    return [f"slide-{i + 1:02d}.png" for i in range(count)]


def png_zip(figures: list[go.Figure]) -> bytes:
    """The figures as PNGs in one .zip (file_names order), drawn by one browser for all of them. MathJax is off: the
    figures hold no TeX, and kaleido would otherwise ask a CDN for it (a classroom may be offline)."""
    import kaleido

    with tempfile.TemporaryDirectory(prefix="deck-png-") as folder:
        paths = [Path(folder) / name for name in file_names(len(figures))]
        kaleido.write_fig_from_object_sync(
            [{"fig": fig.to_dict(), "path": path,
              "opts": {"format": "png", "width": fig.layout.width, "height": fig.layout.height, "scale": 1}}
             for fig, path in zip(figures, paths)],
            kopts={"mathjax": False},
        )
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:  # PNGs are compressed already
            for path in paths:
                archive.write(path, path.name)
    return buffer.getvalue()
