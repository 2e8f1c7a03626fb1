"""The corpus page (app_pages/pages/corpus.py, computed in corpus_view.py): its view on a made-up run whose heads are
known (one positional, one matching), then the page itself in both directions and both languages on a small corpus
of real sentences (AppTest): which corpus it says, the controls a link restores, the picture's points against the
model's vectors, the CSV, the search sorted by its top key's weight, the explorer's link, the worked readings, a
user's bad lines each said once by kind, and a Marian model refused as a note."""

from __future__ import annotations

import csv
import io
import json
import threading
import time
from dataclasses import replace

import numpy as np
import pytest

from app_pages.pages import corpus_view
from app_pages.pages.corpus_view import Settings
from app_pages.state.state_keys import DECK
from evaluation.corpus_view import Corpus, Sentence, jobs, points, search, shipped_corpus, user_sentences
from evaluation.corpus_view.project import project_head
from evaluation.corpus_view.roles import every_role, head_roles
from evaluation.corpus_view.vectors import CorpusRun, SentenceTrace
from i18n import strings
from streamlit.testing.v1 import AppTest

from tests.support.apptest import APP, link_of, page_text
from tests.support.tables import as_read

WORDS = ("▁the", "▁cat", "▁saw", "▁a", "▁dog", ".")
EN, ZH = strings("en"), strings("zh")


def made_up_run(sentences: int = 12, d_k: int = 8) -> CorpusRun:
    """A run of two layers of two heads per kind: encoder self L1 H1 puts all its weight on the previous token
    (positional), L1 H2's queries and keys are their token's own direction (matching); the rest is noise."""
    rng = np.random.default_rng(0)
    traces = []
    for s in range(sentences):
        tokens = tuple(WORDS[i] for i in rng.integers(0, len(WORDS), 4 + s % 4)) + ("</s>",)
        target = ("<s>",) + tokens[:-1]
        t = len(tokens)
        ids = np.array([(WORDS + ("</s>", "<s>")).index(x) for x in tokens])
        queries, keys, weights = {}, {}, {}
        for kind, (tq, tk) in {"encoder_self": (t, t), "decoder_self": (t, t), "cross": (t, t)}.items():
            q, k = rng.normal(0, 0.1, (2, 2, tq, d_k)), rng.normal(0, 0.1, (2, 2, tk, d_k))
            w = rng.dirichlet(np.ones(tk), (2, 2, tq))
            if kind == "encoder_self":
                w[0, 0] = np.eye(t, k=-1) + np.eye(t)[:, :1] * (np.arange(t) == 0)[:, None]  # previous (first: itself)
                q[0, 1, np.arange(t), ids] += 3.0
                k[0, 1, np.arange(t), ids] += 3.0
            queries[kind], keys[kind], weights[kind] = q.astype(np.float32), k.astype(np.float32), w.astype(np.float32)
        traces.append(SentenceTrace(tokens, target, queries, keys, weights))
    corpus = Corpus("en", tuple(Sentence(f"sentence {i}", f"句子 {i}", "gold", "") for i in range(sentences)))
    return CorpusRun(corpus, "made-up", "0" * 64, tuple(traces), {k: 2 for k in ("encoder_self", "decoder_self",
                                                                                  "cross")}, 2)


@pytest.fixture(scope="module")
def run() -> CorpusRun:
    return made_up_run()


def test_the_made_up_heads_are_read_as_built(run):
    roles = {(r.kind, r.layer, r.head): r for r in every_role(run)}
    assert roles[("encoder_self", 0, 0)].role == "positional"
    assert roles[("encoder_self", 0, 0)].offset[0] == "previous"
    assert roles[("encoder_self", 0, 1)].role == "matching" and roles[("encoder_self", 0, 1)].matching > 0.9
    assert all(r.role == "neither" for key, r in roles.items() if key[0] == "cross")
    # the matching share recomputed by hand for one head: the best key over the corpus, its own key left out
    vectors = run.head("encoder_self", 0, 1)
    scores = vectors.queries @ vectors.keys.T
    for i in range(len(scores)):
        own = (vectors.key_sentence == vectors.query_sentence[i]) & (vectors.key_position == vectors.query_position[i])
        scores[i, own] = -np.inf
    hand = np.mean([vectors.query_tokens[i].lstrip("▁") == vectors.key_tokens[j].lstrip("▁")
                    for i, j in enumerate(scores.argmax(axis=1))])
    assert roles[("encoder_self", 0, 1)].matching == pytest.approx(hand)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_readings_name_the_heads_the_numbers_found(run, lang, monkeypatch):
    monkeypatch.setattr("app_pages.state.language.language", lambda: lang)
    found = corpus_view.readings(every_role(run))
    assert [(r.role, r.kind, r.layer, r.head) for r in found] == [("positional", "encoder_self", 0, 0),
                                                                 ("matching", "encoder_self", 0, 1)]
    share = head_roles(run, "encoder_self")[0].offsets["previous"]
    assert f"{100 * share:.0f} %" in found[0].text
    lines = corpus_view.role_lines(every_role(run))
    assert "L1 H1" in lines[0] and len(lines) == 3


