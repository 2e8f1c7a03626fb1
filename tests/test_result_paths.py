"""One path from a sentence to a result: every model result comes from a typed result function of translations.py
(translate, teacher_forced, attribute, …), each calling its Translator method by name in code over one private
cached call, in the server's one byte-bounded result cache under a key that names the model, the device, the
function and its inputs; no page runs a model method itself or hands one on (a bound method passed to a helper
computes outside the cache), and no page keeps a cache of its own (st.cache_data / st.cache_resource) beside it."""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass

import numpy as np
import pytest

from app_pages.state import models, result_cache, translations
from model import Translator
from tests.support.paths import ROOT

APP = ROOT / "app_pages"
RESULTS = APP / "state" / "translations.py"
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


def formatted_values(tree) -> set[int]:
    """ids of the values written into f-strings: a field (a calibration's `below.translations` count), never a
    method."""
    return {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.FormattedValue)}


def model_runs(path) -> list[str]:
    """"line: method" for each model-running Translator method that `path` calls or hands on as a bound method
    (`helper(translator.teacher_forced, …)`); translations.<function>, the typed result functions themselves, are
    the path, not a Translator's methods."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    formatted = formatted_values(tree)
    found = [(n.lineno, n.attr) for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in MODEL_RUNS
             and id(n) not in formatted and not (isinstance(n.value, ast.Name) and n.value.id == "translations")]
    return [f"{line}: {method}" for line, method in sorted(found)]


def handed_on(path) -> list[str]:
    """"line: what" for each model method in `path` used other than called at once (`model.translate(…)`): a
    bound method handed on, and getattr, which picks a method by a name in a string."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)} | formatted_values(tree)
    found = [f"{n.lineno}: .{n.attr}" for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and n.attr in MODEL_RUNS and id(n) not in called]
    found += [f"{n.lineno}: getattr" for n in ast.walk(tree)
              if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr"]
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def typed_result_functions() -> set[str]:
    """The functions of translations.py that compute through its private cached call."""
    tree = ast.parse(RESULTS.read_text(encoding="utf-8"))
    return {f.name for f in tree.body if isinstance(f, ast.FunctionDef) and any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_model_result"
        for n in ast.walk(f))}


def test_no_page_keeps_a_cache_of_its_own():
    wrong = {p.relative_to(ROOT).as_posix(): lines for p in app_modules()
             if p.name not in CACHE_OWNERS and (lines := streamlit_caches(p))}
    assert not wrong, f"st.cache_data/st.cache_resource outside {sorted(CACHE_OWNERS)}: use result_cache: {wrong}"


def test_only_translations_runs_the_model():
    assert MODEL_RUNS <= set(dir(Translator))  # a renamed method would make the check below check nothing
    wrong = {p.relative_to(ROOT).as_posix(): runs for p in app_modules()
             if p.name != "translations.py" and (runs := model_runs(p))}
    assert not wrong, f"Translator called outside translations' typed result functions: {wrong}"


def test_the_results_call_each_method_in_code():
    assert not handed_on(RESULTS), "a typed result function calls its Translator method by name, at once"


def test_the_checks_find_what_they_look_for(tmp_path):
    page = tmp_path / "page.py"
    page.write_text("import streamlit as st\nfrom streamlit import cache_data\n\n"
                    "@st.cache_resource(max_entries=4)\ndef f(c):\n    return models.translator(c).translations([])\n\n"
                    "g = st.cache_data(h)\nx = translations.translate('a', 'cpu', 's', 1)\n"
                    "y = scores(models.load(c, d).teacher_forced, gold)\nz = getattr(models.load(c, d), m)(s)\n"
                    "n = f'{row.below.translations:,}'\n")
    assert sorted(streamlit_caches(page)) == [2, 4, 8]
    assert model_runs(page) == ["6: translations", "10: teacher_forced"]
    assert handed_on(page) == ["10: .teacher_forced", "11: getattr"]


@dataclass(frozen=True)
class Computed:
    """What a fake model returns: which model, on which device, ran which method on what."""
    checkpoint: str
    device: str
    method: str
    args: tuple
    maps: np.ndarray


class FakeModel:
    """A stand-in for a loaded Translator that answers only what a Translator answers: each of its methods, called
    with arguments its signature takes, answers with who it is and what it was asked; a misspelt method is an
    AttributeError and a misspelt argument a TypeError, as on the real model."""

    def __init__(self, checkpoint: str, device: str, calls: list) -> None:
        self.checkpoint, self.device, self.calls = checkpoint, device, calls

    def __getattr__(self, method: str):
        real = getattr(Translator, method, None)
        if method.startswith("_") or not inspect.isfunction(real):
            raise AttributeError(f"a Translator has no method {method!r}")

        def run(*args, **kwargs):
            inspect.signature(real).bind(self, *args, **kwargs)  # TypeError where the Translator would raise one
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


