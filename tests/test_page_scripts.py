"""The page scripts are JavaScript files beside app_pages/shell/page_scripts.py, read at import: each one parses,
and each is sent by a constant of that module (no file lies there unused)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from app_pages.shell import page_scripts
from tests.support.paths import ROOT

SHELL = ROOT / "app_pages" / "shell"
NODE = shutil.which("node")


def test_every_script_file_is_read_and_sent():
    files = {path.stem for path in SHELL.glob("*.js")}
    assert files and set(page_scripts.SCRIPTS) == files
    constants = {value for name, value in vars(page_scripts).items() if name.isupper() and isinstance(value, str)}
    assert {name for name, script in page_scripts.SCRIPTS.items() if script in constants} == files
    assert all(script.startswith("<script>\n") and script.count("</script") == 1
               for script in page_scripts.SCRIPTS.values())  # nothing inside closes the element early


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("name", sorted(path.name for path in SHELL.glob("*.js")))
def test_every_script_parses(name):
    found = subprocess.run([NODE, "--check", str(SHELL / name)], capture_output=True, text=True, timeout=30)
    assert found.returncode == 0, found.stderr


def test_the_syntax_check_can_fail(tmp_path):
    if NODE is None:
        pytest.skip("node is not installed")
    broken = tmp_path / "broken.js"
    broken.write_text("(() => { if (true) return; \n")
    assert subprocess.run([NODE, "--check", str(broken)], capture_output=True, timeout=30).returncode != 0