def test_no_head_of_a_role_is_said_as_such(run):
    roles = [r for r in every_role(run) if r.kind == "cross"]
    found = corpus_view.readings(roles)
    assert found[0].text.startswith("**No positional head")
    assert found[1].text.startswith("**No head reaches")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_counts_in_the_thousands_are_written_as_the_charts_title_writes_them(run, lang, monkeypatch):
    """1,263 queries in the title and 10,509 pairs in the caption, not 10509: one way of writing a number per page."""
    monkeypatch.setattr("app_pages.state.language.language", lambda: lang)
    roles = [replace(r, queries=12345) for r in every_role(run)]
    assert all("12,345" in r.text for r in corpus_view.readings(roles))
    none_found = corpus_view.readings([r for r in roles if r.kind == "cross"])  # "no head reaches …, of its N queries"
    assert "12,345" in none_found[1].text and not any("12345" in r.text for r in none_found)
    vectors = run.head("encoder_self", 0, 1)
    projection = project_head(vectors, "pca")
    many = tuple(np.zeros(10509, dtype=int) for _ in vectors.pairs())
    monkeypatch.setattr(type(vectors), "pairs", lambda self: many)
    shown = corpus_view.head_picture(run, projection, Settings("encoder_self", 0, 1, "pca", "role"))
    assert "10,509" in shown.caption and "10509" not in shown.caption


def test_the_picture_is_the_heads_queries_and_keys_and_the_csv_says_them(run):
    projection = project_head(run.head("encoder_self", 0, 1), "pca")
    shown = corpus_view.head_picture(run, projection, Settings("encoder_self", 0, 1, "pca", "role"))
    vectors = run.head("encoder_self", 0, 1)
    n = len(vectors.queries) + len(vectors.keys)
    drawn = np.concatenate([np.column_stack([trace.x, trace.y]) for trace in shown.figure.data])
    index = np.concatenate([trace.customdata for trace in shown.figure.data])
    assert sorted(index) == list(range(n))
    np.testing.assert_allclose(drawn, projection.xy[index], rtol=1e-6)  # each point where the projection put it
    rows = list(csv.DictReader(io.StringIO(shown.csv.decode("utf-8"))))
    assert len(rows) == n and [r["role"] for r in rows].count("query") == len(vectors.queries)
    first_key = rows[len(vectors.queries)]
    assert (first_key["role"], first_key["token"], first_key["sentence"]) == ("key", "the" if vectors.key_tokens[0]
                                                                              == "▁the" else vectors.key_tokens[0]
                                                                              .lstrip("▁"), "1")
    assert float(first_key["x"]) == pytest.approx(projection.xy[len(vectors.queries), 0], abs=1e-5)
    assert shown.sentence_of == tuple(p["sentence"] for p in points(vectors, projection))
    hover = shown.figure.data[0].hovertext[0]
    assert "【" in hover and "sentence 1 of the corpus" in hover


@pytest.mark.parametrize("colour", ["role", "position", "token"])
def test_every_colouring_draws_every_point_once(run, colour):
    projection = project_head(run.head("encoder_self", 0, 0), "pca")
    fig = corpus_view.head_picture(run, projection, Settings("encoder_self", 0, 0, "pca", colour)).figure
    assert sum(len(trace.x) for trace in fig.data) == len(projection.xy)


def test_the_matrix_shows_every_head_of_the_kind(run):
    from evaluation.corpus_view import matrix_view

    grid = matrix_view(run, "encoder_self")
    fig = corpus_view.matrix_picture(run, "encoder_self", [p for row in grid for p in row], "role")
    assert {trace.xaxis for trace in fig.data} == {"x", "x2", "x3", "x4"}
    names = [a.text for a in fig.layout.annotations]
    assert names[0].startswith("L1 H1<br>r ") and names[3].startswith("L2 H2")


