"""Activation patching between two sentences (Vig et al. 2020; Meng et al. 2022): which head, which layer and
position, carries the difference between a clean and a corrupted sentence's translation?

The metric is the logit difference target − foil at the pair's step, both runs teacher-forced on the clean
translation's prefix. A patch puts the clean run's value of one head's output (at every position) or of one point
of a residual stream (at one position) into the corrupted run; its effect is normalised,
(patched − corrupted) / (clean − corrupted): 0 no effect, 1 the clean answer restored. Every cell of a grid is one
row of a batched pass (at most CHUNK rows each), the patch an argument of the model's forward (architecture/patch.py).

On the source side, values move between corresponding positions (pair.aligned); a corrupted position with no
counterpart is never patched, and its residual cells are NaN.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..architecture.patch import Patch, Replace
from ..architecture.transformer import KINDS, HeadMask
from ..text.normalize import clean_text
from ..translation.translator import Translator
from . import runs
from .messages import PatchingError
from .pair import Pair, read_pair

CHUNK = 32  # patched rows per batched pass: a 15-token pair's 24 heads of a kind in one, its encoder stream in two
MIN_GAP = 1e-3  # |clean − corrupted| below which there is nothing to normalise by (logits)
SOURCE_SIDE = ("encoder_self", "encoder")  # what lies at source positions: patched between aligned positions
# A cell: ("head", kind, layer, head) or ("residual", side, point, position); point 0 the embeddings, i layer i.
Cell = tuple[str, str, int, int]


@dataclass(frozen=True)
class Patching:
    pair: Pair
    clean_diff: float  # logit(target) − logit(foil) in the clean run
    corrupted_diff: float  # the same in the corrupted run
    heads: dict[str, np.ndarray]  # kind → (layers, heads) normalised effects
    residual: dict[str, np.ndarray]  # side → (points, positions) normalised effects, NaN where nothing was patched
    points: dict[str, tuple[int, ...]]  # side → its rows' points: 0 the embeddings, i the output of layer i
    tokens: dict[str, tuple[str, ...]]  # side → the residual columns' tokens: corrupted source, decoder inputs


@dataclass(frozen=True)
class Baseline:
    clean: runs.Run  # the clean run, teacher-forced on the prefix: the values patches take
    clean_diff: float
    corrupted_diff: float


@dataclass(frozen=True)
class Redecoded:
    cell: Cell
    output_tokens: tuple[str, ...]  # </s> included
    translation: str


def patch_pair(tr: Translator, clean: str, corrupt: str, target: str | None = None,
               foil: str | None = None) -> Patching:
    """Every head grid and both residual grids of one pair. Raises PatchingError (a ValueError)."""
    return measure(tr, read_pair(tr, clean, corrupt, target, foil))


def measure(tr: Translator, pair: Pair) -> Patching:
    base = baseline(tr, pair)
    c = tr.config
    heads = {kind: effects(tr, pair, base, head_cells(tr, kind)).reshape(n, c.n_heads)
             for kind, n in HeadMask.layer_counts(c).items()}
    points = {"encoder": tuple(range(c.n_encoder_layers + 1)),
              # The decoder's embeddings are the same clean prefix in both runs: nothing there to patch.
              "decoder": tuple(range(1, c.n_decoder_layers + 1))}
    residual = {side: residual_grid(tr, pair, base, side, points[side]) for side in points}
    tokens = {"encoder": pair.corrupt.tokens, "decoder": tuple(tr.tgt_tok.tokens(pair.prefix))}
    return Patching(pair, base.clean_diff, base.corrupted_diff, heads, residual, points, tokens)


def baseline(tr: Translator, pair: Pair) -> Baseline:
    """The clean and corrupted runs' logit differences, and the clean run's values. Raises PatchingError when the
    two are the same (nothing to restore)."""
    with tr.gate, torch.inference_mode():
        clean = runs.traced(tr.model, list(pair.clean.ids), list(pair.prefix))
        corrupted = runs.forward(tr.model, list(pair.corrupt.ids), list(pair.prefix))[0]
    clean_diff, corrupted_diff = (float(logits[-1, pair.target] - logits[-1, pair.foil])
                                  for logits in (clean.logits, corrupted))
    if abs(clean_diff - corrupted_diff) < MIN_GAP:
        raise PatchingError("no_effect", target=pair.target_token, foil=pair.foil_token, diff=f"{clean_diff:.3f}")
    return Baseline(clean, clean_diff, corrupted_diff)


def head_cells(tr: Translator, kind: str) -> list[Cell]:
    layers = HeadMask.layer_counts(tr.config)[kind]
    return [("head", kind, layer, head) for layer in range(layers) for head in range(tr.config.n_heads)]


def residual_grid(tr: Translator, pair: Pair, base: Baseline, side: str, points: tuple[int, ...]) -> np.ndarray:
    """(points, positions) normalised effects of one residual stream, NaN at positions with no counterpart."""
    positions = [k for k, _ in pair.aligned] if side == "encoder" else list(range(len(pair.prefix)))
    width = len(pair.corrupt.ids) if side == "encoder" else len(pair.prefix)
    cells = [("residual", side, point, position) for point in points for position in positions]
    grid = np.full((len(points), width), np.nan)
    for (_, _, point, position), effect in zip(cells, effects(tr, pair, base, cells)):
        grid[points.index(point), position] = effect
    return grid


def effects(tr: Translator, pair: Pair, base: Baseline, cells: list[Cell]) -> np.ndarray:
    """The normalised effect of each cell, each a row of a batched, teacher-forced corrupted pass."""
    diffs = []
    for start in range(0, len(cells), CHUNK):
        chunk = cells[start:start + CHUNK]
        patch = build_patch(chunk, base.clean, pair)
        with tr.gate, torch.inference_mode():
            logits = runs.forward(tr.model, list(pair.corrupt.ids), list(pair.prefix), patch, rows=len(chunk))
        diffs.append((logits[:, -1, pair.target] - logits[:, -1, pair.foil]).double().cpu())
    found = torch.cat(diffs).numpy() if diffs else np.zeros(0)
    return (found - base.corrupted_diff) / (base.clean_diff - base.corrupted_diff)


def build_patch(cells: list[Cell], clean: runs.Run, pair: Pair) -> Patch:
    """One Patch whose row r patches cells[r] with the clean run's values (moved to corrupted source positions)."""
    found: dict[tuple[str, str, int], tuple[torch.Tensor, torch.Tensor, torch.Tensor]] = {}
    for row, (what, name, layer, index) in enumerate(cells):
        key = (what, name, layer)
        if key not in found:
            source = (clean.heads if what == "head" else clean.stream)[name][layer]
            value, patchable = _moved(source, pair) if name in SOURCE_SIDE else (source, None)
            where = torch.zeros(len(cells), *value.shape[1:-1], dtype=torch.bool, device=value.device)
            found[key] = (where, value, patchable)
        where, _, patchable = found[key]
        if what == "head" and patchable is not None:
            where[row, index] = patchable  # the head's every position that has a counterpart
        else:
            where[row, index] = True  # a decoder head at every position; a residual cell at its one position
    pieces = {key: Replace(where, value) for key, (where, value, _) in found.items()}
    return Patch(heads={(name, layer): r for (what, name, layer), r in pieces.items() if what == "head"},
                 residual={(name, layer): r for (what, name, layer), r in pieces.items() if what == "residual"})


