"""What the corpus page shows, computed without drawing anything (corpus.py draws it): which corpus, a user's lines
refused by kind, one head's queries and keys projected (AttentionViz) with both correlations and its CSV, every head
of a kind side by side (the matrix view), a token's occurrences and their top keys (exBERT), the explorer's link to
a sentence on the head, and the worked readings of a positional and a matching head found in the page's own numbers.
Plain data out; tests/test_corpus_view_page.py reads it without Streamlit.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from app_pages.shell.text import listing, md_escape, sentences, t
from evaluation.corpus_view import (MAX_USER_CHARS, MAX_USER_SENTENCES, Corpus, CorpusRun, HeadProjection,
                                    ProjectionCache, Sentence, TokenSearch, UserLines, points, run_corpus,
                                    shipped_corpus, user_sentences, weights_sha256)
from evaluation.corpus_view.roles import MATCHING, POSITIONAL, HeadRole, clearest
from evaluation.corpus_view.search import bare
from model import WORD_START, Translator
from viz.corpus import Names, PointSet, corpus_matrix, corpus_scatter

VIEWS = ("head", "matrix", "search")
KINDS = ("encoder_self", "decoder_self", "cross")
COLOURS = ("role", "position", "token")
METHOD_NAMES = {"pca": "PCA", "tsne": "t-SNE", "umap": "UMAP"}
MATRIX_POINTS = 360  # points per small projection: every n-th sentence's, so 24 of them draw at once
SEARCH_ROWS = 10  # occurrences listed: the table and the explorer row under it fit 1280×800 below the controls;
# the counts are over all of them
HOVER_CHARS = 56  # a hover line's length before it wraps (Plotly does not wrap)
SEED = 0
CHART_PX = (820, 440)  # one head's picture beside the sidebar at 1280×800, under two rows of controls
PRESENT_CHART_PX = (840, 320)  # enlarged 1.3× in presentation mode: 1092 × 416
MATRIX_PX = (820, 470)
PRESENT_MATRIX_PX = (840, 320)  # enlarged 1.3×: the matrix ends within 800 px under the controls (at 340 it ended at 808)


# --- The corpus ------------------------------------------------------------------------------------------------------


def corpus_of(source_language: str, user_text: str) -> tuple[Corpus, UserLines]:
    """The shipped corpus read from `source_language` with the user's accepted lines after it, and the lines."""
    lines = user_sentences(user_text or "", source_language)
    return shipped_corpus(source_language).with_user(lines.sentences), lines


def notices(lines: UserLines) -> list[str]:
    """One sentence per kind of problem the user's lines have, naming the lines (1-based)."""
    limits = {"too_long": MAX_USER_CHARS, "too_many": MAX_USER_SENTENCES}
    return [t(f"corpus.problem.{kind}", lines=listing(numbers), n=len(numbers), limit=limits.get(kind, 0))
            for kind, numbers in lines.problems.items()]


def corpus_line(corpus: Corpus, languages: tuple[str, str]) -> str:
    """Which corpus is shown, in words: how many gold pairs, examples and user sentences, and which way round."""
    counts = corpus.counts()
    turned = t("corpus.turned") if corpus.source_language == "zh" else ""
    return sentences([t("corpus.which", n=len(corpus.sentences), gold=counts["gold"], examples=counts["example"],
                        user=counts["user"], source=t(f"language.{languages[0]}"),
                        target=t(f"language.{languages[1]}")), turned])


def cached_run(translator: Translator, corpus: Corpus, cache: ProjectionCache,
               progress: Callable[[int, int], None] | None = None) -> CorpusRun:
    """The traced passes over `corpus` read from the disk cache, else run (reporting `progress`) and stored."""
    sha = weights_sha256(translator.checkpoint)
    found = cache.get_run(corpus, sha, str(translator.checkpoint))
    if found is None:
        found = run_corpus(translator, corpus, progress, sha)
        cache.put_run(found)
    return found


def joined(shipped: CorpusRun, user: CorpusRun | None) -> CorpusRun:
    """The shipped corpus's passes with the user's after them: one run over both (the shipped part is cached)."""
    if user is None:
        return shipped
    corpus = Corpus(shipped.corpus.source_language, shipped.corpus.sentences + user.corpus.sentences)
    return CorpusRun(corpus, shipped.checkpoint, shipped.weights_sha256, shipped.traces + user.traces,
                     shipped.layers, shipped.heads)


