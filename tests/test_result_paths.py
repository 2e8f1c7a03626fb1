"""One path from a sentence to a result: every model result comes from translations.model_result, cached in the
server's one byte-bounded result cache under a key that names the model, the device, the method and its
arguments; no page keeps a cache of its own (st.cache_data / st.cache_resource) beside it."""

from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np
import pytest

from app_pages.state import models, result_cache, translations
from model import Translator
from tests.support.paths import ROOT

APP = ROOT / "app_pages"
# The only modules that may keep something for every session: the models themselves, the result cache, and the
# server's shared objects (settings, the limit on model work, passcode guesses, the lab queue), none a result.
CACHE_OWNERS = {"models.py", "result_cache.py", "server.py", "lab_queue.py"}
STREAMLIT_CACHES = {"cache_data", "cache_resource"}
# Translator methods that run the model (or its tokenizers) on an input: only translations.py calls them.
MODEL_RUNS = {"translate", "translations", "teacher_forced", "ffn_activations", "attribute", "encode_pairs"}


def app_modules():
    return sorted(APP.rglob("*.py"))


def streamlit_caches(path) -> list[int]:
    """Lines of `path` that name st.cache_data / st.cache_resource (as a decorator, a call or an import)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in STREAMLIT_CACHES]
    found += [n.lineno for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
              and any(a.name in STREAMLIT_CACHES for a in n.names)]
    return found


def model_runs(path) -> list[str]:
    """"line: method" for each call of a model-running Translator method in `path` (translations.translate, the
    module's own function, is the path itself, not a Translator call)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{n.lineno}: {n.func.attr}" for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MODEL_RUNS
            and not (isinstance(n.func.value, ast.Name) and n.func.value.id == "translations")]


def test_no_page_keeps_a_cache_of_its_own():
    wrong = {p.relative_to(ROOT).as_posix(): lines for p in app_modules()
             if p.name not in CACHE_OWNERS and (lines := streamlit_caches(p))}
    assert not wrong, f"st.cache_data/st.cache_resource outside {sorted(CACHE_OWNERS)}: use result_cache: {wrong}"


def test_only_translations_runs_the_model():
    assert MODEL_RUNS <= set(dir(Translator))  # a renamed method would make the check below check nothing
    wrong = {p.relative_to(ROOT).as_posix(): runs for p in app_modules()
             if p.name != "translations.py" and (runs := model_runs(p))}
    assert not wrong, f"Translator called outside translations.model_result: {wrong}"


def test_the_checks_find_what_they_look_for(tmp_path):
    page = tmp_path / "page.py"
    page.write_text("import streamlit as st\nfrom streamlit import cache_data\n\n"
                    "@st.cache_resource(max_entries=4)\ndef f(c):\n    return models.translator(c).translations([])\n\n"
                    "g = st.cache_data(h)\nx = translations.translate('a', 'cpu', 's', 1)\n")
    assert sorted(streamlit_caches(page)) == [2, 4, 8]
    assert model_runs(page) == ["6: translations"]


@dataclass(frozen=True)
class Computed:
    """What a fake model returns: which model, on which device, ran which method on what."""
    checkpoint: str
    device: str
    method: str
    args: tuple
    maps: np.ndarray


class FakeModel:
    """A stand-in for a loaded Translator: every method answers with who it is and what it was asked."""

    def __init__(self, checkpoint: str, device: str, calls: list) -> None:
        self.checkpoint, self.device, self.calls = checkpoint, device, calls

    def __getattr__(self, method: str):
        def run(*args, **kwargs):
            self.calls.append((self.checkpoint, self.device, method))
            return Computed(self.checkpoint, self.device, method, (*args, *sorted(kwargs.items())),
                            np.zeros(4, np.float32))
        return run


@pytest.fixture
def fake_models(monkeypatch):
    """models.load gives FakeModels; the result cache starts empty; returns the list of model runs."""
    calls: list = []
    cache = result_cache.ResultCache(1 << 20)
    monkeypatch.setattr(models, "load", lambda checkpoint, device: FakeModel(checkpoint, device, calls))
    monkeypatch.setattr(result_cache, "shared", lambda: cache)
    return calls


@pytest.mark.parametrize("method, args", [("translate", ("I have a dream.",)), ("ffn_activations", ("Hi.", None)),
                                          ("teacher_forced", ("I am tired.", "我累了。"))])
def test_two_models_or_two_devices_never_share_an_entry(fake_models, method, args):
    places = [("en-zh", "cpu"), ("other", "cpu"), ("en-zh", "cuda"), ("other", "cuda")]
    got = [translations.model_result(method, checkpoint, device, *args) for checkpoint, device in places]
    assert [(g.checkpoint, g.device, g.method, g.args) for g in got] == [(*p, method, args) for p in places]
    assert len(result_cache.shared()) == 4 and len(fake_models) == 4
    again = [translations.model_result(method, checkpoint, device, *args) for checkpoint, device in places]
    assert all(a is g for a, g in zip(again, got)) and len(fake_models) == 4  # each served from its own entry
    with pytest.raises(ValueError, match="read-only"):  # shared between sessions, so nobody may change it
        got[0].maps[0] = 1.0


def test_a_method_or_an_argument_that_differs_is_another_entry(fake_models):
    first = translations.translate("en-zh", "cpu", "I have a dream.", 4)
    others = [translations.translate("en-zh", "cpu", "I have a dream.", 1),
              translations.translate("en-zh", "cpu", "I have a dream.", 4, knock_out=((0, 0, 0),)),
              translations.translate("en-zh", "cpu", "I have a dream.", 4, language="zh"),
              translations.model_result("ffn_activations", "en-zh", "cpu", "I have a dream.")]
    assert len({id(r) for r in [first, *others]}) == 5 and len(fake_models) == 5
    assert translations.translate("en-zh", "cpu", "I have a dream.", 4) is first
    assert first.args == ("I have a dream.", ("beam", 4), ("forced_prefix", ()), ("knock_out", ()),
                          ("language", None))


def test_attributions_of_two_models_are_two_entries(fake_models):
    a = translations.attribution("en-zh", "cpu", "Hi.", 1, None, "integrated_gradients")
    b = translations.attribution("other", "cpu", "Hi.", 1, None, "integrated_gradients")
    assert (a.checkpoint, b.checkpoint) == ("en-zh", "other")
    assert a.args[0].checkpoint == "en-zh" and b.args[0].checkpoint == "other"  # each explains its own translation