def test_the_search_is_sorted_by_the_top_keys_weight_and_links_its_sentences(run):
    found = search(run, "encoder_self", 0, 0, "cat")
    shown = corpus_view.search_view(run, found)
    weights = [float(row["Top weight"]) for row in shown.rows]
    assert weights == sorted(weights, reverse=True) and len(shown.rows) == min(len(found.occurrences), corpus_view.SEARCH_ROWS)
    assert f"occurs {len(found.occurrences)} times" in shown.summary
    first = found.occurrences[0]
    assert shown.rows[0]["Heaviest keys"] == " · ".join(f"{k.removeprefix('▁')} {w:.2f}" for _, k, w in first.top)
    link = corpus_view.explorer_link(run, shown.sentence_of[0], Settings("encoder_self", 0, 0, "pca", "role"), "en-zh")
    assert link == {"s": run.corpus.sentences[shown.sentence_of[0]].source, "model": "en-zh", "kind": "encoder_self",
                    "view": "head", "layer": "1", "head": "1"}


def test_the_search_opens_on_the_commonest_word():
    assert corpus_view.first_word(["</s>", ".", ",", "I", "the"]) == "I"
    assert corpus_view.first_word(["</s>", "。", "，", "我"]) == "我"
    assert corpus_view.first_word(["</s>", "."]) == "</s>"  # no word at all: the commonest token


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_kind_of_bad_line_gets_one_notice(lang, monkeypatch):
    monkeypatch.setattr("app_pages.state.language.language", lambda: lang)
    monkeypatch.setattr("app_pages.shell.text.language", lambda: lang)
    text = "\n".join(["I like tea.", "", "x" * 300, "<b>bold</b>", "I love 🍕.", "我喜欢茶。", "",
                      *[f"Line {i}." for i in range(40)]])
    lines = user_sentences(text, "en")
    said = corpus_view.notices(lines)
    assert len(said) == len(lines.problems) == 6  # empty, too long, markup, emoji, other script, too many
    assert said[0] == strings(lang)["corpus.problem.empty"].format(lines=("2、7" if lang == "zh" else "2, 7"), n=2,
                                                                   limit=0)


def test_the_corpus_is_said_as_it_is():
    corpus, lines = corpus_view.corpus_of("zh", "我喜欢茶。")
    said = corpus_view.corpus_line(corpus, ("zh", "en"))
    counts = corpus.counts()
    assert f"{len(corpus.sentences)} sentences" in said and f"{counts['gold']} gold pairs" in said
    assert counts["user"] == 1 and "turned round" in said
    assert corpus.sentences[0].source == shipped_corpus("en").sentences[0].reference


def test_work_runs_off_the_callers_path_once_per_key_with_its_progress():
    queue = jobs.Jobs()
    gate = threading.Event()

    def work(progress):
        progress(1, 4)
        gate.wait(10)
        return "done"

    job = queue.start("a", work)
    assert not job.wait(0.2) and queue.start("a", lambda _: "again") is job  # the caller is not held; one job a key
    deadline = time.monotonic() + 10
    while job.progress is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert job.progress == 0.25 and not job.done
    gate.set()
    assert job.wait(10) and job.result() == "done"
    failed = queue.start("b", lambda _: 1 / 0)
    assert failed.wait(10) and isinstance(failed.future.exception(), ZeroDivisionError)
    assert queue.start("b", lambda _: "ok") is failed  # handed out once more, to say why
    retried = queue.start("b", lambda _: "ok")
    assert retried is not failed and retried.wait(10) and retried.result() == "ok"


def test_the_passes_come_back_from_the_disk_cache_as_they_went(run, tmp_path):
    from evaluation.corpus_view import ProjectionCache

    cache = ProjectionCache(tmp_path)
    cache.put_run(run)
    back = cache.get_run(run.corpus, run.weights_sha256, run.checkpoint)
    assert back.layers == run.layers and back.heads == run.heads and len(back.traces) == len(run.traces)
    for a, b in zip(run.traces, back.traces):
        assert (a.source_tokens, a.target_tokens) == (b.source_tokens, b.target_tokens)
        for kind in a.queries:
            np.testing.assert_array_equal(a.queries[kind], b.queries[kind])
            np.testing.assert_array_equal(a.weights[kind], b.weights[kind])
    other = Corpus("en", run.corpus.sentences[:-1])
    assert cache.get_run(other, run.weights_sha256, run.checkpoint) is None  # another corpus: not this file
    assert cache.get_run(run.corpus, "f" * 64, run.checkpoint) is None  # other weights: not this file