# Each typed result function with inputs, called as f(checkpoint, device, *inputs) (teacher_forced takes its model
# and device last), and the Translator method it runs.
TYPED = {
    "translate": (("I have a dream.", 4), "translate"),
    "translate_all": ((("Hi.", "I am tired."), 1), "translations"),
    "teacher_forced": (("I am tired.", "我累了。"), "teacher_forced"),
    "attribute": (("Hi.", 1, None, "integrated_gradients"), "attribute"),
    "ffn_activations": (("Hi.", None), "ffn_activations"),
    "encode_pairs": (((("Hi.", "你好。"),),), "encode_pairs"),
}


def typed_call(name: str, checkpoint: str, device: str):
    inputs = TYPED[name][0]
    function = getattr(translations, name)
    return function(*inputs, checkpoint, device) if name == "teacher_forced" else function(checkpoint, device, *inputs)


def test_every_typed_result_function_is_checked_below():
    assert typed_result_functions() == set(TYPED)


@pytest.mark.parametrize("name", sorted(TYPED))
def test_two_models_or_two_devices_never_share_an_entry(fake_models, name):
    """Each typed function runs its own Translator method (a misspelt one fails here: the fake answers only a
    Translator's methods, with the arguments they take) on the model and device its key names."""
    places = [("en-zh", "cpu"), ("other", "cpu"), ("en-zh", "cuda"), ("other", "cuda")]
    got = [typed_call(name, checkpoint, device) for checkpoint, device in places]
    assert [(g.checkpoint, g.device, g.method) for g in got] == [(*p, TYPED[name][1]) for p in places]
    runs = len(fake_models)
    assert len(result_cache.shared()) == runs and runs == 4 * (2 if name == "attribute" else 1)  # + its translation
    again = [typed_call(name, checkpoint, device) for checkpoint, device in places]
    assert all(a is g for a, g in zip(again, got)) and len(fake_models) == runs  # each served from its own entry
    with pytest.raises(ValueError, match="read-only"):  # shared between sessions, so nobody may change it
        got[0].maps[0] = 1.0


def test_the_fake_refuses_what_a_translator_refuses():
    fake = FakeModel("en-zh", "cpu", [])
    with pytest.raises(AttributeError):
        fake.teacher_forcd("I am tired.", "我累了。")
    with pytest.raises(TypeError):
        fake.translate("I am tired.", beem=4)
    assert fake.translate("I am tired.", beam=4).method == "translate"


def test_a_method_or_an_argument_that_differs_is_another_entry(fake_models):
    first = translations.translate("en-zh", "cpu", "I have a dream.", 4)
    others = [translations.translate("en-zh", "cpu", "I have a dream.", 1),
              translations.translate("en-zh", "cpu", "I have a dream.", 4, knock_out=((0, 0, 0),)),
              translations.translate("en-zh", "cpu", "I have a dream.", 4, language="zh"),
              translations.translate("en-zh", "cpu", "I have a dream.", 4, forced_prefix=(5,)),
              translations.ffn_activations("en-zh", "cpu", "I have a dream.")]
    assert len({id(r) for r in [first, *others]}) == 6 and len(fake_models) == 6
    assert translations.translate("en-zh", "cpu", "I have a dream.", 4) is first
    assert first.args == ("I have a dream.", ("beam", 4), ("forced_prefix", ()), ("knock_out", ()),
                          ("language", None))


def test_one_teacher_forced_run_is_one_entry(fake_models):
    """The explanation page's gold pair and its live alignment ask the same function for the same pair."""
    first = translations.teacher_forced("I am tired.", "我累了。", "en-zh", "cpu")
    assert translations.teacher_forced("I am tired.", "我累了。", "en-zh", "cpu") is first and len(fake_models) == 1
    assert translations.teacher_forced("I am tired.", "我很累。", "en-zh", "cpu") is not first


def test_attributions_of_two_models_are_two_entries(fake_models):
    a = translations.attribute("en-zh", "cpu", "Hi.", 1, None, "integrated_gradients")
    b = translations.attribute("other", "cpu", "Hi.", 1, None, "integrated_gradients")
    assert (a.checkpoint, b.checkpoint) == ("en-zh", "other")
    assert a.args[0].checkpoint == "en-zh" and b.args[0].checkpoint == "other"  # each explains its own translation
