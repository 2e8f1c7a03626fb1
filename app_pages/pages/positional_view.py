"""What the positional-encoding page shows, computed without drawing anything (positional.py draws it, with its
sliders and dimension picker between the parts): the PE matrix checked against the model's own table, chosen
dimensions as curves, how alike positions are, the rotation property on one pair, PE against the embeddings, the
notes' slipped exponent, and a live sentence past the trained lengths. Plain data out (components/parts);
tests/test_positional_view.py reads it without Streamlit."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from app_pages.components.parts import Caption, Chart, Columns, Formula, Heading, Notice, Parts, Plain, Table, Text
from app_pages.components.teaching_shared import join, matrix_tex, num, positions
from app_pages.components.teaching_shared import table as number_table
from app_pages.shell.text import t
from lessons import positional
from model import Lengths, ModelConfig, TranslationResult, sinusoidal_table
from viz.options import Frame
from viz.teaching_positional import (norms_figure, pe_curves, pe_heatmap, received_attention_figure, rotation_figure,
                                     similarity_heatmap)

NOTE_POS, NOTE_D = 1, 6  # the note's own snippet: pos = 1, d_model = 6
ROTATION_CHECK = 64  # positions over which the note's variants are tested for the rotation property
MAX_LENGTH, MAX_D = 256, 512  # the matrix tab's sliders' ends
NOTE_DECIMALS = 8  # the note's variants part in the 5th decimal and beyond: at 4 they read alike
ROTATION_TOLERANCE = 1e-9  # rotating PE(pos) by k agrees with PE(pos + k) within this: the property holds
EXAMPLE_ROUNDS = 3  # the example sentences, this many times over: enough tokens to pass any Tatoeba sentence
PAST_FACTOR = 2  # the test sentence is this many times longer than the longest training source (within max_len)

# The paper's two formulas, beside the matrix tab's sliders.
MATRIX_FORMULA = Formula(r"\begin{gathered}PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right) \\ "
                         r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)\end{gathered}")
# The rotation property. Two lines, not one: on one line the equation runs past the right edge of a 1280-pixel
# projector.
ROTATION_FORMULA = Formula(
    r"\begin{gathered}\begin{bmatrix} PE_{(pos+k,\,2i)} \\ PE_{(pos+k,\,2i+1)} \end{bmatrix} = "
    r"\begin{bmatrix} \cos k\omega_i & \sin k\omega_i \\ -\sin k\omega_i & \cos k\omega_i \end{bmatrix}"
    r"\begin{bmatrix} PE_{(pos,\,2i)} \\ PE_{(pos,\,2i+1)} \end{bmatrix} \\ \omega_i = 10000^{-2i/d_{model}}"
    r"\end{gathered}")


def slowest_period(d_model: int) -> str:
    """Positions per turn of the last pair, i = d_model/2 − 1: 2π·10000^((d_model − 2)/d_model)."""
    return f"{2 * math.pi / positional.frequencies(d_model)[-1]:,.0f}"


def intro(d_model: int) -> str:
    """The page's introduction, with the fastest and the slowest pair's periods for the model's `d_model`."""
    return t("positional.intro", fast=f"{2 * math.pi:.1f}", slow=slowest_period(d_model), d=d_model)


