"""An attention map's numbers as text for a spreadsheet: CSV to download, TSV to paste.

Rows are the queries and columns the keys, each labelled with its position and token ("0:▁I"), so a repeated token
keeps its own row and no label starts with a character a spreadsheet reads as a formula (=, +, -, @). A first line
says what the numbers are: `# kind=…, layer=…, head=…, sentence=…` (with `view=rollout, ` after the kind for a
rollout). Each weight is written with the fewest digits that read back as the same float32, so the file holds
exactly the weights the map draws.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lessons.attention_maps import ALL

CORNER = "query \\ key"


def unique_labels(tokens: Sequence[str]) -> list[str]:
    """Each token with its position in front: "0:▁I", "1:▁have" — distinct even where tokens repeat."""
    return [f"{i}:{token}" for i, token in enumerate(tokens)]


def one_line(text: str) -> str:
    """`text` with its line breaks made spaces: the header stays one line."""
    return " ".join(str(text).splitlines())


@dataclass(frozen=True)
class MapName:
    """Which map a table holds: its kind, layer and head (0-based; ALL for the average over heads) and the sentence;
    `view` names a map computed from the raw weights (e.g. "rollout"), where it is one."""

    kind: str
    layer: int
    head: int
    sentence: str
    view: str | None = None


def header(about: MapName) -> str:
    """The first line: which map (1-based layer and head, or "average" for ALL) of which sentence, and its view
    where it has one."""
    def number(index: int) -> str:
        return "average" if index == ALL else str(index + 1)

    shown = "" if about.view is None else f"view={about.view}, "
    return (f"# kind={about.kind}, {shown}layer={number(about.layer)}, head={number(about.head)}, "
            f"sentence={one_line(about.sentence)}")


def weight_text(value) -> str:
    """A weight in the fewest digits that read back as the same float32, never in exponent notation."""
    return np.format_float_positional(np.float32(value), unique=True, trim="-")


def attention_table(weights, queries: Sequence[str], keys: Sequence[str], *, about: MapName,
                    delimiter: str = ",") -> str:
    """A (Tq, Tk) map as delimited text: the header line (which map: `about`), a row of key labels, then one row per
    query."""
    if not isinstance(about, MapName):
        raise TypeError(f"about must be a lessons.attention_table.MapName, got {type(about).__name__}: pass "
                        "about=MapName(kind, layer, head, sentence)")
    w = np.asarray(weights)
    if w.shape != (len(queries), len(keys)):
        raise ValueError(f"weights of shape {w.shape} need {w.shape[0]} query and {w.shape[1] if w.ndim > 1 else '?'} "
                         f"key labels, got {len(queries)} and {len(keys)}: pass the map's own axis tokens")
    out = io.StringIO()
    out.write(header(about) + "\n")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow([CORNER, *unique_labels(keys)])
    for label, row in zip(unique_labels(queries), w):
        writer.writerow([label, *map(weight_text, row)])
    return out.getvalue()


def read_table(text: str, delimiter: str = ",") -> tuple[str, list[str], list[str], np.ndarray]:
    """What attention_table wrote, read back: (header, query labels, key labels, float32 weights)."""
    first, rest = text.split("\n", 1)
    rows = list(csv.reader(io.StringIO(rest), delimiter=delimiter))
    keys = rows[0][1:]
    queries = [row[0] for row in rows[1:]]
    weights = np.array([[float(v) for v in row[1:]] for row in rows[1:]], dtype=np.float32)
    return first, queries, keys, weights