def _moved(source: torch.Tensor, pair: Pair) -> tuple[torch.Tensor, torch.Tensor]:
    """Clean values at source positions (1, [heads,] S_clean, d) laid out at the corrupted positions that
    correspond, and which corrupted positions have a counterpart (S_corrupt,) bool."""
    width = len(pair.corrupt.ids)
    to = torch.tensor([k for k, _ in pair.aligned], dtype=torch.long, device=source.device)
    frm = torch.tensor([c for _, c in pair.aligned], dtype=torch.long, device=source.device)
    value = source.new_zeros(*source.shape[:-2], width, source.size(-1))
    value[..., to, :] = source[..., frm, :]
    patchable = torch.zeros(width, dtype=torch.bool, device=source.device)
    patchable[to] = True
    return value, patchable


def redecode(tr: Translator, pair: Pair, cell: Cell) -> Redecoded:
    """The corrupted sentence translated greedily with one cell patched in every step: the clean run's values,
    teacher-forced on the whole clean translation (a decoder position past it is left alone). Raises PatchingError
    for a cell the model or pair does not have."""
    _check_cell(tr, pair, cell)
    with tr.gate, torch.inference_mode():
        full = runs.traced(tr.model, list(pair.clean.ids), [tr.config.bos_id, *pair.clean.output[:-1]])
        ids = runs.greedy(tr.model, tr.generation_config, list(pair.corrupt.ids), build_patch([cell], full, pair))
    return Redecoded(cell, tuple(tr.tgt_tok.tokens(ids)), clean_text(tr.tgt_tok.decode(ids)))


def _check_cell(tr: Translator, pair: Pair, cell: Cell) -> None:
    c = tr.config
    what, name, layer, index = cell
    if what == "head":
        fits = name in KINDS and 0 <= layer < HeadMask.layer_counts(c)[name] and 0 <= index < c.n_heads
    else:
        layers = {"encoder": c.n_encoder_layers, "decoder": c.n_decoder_layers}
        width = len(pair.corrupt.ids) if name == "encoder" else len(pair.clean.output)
        fits = what == "residual" and name in layers and 0 <= layer <= layers[name] and 0 <= index < width and (
            name != "encoder" or index not in pair.unaligned)
    if not fits:
        raise PatchingError("no_cell", cell=f"{what} {name} {layer} {index}")
