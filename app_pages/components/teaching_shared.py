"""Widgets and tables the teaching pages share: the live-model head picker, numeric tables, number formatting."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from app_pages.components import attention_view
from app_pages.state import direction, examples, translations, widget_state
from app_pages.shell.text import md_escape, t
from model import ATTENTION_KINDS, WORD_START, TranslationResult

NEG_INF = "−∞"
DIMS_PER_TABLE = 8  # numbers per table when a vector is too long for one (dimension_tables)


def signed(x: float, decimals: int = 4) -> str:
    """A number with its sign always written (+0.2, −0.2): for changes, where the direction is the point."""
    return ("+" if float(x) >= 0 else "−") + num(abs(float(x)), decimals)


def num(x: float, decimals: int = 4, fixed: bool = False) -> str:
    """A number as the pages print it: whole numbers without decimals (unless `fixed`), −∞ spelled out."""
    x = float(x)
    if np.isneginf(x):
        return NEG_INF
    if not fixed and x == round(x) and abs(x) < 1e12:
        return f"{int(round(x))}"
    return f"{x:.{decimals}f}"


def join(items) -> str:
    """A list in running text, with the language's separator (Chinese lists take "、", not ASCII commas)."""
    return t("teach.sep").join(str(x) for x in items)


def matrix_tex(values, decimals: int = 4) -> str:
    rows = np.atleast_2d(np.asarray(values, dtype=np.float64))
    return r"\begin{bmatrix}" + r" \\ ".join(" & ".join(num(v, decimals) for v in row) for row in rows) + r"\end{bmatrix}"


def vector_tex(values, decimals: int = 4) -> str:
    """A row vector."""
    return matrix_tex(np.ravel(values)[None], decimals)


def positions(tokens: Sequence[str]) -> list[str]:
    """"i: token" labels: unique even when a token repeats."""
    return [f"{i}: {tok}" for i, tok in enumerate(tokens)]


def table(
    values, rows: Sequence[str], cols: Sequence[str], index_name: str = "", decimals: int = 4, fixed: bool = False
) -> pd.DataFrame:
    """A numeric matrix as a DataFrame of display strings (so −∞ reads as −∞ and integers stay integers)."""
    values = np.atleast_2d(np.asarray(values, dtype=np.float64))
    frame = pd.DataFrame([[num(v, decimals, fixed) for v in row] for row in values], index=list(rows), columns=list(cols))
    frame.index.name = index_name
    return frame


def wrapped_vector(vector, index_name: str = "", decimals: int = 3) -> pd.DataFrame:
    """A long vector as rows of DIMS_PER_TABLE numbers, like a printed array: row "8–15", column "+5" is number 13."""
    vector = np.ravel(np.asarray(vector, dtype=np.float64))
    starts = range(0, len(vector), DIMS_PER_TABLE)
    cells = [[num(x, decimals) for x in vector[a : a + DIMS_PER_TABLE]] for a in starts]
    frame = pd.DataFrame([row + [""] * (DIMS_PER_TABLE - len(row)) for row in cells],
                         index=[t("teach.dims", a=a, b=min(a + DIMS_PER_TABLE, len(vector)) - 1) for a in starts],
                         columns=[f"+{j}" for j in range(DIMS_PER_TABLE)])
    frame.index.name = index_name
    return frame


def dimension_tables(values, rows: Sequence[str], decimals: int = 3) -> list[tuple[str, pd.DataFrame]]:
    """A (rows × d) matrix cut into tables of DIMS_PER_TABLE dimensions each, titled with their range.

    A head's 32 numbers per token do not fit one table at 1280 pixels; 8 at a time fit in any column.
    """
    values = np.atleast_2d(np.asarray(values, dtype=np.float64))
    width = values.shape[1]
    return [
        (t("teach.dims", a=start, b=min(start + DIMS_PER_TABLE, width) - 1),
         table(values[:, start : start + DIMS_PER_TABLE], rows,
               [str(j) for j in range(start, min(start + DIMS_PER_TABLE, width))], decimals=decimals))
        for start in range(0, width, DIMS_PER_TABLE)
    ]


