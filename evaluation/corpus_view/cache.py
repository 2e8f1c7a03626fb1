"""Projections on disk, computed once per (weights, corpus, kind, layer, head, method, seed) and read back after.

A file's name is its key: the checkpoint weights' SHA-256 (a retrained model never reads an old picture), the
corpus's digest (a user's added sentences make another corpus), the head, the method and the seed. Files are
written to a temporary name in the same folder and renamed into place, so a reader never sees half a file and two
writers of one key both leave a whole one. The folder is ATTENTION_CORPUS_CACHE, else runs/corpus_view/ of this
repository (ignored by git), never inside a checkpoint.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from .project import Adjustment, HeadProjection

CACHE_ENV = "ATTENTION_CORPUS_CACHE"
DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "runs" / "corpus_view"


def default_folder() -> Path:
    return Path(os.environ.get(CACHE_ENV) or DEFAULT_FOLDER)


class ProjectionCache:
    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()

    def path(self, sha256: str, corpus: str, kind: str, layer: int, head: int, method: str, seed: int) -> Path:
        """Where the projection of this key lives (layer and head 0-based)."""
        return self.folder / sha256 / f"{corpus}-{kind}-{layer}-{head}-{method}-{seed}.npz"

    def get(self, sha256: str, corpus: str, kind: str, layer: int, head: int, method: str,
            seed: int) -> HeadProjection | None:
        """The stored projection, or None when there is none (or it cannot be read: it is then recomputed)."""
        path = self.path(sha256, corpus, kind, layer, head, method, seed)
        try:
            with np.load(path) as f:
                return HeadProjection(kind, layer, head, method, seed, f["xy"], f["raw_xy"],
                                      {"raw": float(f["correlation"][0]), "adjusted": float(f["correlation"][1])},
                                      Adjustment(f["shift"], float(f["scale"])))
        except (OSError, KeyError, ValueError):
            return None

    def put(self, sha256: str, corpus: str, projection: HeadProjection) -> Path:
        """Store `projection` atomically under its key; returns the file."""
        p = projection
        path = self.path(sha256, corpus, p.kind, p.layer, p.head, p.method, p.seed)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, xy=p.xy, raw_xy=p.raw_xy, shift=p.adjustment.shift, scale=p.adjustment.scale,
                         correlation=np.array([p.correlation["raw"], p.correlation["adjusted"]]))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return path
