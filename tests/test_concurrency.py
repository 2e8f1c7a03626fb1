"""Many students at once: one shared model, per-request results, no errors, nothing leaks between requests."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

from app_pages import common
from model import Translator
from model.threads import usable_cores
from tests.conftest import CHECKPOINT
from tests.tiny import tiny_model, tokenizers

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


def test_60_concurrent_requests_through_the_apps_code_path_match_each_alone():
    """The app's path: the process-wide model from st.cache_resource, results through st.cache_data."""
    shared = common._load(CHECKPOINT.name, "cpu")
    assert shared is common._load(CHECKPOINT.name, "cpu")  # one model per process
    todo = requests(60)
    alone = [shared.translate(text, beam=beam) for text, beam in todo]
    common._translate.clear()  # so every request really runs the model
    got = all_at_once(len(todo), lambda i: common._translate(CHECKPOINT.name, "cpu", *todo[i]))
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


def test_a_burst_queues_at_the_concurrency_limit():
    src, tgt = tokenizers()
    tr = Translator(tiny_model(), src, tgt, max_concurrent=2)
    inside, most = 0, 0
    lock = threading.Lock()
    encode = tr.model.encode

    def counting_encode(*args, **kwargs):
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        try:
            return encode(*args, **kwargs)
        finally:
            with lock:
                inside -= 1

    tr.model.encode = counting_encode  # this private translator only
    all_at_once(12, lambda i: tr.translate(SENTENCES[i]))
    assert 1 <= most <= 2


def test_default_concurrency_fits_the_machine():
    tr = Translator(tiny_model(), *tokenizers())
    assert 1 <= tr.max_concurrent <= max(1, usable_cores() // torch.get_num_threads())


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


def test_concurrency_and_threads_can_be_set_by_environment(monkeypatch):
    from model.threads import CONCURRENCY_ENV, default_concurrency, default_threads

    monkeypatch.setenv(CONCURRENCY_ENV, "3")
    assert default_concurrency() == 3
    assert Translator(tiny_model(), *tokenizers()).max_concurrent == 3
    monkeypatch.setenv(CONCURRENCY_ENV, "zero")
    with pytest.raises(ValueError, match=CONCURRENCY_ENV):
        default_concurrency()
    assert default_threads(2) == 1 and default_threads(16) == 2
