"""One head's queries and keys in one 2-D picture (AttentionViz, Yeh et al. 2023), and how faithful the picture is.

Two free parameters of attention are fixed first, as AttentionViz does: the keys are shifted so their centroid sits
on the queries' (each query's scores all gain q·shift, so no softmax row changes), and queries are scaled by c and
keys by 1/c so their mean norms match (no q·k changes). Queries and keys are then projected jointly: PCA (NumPy's
SVD, no seed needed), t-SNE (scikit-learn) or UMAP (umap-learn, where installed), each with a fixed seed.

The picture's faithfulness is the Pearson correlation, over every query–key pair of the same sentence that the query
may attend to, between the model's score q·k (raw vectors: the score softmax reads, up to a per-query constant) and
the two points' distance in the projection: negative where a query sits near the keys it scores high. It is given
for the projection of the raw vectors and of the adjusted ones.
"""

from __future__ import annotations

import contextlib
import importlib.util
from dataclasses import dataclass

import numpy as np

from .vectors import WORD_START, HeadVectors

METHODS = ("pca", "tsne", "umap")
TSNE_PERPLEXITY = 30.0
TSNE_ITERATIONS = 500  # scikit-learn's default is 1000; 500 (250 of them early exaggeration) settles these maps
UMAP_NEIGHBOURS = 15


def one_thread() -> contextlib.AbstractContextManager:
    """BLAS and OpenMP held to one thread: a projection takes one core, whatever else the server runs, so another
    student's page keeps the other (two BLAS threads on two busy cores ran PCA 30× slower than one)."""
    if importlib.util.find_spec("threadpoolctl") is None:  # installed with scikit-learn
        return contextlib.nullcontext()
    from threadpoolctl import threadpool_limits

    return threadpool_limits(1)


class ProjectionUnavailable(RuntimeError):
    """A projection method whose library is not installed (the message says which and how to install it)."""