def user_corpus(source_language: str, lines: UserLines) -> Corpus | None:
    """The user's accepted sentences as a corpus of their own (their passes are cached apart), None if none."""
    if not lines.sentences:
        return None
    return Corpus(source_language, tuple(Sentence(s, None, "user") for s in lines.sentences))


# --- One head's picture ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    kind: str
    layer: int  # 0-based
    head: int  # 0-based
    method: str
    colour: str
    presenting: bool = False


def head_title(kind: str, layer: int, head: int) -> str:
    return t("corpus.head_title", kind=t(f"kind.{kind}"), layer=layer + 1, head=head + 1)


def sentence_text(tokens: tuple[str, ...], marked: int | None = None) -> str:
    """A sentence from its tokens (▁ as a space), the token at `marked` in 【】."""
    parts = [f"【{tok}】" if i == marked else tok for i, tok in enumerate(tokens)]
    return "".join(parts).replace(WORD_START, " ").replace("【 ", " 【").strip()


def wrapped(text: str, width: int = HOVER_CHARS) -> str:
    """`text` cut into lines of at most `width` characters (at a space where there is one)."""
    lines, line = [], ""
    for word in text.split(" "):
        while len(word) > width:
            lines, word = lines + [line] * bool(line) + [word[:width]], word[width:]
            line = ""
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line])


def hover_lines(run: CorpusRun, kind: str, point: dict) -> str:
    """A point's hover: its role, token and position, then the token marked in its sentence and the sentence's
    number; for the decoder's side, the source sentence it was forced with."""
    trace = run.traces[point["sentence"]]
    side = trace.axis_tokens(kind)[0 if point["role"] == "query" else 1]
    head = t(f"corpus.hover.{point['role']}", token=point["token"], position=point["position"])
    lines = [head, wrapped(sentence_text(side, point["position"])), t("corpus.hover.sentence",
                                                                      n=point["sentence"] + 1)]
    if side is trace.target_tokens:
        lines.insert(2, wrapped("← " + run.corpus.sentences[point["sentence"]].source))
    return "\n".join(lines)


def point_set(run: CorpusRun, kind: str, shown: list[dict]) -> PointSet:
    return PointSet(np.array([[p["x"], p["y"]] for p in shown]).reshape(-1, 2),
                    np.array([p["role"] == "query" for p in shown]),
                    np.array([p["normalised_position"] for p in shown]),
                    [p["token"] for p in shown], [hover_lines(run, kind, p) for p in shown])


def names(method: str) -> Names:
    axis = METHOD_NAMES[method]
    return Names(t("corpus.query"), t("corpus.key"), t("corpus.position"), t("corpus.other_tokens"),
                 f"{axis} 1", f"{axis} 2")


def number(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.2f}".replace("-", "−")


@dataclass(frozen=True)
class HeadView:
    figure: go.Figure
    caption: str  # the adjustments and both correlations, said
    csv: bytes
    csv_name: str
    sentence_of: tuple[int, ...]  # each point's sentence (a click's customdata is its point index)


def points_csv(run: CorpusRun, shown: list[dict]) -> bytes:
    """The 2-D points with their role, token, sentence (number and text) and position."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["x", "y", "role", "token", "sentence", "position", "normalised_position", "text"])
    for p in shown:
        writer.writerow([f"{p['x']:.6f}", f"{p['y']:.6f}", p["role"], p["token"], p["sentence"] + 1, p["position"],
                         f"{p['normalised_position']:.4f}", run.corpus.sentences[p["sentence"]].source])
    return out.getvalue().encode("utf-8")


def head_picture(run: CorpusRun, projection: HeadProjection, settings: Settings) -> HeadView:
    """One head's picture, the sentence of each point, the caption that says the adjustments and correlations."""
    p, s = projection, settings
    vectors = run.head(p.kind, p.layer, p.head)
    shown = points(vectors, p)
    width, height = PRESENT_CHART_PX if s.presenting else CHART_PX
    title = sentences([head_title(p.kind, p.layer, p.head),
                       t("corpus.chart_title", method=METHOD_NAMES[p.method], queries=f"{len(vectors.queries):,}",
                         keys=f"{len(vectors.keys):,}", sentences=f"{len(run.corpus.sentences):,}")])
    figure = corpus_scatter(point_set(run, p.kind, shown), s.colour, names(p.method), title=title, width=width,
                            height=height)
    caption = sentences([t("corpus.adjusted", shift=f"{np.linalg.norm(p.adjustment.shift):.2f}",
                           c=f"{p.adjustment.scale:.2f}", raw=number(p.correlation["raw"]),
                           adjusted=number(p.correlation["adjusted"]), pairs=f"{len(vectors.pairs()[0]):,}"),
                         t("corpus.click_hint")])
    name = f"corpus-{run.corpus.source_language}-{p.kind}-L{p.layer + 1}-H{p.head + 1}-{p.method}.csv"
    return HeadView(figure, caption, points_csv(run, shown), name, tuple(q["sentence"] for q in shown))


