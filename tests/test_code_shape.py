"""A house a newcomer can read: no function in the app's own code runs past MAX_FUNCTION_LINES lines (a longer
one is cut into named helpers), and none in viz/, lessons/ or app_pages/ takes more than MAX_PARAMETERS parameters
(what travels together goes in one object: viz.options' Labels, Frame, Room, ...)."""

from __future__ import annotations

import ast

from tests.support.paths import ROOT

PACKAGES = ("model", "cards", "viz", "lessons", "app_pages", "benchmarks")
MAX_FUNCTION_LINES = 80
PARAMETER_PACKAGES = ("viz", "lessons", "app_pages")
MAX_PARAMETERS = 8


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


def parameter_counts(path) -> dict[str, int]:
    """Each function or method in `path` by name, with how many parameters it takes: self and cls aside, *args and
    **kwargs one each (the largest where a name is defined twice)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    counts: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            named = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.arg not in ("self", "cls")]
            count = len(named) + (args.vararg is not None) + (args.kwarg is not None)
            counts[node.name] = max(count, counts.get(node.name, 0))
    return counts


def test_no_function_takes_more_parameters_than_the_limit():
    files = sorted(f for package in PARAMETER_PACKAGES for f in (ROOT / package).rglob("*.py"))
    assert files
    counts = {f"{f.relative_to(ROOT).as_posix()}::{name}": n for f in files for name, n in parameter_counts(f).items()}
    too_many = {name: n for name, n in counts.items() if n > MAX_PARAMETERS}
    assert not too_many, "group what travels together into an object (viz.options: Labels, Frame, Room, ...)"


def test_the_parameter_counter_leaves_out_self_and_counts_star_arguments_once(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f(a, b=1, *args, c, d=2, **kwargs):\n    pass\n\n\nclass C:\n    def m(self, x):\n"
                      "        return x\n\n    @classmethod\n    def k(cls):\n        return cls\n")
    assert parameter_counts(sample) == {"f": 6, "m": 1, "k": 0}


def page_statements(path) -> list[str]:
    """The statements of page script `path` that run when Streamlit runs it, other than its docstring, imports,
    definitions and constants (NAMES in capitals: widget keys, sizes): a page whose body is more than one call
    computes or draws at module level, where no test can call it and helpers come to read its globals."""
    source = path.read_text(encoding="utf-8")
    found = []
    for node in ast.parse(source, filename=str(path)).body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and all(name.isupper() for name in assigned(node)):
            continue
        found.append(ast.get_source_segment(source, node).splitlines()[0])
    return found


def assigned(node) -> list[str]:
    """The names an assignment binds (a tuple's too); "" for a target that is no plain name."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = [t for target in targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
    return [n.id if isinstance(n, ast.Name) else "" for n in names]


def test_every_page_script_is_one_call():
    pages = sorted(p for p in (ROOT / "app_pages" / "pages").glob("*.py")
                   if not p.stem.endswith("_view") and p.name != "__init__.py")
    assert len(pages) >= 20
    bodies = {p.name: page_statements(p) for p in pages}
    assert {name: body for name, body in bodies.items() if len(body) != 1} == {}


def test_the_page_checker_finds_module_level_work(tmp_path):
    sample = tmp_path / "page.py"
    sample.write_text('"""doc"""\nimport os\nKEY, SIZES = "k", (1, 2)\nROOT = os.getcwd()\n'
                      'config = os.getcwd()\nprint(config)\n')
    assert page_statements(sample) == ["config = os.getcwd()", "print(config)"]
