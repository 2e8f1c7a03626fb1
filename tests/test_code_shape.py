"""A house a newcomer can read: no function in the app's own code runs past MAX_FUNCTION_LINES lines (a longer
one is cut into named helpers)."""

from __future__ import annotations

import ast

from tests.support.paths import ROOT

PACKAGES = ("model", "cards", "viz", "lessons", "app_pages", "benchmarks")
MAX_FUNCTION_LINES = 80


def long_functions(path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """"name (N lines)" of each function or method in `path` longer than `limit` lines, decorators and docstring
    included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines = node.end_lineno - first + 1
            if lines > limit:
                found.append(f"{node.name} ({lines} lines)")
    return found


def test_no_function_is_longer_than_the_limit():
    files = sorted(f for package in PACKAGES for f in (ROOT / package).rglob("*.py"))
    assert files
    wrong = {f.relative_to(ROOT).as_posix(): long_functions(f) for f in files}
    assert not {name: found for name, found in wrong.items() if found}


def test_the_checker_counts_a_function_from_its_decorator_to_its_last_line(tmp_path):
    sample = tmp_path / "sample.py"
    body = "\n".join(f"    x{i} = {i}" for i in range(4))
    sample.write_text(f"@decorator\ndef four_lines():\n{body}\n\n\nclass C:\n    def short(self):\n        return 1\n")
    assert long_functions(sample, limit=5) == ["four_lines (6 lines)"]
    assert long_functions(sample, limit=6) == []