# --- The matrix view -------------------------------------------------------------------------------------------------


def sampled(run: CorpusRun, limit: int = MATRIX_POINTS) -> list[int]:
    """Every n-th sentence, n as small as keeps one small projection's points (queries and keys) within `limit`."""
    sizes = [len(trace.source_tokens) + len(trace.target_tokens) for trace in run.traces]
    step = max(1, math.ceil(sum(sizes) / limit))
    return list(range(0, len(run.traces), step))


def matrix_picture(run: CorpusRun, kind: str, projections: list[HeadProjection], colour: str,
                   presenting: bool = False) -> go.Figure:
    """Every head of `kind` (layers down, heads across), each by PCA, on every n-th sentence's points."""
    keep = set(sampled(run))
    panels, titles = [], []
    for p in projections:
        shown = [q for q in points(run.head(p.kind, p.layer, p.head), p) if q["sentence"] in keep]
        panels.append(point_set(run, kind, shown))
        titles.append(t("corpus.panel", layer=p.layer + 1, head=p.head + 1, r=number(p.correlation["adjusted"])))
    title = t("corpus.matrix_title", kind=t(f"kind.{kind}"), sentences=len(keep), total=len(run.corpus.sentences))
    width, height = PRESENT_MATRIX_PX if presenting else MATRIX_PX
    return corpus_matrix(panels, titles, run.heads, colour, names("pca"), title=title, width=width, height=height)


# --- The search ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchView:
    summary: str  # how many occurrences and where their top keys lie
    rows: list[dict]  # the heaviest first: weight, sentence, token, top keys
    sentence_of: tuple[int, ...]  # each row's sentence


def search_view(run: CorpusRun, found: TokenSearch) -> SearchView:
    n = len(found.occurrences)
    counts = listing(t(f"corpus.count.{name}", n=count) for name, count in found.counts.items())
    summary = t("corpus.search_summary", tokens=md_escape(listing(found.tokens)), n=n, counts=counts,
                                shown=min(n, SEARCH_ROWS)) if n else \
        t("corpus.search_none", tokens=md_escape(listing(found.tokens)))
    rows = []
    for o in found.occurrences[:SEARCH_ROWS]:
        side = run.traces[o.sentence].axis_tokens(found.kind)[0]
        rows.append({t("corpus.col.weight"): f"{o.top_weight:.2f}",  # as the keys' weights beside it
                     t("corpus.col.sentence"): sentence_text(side, o.position),
                     t("corpus.col.keys"): " · ".join(f"{bare(k)} {w:.2f}" for _, k, w in o.top),
                     t("corpus.col.number"): o.sentence + 1})
    return SearchView(summary, rows, tuple(o.sentence for o in found.occurrences[:SEARCH_ROWS]))


def first_word(tokens: list[str]) -> str:
    """Of `tokens` (commonest first), the commonest that is a word: letters or characters, not </s> or punctuation,
    which every sentence has and which say little about a head. The search opens on it."""
    return next((token for token in tokens if not token.startswith("<") and any(ch.isalnum() for ch in token)),
                tokens[0])


# --- Links and readings ----------------------------------------------------------------------------------------------


def explorer_link(run: CorpusRun, sentence: int, settings: Settings, model: str) -> dict[str, str]:
    """The explorer's link to `sentence` of the corpus on the page's head (1-based layer and head, as links write)."""
    return {"s": run.corpus.sentences[sentence].source, "model": model, "kind": settings.kind, "view": "head",
            "layer": str(settings.layer + 1), "head": str(settings.head + 1)}


