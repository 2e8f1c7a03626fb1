"""State raises and draws nothing; the shell says what it raised (state/page_errors.py, shell/messages.py): a model
that cannot load and a refused sentence end the page with a message, a model's doubts are warnings; without the
shell's handlers the errors are raised on."""

from __future__ import annotations

import pytest

from app_pages.shell import messages
from app_pages.state import models, page_errors
from model import RESTORE_COMMAND, CheckpointError, InputError, Notice


@pytest.fixture
def drawn(monkeypatch):
    """What messages draws, as (element, text); st.stop() records itself and returns, as outside a run."""
    said: list[tuple[str, str]] = []
    for element in ("error", "warning"):
        monkeypatch.setattr(messages.st, element, lambda text, *a, e=element, **k: said.append((e, text)))
    monkeypatch.setattr(messages.st, "stop", lambda: said.append(("stop", "")))
    monkeypatch.setattr(page_errors, "HANDLERS", {})
    return said


def failing_load(checkpoint: str, device: str):
    raise CheckpointError(f"{checkpoint} is missing: run {RESTORE_COMMAND}")


def test_without_the_shell_state_raises(drawn, monkeypatch):
    monkeypatch.setattr(models, "load", failing_load)
    monkeypatch.setattr(models, "device", lambda: "cpu")
    with pytest.raises(CheckpointError, match="en-zh is missing"):
        models.translator("en-zh")
    page_errors.warn([Notice("weights_large", {})])  # no shell: nothing to say it
    assert drawn == []


def test_the_shell_ends_the_page_with_the_checkpoint_error(drawn, monkeypatch):
    monkeypatch.setattr(models, "load", failing_load)
    monkeypatch.setattr(models, "device", lambda: "cpu")
    messages.handle_page_errors()
    with pytest.raises(CheckpointError):  # st.stop() returned here: the error goes on, the page never continues
        models.translator("en-zh")
    (kind, text), stopped = drawn
    assert kind == "error" and f"`{RESTORE_COMMAND}`" in text and "en\\-zh is missing" in text
    assert stopped == ("stop", "")


def test_the_shell_says_a_refused_sentence_and_a_models_doubts(drawn):
    messages.handle_page_errors()
    with pytest.raises(InputError):
        page_errors.stop(InputError("empty"))
    page_errors.warn([Notice("weights_large", {"folder": "en-zh", "name": "w.1", "value": "1e9", "bound": "1e3"})])
    assert [kind for kind, _ in drawn] == ["warning", "stop", "warning"]
    assert "en\\-zh" in drawn[2][1] and "w\\.1" in drawn[2][1]  # the values escaped
    with pytest.raises(KeyError):  # anything else is no message of the page's: raised on, nothing drawn
        page_errors.stop(KeyError("x"))
    assert len(drawn) == 3
