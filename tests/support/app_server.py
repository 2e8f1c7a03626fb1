"""`streamlit run app.py` as the browser tests, the replica tests and the benchmarks start it: on a free local port,
waited for until it answers its health check, always stopped afterwards."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from tests.support.paths import ROOT

SERVER_START_S = 180  # first start imports torch and loads the model on a busy CPU


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


@contextmanager
def app_server(log: Path, env: dict | None = None, port: int | None = None, address: str = "127.0.0.1"):
    """`streamlit run app.py` on `port` of `address`, its output in `log`: yields its process (a test may kill it);
    whatever is still running is always stopped afterwards."""
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
        "--server.port", str(port), "--server.address", address, "--browser.gatherUsageStats", "false",
    ]  # the rest as the teacher's server has it: .streamlit/config.toml (which watches no files, so no test reloads)
    with open(log, "w") as out:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextmanager
def running_app(log: Path, env: dict | None = None, port: int | None = None, address: str = "127.0.0.1"):
    """app_server on `port` (default: a free one), once it answers: yields its base URL (on 127.0.0.1)."""
    port = port or free_port()
    with app_server(log, env, port, address) as proc:
        url = f"http://127.0.0.1:{port}"
        wait_for_health(url, proc, SERVER_START_S)
        yield url