def default_dims(d_model: int) -> list[int]:
    """The dimensions drawn as curves until the student picks others: a fast and some slower pairs."""
    return sorted({0, 1, 2 * (d_model // 8), 2 * (d_model // 4)} & set(range(d_model)))


def matrix_parts(length: int, d_model: int, config: ModelConfig) -> tuple:
    """The PE matrix of `length` positions and `d_model` dimensions, checked against the model's own table (and, for
    a model whose table holds sines first, against that layout), what it shows, and the curves' header (the
    dimension picker goes under it)."""
    table = positional.pe_table(length, d_model)
    figure = pe_heatmap(table, title=t("positional.matrix.fig", length=length, d=d_model),
                        position_title=t("positional.axis.pos"), dimension_title=t("positional.axis.dim"),
                        value_label="PE")
    same = float(np.abs(table - sinusoidal_table(length, d_model).double().numpy()).max())
    parts = Parts().add(Chart(figure, "positional.heatmap"),
                        Caption(t("positional.matrix.model", d=config.d_model, length=config.max_len,
                                  diff=f"{same:.1e}")))
    if config.positional_layout == "halves":
        # Marian's table: the same numbers, sines of every pair first, then their cosines.
        halves = sinusoidal_table(length, d_model, "halves").double().numpy()
        reordered = np.concatenate([table[:, 0::2], table[:, 1::2]], axis=1)
        parts.add(Caption(t("positional.matrix.halves", diff=f"{float(np.abs(halves - reordered).max()):.1e}")))
    return parts.add(Text(t("positional.matrix.text", fast=f"{2 * math.pi:.2f}", slow=slowest_period(d_model))),
                     Heading(t("positional.curves.header"), 3)).done()


def curves_parts(length: int, d_model: int, dims: Sequence[int]) -> tuple:
    """The chosen dimensions of the PE matrix as curves over the positions (nothing where none is chosen)."""
    if not dims:
        return ()
    names = [t("positional.curves.name", dim=d, fn="sin" if d % 2 == 0 else "cos", i=d // 2,
               period=f"{2 * math.pi / positional.frequencies(d_model)[d // 2]:.1f}") for d in dims]
    figure = pe_curves(positional.pe_table(length, d_model), list(dims), title=t("positional.curves.fig"),
                       position_title=t("positional.axis.pos"), names=names)
    return (Chart(figure, "positional.curves"),)


def similarity_parts(length: int, d_model: int) -> tuple:
    """How alike every two positions' PE rows are (their dot product)."""
    figure = similarity_heatmap(positional.similarity(positional.pe_table(length, d_model)),
                                title=t("positional.sim.fig"), query_title=t("positional.axis.pos_a"),
                                key_title=t("positional.axis.pos_b"), value_label="PE·PE")
    return (Heading(t("positional.sim.header"), 3), Text(t("positional.sim.text", norm2=num(d_model / 2))),
            Chart(figure, "positional.sim"))


def rotation_intro() -> tuple:
    """The rotation property, above its sliders."""
    return (Text(t("positional.rot.text")), ROTATION_FORMULA)


@dataclass(frozen=True)
class Rotation:
    """What the rotation tab shows: PE(pos) of a table of `length` positions and `d_model` dimensions rotated by `k`
    positions on (sin, cos) pair `pair`."""

    length: int
    d_model: int
    k: int
    pos: int
    pair: int


def rotation_parts(shown: Rotation) -> tuple:
    """The pair's rotation worked out in numbers, the property checked on the whole table, and the pair's path."""
    table = positional.pe_table(shown.length, shown.d_model)
    k, pos, pair = shown.k, shown.pos, shown.pair
    omega = positional.frequencies(shown.d_model)[pair]
    rot = positional.rotation(k, shown.d_model)[pair]
    before, after = table[pos, 2 * pair : 2 * pair + 2], table[pos + k, 2 * pair : 2 * pair + 2]
    worked = Formula(
        rf"\begin{{gathered}}\omega_{{{pair}}} = {omega:.6f},\quad k\omega_{{{pair}}} = {k * omega:.4f}\ \text{{rad}}"
        rf" \\ {matrix_tex(rot)}{matrix_tex(before[:, None])} = {matrix_tex((rot @ before)[:, None])},\quad "
        rf"PE_{{({pos + k},\,{2 * pair}:{2 * pair + 1})}} = {matrix_tex(after[:, None])}\end{{gathered}}")
    error = positional.rotation_error(table, k)
    check = Notice(t("positional.rot.check", k=k, n=shown.length - k, d=shown.d_model, err=f"{error:.1e}"),
                   "success" if error < ROTATION_TOLERANCE else "error")
    figure = rotation_figure(table[:, 2 * pair : 2 * pair + 2], pos, k,
                             frame=Frame(t("positional.rot.fig", pair=pair, a=2 * pair, b=2 * pair + 1),
                                         t("positional.rot.sin", a=2 * pair), t("positional.rot.cos", b=2 * pair + 1)),
                             start_label=t("positional.rot.start"), end_label=t("positional.rot.end"),
                             path_label=t("positional.rot.path"))
    return (worked, check, Chart(figure, "positional.rot.fig"))


def size_parts(result: TranslationResult, d_model: int) -> tuple:
    """The rows the model looked up for `result`'s source tokens, × √d_model, against the length of their PE rows."""
    embeddings = result.source_embeddings
    scaled_norms = positional.row_norms(embeddings.token) * embeddings.scale
    pe_norms = positional.row_norms(embeddings.positional)
    figure = norms_figure(positions(result.source_tokens), scaled_norms, pe_norms, title=t("positional.size.fig"),
                          token_title=t("positional.size.tokens"),
                          embedding_label=t("positional.size.emb", root=f"{math.sqrt(d_model):.0f}"),
                          pe_label=t("positional.size.pe"))
    return (Text(t("positional.size.text", d=d_model, root=f"{math.sqrt(d_model):.1f}",
                   pe=f"{positional.pe_norm(d_model):.2f}", emb=f"{float(np.mean(scaled_norms)):.2f}")),
            Chart(figure, "positional.size"))


def note_parts() -> tuple:
    """The slipped cosine exponent of some notes, as printed and as probably meant, against the paper's: their rows
    for the note's snippet, where they part, and which of them keeps the rotation property."""
    tables = {  # each variant over ROTATION_CHECK positions: the note's row is one of them
        t("positional.note.paper"): positional.pe_table(ROTATION_CHECK, NOTE_D),
        t("positional.note.literal"): positional.note_variant_table(ROTATION_CHECK, NOTE_D, literal=True),
        t("positional.note.meant"): positional.note_variant_table(ROTATION_CHECK, NOTE_D, literal=False),
    }
    rows = np.stack([v[NOTE_POS] for v in tables.values()])
    difference = rows[1] - rows[2]  # as printed − as meant
    frame = number_table(rows, list(tables), [str(j) for j in range(NOTE_D)], decimals=NOTE_DECIMALS, fixed=True)
    frame.loc[t("positional.note.diff")] = [f"{d:.1e}" if d else "0" for d in difference]
    parted = np.flatnonzero(difference)
    paper, literal, meant = (positional.rotation_error(table, 1) for table in tables.values())
    return (Notice(t("positional.note.text", pos=NOTE_POS, d=NOTE_D), "warning"),
            Formula(rf"\text{{{t('positional.note.eq')}}}\quad PE_{{(pos,\,2i+1)}} = "
                    rf"\cos\!\left(pos / 10{{,}}000^{{\,2i+1 / d_{{model}}}}\right)"),
            Text(t("positional.note.table", pos=NOTE_POS, d=NOTE_D)),
            Table(frame),
            Caption(t("positional.note.parts", dims=join(parted), diffs=join(f"{abs(difference[j]):.1e}" for j in parted),
                      decimals=NOTE_DECIMALS)),
            Text(t("positional.note.rotation", paper=f"{paper:.1e}", literal=f"{literal:.2f}", meant=f"{meant:.2f}",
                   n=ROTATION_CHECK)))


@dataclass(frozen=True)
class Live:
    """What the test past the trained lengths translates: the session's sentence, the example sentences (in the
    language the model reads), the function that translates a sentence with the session's settings, and that
    language (Chinese runs its sentences together, unspaced)."""

    sentence: str
    examples: tuple[str, ...]
    translation_of: Callable[[str], TranslationResult]
    source_language: str

    def joined(self, pieces: Sequence[TranslationResult]) -> tuple[TranslationResult, int]:
        """The pieces' sentences translated as one, and how many tokens they give translated one by one."""
        space = "" if self.source_language == "zh" else " "
        whole = self.translation_of(space.join(p.source_text for p in pieces))
        return whole, sum(output_length(p) for p in pieces)


def output_length(result: TranslationResult) -> int:
    """Tokens the model wrote, </s> left out."""
    return len(result.output_tokens) - 1


def received_chart(long: TranslationResult, longest: int) -> Chart:
    """The cross-attention each source position of `long` receives, the longest training source marked."""
    figure = received_attention_figure(positional.received_attention(long.cross), longest,
                                       title=t("positional.ext.fig"), position_title=t("positional.ext.position"),
                                       value_title=t("positional.ext.received"),
                                       limit_label=t("positional.ext.limit", n=longest))
    return Chart(figure, "positional.ext.fig")


def long_sentence_parts(live: Live, longest: int, room: int) -> tuple:
    """The session's sentence and the example sentences joined past `longest` source tokens (within the `room` the
    model has), translated live: the chart on the left, what it says on the right, then how it did against the
    pieces one by one, and the same for a sentence within the trained length."""
    pieces = [live.translation_of(s) for s in (live.sentence, *live.examples * EXAMPLE_ROUNDS)]
    tokens = [len(p.source_tokens) - 1 for p in pieces]
    n = positional.pieces_past(tokens, PAST_FACTOR * longest, room)
    long, parts = live.joined(pieces[:n])
    source_len = len(long.source_tokens)
    attention_share, token_share = positional.attention_share_past(long.cross, longest)
    confidence = [float(np.mean([s.chosen.prob for s in r.steps])) for r in (long, pieces[0])]
    said = (Text(t("positional.ext.try", tokens=source_len, past=max(source_len - longest, 0))),
            Caption(t("positional.ext.caption.long")), Plain(f"{long.source_text}  →  {long.translation}"))
    shown = Parts().add(
        Columns(((received_chart(long, longest),), said), spec=(3, 2), gap="medium"),
        Text(t("positional.ext.result", n=n, parts=parts, whole=output_length(long),
               coverage=f"{100 * output_length(long) / parts:.0f}", conf=f"{confidence[0]:.2f}",
               conf_one=f"{confidence[1]:.2f}", src=longest, token_share=f"{100 * token_share:.0f}",
               attention_share=f"{100 * attention_share:.0f}")))
    within = positional.pieces_within(tokens, longest)
    if within >= 2:
        short, short_parts = live.joined(pieces[:within])
        shown.add(Text(t("positional.ext.control", n=within, tokens=len(short.source_tokens), parts=short_parts,
                         whole=output_length(short), coverage=f"{100 * output_length(short) / short_parts:.0f}")))
    return shown.done()


def extrapolation_parts(lengths: Lengths | None, config: ModelConfig, room: int, live: Live) -> tuple:
    """What the training log knows of the trained lengths (`lengths`, the log's entry; None where it has none), the
    live test past them, then the other ways to encode position; `room`: the source tokens the model takes."""
    if lengths:
        known = (Text(t("positional.ext.known", max_len=config.max_len, room=room, src=lengths.source_tokens,
                        tgt=lengths.target_tokens, pairs=f"{lengths.pairs:,}", last=config.max_len - 1)),
                 *long_sentence_parts(live, lengths.source_tokens, room))
    else:
        known = (Notice(t("positional.ext.unknown", max_len=config.max_len)),)
    return (*known, Heading(t("positional.ext.alt_header"), 3), Text(t("positional.ext.alternatives")))
