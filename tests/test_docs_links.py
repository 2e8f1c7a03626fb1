"""The project's documents hold together: every relative link between them reaches a file (and, where it names one,
a heading of that file), every `python -m` command they give names a module of this repository that runs, and
README.md stays a front door (at most 300 lines, the two set-up commands, a link to each document that took over one
of its sections)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.support.paths import ROOT

README = ROOT / "README.md"
MAX_README_LINES = 300
# What moved out of README.md, each to a home of its own that the README must link to.
HOMES = ["docs/classroom.md", "docs/marian.md", "docs/findings.md", "model/training/README.md",
         "benchmarks/README.md"]
# The two set-up commands, exactly: .ci/run runs the second one.
RUN_APP = "python -m pip install -r requirements.txt && streamlit run app.py"
RUN_TESTS = "python -m pip install -r requirements-dev.txt && python -m pytest"
# Folders that hold no document of the project (environments, run outputs, caches).
NOT_DOCUMENTS = {"venv", "env", "node_modules", "runs", "build", "dist", "__pycache__"}
# The packages of this repository a `python -m` command may name.
PACKAGES = {"model", "evaluation", "benchmarks", "lessons", "viz", "app_pages", "i18n", "tests"}

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
MODULE_COMMAND = re.compile(r"python3? -m ([A-Za-z_][\w.]*)")


def documents() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*.md")):
        parts = path.relative_to(ROOT).parts[:-1]
        if not any(p.startswith(".") or p in NOT_DOCUMENTS or "site-packages" in p for p in parts):
            found.append(path)
    return found


def prose(text: str) -> str:
    """The text a reader sees as prose: fenced blocks and inline code hold no links (a `[x](y)` there is code)."""
    return INLINE_CODE.sub("code", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: link text kept, lower case, punctuation but - and _ dropped, spaces to -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found, seen = set(), {}
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")  # GitHub numbers a repeated heading's anchor
        seen[base] = count + 1
    return found | set(HTML_ANCHOR.findall(text))


def relative_links(path: Path) -> list[str]:
    return [t for t in LINK.findall(prose(path.read_text(encoding="utf-8"))) if not EXTERNAL.match(t)]


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / unquote(file_part)).resolve() if file_part else path
        if ROOT not in linked.parents and linked != ROOT:
            broken.append(f"{target}: outside the repository")
        elif not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: {linked.relative_to(ROOT)} has no heading #{anchor}")
    return broken


def test_the_documents_are_found():
    names = {str(p.relative_to(ROOT)) for p in documents()}
    assert {"README.md", *HOMES} <= names


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_its_file_and_heading(path):
    assert broken_links(path) == []


def test_a_broken_link_or_anchor_is_caught(tmp_path, monkeypatch):
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Where to add things\n\n## Serving: a `classroom`\n", encoding="utf-8")
    page = tmp_path / "README.md"
    page.write_text("[ok](docs/a.md#where-to-add-things) [ok](docs/a.md#serving-a-classroom) [gone](docs/b.md) "
                    "[typo](docs/a.md#where-to-add) [up](../x.md) [web](https://example.org/x) `[code](nothing.md)`\n"
                    "```\n[fenced](nothing.md)\n```\n", encoding="utf-8")
    assert broken_links(page) == ["docs/b.md: no such file", "docs/a.md#where-to-add: docs/a.md has no heading "
                                  "#where-to-add", "../x.md: outside the repository"]


def test_the_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    lines = text.count("\n") + (not text.endswith("\n"))
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines: move a section to its own document"
    blocks = re.findall(r"^```bash\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    commands = {line.strip() for block in blocks for line in block.splitlines()}
    assert {RUN_APP, RUN_TESTS} <= commands
    linked = {(README.parent / t.partition("#")[0]).resolve() for t in relative_links(README)}
    assert [home for home in HOMES if (ROOT / home).resolve() not in linked] == []


def test_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert RUN_TESTS in [line.replace(" -q ", " ") for line in ci.splitlines()]


def module_commands() -> list[tuple[str, str]]:
    found = []
    for path in documents():
        for name in MODULE_COMMAND.findall(path.read_text(encoding="utf-8")):
            if name.split(".")[0] in PACKAGES:
                found.append((str(path.relative_to(ROOT)), name))
    return sorted(set(found))


def test_every_python_m_command_names_a_module_that_runs():
    missing = []
    for doc, name in module_commands():
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations is not None:
            spec = importlib.util.find_spec(f"{name}.__main__")  # `python -m package` runs its __main__
        if spec is None:
            missing.append(f"{doc}: python -m {name}")
    assert missing == []
