"""A head's projection, from the disk cache when it holds one; a kind's every head by PCA (the matrix view)."""

from __future__ import annotations

from .cache import ProjectionCache
from .project import HeadProjection, project_head
from .vectors import CorpusRun


def head_view(run: CorpusRun, kind: str, layer: int, head: int, method: str = "pca", seed: int = 0,
              cache: ProjectionCache | None = None) -> HeadProjection:
    """Head (kind, layer, head), 0-based, projected by `method`: read from `cache` or computed and stored there.
    Raises HeadError, ValueError (method) and ProjectionUnavailable."""
    vectors = run.head(kind, layer, head)
    digest = run.corpus.digest()
    found = None if cache is None else cache.get(run.weights_sha256, digest, kind, layer, head, method, seed)
    if found is not None and len(found.xy) == len(vectors.queries) + len(vectors.keys):
        return found
    projection = project_head(vectors, method, seed)
    if cache is not None:
        cache.put(run.weights_sha256, digest, projection)
    return projection


def matrix_view(run: CorpusRun, kind: str, seed: int = 0,
                cache: ProjectionCache | None = None) -> list[list[HeadProjection]]:
    """Every head of `kind` by PCA, [layer][head]: heads that behave alike look alike side by side."""
    return [[head_view(run, kind, layer, head, "pca", seed, cache) for head in range(run.heads)]
            for layer in range(run.layers[kind])]
