"""The corpus view (evaluation/corpus_view): AttentionViz's adjustments leave attention as it was, the points are
the real queries and keys of the named sentences, projections and their correlation are what they say, the cache is
keyed on the weights, the exBERT-style search counts right, and the command line prints its JSON or exits 2."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import pearsonr

from evaluation.corpus_view import (PROBLEMS, Corpus, CorpusError, HeadError, ProjectionCache, ProjectionUnavailable,
                                    Sentence, adjustment, available, head_view, matrix_view, points, run_corpus,
                                    search, shipped_corpus, typed_tokens, user_sentences)
from evaluation.corpus_view import cli
from evaluation.corpus_view.project import project, project_head
from evaluation.corpus_view.search import top_key_shares
from evaluation.corpus_view.vectors import CorpusRun, SentenceTrace, visible
from model.architecture.transformer import KINDS
from tests.support.paths import CHECKPOINT

EN = ("Tom bought three apples yesterday.", "I like my dog.", "Where is the hospital?")
ZH = ("汤姆昨天买了三个苹果。", "我喜欢我的狗。", "医院在哪里？")


def softmax(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def small_corpus(language: str) -> Corpus:
    sources, references = (EN, ZH) if language == "en" else (ZH, EN)
    return Corpus(language, tuple(Sentence(s, r, "example") for s, r in zip(sources, references)))


@pytest.fixture(scope="module")
def en_run(translator) -> CorpusRun:
    return run_corpus(translator, small_corpus("en"), sha256="0" * 64)


@pytest.fixture(scope="module")
def zh_run(zh_translator) -> CorpusRun:
    return run_corpus(zh_translator, small_corpus("zh"), sha256="1" * 64)


def test_the_adjustments_keep_every_softmax_row_and_the_scale_keeps_every_score():
    rng = np.random.default_rng(0)
    q, k = rng.normal(1.0, 2.0, (40, 32)), rng.normal(-3.0, 0.5, (30, 32))
    adjust = adjustment(q, k)
    q2, k2 = adjust.apply(q, k)
    np.testing.assert_allclose(q2.mean(axis=0), k2.mean(axis=0) * adjust.scale ** 2, atol=1e-9)  # centroids met
    assert np.linalg.norm(q2, axis=1).mean() == pytest.approx(np.linalg.norm(k2, axis=1).mean())  # norms matched
    assert np.abs(softmax(q2 @ k2.T / np.sqrt(32)) - softmax(q @ k.T / np.sqrt(32))).max() < 1e-6
    scaled_q, scaled_k = type(adjust)(np.zeros(32), adjust.scale).apply(q, k)  # the scale alone changes no q·k
    np.testing.assert_allclose(scaled_q @ scaled_k.T, q @ k.T, rtol=1e-9, atol=1e-9)
    assert adjust.scale != pytest.approx(1.0)  # the test's vectors needed scaling


@pytest.mark.parametrize("kind", KINDS)
def test_each_head_holds_the_model_own_queries_and_keys_and_adjusting_keeps_its_weights(en_run, kind):
    vectors = en_run.head(kind, 1, 3)
    adjust = adjustment(vectors.queries, vectors.keys)
    q2, k2 = adjust.apply(vectors.queries, vectors.keys)
    for s, trace in enumerate(en_run.traces):
        q_rows, k_rows = vectors.query_sentence == s, vectors.key_sentence == s
        weights = trace.weights[kind][1, 3]
        allowed = visible(kind, *weights.shape)
        for a, b in ((vectors.queries[q_rows], vectors.keys[k_rows]), (q2[q_rows], k2[k_rows])):
            scores = np.where(allowed, a.astype(np.float64) @ b.T.astype(np.float64) / np.sqrt(a.shape[1]), -np.inf)
            assert np.abs(softmax(scores) - weights).max() < 1e-5  # the model's own weights, before and after
        assert [vectors.query_tokens[i] for i in np.flatnonzero(q_rows)] == list(trace.axis_tokens(kind)[0])


@pytest.mark.parametrize("kind", KINDS)
def test_points_are_one_per_query_and_key_of_the_named_sentences(en_run, kind):
    vectors = en_run.head(kind, 0, 0)
    projection = project_head(vectors, "pca")
    found = points(vectors, projection)
    q_tokens, k_tokens = zip(*(t.axis_tokens(kind) for t in en_run.traces))
    assert len(found) == sum(map(len, q_tokens)) + sum(map(len, k_tokens)) == len(projection.xy)
    for point in found:
        tokens = (q_tokens if point["role"] == "query" else k_tokens)[point["sentence"]]
        assert point["token"] == tokens[point["position"]].removeprefix("▁")
        assert point["normalised_position"] == pytest.approx(point["position"] / (len(tokens) - 1))
    queries = [p for p in found if p["role"] == "query"]
    assert [(p["sentence"], p["position"]) for p in queries] == [(s, i) for s, t in enumerate(q_tokens)
                                                                 for i in range(len(t))]


def test_pca_is_the_adjusted_vectors_first_two_components_and_the_correlation_is_recomputed(en_run):
    vectors = en_run.head("cross", 2, 5)
    projection = project_head(vectors, "pca")
    adjusted = np.concatenate(projection.adjustment.apply(vectors.queries, vectors.keys)).astype(np.float64)
    centred = adjusted - adjusted.mean(axis=0)
    _, values, axes = np.linalg.svd(centred, full_matrices=False)
    np.testing.assert_allclose(np.abs(projection.xy), np.abs(centred @ axes[:2].T), atol=1e-6)
    for name, xy in (("raw", projection.raw_xy), ("adjusted", projection.xy)):
        scores, distances = [], []
        for s, trace in enumerate(en_run.traces):  # pair by pair, from the sentences' own vectors
            q = trace.queries["cross"][2, 5].astype(np.float64)
            k = trace.keys["cross"][2, 5].astype(np.float64)
            q_xy = xy[:len(vectors.queries)][vectors.query_sentence == s]
            k_xy = xy[len(vectors.queries):][vectors.key_sentence == s]
            for i in range(len(q)):
                for j in range(len(k)):
                    scores.append(q[i] @ k[j])
                    distances.append(np.hypot(*(q_xy[i] - k_xy[j])))
        assert projection.correlation[name] == pytest.approx(pearsonr(scores, distances)[0], abs=1e-9)


def test_a_decoder_head_pairs_each_query_with_the_keys_it_may_see(en_run):
    vectors = en_run.head("decoder_self", 0, 0)
    qi, ki = vectors.pairs()
    lengths = [len(t.target_tokens) for t in en_run.traces]
    assert len(qi) == sum(n * (n + 1) // 2 for n in lengths)
    assert np.all(vectors.key_position[ki] <= vectors.query_position[qi])
    assert np.all(vectors.key_sentence[ki] == vectors.query_sentence[qi])


@pytest.mark.parametrize("method", ["pca", "tsne", pytest.param("umap", marks=pytest.mark.slow)])  # umap: numba's JIT
def test_the_same_seed_gives_the_same_picture(method):
    x = np.random.default_rng(1).normal(size=(120, 32))
    if not available()[method]:
        with pytest.raises(ProjectionUnavailable, match="pip install"):
            project(x, method, 0)
        return
    first = project(x, method, 0)
    np.testing.assert_array_equal(first, project(x, method, 0))
    if method == "pca":
        np.testing.assert_array_equal(first, project(x, "pca", 5))  # PCA has no randomness
    if method == "umap":
        assert not np.allclose(first, project(x, method, 1))  # the seed is the one used


def test_an_unknown_method_is_refused():
    with pytest.raises(ValueError, match="method"):
        project(np.zeros((4, 32)), "mds", 0)


def test_the_cache_gives_back_the_same_arrays_keyed_on_the_weights(en_run, tmp_path, monkeypatch):
    cache = ProjectionCache(tmp_path)
    first = head_view(en_run, "encoder_self", 0, 1, "pca", 0, cache)
    stored = list(tmp_path.rglob("*.npz"))
    assert len(stored) == 1 and stored[0].parent.name == en_run.weights_sha256
    assert not list(tmp_path.rglob(".*"))  # the temporary file was renamed into place

    def not_again(*args, **kwargs):
        raise AssertionError("computed again: the cache was not read")

    monkeypatch.setattr("evaluation.corpus_view.view.project_head", not_again)
    again = head_view(en_run, "encoder_self", 0, 1, "pca", 0, cache)
    for name in ("xy", "raw_xy"):
        np.testing.assert_array_equal(getattr(first, name), getattr(again, name))
    np.testing.assert_array_equal(first.adjustment.shift, again.adjustment.shift)
    assert (again.correlation, again.adjustment.scale) == (first.correlation, first.adjustment.scale)
    retrained = CorpusRun(en_run.corpus, en_run.checkpoint, "f" * 64, en_run.traces, en_run.layers, en_run.heads)
    with pytest.raises(AssertionError, match="computed again"):
        head_view(retrained, "encoder_self", 0, 1, "pca", 0, cache)  # other weights: not the stored picture
    assert cache.get("f" * 64, en_run.corpus.digest(), "encoder_self", 0, 1, "pca", 0) is None


def test_the_matrix_view_has_every_head_of_a_kind(en_run):
    grid = matrix_view(en_run, "cross")
    assert [[(p.layer, p.head, p.method) for p in row] for row in grid] == [
        [(layer, head, "pca") for head in range(en_run.heads)] for layer in range(en_run.layers["cross"])]
    with pytest.raises(HeadError, match="layers 1–3"):
        en_run.head("cross", 3, 0)


def made_up_run() -> CorpusRun:
    """Two sentences whose encoder head 1.1 attends as written: 'the' to the other 'the', 'cat' to the next."""
    tokens = (("▁the", "▁cat", "▁saw", "▁the", ".", "</s>"), ("▁the", "▁end", "</s>"))
    tops = ({0: 3, 1: 2, 2: 4, 3: 0, 4: 5, 5: 5}, {0: 2, 1: 0, 2: 2})  # query position → its heaviest key
    traces = []
    for sentence, top in zip(tokens, tops):
        n = len(sentence)
        weights = np.full((1, 1, n, n), 0.1 / (n - 1))
        for q, k in top.items():
            weights[0, 0, q, k] = 0.9 - 0.1 * q / n  # later queries weigh their top key a little less
        blank = np.zeros((1, 1, n, 4))
        traces.append(SentenceTrace(sentence, ("<s>",), {"encoder_self": blank}, {"encoder_self": blank},
                                    {"encoder_self": weights}))
    corpus = Corpus("en", tuple(Sentence(" ".join(t), None, "user") for t in tokens))
    return CorpusRun(corpus, "made-up", "2" * 64, tuple(traces), {"encoder_self": 1}, 1)


def test_search_finds_every_occurrence_and_counts_its_top_keys():
    found = search(made_up_run(), "encoder_self", 0, 0, "the", top=2)
    assert [(o.sentence, o.position) for o in found.occurrences] == [(0, 0), (1, 0), (0, 3)]  # heaviest first
    assert [o.top[0][:2] for o in found.occurrences] == [(3, "▁the"), (2, "</s>"), (0, "▁the")]
    assert found.counts == {"same_token": 2, "itself": 0, "next": 0, "previous": 0, "full_stop": 0, "end": 1}
    cat = search(made_up_run(), "encoder_self", 0, 0, ["▁cat", "saw"])
    assert cat.counts == {"same_token": 0, "itself": 0, "next": 1, "previous": 0, "full_stop": 1, "end": 0}
    end = search(made_up_run(), "encoder_self", 0, 0, "</s>")
    assert end.counts == {"same_token": 0, "itself": 2, "next": 0, "previous": 0, "full_stop": 0, "end": 2}
    assert search(made_up_run(), "encoder_self", 0, 0, ".").counts["end"] == 1  # '.' (0, 4) → </s> (0, 5)
    shares = top_key_shares(made_up_run(), "encoder_self", 0, 0)  # over all 9 queries
    assert shares == pytest.approx({"same_token": 2 / 9, "itself": 2 / 9, "next": 2 / 9, "previous": 1 / 9,
                                    "full_stop": 1 / 9, "end": 4 / 9})  # by hand from the two sentences' tops
    assert search(made_up_run(), "encoder_self", 0, 0, "dog").occurrences == ()


def test_search_reads_typed_words_in_both_directions(translator, en_run, zh_translator, zh_run):
    assert typed_tokens(translator, "apples", "encoder_self") == ("▁apples",)
    found = search(en_run, "encoder_self", 0, 0, typed_tokens(translator, "apples", "encoder_self"))
    assert [(o.sentence, o.token) for o in found.occurrences] == [(0, "▁apples")]
    chinese = typed_tokens(zh_translator, "狗", "encoder_self")
    found = search(zh_run, "encoder_self", 2, 0, chinese)
    assert [(o.sentence, o.token) for o in found.occurrences] == [(1, "狗")]
    cross = search(zh_run, "cross", 0, 0, typed_tokens(zh_translator, "dog", "cross"))
    assert len(cross.occurrences) == 1 and "next" not in cross.counts  # cross keys lie in the other sentence
    assert all("\u4e00" <= token[0] <= "\u9fff" or token in ("。", "？", "</s>")
               for token in zh_run.traces[0].source_tokens)


def test_the_shipped_corpus_credits_its_pairs_and_turns_round_for_chinese():
    en, zh = shipped_corpus("en"), shipped_corpus("zh")
    assert en.counts() == zh.counts() == {"gold": 150, "example": 6, "user": 0}
    assert all(s.credit.startswith("CC-BY 2.0 (France) Attribution: tatoeba.org") for s in en.sentences[:150])
    assert [(s.source, s.reference) for s in zh.sentences] == [(s.reference, s.source) for s in en.sentences]
    assert en.digest() != zh.digest() != en.with_user(("Hello.",)).digest()
    with pytest.raises(CorpusError):
        shipped_corpus("fr")


def test_a_user_corpus_refuses_bad_lines_one_notice_per_kind():
    text = "\n".join(["I like tea.", "", "<b>bold</b>", "我喜欢茶。", "I ❤ tea.", "x" * 201, "Fine.", ""])
    lines = user_sentences(text, "en")
    assert lines.sentences == ("I like tea.", "Fine.")
    assert lines.problems == {"empty": (2,), "too_long": (6,), "markup": (3,), "emoji": (5,), "other_script": (4,)}
    assert set(lines.problems) <= set(PROBLEMS)
    many = user_sentences("\n".join(f"Sentence {n}." for n in range(35)), "en")
    assert len(many.sentences) == 30 and many.problems == {"too_many": tuple(range(31, 36))}
    assert user_sentences("I like tea.\n我喜欢茶。", "zh").problems == {"other_script": (1,)}


def test_a_user_sentence_is_teacher_forced_on_the_model_own_translation(translator):
    run = run_corpus(translator, Corpus("en", ()).with_user(("I like my dog.",)), sha256="3" * 64)
    own = translator.translate("I like my dog.", beam=1)
    assert run.traces[0].target_tokens == tuple(own.target_tokens) and len(own.target_tokens) > 1
    with pytest.raises(CorpusError):
        run_corpus(translator, small_corpus("zh"), sha256="3" * 64)


@pytest.mark.slow
def test_the_command_prints_one_json_object_and_exits_2_on_bad_input(capsys, tmp_path, translator, monkeypatch):
    args = ["--checkpoint", str(CHECKPOINT), "--kind", "cross", "--layer", "2", "--head", "3", "--cache",
            str(tmp_path)]
    assert cli.main([*args, "--search", "apples", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["sentences"]) == 156 and out["corpus"] == {"gold": 150, "example": 6, "user": 0}
    assert set(out["points"][0]) == {"x", "y", "role", "token", "sentence", "position", "normalised_position"}
    assert {p["role"] for p in out["points"]} == {"query", "key"}
    assert -1 <= out["correlation"]["raw"] <= 1 and -1 <= out["correlation"]["adjusted"] <= 1
    assert (out["kind"], out["layer"], out["head"]) == ("cross", 2, 3) and "search" in out
    assert cli.main(args) == 0 and "correlation of q·k" in capsys.readouterr().out
    monkeypatch.setattr(cli.Translator, "from_checkpoint", classmethod(lambda cls, *a, **k: translator))
    for bad in (["--kind", "both"], ["--layer", "4"], ["--head", "0"], ["--method", "mds"], ["--head", "x"],
                ["--top", "0"], ["--matrix"]):
        assert cli.main([*args, *bad, "--json"]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert cli.main(["--kind", "decoder_self", "--matrix", "--json", "--cache", str(tmp_path)]) == 0
    heads = json.loads(capsys.readouterr().out)["heads"]
    assert [(h["layer"], h["head"]) for h in heads] == [(layer, head) for layer in (1, 2, 3) for head in range(1, 9)]
    assert all(h["top_key"]["next"] == 0 for h in heads)  # a decoder query never sees the next position


@pytest.mark.slow
def test_the_benchmark_runs_and_prints_its_rows(capsys):
    from benchmarks.corpus import main as benchmark

    assert benchmark(["--quick", "--repeats", "1", "--checkpoint", str(CHECKPOINT)]) == 0
    rows = [line.split("|")[1:-1] for line in capsys.readouterr().out.splitlines() if line.startswith("| ")][1:]
    assert [row[0].strip().split(",")[0].split(":")[0] for row in rows] == [
        "teacher-forced passes", "PCA", "matrix view", "a head read back from the disk cache",
        "the passes read back from the disk cache (a server started again)",
        "every head's role (the page's worked readings)"]
    assert all(float(row[2]) > 0 and float(row[3]) > 0 for row in rows)
