"""The models this server offers and the one a session uses: loaded once per process (st.cache_resource) and only
read afterwards, on the device the teacher chose."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

from app_pages.state import page_errors, server
from app_pages.state.state_keys import CHECKPOINT, DEVICE, DOUBTS_SHOWN
from model import CheckpointError, Translator


def command_line_models(argv: list[str] | None = None) -> list[str]:
    """Models the teacher named when starting the app: streamlit run app.py -- --model NAME [--model NAME2]."""
    argv = sys.argv[1:] if argv is None else argv
    return [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--model"]


def model_names() -> list[str]:
    """Every model the server offers, the only ones the sidebar, a link or a student may choose (never a path or
    hub id from a URL): its model folders (server.model_folders), the teacher's --model names, hub models a teacher
    added."""
    names = list(server.model_folders())
    return names + [m for m in [*command_line_models(), *server.shared().hub_models] if m not in names]


def model_label(name: str) -> str:
    """A model as a picker shows it: a folder by its name (a --model path by its last part), a hub id as itself."""
    return Path(name).name if name in command_line_models() and Path(name).is_dir() else name


def model_location(name: str) -> str | Path:
    """Where an offered model is: its folder, or the teacher's --model path or hub id, as given."""
    return server.model_folders().get(name, name)


def device() -> str:
    """The device the sidebar last set for this session (the server's, which only a teacher changes)."""
    return st.session_state.get(DEVICE, server.devices()[0])


@st.cache_resource(show_spinner="Loading the Transformer…", max_entries=server.MAX_MODELS)
def load(checkpoint: str, device: str) -> Translator:
    """The model `checkpoint` on `device`, shared by every session; it translates inside the server's one limit
    on model work (server.model_calls)."""
    return Translator.from_checkpoint(model_location(checkpoint), device=device, gate=server.model_calls())


def chosen(name: str | None = None) -> Translator:
    """The shared model `name` (default: the sidebar's) on the sidebar's device. Raises CheckpointError where there
    is none or it cannot load."""
    name = name or st.session_state.get(CHECKPOINT)
    if not name:
        raise CheckpointError(f"no checkpoint folder under {server.CHECKPOINTS}")
    return load(name, device())


def translator(name: str | None = None) -> Translator:
    """chosen(name) for a page: where it cannot load, the page ends with the shell's message (page_errors.stop);
    its doubts about its weights go to the shell once a run (pages ask for the model several times).

    Pages read its `config`, `training_log`, `parameter_counts` and `card_in` (the checkpoint's data), never its model.
    """
    try:
        loaded = chosen(name)
    except CheckpointError as error:
        page_errors.stop(error)
    if not st.session_state.get(DOUBTS_SHOWN):
        st.session_state[DOUBTS_SHOWN] = True
        page_errors.warn(loaded.doubts)  # weights no checksum vouches for, and they look damaged
    return loaded