def sections(prefix: str, bodies: Mapping[str, Callable[[], None]], **values) -> None:
    """The page's sections as tabs labelled `{prefix}.tab.{name}` (keyed `{prefix}.tab`): the first section, with its
    chart, fills the first screen at a projector's 1280×800, the others are one click away. Only the open tab's body
    runs; a click on another tab reruns the page: drawing every tab's charts on every run made these pages the
    slowest to open (benchmarks.browser). Widgets in a tab keep their values while it is closed (persist_state)."""
    tabs = st.tabs([t(f"{prefix}.tab.{name}", **values) for name in bodies], key=f"{prefix}.tab", on_change="rerun")
    for tab, body in zip(tabs, bodies.values()):
        if tab.open:
            with tab:
                body()


def in_direction(pairs: Sequence[tuple[str, str]], source_language: str | None = None) -> list[tuple[str, str]]:
    """(English, Chinese) pairs as (source, target) of the session's model (or of `source_language`): turned round for
    a model that reads Chinese, so a live section feeds the model sentences in the language it reads."""
    source = source_language or direction.current()[0]
    return [(en, zh) for en, zh in pairs] if source == "en" else [(zh, en) for en, zh in pairs]


def example_pairs() -> list[tuple[str, str]]:
    """The app's example sentences with our references, in the session's model's direction (for a Chinese source,
    our Chinese references are the sentences and the English ones their references: no zh-en output is assumed)."""
    return in_direction([(e.sentence, e.reference) for e in examples.EXAMPLES])


def example_sentences() -> list[str]:
    """The example sentences in the language the session's model reads."""
    return [sentence for sentence, _ in example_pairs()]


def as_text(tokens: Sequence[str]) -> str:
    """Tokens written out as text: Chinese characters run together, English pieces joined into words at ▁."""
    return "".join(tokens).replace(WORD_START, " ").strip()


def sentence_banner(result: TranslationResult) -> None:
    """The sentence the live sections use, as plain text (user text never goes through Markdown)."""
    st.caption(t("teach.sentence.caption"))
    st.text(f"{result.source_text}  →  {result.translation}")
    if note := translations.names_note(result):
        st.caption(md_escape(note))


def head_picker(
    prefix: str, result: TranslationResult, kinds: Sequence[str] = ATTENTION_KINDS, with_head: bool = True
) -> tuple[str, int, int]:
    """Attention kind, layer and head for the live sections; keys start with `prefix` so pages do not share state.

    Without `with_head` the head returned is 0 and no head selector is drawn.
    """
    layers, heads = result.attention(kinds[0]).shape[:2]
    # The kinds get a line of their own: a column has no room for all of "Cross-attention".
    kind = st.segmented_control(
        t("teach.pick.kind"), list(kinds), format_func=attention_view.kind_name, persist_state="session",
        key=f"{prefix}.kind", default=widget_state.kept(f"{prefix}.kind", kinds), required=True, wrap=True,
    )
    # The explorer's layer and head pickers, without their averages: these sections compute one head's arithmetic.
    with st.container(horizontal=True, gap="medium", key=f"{prefix}.pickers"):
        layer = attention_view.index_picker(f"{prefix}.layer", t("teach.pick.layer"), range(layers))
        head = attention_view.index_picker(f"{prefix}.head", t("teach.pick.head"), range(heads)) if with_head else 0
    return kind, int(layer), int(head)


def query_picker(prefix: str, query_tokens: Sequence[str]) -> int:
    """A query position; kept in range when the sentence (and its length) changes."""
    key = f"{prefix}.query"
    if st.session_state.get(key, 0) >= len(query_tokens):
        st.session_state[key] = 0
    labels = positions(query_tokens)
    return int(st.selectbox(t("teach.pick.query"), range(len(query_tokens)), format_func=labels.__getitem__, persist_state="session", key=key))
