"""The one-way data flow, checked on the source: model/ is pure PyTorch, viz/ and lessons/ are pure
functions, and only app.py and app_pages/ touch Streamlit; tests and benchmarks share helpers through tests/support/."""

from __future__ import annotations

import ast
import re
from types import ModuleType

import pytest

from tests.support.paths import ROOT

FORBIDDEN = {
    "model": {"streamlit", "plotly", "viz", "app_pages", "i18n", "lessons", "cards", "evaluation"},
    "cards": {"streamlit", "plotly", "torch", "viz", "app_pages", "lessons", "evaluation"},
    "viz": {"streamlit", "torch", "model", "app_pages", "i18n"},
    "lessons": {"streamlit", "plotly", "torch", "model", "viz", "app_pages", "i18n"},
    "i18n": {"streamlit", "plotly", "viz", "app_pages"},
}
# Imports allowed across those lines, file → packages: none (the trainer writes only its log; `python -m cards`
# writes the model card from it).
ALLOWED: dict[str, set[str]] = {}


def imported_packages(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_what_its_layer_may(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no Python files"
    wrong = {f.relative_to(ROOT).as_posix(): imported_packages(f) & FORBIDDEN[package] for f in files}
    wrong = {f: sorted(names - ALLOWED.get(f, set())) for f, names in wrong.items()}
    assert not {f: names for f, names in wrong.items() if names}


def test_each_allowed_crossing_is_one_the_code_makes():
    """An exception to FORBIDDEN that no longer happens is taken out, not kept as a standing permission."""
    assert all(names <= imported_packages(ROOT / path) for path, names in ALLOWED.items())


def test_the_checker_sees_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import streamlit as st\nfrom plotly import graph_objects\nfrom .local import x\n")
    assert imported_packages(sample) == {"streamlit", "plotly"}


# model/'s packages, in the order they may depend on each other: each imports only itself and those before it.
MODEL_ORDER = ("architecture", "text", "loading", "translation", "causal", "training", "lab")


def model_packages_imported(path) -> set[str]:
    """The model/ packages a module under model/<package>/ imports, relative or absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = path.relative_to(ROOT / "model").parts[:-1]  # ("training",), or ("training", "backtranslation")
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # resolved from the module's own package, however deep it lies
                target = [*here[: len(here) - node.level + 1], *(node.module.split(".") if node.module else [])]
                found.add(target[0] if target else "model")  # `from .. import x` in model/<package>/: the facade
            elif node.level == 0 and node.module and node.module.split(".")[0] == "model":
                parts = node.module.split(".")
                found.add(parts[1] if len(parts) > 1 else "model")
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] if "." in a.name else "model" for a in node.names
                      if a.name.split(".")[0] == "model"}
    return found


@pytest.mark.parametrize("package", MODEL_ORDER)
def test_model_packages_depend_one_way(package):
    may = set(MODEL_ORDER[: MODEL_ORDER.index(package) + 1])
    files = sorted((ROOT / "model" / package).rglob("*.py"))
    assert files, f"model/{package}/ has no Python files"
    wrong = {f.relative_to(ROOT).as_posix(): sorted(model_packages_imported(f) - may) for f in files}
    assert not {f: names for f, names in wrong.items() if names}, f"model/{package} may import only {sorted(may)}"


def test_every_model_module_lives_in_a_package():
    loose = sorted(p.name for p in (ROOT / "model").glob("*.py"))
    assert loose == ["__init__.py", "translate.py"]  # the public API, and the CLI's address (python -m model.translate)
    assert sorted(p.name for p in (ROOT / "model").iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(
        MODEL_ORDER)


def test_the_package_checker_sees_every_import_form(tmp_path, monkeypatch):
    module = tmp_path / "model" / "text" / "sample.py"
    module.parent.mkdir(parents=True)
    module.write_text("from .tokenizer import x\nfrom ..loading.checkpoint import y\nimport model.training.train\n"
                      "from model import Translator\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)  # model_packages_imported reads model/ under ROOT
    assert model_packages_imported(module) == {"text", "loading", "training", "model"}


# Pages render from the TranslationResult and the checkpoint's data (Translator.config, .training_log,
# .parameter_counts) and import only model's public API: the names model/__init__.py lists in __all__, and from a
# package it lists whole (a namespace: model.lab, model.training), the names that package lists in its own __all__.
def public_modules() -> dict[str, ModuleType]:
    import model

    return {"model": model} | {f"model.{name}": getattr(model, name) for name in model.__all__
                               if isinstance(getattr(model, name), ModuleType)}


def page_reaches_into_the_model(path, public: dict[str, set[str]]) -> list[str]:
    """`public`: each module a page may import from → the names it may import from there."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("model", "src_tok", "tgt_tok"):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module in public:
            found += [f"line {node.lineno}: {a.name} is not in {node.module}.__all__" for a in node.names
                      if a.name not in public[node.module]]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("model."):
            found.append(f"line {node.lineno}: from {node.module}")
        elif isinstance(node, ast.Import) and any(a.name.split(".")[0] == "model" for a in node.names):
            found.append(f"line {node.lineno}: import model")
    return sorted(found, key=lambda line: int(line.split(":")[0].split()[1]))


def test_pages_import_only_the_public_api():
    public = {name: set(module.__all__) for name, module in public_modules().items()}
    files = sorted((ROOT / "app_pages").rglob("*.py")) + [ROOT / "app.py"]
    wrong = {f.relative_to(ROOT).as_posix(): page_reaches_into_the_model(f, public) for f in files}
    assert not {name: found for name, found in wrong.items() if found}


def test_the_public_api_names_what_it_exports():
    modules = public_modules()
    # the lab and the trainer's recipe are namespaces, not flat names in model.__all__
    assert set(modules) == {"model", "model.causal", "model.lab", "model.training"}
    assert all(hasattr(module, name) for module in modules.values() for name in module.__all__)


def names_imported_from_model(path) -> set[str]:
    """The names `path` imports from the model package itself, and the namespaces it imports from (model.lab)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "model":
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and re.fullmatch(r"model\.\w+", node.module or ""):
            found.add(node.module.split(".")[1])  # from model.lab import …: the namespace model exports
    return found


def test_the_public_api_exports_only_what_pages_and_scripts_import():
    """A name in model.__all__ that no page, script, lesson, benchmark or test imports from `model` is a name kept
    for nobody: the module that defines it is where its few users import it from."""
    import model

    users = [ROOT / "app.py", *[f for d in ("app_pages", "evaluation", "benchmarks", "lessons", "tests")
                                for f in sorted((ROOT / d).rglob("*.py"))]]
    used = set().union(*(names_imported_from_model(f) for f in users))
    assert sorted(set(model.__all__) - used) == []


def test_the_use_checker_sees_names_and_namespaces_not_deeper_modules(tmp_path):
    sample = tmp_path / "page.py"
    sample.write_text("from model import Translator, DEFAULT_BEAM\nfrom model.lab import train_steps\n"
                      "from model.training.schedule import ADAM_BETAS\nfrom .model import x\n")
    assert names_imported_from_model(sample) == {"Translator", "DEFAULT_BEAM", "lab"}


def test_the_page_checker_sees_model_reads(tmp_path):
    sample = tmp_path / "page.py"
    sample.write_text("from model.training.train import parse_args\nx = translator.model.src_embed.weight\n"
                      "from model import Translator, Transformer\nimport model.loading\n"
                      "from model.lab import train_steps, held_out_set\nfrom model.lab.run import train_steps\n")
    assert page_reaches_into_the_model(sample, {"model": {"Translator"}, "model.lab": {"train_steps"}}) == [
        "line 1: from model.training.train", "line 2: .model", "line 3: Transformer is not in model.__all__",
        "line 4: import model", "line 5: held_out_set is not in model.lab.__all__", "line 6: from model.lab.run"]


def test_the_word_start_mark_is_the_one_the_shipped_tokenizer_writes(translator):
    """viz/ and lessons/ may not import the model, so each names the tokenizer's word-start mark itself. Checked on
    the tokens the shipped model reads: viz joins them back into the typed sentence (a wrong mark would show raw in
    labels) and lessons put each token in its word (a wrong mark would be counted as a character and refused)."""
    from lessons.explanation import token_words
    from model import WORD_START
    from viz.labels import joined_text

    sentence = "I like green tea every day."
    tokens = translator.translate(sentence, beam=1).source_tokens  # ▁I ▁like … ▁day . </s>
    assert sum(token.startswith(WORD_START) for token in tokens) == len(sentence.split())  # the check has marks
    assert joined_text(tokens[:-1]) == sentence
    assert token_words(tokens, sentence.split()) == [0, 1, 2, 3, 4, 5, 5, -1]  # "." is day.'s; </s> is no word's


# Tests share helpers through tests/support/ only (the benchmarks use that harness too): a helper imported from a test
# module ties the importer to that module's imports and module-level code, and a fixture imported from one becomes the
# importer's own; tests/conftest.py holds only fixtures and hooks, which pytest gives every test without an import.
TEST_MODULE = re.compile(r"tests\.(conftest|test_\w+)(\..*)?")


def imports_of_test_modules(path) -> list[str]:
    """Each import in `path` (at any depth: inside a function too, relative or absolute, or by importlib) of
    tests/conftest.py or a tests/test_*.py module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = path.relative_to(ROOT).parent.parts
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            start = package[: len(package) - node.level + 1] if node.level else ()
            base = ".".join(start + ((node.module,) if node.module else ()))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            names = [str(node.args[0].value)]
        else:
            continue
        found += [(node.lineno, name) for name in names if TEST_MODULE.fullmatch(name)][:1]
    return [f"line {line}: {name}" for line, name in sorted(found)]


def test_no_test_or_benchmark_imports_a_test_module_or_the_conftest():
    files = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "benchmarks").rglob("*.py"))
    wrong = {f.relative_to(ROOT).as_posix(): imports_of_test_modules(f) for f in files}
    assert not {f: lines for f, lines in wrong.items() if lines}, "import it from tests/support/ instead"


