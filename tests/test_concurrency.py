"""Many students at once: one shared model, per-request results, no errors, nothing leaks between requests."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

from app_pages.state import models, result_cache, translations
from model import Translator
from model.translation import threads as threads_module
from model.translation.threads import CONCURRENCY_ENV, THREADS_ENV, configure_torch_threads
from tests.support.paths import CHECKPOINT
from tests.support.tiny import tiny_model, tokenizers

SUBJECTS = ("I", "The dog", "My teacher", "Nobody", "Tom", "The children")
VERBS = ("saw", "likes", "found", "wants", "remembers")
OBJECTS = ("the cat.", "a red book.", "the old station.", "his friend?")
SENTENCES = [f"{s} {v} {o}" for s in SUBJECTS for v in VERBS for o in OBJECTS]  # 120 different sentences


def requests(n: int) -> list[tuple[str, int]]:
    """n different (sentence, beam) pairs; every fifth one uses beam search."""
    return [(SENTENCES[(7 * i) % len(SENTENCES)], 3 if i % 5 == 4 else 1) for i in range(n)]


def all_at_once(n: int, call):
    """call(i) from n threads released together; returns the n results in order (re-raises any error)."""
    start = threading.Barrier(n)

    def run(i):
        start.wait()
        return call(i)

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(run, range(n)))


def assert_same(got, alone) -> None:
    assert got.source_text == alone.source_text
    assert got.translation == alone.translation
    assert got.source_tokens == alone.source_tokens and got.output_tokens == alone.output_tokens
    for kind in ("encoder_self", "decoder_self", "cross"):
        np.testing.assert_array_equal(got.attention(kind), alone.attention(kind), err_msg=kind)
    assert [s.chosen for s in got.steps] == [s.chosen for s in alone.steps]


@pytest.mark.slow
def test_60_concurrent_requests_through_the_apps_code_path_match_each_alone():
    """The app's path: the process-wide model from st.cache_resource, results through st.cache_data."""
    shared = models.load(CHECKPOINT.name, "cpu")
    assert shared is models.load(CHECKPOINT.name, "cpu")  # one model per process
    todo = requests(60)
    alone = [shared.translate(text, beam=beam) for text, beam in todo]
    result_cache.shared().clear()  # so every request really runs the model
    got = all_at_once(len(todo), lambda i: translations.translate(CHECKPOINT.name, "cpu", *todo[i]))
    for g, a in zip(got, alone):
        assert_same(g, a)


def test_16_threads_translating_different_sentences_each_get_what_they_get_alone(translator):
    todo = requests(16)
    alone = [translator.translate(text, beam=beam) for text, beam in todo]
    got = all_at_once(len(todo), lambda i: translator.translate(todo[i][0], beam=todo[i][1]))
    for g, a in zip(got, alone):
        assert_same(g, a)


def test_the_model_is_only_read(translator):
    """No parameter, buffer or module attribute changes while threads translate (nothing stored during forward)."""
    model = translator.model
    before = {k: v.clone() for k, v in model.state_dict().items()}
    attributes = {name: set(vars(m)) for name, m in model.named_modules()}
    all_at_once(8, lambda i: translator.translate(SENTENCES[i], beam=1 + i % 2))
    after = model.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)
    assert {name: set(vars(m)) for name, m in model.named_modules()} == attributes
    assert not model.training


def peak_model_calls(tr: Translator, n: int = 12) -> int:
    """The most model calls that a burst of n translate() calls on `tr` ran at once.

    Every call is held inside the model until the burst is let go: first until as many calls are
    inside as the translator says it allows (so that limit must be reachable), then 0.3 s longer, so
    that a call the limit failed to hold back gets in and is counted.
    """
    inside = most = 0
    changed = threading.Condition()
    go = threading.Event()
    encode = tr.model.encode

    def held_encode(*args, **kwargs):
        nonlocal inside, most
        with changed:
            inside += 1
            most = max(most, inside)
            changed.notify_all()
        try:
            go.wait()
            return encode(*args, **kwargs)
        finally:
            with changed:
                inside -= 1

    tr.model.encode = held_encode  # this private translator only
    try:
        with ThreadPoolExecutor(max_workers=n) as pool:
            calls = [pool.submit(tr.translate, SENTENCES[i]) for i in range(n)]
            with changed:
                reached = changed.wait_for(lambda: inside >= tr.max_concurrent, timeout=10)
                changed.wait_for(lambda: inside > tr.max_concurrent, timeout=0.3)
            go.set()
            for call in calls:
                call.result()
    finally:
        go.set()
    assert reached, f"a burst ran at most {most} model calls at once; the limit is {tr.max_concurrent}"
    return most


