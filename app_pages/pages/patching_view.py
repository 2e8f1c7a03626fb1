"""What the "Which head carries it?" page shows, computed from a patched pair without drawing anything (patching.py
draws it): the pair and its metric, the three head grids, the two residual-stream grids, the logit lens and the
contrastive attribution as figures with their CSVs, a re-decoded translation beside the clean and corrupted ones,
a guess's verdict, the limits of what a grid says, and a bad pair as one sentence in the session's language.
Plain data out; tests/test_patching_view.py reads it without Streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from app_pages.components import chips
from app_pages.components.patching_charts import KINDS, Chart, Measured, point_name, view_charts
from app_pages.shell.text import md_escape, sentences, t
from model import Translator
from model.causal import Cell, Patching, Redecoded, redecode

# Built-in pairs by the language the model reads: one token apart, translated right by the shipped models, and
# their translations part at one step (python -m evaluation.patching).
PAIRS = {
    "en": (("He bought a book.", "She bought a book."), ("I like cats.", "I like dogs.")),
    "zh": (("我很累。", "我很饿。"), ("他买了一本书。", "她买了一本书。"),
           ("我喜欢猫。", "我喜欢狗。")),
}


def redecoded(tr: Translator, found: Patching, cell: Cell) -> Redecoded:
    return redecode(tr, found.pair, cell)


@dataclass(frozen=True)
class Settings:
    view: str
    cell: Cell | None  # the cell whose patch re-decodes the corrupted sentence
    guess: Cell | None  # the head a student guessed ("head", kind, layer, head)
    guessing: bool  # "Guess first" is on: the head grids stay hidden until a guess is revealed
    revealed: bool
    width: int = 820


@dataclass(frozen=True)
class PatchingView:
    pair_lines: tuple[str, str]  # clean and corrupted: sentence → translation
    metric: str
    unpatched: str  # which corrupted positions have no counterpart ("" when every position has one)
    chart: Chart | None  # the chosen view's figure (None while the head grids wait for a guess)
    second: Chart | None  # attribution: the ordinary attribution beside the contrastive one
    caption: str
    limits: list[str]
    redecoded: list[str]  # clean, corrupted and the patched run's translations, when a cell is chosen
    verdict: str  # the guess's verdict, once revealed
    target_options: tuple[str, ...]
    foil_options: tuple[str, ...]


def cell_name(cell: Cell) -> str:
    what, name, layer, index = cell
    if what == "head":
        return t("patching.cell.head", kind=t(f"patching.kind.{name}"), layer=layer + 1, head=index + 1)
    return t("patching.cell.residual", side=t(f"patching.side.{name}"), point=point_name(layer), position=index)


def ranked_heads(found: Patching) -> list[tuple[float, Cell]]:
    return sorted(((float(v), ("head", kind, layer, head)) for kind in KINDS
                   for (layer, head), v in np.ndenumerate(found.heads[kind])), key=lambda x: -x[0])


def verdict(found: Patching, guess: Cell) -> str:
    ranked = ranked_heads(found)
    rank = next(i for i, (_, cell) in enumerate(ranked) if cell == guess) + 1
    effect = next(v for v, cell in ranked if cell == guess)
    best_effect, best = ranked[0]
    return t("patching.guess.verdict", guess=cell_name(guess), effect=f"{effect:.2f}", rank=rank, n=len(ranked),
             best=cell_name(best), best_effect=f"{best_effect:.2f}")


def pair_lines(found: Patching) -> tuple[str, str]:
    pair = found.pair
    return (t("patching.clean_line", sentence=md_escape(pair.clean.text),
              translation=md_escape(pair.clean.translation)),
            t("patching.corrupt_line", sentence=md_escape(pair.corrupt.text),
              translation=md_escape(pair.corrupt.translation)))


def metric_line(found: Patching) -> str:
    pair = found.pair
    return t("patching.metric", step=pair.step + 1, target=md_escape(pair.target_token),
             foil=md_escape(pair.foil_token),
             clean=f"{found.clean_diff:.2f}", corrupt=f"{found.corrupted_diff:.2f}")


def unpatched_line(found: Patching) -> str:
    pair = found.pair
    if not pair.unaligned:
        return ""
    return t("patching.unpatched", tokens=md_escape(", ".join(pair.corrupt.tokens[i] for i in pair.unaligned)))


def view_chart(measured: Measured, s: Settings) -> tuple[Chart | None, Chart | None]:
    if s.view == "heads" and s.guessing and not s.revealed:
        return None, None
    return view_charts(measured, s.view, s.width)


def redecoded_lines(found: Patching, again: Redecoded | None) -> list[str]:
    if again is None:
        return []
    pair = found.pair
    return [t("patching.redecode.clean", translation=md_escape(pair.clean.translation)),
            t("patching.redecode.corrupt", translation=md_escape(pair.corrupt.translation)),
            t("patching.redecode.patched", cell=cell_name(again.cell), translation=md_escape(again.translation))]


def token_options(found: Patching) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The target's choices (the clean translation's tokens) and the foil's (the corrupted one's, then the rest)."""
    pair = found.pair
    targets = tuple(dict.fromkeys(pair.clean.output_tokens))
    foils = tuple(dict.fromkeys((pair.foil_token, *pair.corrupt.output_tokens, *pair.clean.output_tokens)))
    return targets, foils


def shown_tokens(measured: Measured, view_name: str) -> list[str]:
    """The tokens a view's labels show: the metric's target and foil, and the view's own axis or cell tokens."""
    found = measured.patching
    pair = found.pair
    own = {"residual": [*found.tokens["encoder"], *found.tokens["decoder"]],
           "lens": [*measured.lens.output_tokens, *(r.token for row in measured.lens.grid for r in row)],
           "attribution": pair.clean.tokens}.get(view_name, [])
    return [pair.target_token, pair.foil_token, *own]


def view(measured: Measured, settings: Settings, again: Redecoded | None = None) -> PatchingView:
    found = measured.patching
    chart, second = view_chart(measured, settings)
    caption = t(f"patching.caption.{settings.view}")
    shown_verdict = verdict(found, settings.guess) if settings.revealed and settings.guess else ""
    targets, foils = token_options(found)
    limits = [t(f"patching.limit.{name}") for name in ("baseline", "backup", "one_pair", "lens")]
    caption = sentences([caption, chips.word_start_note(shown_tokens(measured, settings.view))])  # what ▁ means
    return PatchingView(pair_lines(found), metric_line(found), unpatched_line(found), chart, second, caption, limits,
                        redecoded_lines(found, again), shown_verdict, targets, foils)