@dataclass(frozen=True)
class Reading:
    role: str  # "positional" or "matching"
    kind: str
    layer: int
    head: int
    colour: str  # the colouring that shows it
    text: str


def readings(roles: list[HeadRole]) -> list[Reading]:
    """A worked reading of the clearest positional head and of the clearest matching head (a sentence saying there
    is none where no head qualifies)."""
    found = []
    for role, colour in (("positional", "position"), ("matching", "token")):
        head = clearest(roles, role)
        if head is None:
            best = max(roles, key=(lambda r: r.offset[1]) if role == "positional" else (lambda r: r.matching))
            found.append(Reading(role, best.kind, best.layer, best.head, colour, t(
                f"corpus.reading.no_{role}", head=head_title(best.kind, best.layer, best.head),
                share=f"{100 * (best.offset[1] if role == 'positional' else best.matching):.0f}",
                threshold=f"{100 * (POSITIONAL if role == 'positional' else MATCHING):.0f}",
                queries=f"{best.queries:,}",
                chance=f"{100 * best.chance:.0f}")))
            continue
        values = dict(head=head_title(head.kind, head.layer, head.head), queries=f"{head.queries:,}",
                      share=f"{100 * (head.offset[1] if role == 'positional' else head.matching):.0f}",
                      offset=t(f"corpus.offset.{head.offset[0]}") if head.offset[0] else "",
                      chance=f"{100 * head.chance:.0f}")
        found.append(Reading(role, head.kind, head.layer, head.head, colour, t(f"corpus.reading.{role}", **values)))
    return found


def role_lines(roles: list[HeadRole]) -> list[str]:
    """Per kind, which heads are positional, matching and neither (L1 H2, …)."""
    lines = []
    for kind in KINDS:
        of_kind = [r for r in roles if r.kind == kind]
        if not of_kind:
            continue
        groups = {role: listing(f"L{r.layer + 1} H{r.head + 1}" for r in of_kind if r.role == role) or "—"
                  for role in ("positional", "matching", "neither")}
        lines.append(t("corpus.roles_line", kind=t(f"kind.{kind}"), **groups))
    return lines


def limits(d_k: int) -> list[str]:
    """What a picture of the corpus says and what it does not (`d_k`: the head's dimensions)."""
    return [t(f"corpus.limit.{name}", d_k=d_k) for name in ("cluster", "distance", "tsne", "adjust", "forced")]


def user_help() -> str:
    return t("corpus.user_help", n=MAX_USER_SENTENCES, chars=MAX_USER_CHARS)


def roles_title() -> str:
    return t("corpus.roles_title", positional=f"{100 * POSITIONAL:.0f}", matching=f"{100 * MATCHING:.0f}")


# --- The page --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageView:
    corpus: str  # which corpus is shown
    notices: list[str]  # the user's refused lines, one notice per kind of problem
    head: HeadView | None  # one head's picture (the head view)
    matrix: go.Figure | None  # every head of the kind (the matrix view)
    search: SearchView | None
    readings: list[Reading]  # empty while the heads' roles are being computed
    roles: list[str]  # per kind, which heads are positional, matching, neither
    roles_title: str
    limits: list[str]
    user_help: str


def view(run: CorpusRun, lines: UserLines, languages: tuple[str, str], settings: Settings, *,
         projection: HeadProjection | None = None, matrix: list[list[HeadProjection]] | None = None,
         found: TokenSearch | None = None, roles: list[HeadRole] | None = None) -> PageView:
    """Everything the page draws for the view whose result is given (a projection, the matrix's, a search)."""
    head = None if projection is None else head_picture(run, projection, settings)
    grid = None if matrix is None else matrix_picture(run, settings.kind, [p for row in matrix for p in row],
                                                      settings.colour, settings.presenting)
    return PageView(corpus_line(run.corpus, languages), notices(lines), head, grid,
                    None if found is None else search_view(run, found),
                    readings(roles) if roles else [], role_lines(roles) if roles else [], roles_title(),
                    limits(run.traces[0].queries[settings.kind].shape[-1]), user_help())
