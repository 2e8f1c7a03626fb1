"""The models this server offers and the one a session uses: loaded once per process (st.cache_resource) and only
read afterwards, on the device the teacher chose."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

from app_pages.state import server
from app_pages.state.state_keys import CHECKPOINT, DEVICE, DOUBTS_SHOWN
from app_pages.state.language import md_escape, t
from model import RESTORE_COMMAND, CheckpointError, Translator


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


def translator(name: str | None = None) -> Translator:
    """The shared model `name` (default: the sidebar's) on the sidebar's device; stops the page with a message if it
    cannot load.

    Pages read its `config`, `training_log`, `parameter_counts` and `card_in` (the checkpoint's data), never its model.
    """
    name = name or st.session_state.get(CHECKPOINT)
    if not name:
        st.error(t("error.checkpoint", error=md_escape(f"no checkpoint folder under {server.CHECKPOINTS}")))
        st.stop()
    try:
        loaded = load(name, device())
    except CheckpointError as exc:
        # The message, never a traceback; its git command as code, which Streamlit draws as typed (in text, it
        # draws a lone " -- " as an em dash: "git checkout — checkpoints/").
        error = md_escape(exc).replace(md_escape(RESTORE_COMMAND), f"`{RESTORE_COMMAND}`")
        st.error(t("error.checkpoint", error=error))
        st.stop()
    if not st.session_state.get(DOUBTS_SHOWN):  # once a run: pages ask for the model several times
        st.session_state[DOUBTS_SHOWN] = True
        for doubt in loaded.doubts:  # weights no checksum vouches for, and they look damaged
            st.warning(t(f"model.{doubt.key}", **{k: md_escape(v) for k, v in doubt.values.items()}),
                       icon=":material/warning:")
    return loaded
