"""Positional encoding: the PE matrix, its curves, similarity, the rotation property, PE against the embeddings, other
schemes, and the live model on a sentence longer than any it was trained on."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from app_pages.components import exercises  # the "Try it" tab
from app_pages.state import direction, models, translations
from app_pages.shell import presentation
from app_pages.components.teaching_shared import example_sentences, join, matrix_tex, num, positions, sections, sentence_banner
from app_pages.components.teaching_shared import table as number_table
from app_pages.shell.text import t
from app_pages.components import charts, table_view
from lessons import positional
from model import TrainingLog, TranslationResult, sinusoidal_table
from viz.options import Frame
from viz.teaching_positional import (norms_figure, pe_curves, pe_heatmap, received_attention_figure, rotation_figure,
                                     similarity_heatmap)

NOTE_POS, NOTE_D = 1, 6  # the note's own snippet: pos = 1, d_model = 6
ROTATION_CHECK = 64  # positions over which the note's variants are tested for the rotation property
MAX_LENGTH, MAX_D = 256, 512
DIMS, CHOSEN_DIMS = "positional.dims", "positional.dims.chosen"  # the multiselect's key; the picks kept across d_model changes
NOTE_DECIMALS = 8  # the note's variants part in the 5th decimal and beyond: at 4 they read alike


def remember_dims(d_model: int) -> None:
    """The widget's new picks, plus earlier picks that the current d_model could not show."""
    hidden = [d for d in st.session_state.get(CHOSEN_DIMS, []) if d >= d_model]
    st.session_state[CHOSEN_DIMS] = sorted(set(st.session_state[DIMS]) | set(hidden))


def slowest_period(d_model: int) -> str:
    """Positions per turn of the last pair, i = d_model/2 − 1: 2π·10000^((d_model − 2)/d_model)."""
    return f"{2 * math.pi / positional.frequencies(d_model)[-1]:,.0f}"


def note_section() -> None:
    """The slipped cosine exponent of some notes, as printed and as probably meant, against the paper's."""
    st.warning(t("positional.note.text", pos=NOTE_POS, d=NOTE_D))
    st.latex(rf"\text{{{t('positional.note.eq')}}}\quad PE_{{(pos,\,2i+1)}} = \cos\!\left(pos / 10{{,}}000^{{\,2i+1 / d_{{model}}}}\right)")
    variants = {
        t("positional.note.paper"): positional.pe_table(NOTE_POS + 1, NOTE_D),
        t("positional.note.literal"): positional.note_variant_table(NOTE_POS + 1, NOTE_D, literal=True),
        t("positional.note.meant"): positional.note_variant_table(NOTE_POS + 1, NOTE_D, literal=False),
    }
    st.markdown(t("positional.note.table", pos=NOTE_POS, d=NOTE_D))
    rows = np.stack([v[NOTE_POS] for v in variants.values()])
    difference = rows[1] - rows[2]  # as printed − as meant
    frame = number_table(rows, list(variants), [str(j) for j in range(NOTE_D)], decimals=NOTE_DECIMALS, fixed=True)
    frame.loc[t("positional.note.diff")] = [f"{d:.1e}" if d else "0" for d in difference]
    table_view.table(frame)
    parted = np.flatnonzero(difference)
    st.caption(t("positional.note.parts", dims=join(parted), diffs=join(f"{abs(difference[j]):.1e}" for j in parted),
                 decimals=NOTE_DECIMALS))
    errors = {name: positional.rotation_error(
        positional.pe_table(ROTATION_CHECK, NOTE_D) if i == 0 else positional.note_variant_table(ROTATION_CHECK, NOTE_D, literal=i == 1), 1)
        for i, name in enumerate(variants)}
    st.markdown(t("positional.note.rotation", paper=f"{errors[t('positional.note.paper')]:.1e}", literal=f"{errors[t('positional.note.literal')]:.2f}",
                  meant=f"{errors[t('positional.note.meant')]:.2f}", n=ROTATION_CHECK))