def test_the_test_import_checker_sees_every_form(monkeypatch, tmp_path):
    sample = tmp_path / "tests" / "test_sample.py"
    sample.parent.mkdir()
    sample.write_text("from tests.test_app import app\nimport tests.conftest\nfrom tests import test_tour\n"
                      "def f():\n    from .test_deck import pin\n    from . import conftest\n"
                      "    importlib.import_module('tests.test_poll')\n"
                      "from tests.support.browser import settle\nfrom .support import paths\nimport tests.support\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert imports_of_test_modules(sample) == [
        "line 1: tests.test_app", "line 2: tests.conftest", "line 3: tests.test_tour", "line 5: tests.test_deck",
        "line 6: tests.conftest", "line 7: tests.test_poll"]


# app_pages/' own layers, lowest first: each imports only itself and those below it (state reads no drawing code,
# the shell no components, components no pages); app.py, above them all, may import any.
APP_LAYERS = ("state", "shell", "components", "pages")


def app_layers_imported(path, root=ROOT) -> set[str]:
    """The app_pages/ layers a module under app_pages/<layer>/ imports, in any form: `from app_pages.shell.text
    import t`, `from app_pages.shell import links`, `import app_pages.pages.translate`, `from ..shell import x`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = path.relative_to(root / "app_pages").parts[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            start = ("app_pages", *here[: len(here) - node.level + 1]) if node.level else ()
            parts = [*start, *(node.module.split(".") if node.module else [])]
            if parts[:1] == ["app_pages"]:
                found |= {parts[1]} if len(parts) > 1 else {a.name for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("app_pages.")}
    return found & set(APP_LAYERS)


@pytest.mark.parametrize("layer", APP_LAYERS)
def test_app_layers_depend_one_way(layer, tmp_path):
    below = set(APP_LAYERS[: APP_LAYERS.index(layer) + 1])
    files = sorted((ROOT / "app_pages" / layer).rglob("*.py"))
    assert files, f"app_pages/{layer}/ has no Python files"
    wrong = {f.relative_to(ROOT).as_posix(): sorted(app_layers_imported(f) - below) for f in files}
    assert not {f: names for f, names in wrong.items() if names}, f"app_pages/{layer} may import only {sorted(below)}"
    sample = tmp_path / "app_pages" / "state" / "sample.py"  # the checker sees every form of import
    sample.parent.mkdir(parents=True)
    sample.write_text("from app_pages.shell.text import t\nfrom app_pages import components\n"
                      "import app_pages.pages.translate\nfrom ..state import models\nfrom . import heap\n")
    assert app_layers_imported(sample, tmp_path) == {"shell", "components", "pages", "state"}
