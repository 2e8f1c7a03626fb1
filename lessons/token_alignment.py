"""Two sentences' attention maps on one grid, for Compare's difference map B − A: their token axes lined up
(difflib's longest matching runs), each token of either sentence on exactly one position of the grid.

Where the sentences differ ("▁tired" against "▁w ide"), A's run and B's run share one position, labelled "A's/B's":
its column holds the weight a query gives the whole run (the run's columns summed), its row the run's queries'
weights averaged, so every merged row still sums to 1 and B − A compares like with like. A run only one sentence has
("very" in "I am very tired.") joins its neighbour's position, so that nothing of either sentence is left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np

LABEL_CHARS = 12  # a merged side's label is cut to this many characters ("…"): a tick label, not a sentence


@dataclass(frozen=True)
class Span:
    """One position of the shared grid: the token positions of A (`a`) and of B (`b`) it stands for."""

    a: range
    b: range
    same: bool = False  # one token both sentences have, in a matching run


def token_spans(tokens_a: list[str], tokens_b: list[str]) -> list[Span]:
    """The positions of the shared grid, in order: a token both sentences have in a matching run is one position of
    its own; each run that differs is one position for both sides; a run only one side has joins the next
    position (the last one joins the previous)."""
    matcher = SequenceMatcher(a=list(tokens_a), b=list(tokens_b), autojunk=False)
    spans: list[Span] = []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            spans += [Span(range(a0 + i, a0 + i + 1), range(b0 + i, b0 + i + 1), same=True) for i in range(a1 - a0)]
        else:
            spans.append(Span(range(a0, a1), range(b0, b1)))
    return join_one_sided(spans)


def join_one_sided(spans: list[Span]) -> list[Span]:
    """`spans` with every span that is empty on one side joined to its next neighbour (or, last, its previous)."""
    joined = list(spans)
    while len(joined) > 1 and (i := next((k for k, s in enumerate(joined) if not s.a or not s.b), None)) is not None:
        j = i + 1 if i + 1 < len(joined) else i - 1
        first, second = sorted((i, j))
        x, y = joined[first], joined[second]
        joined[first:second + 1] = [Span(range(x.a.start, y.a.stop), range(x.b.start, y.b.stop))]  # runs are adjacent
    return joined


def span_label(span: Span, tokens_a: list[str], tokens_b: list[str]) -> str:
    """A position's tick label: its token where both sides have one and the same, else "A's run/B's run"."""
    sides = ["".join(tokens[i] for i in positions) for tokens, positions in ((tokens_a, span.a), (tokens_b, span.b))]
    if span.same:
        return sides[0]
    return "/".join(side if len(side) <= LABEL_CHARS else side[:LABEL_CHARS - 1] + "…" for side in sides)


def on_spans(weights: np.ndarray, rows: list[range], cols: list[range]) -> np.ndarray:
    """A (Tq, Tk) map on the shared grid: each position's columns summed (the weight given to its run), then its
    rows averaged (the run's queries' mean), so that each row of the result still sums to what the map's rows do."""
    weights = np.asarray(weights, dtype=np.float64)
    by_column = np.stack([weights[:, c.start:c.stop].sum(axis=1) for c in cols], axis=1)
    return np.stack([by_column[r.start:r.stop].mean(axis=0) for r in rows])