@dataclass(frozen=True)
class Adjustment:
    shift: np.ndarray  # (d_k,) added to every key: query centroid − key centroid
    scale: float  # c: queries × c, keys (after the shift) ÷ c

    def apply(self, queries: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return queries * self.scale, (keys + self.shift) / self.scale


def adjustment(queries: np.ndarray, keys: np.ndarray) -> Adjustment:
    """The key shift onto the query centroid, then the scale c = √(mean ‖k‖ / mean ‖q‖) that matches mean norms."""
    q, k = queries.astype(np.float64), keys.astype(np.float64)
    shift = q.mean(axis=0) - k.mean(axis=0)
    q_norm, k_norm = np.linalg.norm(q, axis=1).mean(), np.linalg.norm(k + shift, axis=1).mean()
    return Adjustment(shift, float(np.sqrt(k_norm / q_norm)) if q_norm > 0 and k_norm > 0 else 1.0)


def _pca(x: np.ndarray) -> np.ndarray:
    """The first two principal components; each axis's sign fixed so its largest loading is positive."""
    centred = x - x.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    axes = vt[:2]
    axes = axes * np.sign(axes[np.arange(len(axes)), np.abs(axes).argmax(axis=1)])[:, None]
    xy = centred @ axes.T
    return np.pad(xy, ((0, 0), (0, 2 - xy.shape[1])))  # a corpus of one point still gets two columns


def _tsne(x: np.ndarray, seed: int) -> np.ndarray:
    if importlib.util.find_spec("sklearn") is None:
        raise ProjectionUnavailable("t-SNE needs scikit-learn: pip install -r requirements.txt")
    from sklearn.manifold import TSNE

    perplexity = min(TSNE_PERPLEXITY, max(1.0, (len(x) - 1) / 3))
    return TSNE(2, perplexity=perplexity, init="pca", random_state=seed, max_iter=TSNE_ITERATIONS,
                n_jobs=1).fit_transform(x)


def _umap(x: np.ndarray, seed: int) -> np.ndarray:
    if importlib.util.find_spec("umap") is None:
        raise ProjectionUnavailable("UMAP needs umap-learn, which is not installed: pip install umap-learn")
    import umap

    return umap.UMAP(n_neighbors=min(UMAP_NEIGHBOURS, len(x) - 1), random_state=seed, n_jobs=1).fit_transform(x)


def available() -> dict[str, bool]:
    """Which METHODS this installation can run."""
    return {"pca": True, "tsne": importlib.util.find_spec("sklearn") is not None,
            "umap": importlib.util.find_spec("umap") is not None}


def project(x: np.ndarray, method: str, seed: int = 0) -> np.ndarray:
    """(n, d) → (n, 2) float64 by `method` (METHODS), on one thread. Raises ValueError on an unknown method and
    ProjectionUnavailable where its library is missing."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    x = np.asarray(x, dtype=np.float64)
    with one_thread():
        xy = _pca(x) if method == "pca" else _tsne(x, seed) if method == "tsne" else _umap(x, seed)
    return np.asarray(xy, dtype=np.float64)


def correlation(vectors: HeadVectors, xy: np.ndarray) -> float:
    """Pearson's r between q·k (raw) and the projected distance of each same-sentence pair the query may attend to;
    `xy` holds the queries' points, then the keys'. NaN where either side does not vary."""
    qi, ki = vectors.pairs()
    scores = np.einsum("ij,ij->i", vectors.queries[qi].astype(np.float64), vectors.keys[ki].astype(np.float64))
    distance = np.linalg.norm(xy[qi] - xy[len(vectors.queries) + ki], axis=1)
    if scores.std() == 0 or distance.std() == 0:
        return float("nan")
    return float(np.corrcoef(scores, distance)[0, 1])


@dataclass(frozen=True)
class HeadProjection:
    """One head's queries and keys projected: the adjusted vectors' picture (shown), the raw vectors' (compared)."""

    kind: str
    layer: int  # 0-based
    head: int  # 0-based
    method: str
    seed: int
    xy: np.ndarray  # (Nq + Nk, 2): the adjusted queries' points, then the adjusted keys'
    raw_xy: np.ndarray  # (Nq + Nk, 2): the same of the raw vectors
    correlation: dict[str, float]  # "raw", "adjusted"
    adjustment: Adjustment


def project_head(vectors: HeadVectors, method: str, seed: int = 0) -> HeadProjection:
    """Project raw and adjusted vectors by `method` (on one thread) and measure each picture's correlation."""
    with one_thread():
        adjust = adjustment(vectors.queries, vectors.keys)
        raw = np.concatenate([vectors.queries, vectors.keys])
        adjusted = np.concatenate(adjust.apply(vectors.queries, vectors.keys))
        raw_xy, xy = project(raw, method, seed), project(adjusted, method, seed)
        found = {"raw": correlation(vectors, raw_xy), "adjusted": correlation(vectors, xy)}
    return HeadProjection(vectors.kind, vectors.layer, vectors.head, method, seed, xy, raw_xy, found, adjust)


def points(vectors: HeadVectors, projection: HeadProjection) -> list[dict]:
    """One dict per point, queries first: x, y, role ("query" | "key"), token (word-start mark removed), sentence
    (index into the corpus), position, normalised_position (0 first token, 1 last, of its side of its sentence)."""
    out = []
    sides = (("query", vectors.query_tokens, vectors.query_sentence, vectors.query_position, vectors.query_length),
             ("key", vectors.key_tokens, vectors.key_sentence, vectors.key_position, vectors.key_length))
    offset = 0
    for role, tokens, sentence, position, length in sides:
        for i, token in enumerate(tokens):
            x, y = projection.xy[offset + i]
            out.append({"x": float(x), "y": float(y), "role": role, "token": token.removeprefix(WORD_START),
                        "sentence": int(sentence[i]), "position": int(position[i]),
                        "normalised_position": float(position[i] / max(int(length[i]) - 1, 1))})
        offset += len(tokens)
    return out
