"""What the poll tests share: the sentence a poll is started on, its options as a student reads them, and a data
folder of its own for each test's polls (ATTENTION_DATA_DIR is read at every call)."""

from __future__ import annotations

import pytest

SENTENCE = "I have a dream."
WORDS = ["I", "have", "a", "dream", ".", "⟨end⟩"]  # the options of a poll on SENTENCE, as a student reads them


@pytest.fixture(autouse=True)
def data_dir(monkeypatch, tmp_path):
    """Each test's polls in a folder of its own."""
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(tmp_path))
    return tmp_path
