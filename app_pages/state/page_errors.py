"""What a page cannot have, handed up to the shell: state raises and draws nothing. A CheckpointError says a model
cannot load, an InputError that the model refuses the sentence; the functions pages call for the session's model
and results (models.translator, translations.translation_of and the others built on it) pass the error to `stop`,
and a model's doubts about its weights to `warn`. The shell sets both (shell/messages.py: it draws the message in
the session's language and ends the page); where it has not (a script, a plain test), `stop` raises the error on
and `warn` says nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NoReturn

from model import Notice

# The shell's handlers, set by shell/messages.py's handle_page_errors: "stop" and "warn".
HANDLERS: dict[str, Callable] = {}


def stop(error: Exception) -> NoReturn:
    """Ends the page with the shell's message for `error`, or raises it where no shell handles it."""
    HANDLERS.get("stop", _raise)(error)
    raise error  # a handler that returned has not ended the page: the error goes on


def warn(doubts: Sequence[Notice]) -> None:
    """The shell shows a loaded model's doubts about its weights (none where no shell handles them)."""
    if doubts and "warn" in HANDLERS:
        HANDLERS["warn"](doubts)


def _raise(error: Exception) -> NoReturn:
    raise error
