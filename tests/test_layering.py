"""The one-way data flow, checked on the source: model/ is pure PyTorch, viz/ and lessons/ are pure
functions, and only app.py and app_pages/ touch Streamlit."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT

FORBIDDEN = {
    "model": {"streamlit", "plotly", "viz", "app_pages", "i18n", "lessons"},
    "viz": {"streamlit", "torch", "model", "app_pages", "i18n"},
    "lessons": {"streamlit", "plotly", "torch", "model", "viz", "app_pages", "i18n"},
    "i18n": {"streamlit", "plotly", "viz", "app_pages"},
}


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
    wrong = {f.relative_to(ROOT).as_posix(): sorted(imported_packages(f) & FORBIDDEN[package]) for f in files}
    assert not {f: names for f, names in wrong.items() if names}


def test_the_checker_sees_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import streamlit as st\nfrom plotly import graph_objects\nfrom .local import x\n")
    assert imported_packages(sample) == {"streamlit", "plotly"}


# Pages render from the TranslationResult and the checkpoint's data (Translator.config, .training_log,
# .parameter_counts): they never reach into the network, its decoding or its trainer.
PAGE_MAY_NOT_IMPORT = {"model.train", "model.transformer", "model.layers", "model.attention", "model.decoding",
                       "model.inference", "model.checkpoint"}


def page_reaches_into_the_model(path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("model", "src_tok", "tgt_tok"):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module in PAGE_MAY_NOT_IMPORT:
            found.append(f"line {node.lineno}: from {node.module}")
    return found


def test_pages_render_from_the_result_and_the_checkpoints_data():
    files = sorted((ROOT / "app_pages").glob("*.py")) + [ROOT / "app.py"]
    wrong = {f.name: page_reaches_into_the_model(f) for f in files}
    assert not {name: found for name, found in wrong.items() if found}


def test_the_page_checker_sees_model_reads(tmp_path):
    sample = tmp_path / "page.py"
    sample.write_text("from model.train import parse_args\nx = translator.model.src_embed.weight\n")
    assert page_reaches_into_the_model(sample) == ["line 1: from model.train", "line 2: .model"]