def test_a_burst_never_runs_more_model_calls_at_once_than_the_limit():
    tr = Translator(tiny_model(), *tokenizers(), max_concurrent=2)
    assert peak_model_calls(tr) == 2


def test_the_default_limit_keeps_a_burst_within_the_machines_cores(monkeypatch):
    monkeypatch.delenv(CONCURRENCY_ENV, raising=False)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    threads = torch.get_num_threads()
    tr = Translator(tiny_model(), *tokenizers())
    assert 1 <= tr.max_concurrent <= cores
    assert tr.max_concurrent * threads <= max(cores, threads)  # a full burst asks for no more threads than cores
    assert peak_model_calls(tr) == tr.max_concurrent


def test_the_concurrency_limit_can_be_set_by_environment(monkeypatch):
    monkeypatch.setenv(CONCURRENCY_ENV, "3")
    tr = Translator(tiny_model(), *tokenizers())
    assert tr.max_concurrent == 3
    assert peak_model_calls(tr) == 3
    monkeypatch.setenv(CONCURRENCY_ENV, "zero")
    with pytest.raises(ValueError, match=CONCURRENCY_ENV):
        Translator(tiny_model(), *tokenizers())


def test_torch_threads_can_be_set_by_environment_once_per_process(monkeypatch):
    monkeypatch.setattr(threads_module, "_configured", None)  # as in a process that has not chosen yet
    before = torch.get_num_threads()
    try:
        monkeypatch.setenv(THREADS_ENV, "3")
        assert configure_torch_threads() == 3 and torch.get_num_threads() == 3
        monkeypatch.setenv(THREADS_ENV, "1")
        assert configure_torch_threads() == 3 and torch.get_num_threads() == 3  # the first choice stays
        monkeypatch.setattr(threads_module, "_configured", None)
        monkeypatch.setenv(THREADS_ENV, "none")
        with pytest.raises(ValueError, match=THREADS_ENV):
            configure_torch_threads()
    finally:
        torch.set_num_threads(before)


@pytest.mark.parametrize("side", ["source", "target"])
def test_tokenizer_shared_by_many_threads_never_raises_already_borrowed(translator, side):
    """HF fast tokenizers raise "Already borrowed" when one thread changes settings while another encodes;
    TextTokenizer fixes its settings at construction, so any number of threads can share it."""
    tok = translator.src_tok if side == "source" else translator.tgt_tok
    texts = [s * (1 + i % 7) for i, s in enumerate(SENTENCES[:40] + ["我有一个梦想。", "😀 <s> ▁ x"])]
    expected = [(tok.encode(t), tok.decode(tok.encode(t))) for t in texts]

    def hammer(i):
        out = []
        for round_ in range(30):
            j = (i + round_) % len(texts)
            ids = tok.encode(texts[j])
            tok.tokens(ids)
            out.append((j, ids, tok.decode(ids)))
        return out

    for results in all_at_once(32, hammer):  # raises here if any thread hit "Already borrowed"
        for j, ids, text in results:
            assert (ids, text) == expected[j]


@pytest.mark.parametrize("method", ["input_x_gradient", "integrated_gradients"])
def test_three_attributions_at_once_each_match_the_one_computed_alone(method):
    """Issue 53: three students opening the explanation page together crashed with "Trying to access a forward AD
    level with an invalid index" (torch's forward-mode AD levels are shared by the process's threads)."""
    tr = Translator(tiny_model(), *tokenizers(), max_concurrent=3)  # the gate lets all three in at once
    texts = ["I have a dream.", "Who are you?", "The dog saw the cat and the cat saw the dog."]
    results = [tr.translate(text) for text in texts]
    alone = [tr.attribute(result, method) for result in results]
    for _ in range(3):  # a race: each round gives it another chance to show
        got = all_at_once(3, lambda i: tr.attribute(results[i], method))
        for g, a in zip(got, alone):
            np.testing.assert_allclose(g.scores, a.scores, rtol=1e-5, atol=1e-6)
            assert g.gap == a.gap and g.points == a.points
