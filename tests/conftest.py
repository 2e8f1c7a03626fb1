"""Shared fixtures: the shipped checkpoint's Translator and a headless Streamlit server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKPOINT = ROOT / "checkpoints" / "en-zh"
SERVER_START_S = 180  # first start imports torch and loads the model on a busy CPU


@pytest.fixture(scope="session")
def translator():
    """The shipped model, loaded once for the session (tests check structure, never translation quality)."""
    from model import Translator

    return Translator.from_checkpoint(CHECKPOINT, device="cpu")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_health(url: str, proc: subprocess.Popen, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode} before it was healthy")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"streamlit did not answer {url}/_stcore/health within {timeout_s:.0f} s")


@pytest.fixture(scope="session")
def streamlit_server(tmp_path_factory):
    """Base URL of `streamlit run app.py` on a free local port; the server is always stopped afterwards."""
    port = free_port()
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
        "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
        # A test must not reload modules that change under it.
        "--server.fileWatcherType", "none",
    ]
    with open(log, "w") as out:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env={**os.environ})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_health(url, proc, SERVER_START_S)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log.exists():
            print(log.read_text()[-3000:])