# --- The page in the app ---------------------------------------------------------------------------------------------

SMALL = {"en": ("Tom bought three apples yesterday.", "I like my dog.", "Where is the hospital?"),
         "zh": ("汤姆昨天买了三个苹果。", "我喜欢我的狗。", "医院在哪里？")}


@pytest.fixture
def small_corpus(monkeypatch, tmp_path_factory):
    """Three pairs for the page's corpus (the 156 of the shipped one take minutes of passes) and a cache of its own."""
    def small(language: str) -> Corpus:
        other = "zh" if language == "en" else "en"
        return Corpus(language, tuple(Sentence(s, r, "gold", "") for s, r in zip(SMALL[language], SMALL[other])))

    monkeypatch.setattr(corpus_view, "shipped_corpus", small)
    monkeypatch.setenv("ATTENTION_CORPUS_CACHE", str(tmp_path_factory.getbasetemp() / "corpus-cache"))


def opened(link: dict[str, str], lang: str = "en") -> AppTest:
    """The corpus page as a new session opening `link` (a model's first load and the passes take minutes on a busy
    CPU: a longer timeout than the other pages' tests)."""
    at = AppTest.from_file(APP, default_timeout=900)
    at.query_params.update(link)
    at.session_state["lang"] = lang
    at.switch_page("app_pages/pages/corpus.py")
    return at


def settled(at, rounds: int = 20):
    """Run the page until no job of the corpus view is pending (AppTest does not tick the page's polling)."""
    for _ in range(rounds):
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        if not at.get("progress"):
            return at
        for job in list(jobs.shared()._jobs.values()):
            job.future.exception(timeout=900)
    raise AssertionError("the corpus page kept showing progress")


CASES = [("en-zh", "en"), ("zh-en", "zh"), ("zh-en", "en"), ("en-zh", "zh")]


@pytest.mark.parametrize("model, lang", CASES)
def test_a_link_opens_its_picture_in_both_directions_and_languages(model, lang, small_corpus):
    said = strings(lang)
    link = {"model": model, "lang": lang, "view": "head", "kind": "encoder_self", "layer": "2", "head": "3",
            "projection": "pca", "colour": "position"}
    at = settled(opened(link, lang))
    assert as_read(at.title[0].value) == said["corpus.title"]
    assert (at.session_state["corpus.layer"], at.session_state["corpus.head"]) == (1, 2)
    assert at.session_state["corpus.colour"] == "position"
    assert {k: v for k, v in link_of(at).items() if k in link} == link
    text = as_read(page_text(at))
    assert said["corpus.which"].split("{")[0] in text
    assert at.selectbox(key="corpus.sentence").options == [f"{i + 1}. {s}" for i, s in enumerate(
        SMALL[model.split("-")[0]])]  # every sentence of the picture can be opened in the explorer
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["data"][0]["marker"]["colorscale"]  # coloured by position, as the link says
    title = spec["layout"]["title"]["text"].replace("<br>", " ")
    assert said["corpus.head_title"].format(kind=said["kind.encoder_self"], layer=2, head=3) in title
    at.button(key="corpus.pin").click().run()  # the sentence picked below the picture, pinned as the explorer shows it
    slide = at.session_state[DECK][-1]
    assert (slide.page, slide.query["s"], slide.query["kind"], slide.query["layer"], slide.query["head"]) == (
        "translate", SMALL[model.split("-")[0]][0], "encoder_self", "2", "3")


@pytest.mark.parametrize("model, lang", CASES[:2])
def test_every_view_draws_in_both_directions(model, lang, small_corpus):
    said = strings(lang)
    at = settled(opened({"model": model, "lang": lang, "view": "matrix", "kind": "cross"}, lang))
    assert len(at.get("plotly_chart")) == 1
    at.session_state["corpus.view"] = "search"
    settled(at)
    text = as_read(page_text(at))
    assert at.table and len(at.table[0].value) >= 1, text
    weights = [float(w) for w in at.table[0].value[said["corpus.col.weight"]]]
    assert weights == sorted(weights, reverse=True)


def test_bad_user_lines_are_said_once_each_and_good_ones_join_the_corpus(small_corpus):
    at = settled(opened({"model": "en-zh"}))
    at.session_state["corpus.user"] = "I like tea.\n\n<b>x</b>\nI love 🍕.\n我喜欢茶。"
    settled(at)
    warnings = [as_read(w.value) for w in at.warning]
    assert len([w for w in warnings if w.startswith("Left out")]) == 4
    assert "and 1 of yours" in as_read(page_text(at))
