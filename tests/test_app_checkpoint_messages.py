"""What the app says about a model folder it cannot trust: its repair hint as typed, and damaged weights (issue 53)."""

from __future__ import annotations

import pytest

from app_pages.state import server
from app_pages.shell.text import md_escape
from model import RESTORE_COMMAND
from tests.support.apptest import app
from tests.support.checkpoints import flipped_exponents, unchecked_copy


def test_the_repair_hint_is_shown_as_code_so_its_double_dash_stays_two_dashes(tmp_path, monkeypatch):
    """Streamlit draws a " -- " in text as an em dash ("git checkout — checkpoints/"); in code it stays as typed."""
    (tmp_path / "checkpoints" / "empty-folder").mkdir(parents=True)
    monkeypatch.setattr(server, "CHECKPOINTS", tmp_path / "checkpoints")
    (error,) = app().error
    assert "is missing" in error.value and f"`{RESTORE_COMMAND}`" in error.value


@pytest.mark.parametrize("lang, words", [("en", "probably damaged"), ("zh", "很可能已损坏")])
def test_damaged_weights_without_checksums_are_warned_about_on_the_page(tmp_path, monkeypatch, lang, words):
    unchecked_copy(tmp_path / "checkpoints", flipped_exponents, name="damaged-unchecked")
    monkeypatch.setattr(server, "CHECKPOINTS", tmp_path / "checkpoints")
    at = app("I love you.", lang=lang)
    (warning,) = [w.value for w in at.warning if md_escape("damaged-unchecked") in w.value]
    assert words in warning and "decoder\\_layers\\.1\\.ffn\\.linear2\\.weight" in warning  # names escaped
    assert not at.error and at.get("plotly_chart")  # it still translates
