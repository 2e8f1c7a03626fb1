"""The server's own settings (.streamlit/config.toml), as Streamlit itself reads them when `streamlit run` starts."""

from __future__ import annotations

import subprocess
import sys

from tests.support.paths import ROOT


def option(name: str) -> str:
    """The value Streamlit resolves for `name` in a fresh process started where `streamlit run app.py` is."""
    code = f"from streamlit import config; print(config.get_option({name!r}))"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_a_script_run_ends_without_a_full_garbage_collection():
    # Streamlit's ScriptRunner calls gc.collect(2) after every run unless runner.postScriptGC is off (AppTest's
    # runner never does, so only the setting can be checked). With the model and every cached result in the heap it
    # was most of a click's time on the server: ~250 of ~300 ms (benchmarks/HISTORY.md).
    # A misspelt option name, or the line gone, resolves to the default, True.
    assert option("runner.postScriptGC") == "False"


def test_the_server_watches_no_source_files():
    # With a file watcher every session, after every script run, walks all of sys.modules (torch and Plotly: thousands
    # of modules) for files to watch: 0.2 of the 0.25 CPU-seconds a translate page run cost the server (py-spy,
    # benchmarks/README.md). The default, "auto", watches; so does a misspelt option name or the line gone.
    assert option("server.fileWatcherType") == "none"
