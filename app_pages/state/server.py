"""Server-wide settings and the teacher's controls: which models exist, which device runs them, who may change that.

One server serves a class. Students choose among the models the server offers; only a teacher adds models
or picks the device, for every session at once. Set by environment variables when starting the app:

- ATTENTION_TEACHER_PASSCODE: teacher controls for whoever types it in the sidebar. Unset: only a browser on
  the server's own machine (localhost) gets them, so one person on a laptop has them with no setup.
- ATTENTION_MODELS_DIR: a folder of model folders (ours, or Marian saved with save_pretrained) offered besides
  checkpoints/. Models are listed from these folders, never typed as paths.
- ATTENTION_ALLOW_HUB=1: the teacher may add Hugging Face hub ids (downloaded once, with a time limit).
- ATTENTION_MAX_MODELS (default 4): models held in memory at once, least recently used evicted.
"""

from __future__ import annotations

import hmac
import os
import re
import secrets
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as LoadTimeout
from contextlib import suppress
from pathlib import Path

import streamlit as st
import torch

from app_pages.state.state_keys import PASSCODE_SESSION, TEACHER
from model import CallGate, configure_torch_threads

ROOT = Path(__file__).resolve().parents[2]  # the repository: app_pages/state/server.py
CHECKPOINTS = ROOT / "checkpoints"
EXTRA_MODELS = Path(os.environ["ATTENTION_MODELS_DIR"]) if os.environ.get("ATTENTION_MODELS_DIR") else None
PASSCODE = os.environ.get("ATTENTION_TEACHER_PASSCODE", "")
ALLOW_HUB = os.environ.get("ATTENTION_ALLOW_HUB") == "1"
MAX_MODELS = max(1, int(os.environ.get("ATTENTION_MAX_MODELS") or 4))
LOAD_SECONDS = 60  # a hub download that takes longer gives up (offline, the hub's retries take ~48 s)
RETRY_AFTER_S = 600  # a failed hub id is not tried again for this long, however often sessions rerun
# Passcode guesses: without a limit, a script could try hundreds through the sidebar. A session and an address
# each get FREE_GUESSES wrong passcodes; after that every wrong one locks them out twice as long as the last, from
# LOCK_S up to MAX_LOCK_S, and while locked out no passcode is compared. Both count: a new tab is a new session, and
# one address may be a whole class behind a router (then the class waits together; the teacher's own machine is
# another address). Kept in this process (guesses()): a restart forgets them.
FREE_GUESSES = 5
LOCK_S = 30
MAX_LOCK_S = 15 * 60
# owner/name as the Hugging Face hub spells them; bounded, so no typed text reaches the file system as a path
HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}")

# Once per process, on first import, before the model's first op: torch applies the count to the importing thread
# at once and to every thread that starts parallel work afterwards (model/translation/threads.py). Set later, from
# one session's script thread, a thread that already ran torch work would keep its own count.
configure_torch_threads()


