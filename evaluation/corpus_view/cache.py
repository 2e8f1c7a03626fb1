"""Projections on disk, computed once per (weights, corpus, kind, layer, head, method, seed) and read back after.

The traced passes over a corpus are kept there too, one file per (weights, corpus): a server started again reads
every sentence's queries, keys and weights back instead of running the model over the corpus once more.

A file's name is its key: the checkpoint weights' SHA-256 (a retrained model never reads an old picture), the
corpus's digest (a user's added sentences make another corpus), the head, the method and the seed. Files are
written to a temporary name in the same folder and renamed into place, so a reader never sees half a file and two
writers of one key both leave a whole one. The folder is ATTENTION_CORPUS_CACHE, else runs/corpus_view/ of this
repository (ignored by git), never inside a checkpoint.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

from model.architecture.transformer import KINDS

from .corpus import Corpus
from .project import Adjustment, HeadProjection
from .vectors import CorpusRun, SentenceTrace

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
        return _write(self.path(sha256, corpus, p.kind, p.layer, p.head, p.method, p.seed),
                      {"xy": p.xy, "raw_xy": p.raw_xy, "shift": p.adjustment.shift, "scale": p.adjustment.scale,
                       "correlation": np.array([p.correlation["raw"], p.correlation["adjusted"]])})

    def run_path(self, sha256: str, corpus: str) -> Path:
        return self.folder / sha256 / f"{corpus}-passes.npz"

    def get_run(self, corpus: Corpus, sha256: str, checkpoint: str) -> CorpusRun | None:
        """The passes over `corpus` of the weights `sha256`, or None when none are stored (or they cannot be read)."""
        try:
            with np.load(self.run_path(sha256, corpus.digest())) as f:
                layers, heads = json.loads(str(f["shape"]))
                tokens = json.loads(str(f["tokens"]))
                if len(tokens) != len(corpus.sentences):
                    return None
                traces = tuple(SentenceTrace(tuple(source), tuple(target),
                                             *({kind: f[f"{part}-{i}-{kind}"] for kind in KINDS}
                                               for part in ("q", "k", "w")))
                               for i, (source, target) in enumerate(tokens))
        except (OSError, KeyError, ValueError):
            return None
        return CorpusRun(corpus, checkpoint, sha256, traces, layers, heads)

    def put_run(self, run: CorpusRun) -> Path:
        """Store `run`'s passes atomically under (its weights, its corpus); returns the file."""
        arrays = {"shape": json.dumps([run.layers, run.heads]),
                  "tokens": json.dumps([[t.source_tokens, t.target_tokens] for t in run.traces], ensure_ascii=False)}
        for i, trace in enumerate(run.traces):
            for part, values in (("q", trace.queries), ("k", trace.keys), ("w", trace.weights)):
                arrays |= {f"{part}-{i}-{kind}": values[kind] for kind in KINDS}
        return _write(self.run_path(run.weights_sha256, run.corpus.digest()), arrays)


def _write(path: Path, arrays: dict) -> Path:
    """`arrays` saved as one .npz at `path`, written to a temporary name beside it and renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".npz")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **arrays)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