def matrix_views(table: np.ndarray, length: int, d_model: int) -> None:
    """The PE matrix (checked against the model's own table), chosen dimensions as curves, and its similarities."""
    charts.chart(pe_heatmap(table, title=t("positional.matrix.fig", length=length, d=d_model), position_title=t("positional.axis.pos"),
                             dimension_title=t("positional.axis.dim"), value_label="PE"), key="positional.heatmap")
    same = float(np.abs(table - sinusoidal_table(length, d_model).double().numpy()).max())
    st.caption(t("positional.matrix.model", d=model_d, length=model_len, diff=f"{same:.1e}"))
    if translator.config.positional_layout == "halves":
        # Marian's table: the same numbers, sines of every pair first, then their cosines.
        halves = sinusoidal_table(length, d_model, "halves").double().numpy()
        reordered = np.concatenate([table[:, 0::2], table[:, 1::2]], axis=1)
        st.caption(t("positional.matrix.halves", diff=f"{float(np.abs(halves - reordered).max()):.1e}"))
    st.markdown(t("positional.matrix.text", fast=f"{2 * math.pi:.2f}", slow=slowest_period(d_model)))

    st.subheader(t("positional.curves.header"))
    default_dims = sorted({0, 1, 2 * (d_model // 8), 2 * (d_model // 4)} & set(range(d_model)))  # fast and slow pairs
    # The user's picks live in plain state, not only in the widget: a smaller d_model hides the picks it has no room
    # for, and they come back when d_model grows again. The widget is drawn with those picks as its default too.
    shown = st.session_state[DIMS] = [d for d in st.session_state.get(CHOSEN_DIMS, default_dims) if d < d_model]
    dims = st.multiselect(t("positional.curves.pick"), list(range(d_model)), persist_state="session", key=DIMS, default=shown,
                          on_change=remember_dims, args=(d_model,))  # default=: widget_state.kept says why
    if dims:
        names = [t("positional.curves.name", dim=d, fn="sin" if d % 2 == 0 else "cos", i=d // 2,
                   period=f"{2 * math.pi / positional.frequencies(d_model)[d // 2]:.1f}") for d in dims]
        charts.chart(pe_curves(table, dims, title=t("positional.curves.fig"), position_title=t("positional.axis.pos"), names=names),
                      key="positional.curves")

    st.subheader(t("positional.sim.header"))
    st.markdown(t("positional.sim.text", norm2=num(d_model / 2)))
    charts.chart(similarity_heatmap(positional.similarity(table), title=t("positional.sim.fig"), query_title=t("positional.axis.pos_a"),
                                     key_title=t("positional.axis.pos_b"), value_label="PE·PE"), key="positional.sim")


translator = models.translator()
model_d, model_len = translator.config.d_model, translator.config.max_len
presentation.page_title(t("positional.title"), t("positional.intro", fast=f"{2 * math.pi:.1f}", slow=slowest_period(model_d), d=model_d))
LENGTH, D_MODEL = "positional.length", "positional.d_model"  # the PE table's size, chosen on the matrix tab, used on the rotation tab


def chosen_sizes() -> tuple[int, int]:
    """The PE table's length and d_model as the matrix tab's sliders hold them (kept while that tab is closed)."""
    return st.session_state.get(LENGTH, min(model_len, MAX_LENGTH)), st.session_state.get(D_MODEL, model_d)


# ---------------------------------------------------------------- the PE matrix, with its formula and sizes beside
def matrix_section() -> None:
    formula, sizes = st.columns(2, gap="medium", vertical_alignment="center")
    with formula:
        st.latex(r"\begin{gathered}PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right) \\ "
                 r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)\end{gathered}")
    length, d_model = chosen_sizes()
    with sizes:
        length = st.slider(t("positional.length"), 2, MAX_LENGTH, length, persist_state="session", key=LENGTH)
        d_model = st.select_slider(t("positional.d_model"), list(range(2, MAX_D + 1, 2)), value=d_model, persist_state="session",
                                   key=D_MODEL)
    matrix_views(positional.pe_table(length, d_model), length, d_model)

# ---------------------------------------------------------------- rotation


@st.fragment
def rotation_section() -> None:
    length, d_model = chosen_sizes()
    table = positional.pe_table(length, d_model)
    st.markdown(t("positional.rot.text"))
    # Two lines, not one: on one line the equation runs past the right edge of a 1280-pixel projector.
    st.latex(r"\begin{gathered}\begin{bmatrix} PE_{(pos+k,\,2i)} \\ PE_{(pos+k,\,2i+1)} \end{bmatrix} = "
             r"\begin{bmatrix} \cos k\omega_i & \sin k\omega_i \\ -\sin k\omega_i & \cos k\omega_i \end{bmatrix}"
             r"\begin{bmatrix} PE_{(pos,\,2i)} \\ PE_{(pos,\,2i+1)} \end{bmatrix} \\ \omega_i = 10000^{-2i/d_{model}}"
             r"\end{gathered}")
    cols = st.columns(3)
    with cols[0]:
        k = st.slider(t("positional.rot.k"), 1, length - 1, min(3, length - 1), persist_state="session", key="positional.rot.k")
    with cols[1]:
        pos = st.slider(t("positional.rot.pos"), 0, length - 1 - k, 0, persist_state="session", key="positional.rot.pos") if length - 1 - k > 0 else 0
    with cols[2]:
        pair = st.slider(t("positional.rot.pair"), 0, d_model // 2 - 1, 0, persist_state="session", key="positional.rot.pair") if d_model > 2 else 0
    omega = positional.frequencies(d_model)[pair]
    rot = positional.rotation(k, d_model)[pair]
    before, after = table[pos, 2 * pair : 2 * pair + 2], table[pos + k, 2 * pair : 2 * pair + 2]
    st.latex(rf"\begin{{gathered}}\omega_{{{pair}}} = {omega:.6f},\quad k\omega_{{{pair}}} = {k * omega:.4f}\ \text{{rad}} \\ "
             rf"{matrix_tex(rot)}{matrix_tex(before[:, None])} = {matrix_tex((rot @ before)[:, None])},\quad "
             rf"PE_{{({pos + k},\,{2 * pair}:{2 * pair + 1})}} = {matrix_tex(after[:, None])}\end{{gathered}}")
    error = positional.rotation_error(table, k)
    (st.success if error < 1e-9 else st.error)(t("positional.rot.check", k=k, n=length - k, d=d_model, err=f"{error:.1e}"))
    points = table[:, 2 * pair : 2 * pair + 2]
    charts.chart(
        rotation_figure(points, pos, k,
                        frame=Frame(t("positional.rot.fig", pair=pair, a=2 * pair, b=2 * pair + 1),
                                    t("positional.rot.sin", a=2 * pair), t("positional.rot.cos", b=2 * pair + 1)),
                        start_label=t("positional.rot.start"), end_label=t("positional.rot.end"),
                        path_label=t("positional.rot.path")),
        key="positional.rot.fig",
    )


# ---------------------------------------------------------------- PE against the embeddings
def size_section() -> None:
    result = translations.current_result()
    sentence_banner(result)
    embeddings = result.source_embeddings  # the rows the model looked up for result.source_tokens
    scaled_norms = positional.row_norms(embeddings.token) * embeddings.scale
    pe_norms = positional.row_norms(embeddings.positional)
    st.markdown(t("positional.size.text", d=model_d, root=f"{math.sqrt(model_d):.1f}", pe=f"{positional.pe_norm(model_d):.2f}",
                  emb=f"{float(np.mean(scaled_norms)):.2f}"))
    charts.chart(
        norms_figure(positions(result.source_tokens), scaled_norms, pe_norms, title=t("positional.size.fig"),
                     token_title=t("positional.size.tokens"), embedding_label=t("positional.size.emb", root=f"{math.sqrt(model_d):.0f}"),
                     pe_label=t("positional.size.pe")),
        key="positional.size",
    )


# ---------------------------------------------------------------- other schemes, and past the trained length
EXAMPLE_ROUNDS = 3  # the example sentences, this many times over: enough tokens to pass any Tatoeba sentence
PAST_FACTOR = 2  # the test sentence is this many times longer than the longest training source (within max_len)


def output_length(result: TranslationResult) -> int:
    """Tokens the model wrote, </s> left out."""
    return len(result.output_tokens) - 1


def joined(pieces: list[TranslationResult]) -> tuple[TranslationResult, int]:
    """The pieces' sentences translated as one, and how many tokens they give translated one by one."""
    space = "" if direction.current()[0] == "zh" else " "  # Chinese runs its sentences together, unspaced
    whole = translations.translation_of(space.join(p.source_text for p in pieces))
    return whole, sum(output_length(p) for p in pieces)


def long_sentence_test(longest: int) -> None:
    """The session's sentence and the example sentences joined past `longest` source tokens, translated live: the
    chart on the left, what it says on the right."""
    own = translations.current_result()
    pieces = [own] + [translations.translation_of(s) for s in example_sentences() * EXAMPLE_ROUNDS]
    tokens = [len(p.source_tokens) - 1 for p in pieces]
    n = positional.pieces_past(tokens, PAST_FACTOR * longest, translator.max_source_tokens)
    long, parts = joined(pieces[:n])
    source_len = len(long.source_tokens)
    chart, text = st.columns([3, 2], gap="medium")
    with chart:
        charts.chart(
            received_attention_figure(positional.received_attention(long.cross), longest, title=t("positional.ext.fig"),
                                      position_title=t("positional.ext.position"), value_title=t("positional.ext.received"),
                                      limit_label=t("positional.ext.limit", n=longest)),
            key="positional.ext.fig",
        )
    attention_share, token_share = positional.attention_share_past(long.cross, longest)
    confidence = [float(np.mean([s.chosen.prob for s in r.steps])) for r in (long, own)]
    with text:
        st.markdown(t("positional.ext.try", tokens=source_len, past=max(source_len - longest, 0)))
        st.caption(t("positional.ext.caption.long"))
        st.text(f"{long.source_text}  →  {long.translation}")
    st.markdown(t("positional.ext.result", n=n, parts=parts, whole=output_length(long), coverage=f"{100 * output_length(long) / parts:.0f}",
                  conf=f"{confidence[0]:.2f}", conf_one=f"{confidence[1]:.2f}", src=longest,
                  token_share=f"{100 * token_share:.0f}", attention_share=f"{100 * attention_share:.0f}"))
    within = positional.pieces_within(tokens, longest)
    if within >= 2:
        short, short_parts = joined(pieces[:within])
        st.markdown(t("positional.ext.control", n=within, tokens=len(short.source_tokens), parts=short_parts,
                      whole=output_length(short), coverage=f"{100 * output_length(short) / short_parts:.0f}"))


def extrapolation_section() -> None:
    """What is known about the trained lengths, the live test past them, then the other ways to encode position."""
    lengths = TrainingLog.from_dict(translator.training_log).lengths
    if lengths:
        st.markdown(t("positional.ext.known", max_len=model_len, room=translator.max_source_tokens, src=lengths["source_tokens"],
                      tgt=lengths["target_tokens"], pairs=f"{lengths['pairs']:,}", last=model_len - 1))
        long_sentence_test(lengths["source_tokens"])
    else:
        st.info(t("positional.ext.unknown", max_len=model_len))
    st.subheader(t("positional.ext.alt_header"))
    st.markdown(t("positional.ext.alternatives"))


sections("positional", {"matrix": matrix_section, "rot": rotation_section, "size": size_section, "note": note_section,
                "ext": extrapolation_section, "try": lambda: exercises.pe_exercise(model_d)})