class Shared:
    """What every session of this server process sees: the teacher's hub models, the device, failed loads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.hub_models: list[str] = []
        self.device = devices()[0]
        self.failed: dict[str, float] = {}  # hub id -> when it failed


@st.cache_resource(show_spinner=False)
def shared() -> Shared:
    return Shared()


@st.cache_resource(show_spinner=False)
def model_calls() -> CallGate:
    """The one limit on model work in this process: every model the app loads translates inside it (the lab's runs
    train in a process of their own, model/lab/worker.py), so a class's translations together never ask for more
    threads than the machine has cores (model/translation/threads.py); its size is cores ÷ the threads set above."""
    return CallGate()


class Guesses:
    """Wrong passcodes per key ("session …", "address …") and until when each key is locked out, for every session
    of the server; thread-safe. `clock` gives seconds (a test's own clock instead of time.monotonic)."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, int] = {}
        self._until: dict[str, float] = {}

    def wait(self, keys) -> float:
        """Seconds until all of `keys` may guess again: 0 when none is locked out."""
        now = self.clock()
        with self._lock:
            return max([0.0] + [self._until.get(key, now) - now for key in keys])

    def wrong(self, keys) -> float:
        """Count a wrong passcode for each of `keys`; returns the wait it earned (0 while guesses are free)."""
        now = self.clock()
        with self._lock:
            for key in keys:
                n = self._wrong[key] = self._wrong.get(key, 0) + 1
                if n > FREE_GUESSES:
                    self._until[key] = now + min(MAX_LOCK_S, LOCK_S * 2 ** min(n - FREE_GUESSES - 1, 32))
        return self.wait(keys)

    def right(self, keys) -> None:
        """The right passcode: `keys` start afresh."""
        with self._lock:
            for key in keys:
                self._wrong.pop(key, None)
                self._until.pop(key, None)


@st.cache_resource(show_spinner=False)
def guesses() -> Guesses:
    return Guesses()


def devices() -> list[str]:
    return ["cuda", "cpu"] if torch.cuda.is_available() else ["cpu"]


def model_folders() -> dict[str, Path]:
    """Offered model folders by name: checkpoints/ first, then ATTENTION_MODELS_DIR (a name there may not shadow one)."""
    found: dict[str, Path] = {}
    for folder in (CHECKPOINTS, EXTRA_MODELS):
        if folder is not None and folder.is_dir():
            for path in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
                found.setdefault(path.name, path)
    return found


def is_teacher() -> bool:
    """Whether this session may change server-wide settings (see the module's docstring)."""
    if PASSCODE:
        return bool(st.session_state.get(TEACHER))
    address = st.context.ip_address
    if address is None:
        # A browser on localhost, or a session no connection is left to ask (its websocket dropped during a run):
        # Streamlit says None for both. Only the first still has its connection's headers (Host, at least).
        return bool(st.context.headers)
    return not isinstance(address, str)  # not a string at all under AppTest's stand-in runtime (no browser)


def guessing_as() -> tuple[str, str]:
    """The keys this session's passcode guesses count under (Guesses): the session, and its network address."""
    session = st.session_state.setdefault(PASSCODE_SESSION, secrets.token_hex(8))
    address = st.context.ip_address
    return f"session {session}", f"address {address if isinstance(address, str) else 'this machine'}"


def unlock(entered: str) -> tuple[bool, float]:
    """A typed passcode: (whether it unlocked this session's teacher controls, seconds before this session may guess
    again). Compared in constant time; not compared at all while the session or its address is locked out."""
    keys = guessing_as()
    wait = guesses().wait(keys)
    if wait > 0:
        return False, wait
    if bool(PASSCODE) and hmac.compare_digest(entered.encode("utf-8"), PASSCODE.encode("utf-8")):
        st.session_state[TEACHER] = True
        guesses().right(keys)
        return True, 0.0
    return False, guesses().wrong(keys)


def hub_id_problem(name: str) -> str | None:
    """Why `name` cannot be added as a hub id (an i18n key under teacher.hub.*), or None when it can."""
    if not ALLOW_HUB:
        return "off"
    if not HUB_ID.fullmatch(name) or ".." in name or Path(name).exists():
        return "invalid"  # a local path must never be read as a hub id
    failed_at = shared().failed.get(name)
    if failed_at is not None and time.time() - failed_at < RETRY_AFTER_S:
        return "failed_recently"
    return None


def load_in_time(load, name: str):
    """load(name) within LOAD_SECONDS; a failure or a timeout is remembered (hub_id_problem) and re-raised."""
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(load, name).result(timeout=LOAD_SECONDS)
    except (LoadTimeout, Exception):
        with shared().lock:
            shared().failed[name] = time.time()
        raise
    finally:
        pool.shutdown(wait=False)  # a timed-out download finishes or fails in the background


def add_hub_model(name: str) -> None:
    with shared().lock:
        if name not in shared().hub_models:
            shared().hub_models.append(name)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that other devices on its network may reach (loopback left out): first the one
    its default route leaves from, then any others its host name resolves to. Nothing is sent anywhere: connecting a
    UDP socket only asks the kernel which interface a packet would leave from."""
    found: list[str] = []
    with suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737), the discard port: never a real peer
        found.append(probe.getsockname()[0])
    with suppress(OSError):
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return [a for a in dict.fromkeys(found) if not a.startswith(("127.", "0."))]
